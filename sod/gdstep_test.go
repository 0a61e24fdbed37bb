package sod

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
)

// referenceGD is GradientDescent's loop as it was before the step was
// fused with the evaluation: stepInto, then gradFast, then kernel.FrobNorm in row
// order, every step. It returns the iterate after the stop, the number of
// steps and the (h, ‖∇h‖_F) of every iterate.
func referenceGD(p *Problem, x0 *mat.Dense, step float64, maxIter int, gradTol float64) (*mat.Dense, int, []float64, []float64) {
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	n, r := x0.Dims()
	x, next, g := mat.DenseCopyOf(x0), mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
	h := p.gradFast(ws, g, x)
	gn := kernel.FrobNorm(g)
	hs, gns := []float64{h}, []float64{gn}
	k := 0
	for ; k < maxIter && !(gradTol > 0 && gn <= gradTol); k++ {
		stepInto(next, x, g, -step)
		h = p.gradFast(ws, g, next)
		gn = kernel.FrobNorm(g)
		x, next = next, x
		hs, gns = append(hs, h), append(gns, gn)
	}
	return x, k, hs, gns
}

// TestGDFusedStepBitExact: GradientDescent, whose structured r = 1 step is
// fused with the next evaluation and whose convergence test reads the
// kernel's sum of squares, takes the same iterates, reports the same h
// and ‖∇h‖_F and stops at the same step as the unfused loop, to the last
// bit, on the structured path (odd and even n), the r = 2 streaming path
// and the dense path.
func TestGDFusedStepBitExact(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n, r       int
		structured bool
		gradTol    float64
		steps      int
	}{
		{"r=1 n=9 structured", 9, 1, true, 0, 400},
		{"r=1 n=1000 structured", 1000, 1, true, 0, 300},
		{"r=1 n=1001 structured, stops at GradTol", 1001, 1, true, 1e-6, 200000},
		{"r=2 n=300 structured", 300, 2, true, 0, 200},
		{"r=1 n=40 dense", 40, 1, false, 1e-8, 50000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := NewPMCOperator(tc.n, 0.1)
			if err != nil {
				t.Fatal(err)
			}
			z := mat.NewDense(tc.n, 1, nil)
			for i := 0; i < tc.n; i += 2 {
				z.Set(i, 0, 1)
			}
			p, err := NewProblem(op, z, tc.r)
			if err != nil {
				t.Fatal(err)
			}
			if (p.st != nil) != tc.structured {
				if tc.structured {
					t.Fatalf("n = %d, r = %d: not on the structured path", tc.n, tc.r)
				}
				p.st = nil
			}
			x0 := randDense(tc.n, tc.r, 3)
			step := 0.5 / float64(tc.n)
			wantX, wantK, wantH, wantGN := referenceGD(p, x0, step, tc.steps, tc.gradTol)
			opt := GDOptions{Iteration: Iteration{Step: step, MaxIter: tc.steps, TraceEvery: 1}, GradTol: tc.gradTol}
			res, err := GradientDescent(context.Background(), p, x0, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Iter != wantK {
				t.Fatalf("stopped after %d steps (%v), the unfused loop after %d", res.Iter, res.Stop, wantK)
			}
			if tc.gradTol > 0 && res.Stop != StopConverged {
				t.Fatalf("stop %v, want converged (raise the test's step budget)", res.Stop)
			}
			if !mat.Equal(res.X, wantX) {
				t.Fatalf("final iterate differs from the unfused loop's (max |Δ| = %g)", maxAbsDiff(res.X, wantX))
			}
			for k := range wantH {
				if res.Trace.H[k] != wantH[k] || res.Trace.GradNorm[k] != wantGN[k] {
					t.Fatalf("step %d: h, ‖∇h‖ = %v, %v; unfused %v, %v", k, res.Trace.H[k], res.Trace.GradNorm[k], wantH[k], wantGN[k])
				}
			}
			if res.H != wantH[wantK] || res.GradNorm != wantGN[wantK] {
				t.Fatalf("result h, ‖∇h‖ = %v, %v; unfused %v, %v", res.H, res.GradNorm, wantH[wantK], wantGN[wantK])
			}
		})
	}
}

func maxAbsDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

