package experiments

import (
	"errors"
	"math"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// FuzzLogGrid: LogGrid refuses (ErrBadExperiment) exactly lo < 1,
// hi < lo and k outside [1, MaxGridPoints]; otherwise it returns at most k
// strictly increasing values from lo to hi ([lo] for k = 1).
func FuzzLogGrid(f *testing.F) {
	for _, s := range [][3]int64{{1, 10000000, 200}, {1, 0, 3}, {0, 10, 3}, {1, 10, 0}, {1, math.MaxInt64, 50},
		{math.MaxInt64 - 3, math.MaxInt64, 7}, {5, 5, 1}, {5, 5, 10}, {1, 2, 1000}, {-5, -1, 3}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, lo, hi, k64 int64) {
		k := int(k64)
		if k > MaxGridPoints && k64 < 1<<40 {
			k = MaxGridPoints + 1 // keep refusals cheap to reach
		}
		g, err := LogGrid(lo, hi, k)
		valid := lo >= 1 && hi >= lo && k >= 1 && k <= MaxGridPoints
		if (err == nil) != valid || (err != nil && !errors.Is(err, ErrBadExperiment)) {
			t.Fatalf("LogGrid(%d, %d, %d): %v", lo, hi, k, err)
		}
		if err != nil {
			return
		}
		if len(g) == 0 || len(g) > k || g[0] != lo || (k > 1 && g[len(g)-1] != hi) || (k == 1 && len(g) != 1) {
			t.Fatalf("LogGrid(%d, %d, %d) = %v", lo, hi, k, g)
		}
		for i := 1; i < len(g); i++ {
			if g[i] <= g[i-1] {
				t.Fatalf("LogGrid(%d, %d, %d) not increasing at %d: %v", lo, hi, k, i, g)
			}
		}
	})
}

// FuzzConfigs: the experiment configs refuse bad settings in Validate with
// an error wrapping a sod sentinel (never a panic), and a config Validate
// accepts has distinct sizes and ε, a worker count ≥ 0 and escaper
// settings its own Validate accepts (the configs check the escapers they
// hold before any work).
func FuzzConfigs(f *testing.F) {
	f.Add(40, 50, 0.15, 0.10, 2, 0, 11, int64(1000), 0.1, 0.1, 1, 0.001, 2.0)
	f.Add(40, 40, 0.1, 0.1, 1, -1, 4, int64(-1), math.NaN(), 1.5, 0, math.Inf(1), 0.5)
	f.Add(math.MaxInt, -3, math.Inf(-1), 0.0, math.MaxInt, math.MaxInt, math.MaxInt, int64(math.MaxInt64), 1e-300, 0.999, 1<<40, 1e300, math.NaN())
	f.Fuzz(func(t *testing.T, n1, n2 int, e1, e2 float64, trials, workers, l int, tt int64, rho, eta float64, width int, step, growth float64) {
		sentinel := func(what string, err error) {
			if !errors.Is(err, ErrBadExperiment) && !errors.Is(err, sod.ErrBadParameter) && !errors.Is(err, sod.ErrTooLarge) && !errors.Is(err, sod.ErrDelta) && !errors.Is(err, sod.ErrShape) {
				t.Errorf("%s: Validate: %v, want an error wrapping a sentinel of experiments or sod", what, err)
			}
		}
		esc := &sod.MultiStepSOD{L: l, T: tt, Rho: rho, Eta: eta}
		escErr := esc.Validate()

		sc := DefaultStudyConfig()
		sc.Sizes, sc.Epsilons, sc.Trials, sc.Workers, sc.Escaper = []int{n1, n2}, []float64{e1, e2}, trials, workers, esc
		if err := sc.Validate(); err != nil {
			sentinel("StudyConfig", err)
		} else if n1 == n2 || e1 == e2 || workers < 0 || escErr != nil {
			t.Errorf("StudyConfig accepted sizes %d, %d, ε %v, %v, workers %d, escaper error %v", n1, n2, e1, e2, workers, escErr)
		}

		ds := DefaultDeltaSweepConfig()
		ds.Sizes, ds.Epsilons, ds.Trials = []int{n1, n2}, []float64{e1, e2}, trials
		if err := ds.Validate(); err != nil {
			sentinel("DeltaSweepConfig", err)
		} else if n1 == n2 || e1 == e2 {
			t.Errorf("DeltaSweepConfig accepted sizes %d, %d, ε %v, %v", n1, n2, e1, e2)
		}

		q := DefaultQNNConfig()
		q.Width, q.L, q.Rho, q.Eta, q.Step, q.GrowthQ = width, l, rho, eta, step, growth
		if err := q.Validate(); err != nil {
			sentinel("QNNConfig", err)
		} else if width < 1 || width > sod.MaxDenseSize || sod.CheckTPGDParams(l, rho, eta) != nil {
			t.Errorf("QNNConfig accepted width %d, l %d, ρ %v, η %v", width, l, rho, eta)
		}

		cs := RealWorldCaseStudyConfig()
		cs.L, cs.T, cs.Rho, cs.Eta, cs.Step = l, tt, rho, eta, step
		if err := cs.Validate(); err != nil {
			sentinel("CaseStudyConfig", err)
		} else if escErr != nil {
			t.Errorf("CaseStudyConfig accepted escaper settings its MultiStepSOD refuses: %v", escErr)
		}

		vc := DefaultVariantComparisonConfig()
		vc.Extra = []sod.Escaper{esc, &sod.RandomLineSearch{Directions: width, Alphas: []float64{step}}}
		vc.Escape.MaxEscapes = workers
		if err := vc.Validate(); err != nil {
			sentinel("VariantComparisonConfig", err)
		} else if escErr != nil || workers < 0 {
			t.Errorf("VariantComparisonConfig accepted escaper error %v, MaxEscapes %d", escErr, workers)
		}
	})
}
