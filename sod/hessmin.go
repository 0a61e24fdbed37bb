package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// HessianMinEig returns the smallest eigenvalue of the Hessian ∇²h(X)
// (an nr×nr operator, REPRODUCTION.md C1) by thick-restart Lanczos
// (lanczos.go) on Hessian–vector products Problem.HessVec, never forming
// the nr×nr matrix: the second-order test of a critical point at sizes
// where Problem.Hessian (nr products and an nr×nr eigendecomposition) is
// out of reach. On a structured problem each product costs O(n(r + k)²).
// The result is accurate to about 1e-9·‖∇²h(X)‖₂ (‖∇²h‖₂ is estimated by
// 30 power iterations). It counts as one eigen-solve and its products as
// Hessian–vector products on a counted problem (WithCounter). ctx is
// checked before the work starts.
func HessianMinEig(ctx context.Context, p *Problem, X mat.Matrix) (float64, error) {
	if err := checkContext(ctx); err != nil {
		return 0, err
	}
	if err := p.Validate(); err != nil {
		return 0, err
	}
	if err := p.CheckX(X); err != nil {
		return 0, err
	}
	n, r := p.Dims()
	N := n * r
	x := mat.DenseCopyOf(X)
	d := mat.NewDense(n, r, nil)
	out := mat.NewDense(n, r, nil)
	apply := func(dst, v []float64) {
		copy(d.RawMatrix().Data, v)
		p.HessVec(out, x, d)
		copy(dst, out.RawMatrix().Data)
	}
	// ‖∇²h‖₂ by power iteration from a fixed start (the scale of the
	// residual test).
	v := make([]float64, N)
	w := make([]float64, N)
	for i := range v {
		v[i] = 1 + float64(i%7)/7
	}
	floats.Scale(1/floats.Norm(v, 2), v)
	norm := 0.0
	for range 30 {
		apply(w, v)
		norm = floats.Norm(w, 2)
		if norm == 0 || !isFinite(norm) {
			break
		}
		floats.ScaleTo(v, 1/norm, w)
	}
	if !isFinite(norm) {
		return 0, fmt.Errorf("%w: Hessian–vector product overflows at X", ErrNotFinite)
	}
	p.count.addEigen()
	scale := 2 * norm
	lambda, _, err := lanczosMin(N, apply, scale, 1e-9, 1e-13*scale)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(lambda) {
		return 0, fmt.Errorf("%w: Lanczos gave NaN", ErrFactorization)
	}
	return lambda, nil
}
