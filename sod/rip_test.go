package sod

import (
	"errors"
	"math"
	"testing"
)

// TestRIPValues compares with the values of REPRODUCTION.md C4 (from an independent implementation) and with
// closed forms derived by hand for PMC n = 3, ε = 0.3:
// full symmetric range [ε², 1] = [0.09, 1]; rank 1 (M = uuᵀ, ‖u‖ = 1):
// ratio = 1 − (1−ε²)·2u₁²u₃², so the range is [1 − (1−ε²)/2, 1] = [0.545, 1].
func TestRIPValues(t *testing.T) {
	pmc, _ := NewPMCOperator(3, 0.3)
	for _, tc := range []struct {
		name   string
		op     Operator
		p      int
		lo, hi float64
		tol    float64
	}{
		{"real-world p=1", RealWorldOperator(), 1, 0.18894, 1.77207, 2e-5},
		{"real-world p=2", RealWorldOperator(), 2, 0.10173, 1.89834, 2e-5},
		{"real-world full", RealWorldOperator(), 3, 0.10172, 1.89835, 2e-5},
		{"basic p=1", BasicExampleOperator(), 1, 1.0, 1.5, 1e-6},
		{"basic full", BasicExampleOperator(), 2, 0.5, 1.5, 1e-12},
		{"pmc p=1", pmc, 1, 0.545, 1, 1e-6},
		{"pmc p=2", pmc, 2, 0.09, 1, 1e-6},
		{"pmc full", pmc, 3, 0.09, 1, 1e-12},
	} {
		n, _ := tc.op.Dims()
		var est *RIPEstimate
		var err error
		if tc.p == n {
			est, err = RIPExact(tc.op)
		} else {
			est, err = RIPOptimize(t.Context(), tc.op, tc.p, 10, 1)
		}
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(est.MinRatio-tc.lo) > tc.tol || math.Abs(est.MaxRatio-tc.hi) > tc.tol {
			t.Errorf("%s (%s): range [%.6f, %.6f], want [%v, %v]", tc.name, est.Method, est.MinRatio, est.MaxRatio, tc.lo, tc.hi)
		}
		if want := math.Max(1-tc.lo, tc.hi-1); math.Abs(est.Delta-want) > tc.tol {
			t.Errorf("%s: δ = %v, want %v", tc.name, est.Delta, want)
		}
		// Sampling is an inner estimate: inside the optimised range.
		s, err := RIPSample(t.Context(), tc.op, tc.p, 2000, 2)
		if err != nil {
			t.Fatal(err)
		}
		if s.MinRatio < est.MinRatio-1e-9 || s.MaxRatio > est.MaxRatio+1e-9 || s.MaxRatio-s.MinRatio < 0.5*(est.MaxRatio-est.MinRatio) {
			t.Errorf("%s: sampled range [%v, %v] not inside (or far from) [%v, %v]", tc.name, s.MinRatio, s.MaxRatio, est.MinRatio, est.MaxRatio)
		}
	}
}

func TestRIPErrors(t *testing.T) {
	big, _ := NewPMCOperator(61, 0.1)
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"nil op", second(RIPExact(nil)), ErrBadParameter},
		{"exact too large", second(RIPExact(big)), ErrBadParameter},
		{"sample p=0", second(RIPSample(t.Context(), RealWorldOperator(), 0, 10, 1)), ErrBadParameter},
		{"optimize no starts", second(RIPOptimize(t.Context(), RealWorldOperator(), 1, 0, 1)), ErrBadParameter},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}
