package sod

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// HessianMinEig (Lanczos on Hessian–vector products) agrees with the
// smallest eigenvalue of the dense Hessian, at a strict saddle (negative),
// a degenerate point (zero) and a strict minimum (positive), and counts one
// eigen-solve.
func TestHessianMinEig(t *testing.T) {
	saddle := DesignedSaddleInstance()
	for _, c := range []struct {
		name string
		p    *Problem
		x    mat.Matrix
	}{
		{"designed saddle", saddle.P, saddle.XHat},
		{"basic example", BasicExampleProblem(), BasicExampleXHat()},
		{"real world", RealWorldProblem(), RealWorldXHat()},
		{"real world, off a critical point", RealWorldProblem(), mat.NewDense(3, 1, []float64{0.3, -0.2, 0.9})},
	} {
		hs, err := c.p.Hessian(c.x)
		if err != nil {
			t.Fatal(err)
		}
		var eig mat.EigenSym
		if !eig.Factorize(hs, false) {
			t.Fatal("EigenSym")
		}
		want := eig.Values(nil)[0]
		var cnt EvalCounter
		got, err := HessianMinEig(context.Background(), c.p.WithCounter(&cnt), c.x)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: HessianMinEig = %v, dense %v", c.name, got, want)
		}
		if cnt.Counts().Eigen != 1 {
			t.Errorf("%s: %d eigen-solves counted, want 1", c.name, cnt.Counts().Eigen)
		}
	}
}
