package sod

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kernelRanks are the (r, k) of the streaming kernel's tests: r = 2, 3, 5
// with truths of rank 1 and 2 (s = r + k from 3 to 7; s = 4 takes the
// fused sweeps).
var kernelRanks = [][2]int{{2, 1}, {3, 1}, {5, 1}, {2, 2}, {3, 2}, {5, 2}}

// TestStructuredRanksMatchDense compares h, ∇h, ‖XXᵀ − M*‖_F and HessVec
// of the structured path with the dense one at r = 2, 3, 5 and n large
// enough for several QR chunks per block (n = 300, 301: blocks of 150 and
// 151 rows against chunks of qrChunk), including a dst that aliases X or
// D in HessVec.
func TestStructuredRanksMatchDense(t *testing.T) {
	for _, n := range []int{300, 301} {
		for _, rk := range kernelRanks {
			for _, eps := range []float64{0.1, 1} {
				r, k := rk[0], rk[1]
				name := fmt.Sprintf("n=%d/r=%d/k=%d/eps=%v", n, r, k, eps)
				sp, dp := structuredPair(t, n, r, k, eps, uint64(n+10*r+k))
				X := randDense(n, r, uint64(3+r))
				var gs, gd mat.Dense
				sp.Grad(&gs, X)
				dp.Grad(&gd, X)
				if hs, hd := sp.H(X), dp.H(X); relErr(hs, hd) > 1e-12 {
					t.Errorf("%s: h = %v, dense %v", name, hs, hd)
				}
				if e := relDiff(&gs, &gd); e > 1e-12 {
					t.Errorf("%s: ∇h differs from dense by %.3g (relative)", name, e)
				}
				if ds, dd := sp.DistStar(X), dp.DistStar(X); relErr(ds, dd) > 1e-12 {
					t.Errorf("%s: DistStar = %v, dense %v", name, ds, dd)
				}
				D := randDense(n, r, 77)
				var hvS, hvD mat.Dense
				sp.HessVec(&hvS, X, D)
				dp.HessVec(&hvD, X, D)
				if e := relDiff(&hvS, &hvD); e > 1e-12 {
					t.Errorf("%s: HessVec differs from dense by %.3g", name, e)
				}
				// dst aliasing D, then X.
				Dc, Xc := mat.DenseCopyOf(D), mat.DenseCopyOf(X)
				sp.HessVec(Dc, X, Dc)
				sp.HessVec(Xc, Xc, D)
				if !mat.Equal(Dc, &hvS) || !mat.Equal(Xc, &hvS) {
					t.Errorf("%s: HessVec with dst aliasing D or X differs", name)
				}
			}
		}
	}
}

// TestStructuredRanksFiniteDifferences checks the structured ∇h against
// central differences of h and HessVec against central differences of ∇h
// (both independent of the kernel's algebra) at r = 2, 3, 5.
func TestStructuredRanksFiniteDifferences(t *testing.T) {
	const n, step = 300, 1e-5
	for _, rk := range kernelRanks {
		r, k := rk[0], rk[1]
		sp, _ := structuredPair(t, n, r, k, 0.2, uint64(5*r+k))
		X := randDense(n, r, 21)
		V := randDense(n, r, 22)
		var xp, xm mat.Dense
		xp.Add(X, scaled(step, V))
		xm.Sub(X, scaled(step, V))
		var g mat.Dense
		sp.Grad(&g, X)
		fd := (sp.H(&xp) - sp.H(&xm)) / (2 * step)
		if dir := mat.Dot(g.ColView(0), V.ColView(0)) + dotRest(&g, V); relErr(dir, fd) > 1e-7 {
			t.Errorf("r=%d k=%d: ⟨∇h, V⟩ = %.12g, central difference %.12g", r, k, dir, fd)
		}
		var gp, gm, hv mat.Dense
		sp.Grad(&gp, &xp)
		sp.Grad(&gm, &xm)
		gp.Sub(&gp, &gm)
		gp.Scale(1/(2*step), &gp)
		sp.HessVec(&hv, X, V)
		if e := relDiff(&hv, &gp); e > 1e-7 {
			t.Errorf("r=%d k=%d: HessVec differs from central differences of ∇h by %.3g", r, k, e)
		}
	}
}

