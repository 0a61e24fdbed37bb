package experiments

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

func smallStudy() StudyConfig {
	cfg := DefaultStudyConfig()
	cfg.Sizes = []int{10, 16}
	cfg.Epsilons = []float64{0.15, 0.10}
	cfg.Trials = 10
	cfg.Seed = 7
	return cfg
}

// TestStudyParallelEqualsSerial: the result does not depend on the number of
// workers, and a second run with the same seed is bit-identical.
func TestStudyParallelEqualsSerial(t *testing.T) {
	var runs []*StudyResult
	for _, w := range []int{1, 4, 3} {
		cfg := smallStudy()
		cfg.Workers = w
		res, err := RunStudy(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, res)
	}
	for k := 1; k < len(runs); k++ {
		if !reflect.DeepEqual(runs[0].Cells, runs[k].Cells) {
			t.Errorf("run %d differs from the serial run", k)
		}
	}
	other := smallStudy()
	other.Seed = 8
	res, err := RunStudy(context.Background(), other, nil)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(res.Cells, runs[0].Cells) {
		t.Error("a different seed gives the same trials")
	}
}

// TestStudyOutcomes pins the qualitative outcome of the paper's Fig.
// numerical_study on small instances: GD fails at spurious local minima
// (checked independently: ∇h ≈ 0, λ_n(∇f) < 0, Hessian PSD, far from M*),
// and GD+SOD succeeds more often than GD.
func TestStudyOutcomes(t *testing.T) {
	cfg := smallStudy()
	res, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	totalGD, totalSOD := 0, 0
	for _, c := range res.Cells {
		p, err := PMCStudyProblem(c.N, c.Eps)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range c.Trials {
			if tr.GDSuccess != (tr.GDDist < 0.02) || tr.SODSuccess != (tr.SODDist < 0.02) {
				t.Errorf("n=%d ε=%v trial %d: success flags disagree with the distances", c.N, c.Eps, tr.Index)
			}
			if tr.GDSuccess && (len(tr.Escapes) != 0 || !tr.SODSuccess) {
				t.Errorf("trial %d: GD succeeded but SOD escaped", tr.Index)
			}
			if tr.GDSuccess {
				continue
			}
			x := mat.NewDense(c.N, 1, tr.GDX)
			cp, err := sod.AnalyzeCritical(p, x, sod.CriticalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if cp.GradNorm > 1e-6 || !(cp.LambdaN < 0) || cp.HessMin < -1e-8 || cp.Dist < 1 {
				t.Errorf("n=%d ε=%v trial %d: GD failure is not a spurious local minimum: ‖∇h‖=%.3g λ_n=%.3g Hess_min=%.3g dist=%.3g",
					c.N, c.Eps, tr.Index, cp.GradNorm, cp.LambdaN, cp.HessMin, cp.Dist)
			}
		}
		if c.SODSuccesses < c.GDSuccesses {
			t.Errorf("n=%d ε=%v: GD+SOD %d < GD %d successes", c.N, c.Eps, c.SODSuccesses, c.GDSuccesses)
		}
		totalGD += c.GDSuccesses
		totalSOD += c.SODSuccesses
	}
	if totalGD > len(res.Cells)*cfg.Trials/2 || totalSOD <= totalGD {
		t.Errorf("GD %d, GD+SOD %d successes of %d: expected GD to fail mostly and SOD to help", totalGD, totalSOD, len(res.Cells)*cfg.Trials)
	}
}

// TestStudyStructuredMatchesDense runs the paper's grid (n = 40…80,
// ε = 0.15, 0.10) on the structured path (the default) and on the dense
// one: every trial has the same outcome and the same GD iteration counts,
// and the final distances agree to 1e-9.
func TestStudyStructuredMatchesDense(t *testing.T) {
	cfg := DefaultStudyConfig()
	cfg.Trials = 10
	if testing.Short() {
		cfg.Sizes = []int{40, 80}
	}
	st, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DensePath = true
	de, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	escapes := 0
	for c := range st.Cells {
		escapes += st.Cells[c].Escapes
		for k, a := range st.Cells[c].Trials {
			b := de.Cells[c].Trials[k]
			if a.GDSuccess != b.GDSuccess || a.SODSuccess != b.SODSuccess || a.Outcome != b.Outcome || a.GDIter != b.GDIter || a.SODIter != b.SODIter || len(a.Escapes) != len(b.Escapes) {
				t.Errorf("n=%d ε=%v trial %d: structured %v/%v %q %d+%d steps, dense %v/%v %q %d+%d steps", st.Cells[c].N, st.Cells[c].Eps, k,
					a.GDSuccess, a.SODSuccess, a.Outcome, a.GDIter, a.SODIter, b.GDSuccess, b.SODSuccess, b.Outcome, b.GDIter, b.SODIter)
			}
			if math.Abs(a.GDDist-b.GDDist) > 1e-9 || math.Abs(a.SODDist-b.SODDist) > 1e-9 {
				t.Errorf("n=%d ε=%v trial %d: distances %v, %v vs dense %v, %v", st.Cells[c].N, st.Cells[c].Eps, k, a.GDDist, a.SODDist, b.GDDist, b.SODDist)
			}
		}
	}
	if escapes == 0 {
		t.Error("no escapes: the comparison does not cover the escape loop")
	}
}

func TestStudyProgress(t *testing.T) {
	cfg := smallStudy()
	cfg.Sizes = []int{10}
	var got []int
	prog := func(p batch.Progress) {
		if p.Total != 20 {
			t.Errorf("Total = %d, want 20", p.Total)
		}
		got = append(got, p.Done)
	}
	if _, err := RunStudy(context.Background(), cfg, prog); err != nil {
		t.Fatal(err)
	}
	if len(got) != 20 {
		t.Fatalf("%d progress reports, want 20", len(got))
	}
	for i, d := range got {
		if d != i+1 {
			t.Fatalf("progress %v is not 1..20", got)
		}
	}
}

func TestStudyErrors(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*StudyConfig)
		want error
	}{
		{"no sizes", func(c *StudyConfig) { c.Sizes = nil }, ErrBadExperiment},
		{"n=1", func(c *StudyConfig) { c.Sizes = []int{1} }, ErrBadExperiment},
		{"ε=0", func(c *StudyConfig) { c.Epsilons = []float64{0} }, ErrBadExperiment},
		{"no trials", func(c *StudyConfig) { c.Trials = 0 }, ErrBadExperiment},
		{"step 0", func(c *StudyConfig) { c.StepScale = 0 }, ErrBadExperiment},
		{"negative step", func(c *StudyConfig) { c.Step = -1 }, ErrBadExperiment},
		{"negative rank", func(c *StudyConfig) { c.Rank = -1 }, ErrBadExperiment},
		{"wrong truth size", func(c *StudyConfig) {
			c.Truth = func(n int) (*mat.Dense, error) { return mat.NewDense(n+1, 1, nil), nil }
		}, ErrBadExperiment},
		{"negative escapes", func(c *StudyConfig) { c.MaxEscapes = -1 }, ErrBadExperiment},
	}
	for _, tc := range tests {
		cfg := smallStudy()
		tc.mod(&cfg)
		if _, err := RunStudy(context.Background(), cfg, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunStudy(ctx, smallStudy(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled study: err = %v", err)
	}
	// Cancelled while running (from the progress callback).
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	cfg := smallStudy()
	reports := 0
	prog := func(batch.Progress) {
		if reports++; reports == 3 {
			cancel()
		}
	}
	if res, err := RunStudy(ctx, cfg, prog); !errors.Is(err, context.Canceled) || res != nil || reports > 3+cfg.Workers+4 {
		t.Errorf("study cancelled after 3 trials: err = %v, %d reports", err, reports)
	}
}

// TestStudyRankAndTruth runs the study with a search rank 2 and a rank-2
// ground truth of the caller's choice.
func TestStudyRankAndTruth(t *testing.T) {
	cfg := smallStudy()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{8}, []float64{0.1}, 4
	cfg.Rank = 2
	cfg.Truth = func(n int) (*mat.Dense, error) {
		z := mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			z.Set(i, i%2, 1)
		}
		return z, nil
	}
	res, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range res.Cells[0].Trials {
		if strings.HasPrefix(tr.Outcome, "escape error") {
			t.Errorf("trial %d: %s", tr.Index, tr.Outcome)
		}
		if len(tr.GDX) != 16 || tr.GDSuccess != (tr.GDDist < cfg.SuccessTol) || tr.SODSuccess != (tr.SODDist < cfg.SuccessTol) {
			t.Errorf("trial %d: %d entries in X, GD %v (%.3g), GD+SOD %v (%.3g)", tr.Index, len(tr.GDX), tr.GDSuccess, tr.GDDist, tr.SODSuccess, tr.SODDist)
		}
	}
}

// TestStudyFailingEscaper: a failing escape variant does not abort the
// study; each trial that reaches an escape reports the error, and GD+SOD
// ends where GD did. The GD side is compared with a study that runs no
// escapes at all (plain sod.GradientDescent).
func TestStudyFailingEscaper(t *testing.T) {
	boom := errors.New("boom")
	cfg := smallStudy()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{10}, []float64{0.1}, 4
	cfg.Escaper = sod.EscapeFunc("failing", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, boom })
	res, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain := cfg
	plain.MaxEscapes = 0
	ref, err := RunStudy(context.Background(), plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, rc := res.Cells[0], ref.Cells[0]
	failed := 0
	for k, tr := range c.Trials {
		if rt := rc.Trials[k]; tr.GDDist != rt.GDDist || !reflect.DeepEqual(tr.GDX, rt.GDX) || tr.GDIter != rt.GDIter {
			t.Errorf("trial %d: GD differs from plain GD", k)
		}
		if tr.GDSuccess {
			continue
		}
		failed++
		if !strings.HasPrefix(tr.Outcome, "escape error") || !strings.Contains(tr.Outcome, "boom") {
			t.Errorf("trial %d: outcome %q, want the escape error", k, tr.Outcome)
		}
		if tr.SODDist != tr.GDDist || tr.SODSuccess || len(tr.Escapes) != 1 || tr.Escapes[0].Error == "" {
			t.Errorf("trial %d: GD+SOD %v (dist %v vs GD %v), escapes %+v", k, tr.SODSuccess, tr.SODDist, tr.GDDist, tr.Escapes)
		}
	}
	if failed == 0 {
		t.Fatal("test set-up: no trial stalled, the escape was never asked")
	}
	if c.EscapeErrors != failed || c.Escapes != 0 || c.SODSuccesses != c.GDSuccesses {
		t.Errorf("cell: %d escape errors (want %d), %d escapes (want 0), GD+SOD %d vs GD %d successes",
			c.EscapeErrors, failed, c.Escapes, c.SODSuccesses, c.GDSuccesses)
	}
}