// TestEval11RowOrder: eval11 (both blocks in one loop) gives h and ∇h
// equal to the last bit to the two-loop form written out here (one loop
// per block, each sum in its block's row order), at odd and even n.
func TestEval11RowOrder(t *testing.T) {
	for _, n := range []int{8, 9, 1000, 1001} {
		op, _ := NewPMCOperator(n, 0.05)
		z := randDense(n, 1, 11)
		p, err := NewProblem(op, z, 1)
		if err != nil || p.st == nil || !p.st.parity {
			t.Fatalf("n = %d: no structured parity path (%v)", n, err)
		}
		st := p.st
		X := randDense(n, 1, 12)
		g := mat.NewDense(n, 1, nil)
		w := st.newWork()
		q, ok := st.eval11(w, g, X)
		if !ok {
			t.Fatalf("n = %d: eval11 refused", n)
		}
		// The two-loop form.
		var sxxO, sxzO, szzO, sxxU, sxzU, szzU, diag float64
		for t, zi := range st.zO {
			xi := X.At(2*t+1, 0)
			sxxO += xi * xi
			sxzO += xi * zi
			szzO += zi * zi
		}
		for t, zi := range st.zU {
			xi := X.At(2*t, 0)
			sxxU += xi * xi
			sxzU += xi * zi
			szzU += zi * zi
			d := xi*xi - zi*zi
			diag += d * d
		}
		bO, bU := sxzO/sxxO, sxzU/sxxU
		mxO, mzO := sxxO+sxxU, sxzO+sxzU
		mxU, mzU := sxxO+st.eps2*sxxU, sxzO+st.eps2*sxzU
		var resO, resU float64
		want := mat.NewDense(n, 1, nil)
		for t, zi := range st.zO {
			xi := X.At(2*t+1, 0)
			e := zi - bO*xi
			resO += e * e
			want.Set(2*t+1, 0, 2*(xi*mxO-zi*mzO))
		}
		for t, zi := range st.zU {
			xi := X.At(2*t, 0)
			e := zi - bU*xi
			resU += e * e
			want.Set(2*t, 0, 2*(xi*mxU-zi*mzU+st.c*(xi*xi-zi*zi)*xi))
		}
		if !mat.Equal(g, want) {
			t.Errorf("n = %d: ∇h differs from the two-loop form (max |Δ| = %g)", n, maxAbsDiff(g, want))
		}
		rO := []float64{math.Sqrt(sxxO), bO * math.Sqrt(sxxO), 0, math.Sqrt(resO)}
		rU := []float64{math.Sqrt(sxxU), bU * math.Sqrt(sxxU), 0, math.Sqrt(resU)}
		wq := maskedNorms{diag: diag, oo: st.normRJR(rO, rO), ou: st.normRJR(rO, rU), uu: st.normRJR(rU, rU)}
		if q != wq {
			t.Errorf("n = %d: norms %+v, two-loop form %+v", n, q, wq)
		}
		if ss := w.gradSS; math.Abs(ss-kernel.SumSquares(want)) > 1e-12*ss {
			t.Errorf("n = %d: gradSS = %v, Σ g² = %v", n, ss, kernel.SumSquares(want))
		}
	}
}

// TestGradNormWithin: the test GD applies to ‖∇h‖_F (≤ GradTol, and
// finite and ≤ the divergence limit) gives kernel.FrobNorm's answer whatever the
// kernel's sum of squares, including sums off by more than rounding near
// the threshold (which must fall back to kernel.FrobNorm), zero, tiny and huge
// gradients, and infinities.
func TestGradNormWithin(t *testing.T) {
	g := mat.NewDense(3, 1, []float64{3e-6, 4e-6, 0})
	exact := kernel.FrobNorm(g) // 5e-6
	big := mat.NewDense(2, 1, []float64{1e200, 1e200})
	inf := mat.NewDense(2, 1, []float64{math.Inf(1), 1})
	for _, tc := range []struct {
		name string
		g    *mat.Dense
		ss   float64
		t    float64
		want bool
	}{
		{"far below", g, exact * exact, 1e-3, true},
		{"far above", g, exact * exact, 1e-9, false},
		{"at the threshold, ss a little high", g, exact * exact * (1 + 1e-9), exact, true},
		{"at the threshold, ss a little low", g, exact * exact * (1 - 1e-9), math.Nextafter(exact, 0), false},
		{"no ss", g, -1, exact, true},
		{"zero gradient", mat.NewDense(2, 1, nil), 0, 0, true},
		{"tiny gradient", mat.NewDense(1, 1, []float64{1e-200}), 0, 1e-201, false},
		{"huge gradient, ss overflowed", big, math.Inf(1), math.Inf(1), true},
		{"huge gradient, finite limit", big, math.Inf(1), 1e300, true},
		{"huge gradient, below it", big, math.Inf(1), 1e199, false},
		{"infinite entry", inf, math.Inf(1), math.Inf(1), false},
	} {
		n := gradNorm{g: tc.g, ss: tc.ss}
		if got := n.within(tc.t); got != tc.want {
			t.Errorf("%s: within(%g) = %v, want %v (‖g‖ = %g)", tc.name, tc.t, got, tc.want, kernel.FrobNorm(tc.g))
		}
	}
}