// dotRest returns Σ_{c ≥ 1} ⟨A_c, B_c⟩ over the columns after the first.
func dotRest(A, B *mat.Dense) float64 {
	_, c := A.Dims()
	s := 0.0
	for j := 1; j < c; j++ {
		s += mat.Dot(A.ColView(j), B.ColView(j))
	}
	return s
}

// TestStructuredRanksNearMinimum checks h and ‖XXᵀ − M*‖_F of the
// streaming kernel (several chunks per block) near the minimum against
// the 256-bit reference, with the tolerance of TestStructuredNearMinimum:
// the chunked QR keeps the accuracy of one Householder QR.
func TestStructuredRanksNearMinimum(t *testing.T) {
	if testing.Short() {
		t.Skip("256-bit reference at n = 200")
	}
	const u, n = 0x1p-53, 200
	for _, tc := range []struct {
		r, k  int
		eps   float64
		delta float64
	}{{2, 1, 0.1, 1e-10}, {3, 1, 0.1, 1e-10}, {3, 1, 1, 1e-9}, {5, 1, 0.3, 1e-11}, {5, 2, 0.1, 1e-10}} {
		name := fmt.Sprintf("r=%d/k=%d/eps=%v/δ=%g", tc.r, tc.k, tc.eps, tc.delta)
		op, _ := NewPMCOperator(n, tc.eps)
		Z := randDense(n, tc.k, 3)
		Z.Scale(3, Z)
		sp, err := NewProblem(op, Z, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		sp.st = newMaskedForce(op, sp.Z, tc.r)
		// X = [Z 0] + δ·N(0, 1): rank-deficient up to δ when r > k.
		X := mat.NewDense(n, tc.r, nil)
		for i := 0; i < n; i++ {
			for c := 0; c < tc.k; c++ {
				X.Set(i, c, Z.At(i, c))
			}
		}
		dl := randDense(n, tc.r, 11)
		dl.Scale(tc.delta, dl)
		X.Add(X, dl)
		href, dref := bigH(op, X, Z)
		hs, ds := sp.H(X), sp.DistStar(X)
		a := mat.Norm(X, 2)*mat.Norm(X, 2) + mat.Norm(Z, 2)*mat.Norm(Z, 2)
		if tol := 8 * u * a * (math.Sqrt(2*href) + u*a); math.Abs(hs-href) > tol {
			t.Errorf("%s: h = %.6g, reference %.6g: error %.3g > %.3g", name, hs, href, math.Abs(hs-href), tol)
		}
		if tol := 8 * u * a; math.Abs(ds-dref) > tol {
			t.Errorf("%s: dist = %.6g, reference %.6g: error %.3g > %.3g", name, ds, dref, math.Abs(ds-dref), tol)
		}
	}
}

// TestStructuredNoAllocs: h, ∇h, ‖XXᵀ − M*‖_F and HessVec on the
// structured path allocate nothing per call (after the problem's pooled
// workspace exists) at r = 1, 2, 3, 5.
func TestStructuredNoAllocs(t *testing.T) {
	const n = 1000
	for _, r := range []int{1, 2, 3, 5} {
		op, _ := NewPMCOperator(n, 0.1)
		p, err := NewProblem(op, randDense(n, 1, 1), r)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Structured() {
			t.Fatalf("r=%d: not structured", r)
		}
		X, D := randDense(n, r, 2), randDense(n, r, 3)
		g, hv := mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
		ws := p.getWorkspace()
		for _, tc := range []struct {
			what string
			f    func()
		}{
			{"gradFast", func() { p.gradFast(ws, g, X) }},
			{"H", func() { p.H(X) }},
			{"Grad", func() { p.Grad(g, X) }},
			{"DistStar", func() { p.DistStar(X) }},
			{"HessVec", func() { p.HessVec(hv, X, D) }},
		} {
			tc.f() // fills the pool
			if a := testing.AllocsPerRun(20, tc.f); a != 0 {
				t.Errorf("r=%d: %s allocates %v times per call", r, tc.what, a)
			}
		}
	}
}
