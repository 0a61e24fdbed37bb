package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestOverflowNeverNaN: at a finite X so large that h, ∇h, the Hessian's
// product and ‖XXᵀ − M*‖_F overflow (or only h), every rank r = 1…5 on the
// structured and the dense path gives +Inf (or infinite entries), never
// NaN: entries of mixed signs make the sums ∞ − ∞.
func TestOverflowNeverNaN(t *testing.T) {
	const n = 60
	op, err := NewPMCOperator(n, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 5; r++ {
		for _, k := range []int{1, r} {
			p, err := NewProblem(op, randDense(n, k, 3), r)
			if err != nil {
				t.Fatal(err)
			}
			if p.st == nil {
				p.st = newMaskedForce(op, randDense(n, k, 3), r)
			}
			dense, err := p.DensePath()
			if err != nil {
				t.Fatal(err)
			}
			for _, scale := range []float64{1e300, 1e160, 1e80} {
				X := mat.NewDense(n, r, nil)
				X.Scale(scale, randDense(n, r, 5))
				D := randDense(n, r, 6)
				for _, q := range []*Problem{p, dense} {
					name := fmt.Sprintf("r=%d k=%d structured=%v X~%g", r, k, q.Structured(), scale)
					g := mat.NewDense(n, r, nil)
					q.Grad(g, X)
					hv := mat.NewDense(n, r, nil)
					q.HessVec(hv, X, D)
					for _, v := range []struct {
						what string
						got  float64
					}{{"h", q.H(X)}, {"DistStar", q.DistStar(X)}, {"‖∇h‖", mat.Norm(g, 2)}, {"‖∇²h[D]‖", mat.Norm(hv, 2)}} {
						// At X ≈ 1e80 only h (≈ ‖X‖⁴) overflows, and the
						// sum of squares behind DistStar (≈ 1e324).
						wantInf := scale > 1e80 || v.what == "h" || v.what == "DistStar"
						if math.IsNaN(v.got) || math.IsInf(v.got, 1) != wantInf {
							t.Errorf("%s: %s = %v, want infinite: %v (and never NaN)", name, v.what, v.got, wantInf)
						}
					}
				}
			}
		}
	}
}

// TestGDCallbackContract: a GDOptions.Callback that changes X (its shape,
// its storage or an entry: Reset, resizing, growing, NaN, 1e300, a
// subnormal, a scaling) ends GradientDescent with an error wrapping
// ErrBadParameter that names the Callback and the iteration, on every
// path (the r = 1 lane and two-pass step, r = 2, the dense path), never
// a panic or a result holding NaN; a Callback that reads X changes
// nothing.
func TestGDCallbackContract(t *testing.T) {
	const n = 40
	op, err := NewPMCOperator(n, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	type problem struct {
		name  string
		p     *Problem
		every int
	}
	var problems []problem
	for _, r := range []int{1, 2} {
		p, err := NewProblem(op, z, r)
		if err != nil {
			t.Fatal(err)
		}
		if p.st == nil {
			p.st = newMaskedForce(op, z, r)
		}
		d, err := p.DensePath()
		if err != nil {
			t.Fatal(err)
		}
		problems = append(problems,
			problem{fmt.Sprintf("r=%d structured, every step", r), p, 1},
			problem{fmt.Sprintf("r=%d structured, lane", r), p, 50},
			problem{fmt.Sprintf("r=%d dense", r), d, 1})
	}
	const at = 100
	for _, pc := range problems {
		_, r := pc.p.Dims()
		for _, tc := range []struct {
			name   string
			change func(X *mat.Dense)
		}{
			{"Reset", func(X *mat.Dense) { X.Reset() }},
			{"resize", func(X *mat.Dense) { X.Reset(); X.ReuseAs(n+3, r) }},
			{"grow", func(X *mat.Dense) { *X = *mat.NewDense(n+3, r, nil) }},
			{"same shape, new storage", func(X *mat.Dense) { *X = *mat.DenseCopyOf(X) }},
			{"NaN", func(X *mat.Dense) { X.Set(3, 0, math.NaN()) }},
			{"1e300", func(X *mat.Dense) { X.Set(3, 0, 1e300) }},
			{"subnormal", func(X *mat.Dense) { X.Set(4, r-1, 1e-310) }},
			{"scale", func(X *mat.Dense) { X.Scale(1.001, X) }},
		} {
			name := pc.name + ", " + tc.name
			calls := 0
			opt := GDOptions{Iteration: Iteration{Step: 0.5 / n, MaxIter: 400, TraceEvery: pc.every}, Callback: func(k int, X *mat.Dense, _, _ float64) bool {
				calls++
				if k == at {
					tc.change(X)
				}
				return true
			}}
			var res *GDResult
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Errorf("%s: panic %v", name, v)
					}
				}()
				res, err = GradientDescent(context.Background(), pc.p, randDense(n, r, 9), opt)
			}()
			if res != nil || !errors.Is(err, ErrBadParameter) || !strings.Contains(err.Error(), "Callback") || !strings.Contains(err.Error(), fmt.Sprintf("iteration %d", at)) {
				t.Errorf("%s: result %v, error %v; want an ErrBadParameter naming the Callback and iteration %d", name, res, err, at)
			}
		}
		// A Callback that reads X: the run is that of no Callback.
		x0 := randDense(n, r, 9)
		opt := GDOptions{Iteration: Iteration{Step: 0.5 / n, MaxIter: 400, TraceEvery: pc.every}}
		want, err := GradientDescent(context.Background(), pc.p, x0, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Callback = func(_ int, X *mat.Dense, _, _ float64) bool { return mat.Sum(X) != 0 || true }
		got, err := GradientDescent(context.Background(), pc.p, x0, opt)
		if err != nil || !mat.Equal(got.X, want.X) || got.Iter != want.Iter {
			t.Errorf("%s, reading: %v; the run differs from the run without a Callback", pc.name, err)
		}
	}
}
