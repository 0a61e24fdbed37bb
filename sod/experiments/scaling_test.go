package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// TestSignPatternBound starts GD on a balanced sign pattern (alternating
// signs on the odd coordinates, slightly perturbed): below
// SignPatternBound(ε) it converges to a spurious local minimum (positive
// definite Hessian, far from M*); above it the point GD reaches is M* or
// not a minimum (a negative Hessian eigenvalue).
func TestSignPatternBound(t *testing.T) {
	const eps = 0.10
	if b, err := SignPatternBound(eps); err != nil || math.Abs(b-198) > 1e-9 {
		t.Fatalf("SignPatternBound(0.1) = %v, %v, want 198", b, err)
	}
	bound, _ := SignPatternBound(eps)
	if _, err := SignPatternBound(math.NaN()); err == nil {
		t.Error("SignPatternBound(NaN): no error")
	}
	for _, tc := range []struct {
		n        int
		spurious bool
	}{{120, true}, {180, true}, {220, false}, {300, false}} {
		p, err := PMCStudyProblem(tc.n, eps)
		if err != nil {
			t.Fatal(err)
		}
		x0 := mat.NewDense(tc.n, 1, nil)
		for i, k := 0, 0; i < tc.n; i, k = i+2, k+1 {
			s := 1.0
			if k%2 == 0 {
				s = -1
			}
			x0.Set(i, 0, s*(1+1e-3*math.Sin(float64(i))))
		}
		res, err := sod.GradientDescent(t.Context(), p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.5 / float64(tc.n), MaxIter: 50000}, GradTol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		cp, err := sod.AnalyzeCritical(p, res.X, sod.CriticalOptions{SkipXi: true})
		if err != nil {
			t.Fatal(err)
		}
		minimum := res.Stop == sod.StopConverged && cp.HessMin > 0
		if tc.spurious && !(minimum && cp.Dist > 1) {
			t.Errorf("n = %d < %v: GD from the pattern ends at distance %.3g (converged %v, smallest Hessian eigenvalue %.3g), want a spurious minimum",
				tc.n, bound, cp.Dist, res.Stop == sod.StopConverged, cp.HessMin)
		}
		if !tc.spurious && cp.Dist > 0.02 && minimum {
			t.Errorf("n = %d ≥ %v: GD from the pattern ends at a minimum at distance %.3g", tc.n, bound, cp.Dist)
		}
	}
}

func TestScalingStudyConfig(t *testing.T) {
	cfg, err := ScalingStudyConfig(1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cfg.Sizes) != "[40 80 160 320 640]" || len(cfg.Epsilons) != 3 || cfg.Trials != 3 {
		t.Errorf("config %v %v %d", cfg.Sizes, cfg.Epsilons, cfg.Trials)
	}
	for _, n := range []int{39, MaxStudyN + 1} {
		if _, err := ScalingStudyConfig(n, 3); !errors.Is(err, ErrBadExperiment) {
			t.Errorf("maxN = %d: error %v", n, err)
		}
	}
	if _, err := ScalingStudyConfig(100, 0); !errors.Is(err, ErrBadExperiment) {
		t.Errorf("0 trials: error %v", err)
	}
}

// TestGDTransitions runs a small scaling study: GD's success rate reaches
// one half at a size below SignPatternBound(ε) for every ε, GD + SOD never
// does worse than GD, and the transition moves to larger n as ε shrinks.
func TestGDTransitions(t *testing.T) {
	cfg, err := ScalingStudyConfig(640, 6)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.GDTransitions()
	if len(tr) != 3 {
		t.Fatalf("%d transitions, want 3", len(tr))
	}
	for i, x := range tr {
		if x.N == 0 || float64(x.N) > x.Bound*1.01 || x.Coupling != x.Eps*x.Eps*float64(x.N) {
			t.Errorf("ε = %v: transition at n = %d (ε²n = %v), bound %v", x.Eps, x.N, x.Coupling, x.Bound)
		}
		if i > 0 && x.N < tr[i-1].N {
			t.Errorf("transition at n = %d for ε = %v before n = %d for ε = %v", x.N, x.Eps, tr[i-1].N, tr[i-1].Eps)
		}
	}
	for _, c := range res.Cells {
		if c.SODSuccesses < c.GDSuccesses {
			t.Errorf("n = %d ε = %v: GD + SOD %d < GD %d", c.N, c.Eps, c.SODSuccesses, c.GDSuccesses)
		}
	}
}
