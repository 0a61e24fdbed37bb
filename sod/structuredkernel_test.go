package sod

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sodworkbench.org/workbench/sod/internal/kernel"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kernelRanks are the (r, k) of the streaming kernel's tests: r = 2, 3, 5
// with truths of rank 1 and 2 (s = r + k from 3 to 7; k = 1 with r = 2,
// 3, 5 takes the unrolled gathers and gradient rows), and r = 4, k = 1
// (the k = 1 gradient rows for any r).
var kernelRanks = [][2]int{{2, 1}, {3, 1}, {5, 1}, {2, 2}, {3, 2}, {5, 2}, {4, 1}}

// TestStructuredRanksMatchDense compares h, ∇h, ‖XXᵀ − M*‖_F and HessVec
// of the structured path with the dense one at r = 2, 3, 5 and n large
// enough for several QR chunks per block (n = 300, 301: blocks of 150 and
// 151 rows against chunks of kernel.QRChunk), including a dst that aliases X or
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
// the chunked QR keeps the accuracy of one Householder QR, also when Z
// vanishes on the observed rows (the fold on the x columns alone).
func TestStructuredRanksNearMinimum(t *testing.T) {
	if testing.Short() {
		t.Skip("256-bit reference at n = 200")
	}
	const u, n = 0x1p-53, 200
	for _, tc := range []struct {
		r, k  int
		eps   float64
		delta float64
		zeroO bool // Z zero on the observed rows, as the study's z
	}{
		{2, 1, 0.1, 1e-10, false}, {3, 1, 0.1, 1e-10, false}, {3, 1, 1, 1e-9, false},
		{5, 1, 0.3, 1e-11, false}, {5, 2, 0.1, 1e-10, false},
		{2, 1, 0.1, 1e-10, true}, {3, 1, 0.1, 1e-10, true}, {5, 1, 0.3, 1e-11, true},
	} {
		name := fmt.Sprintf("r=%d/k=%d/eps=%v/δ=%g/zeroO=%v", tc.r, tc.k, tc.eps, tc.delta, tc.zeroO)
		op, _ := NewPMCOperator(n, tc.eps)
		Z := randDense(n, tc.k, 3)
		Z.Scale(3, Z)
		for i := 1; tc.zeroO && i < n; i += 2 {
			Z.SetRow(i, make([]float64, tc.k))
		}
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

// permutedPMC is the PMC with its rows permuted: row i is row perm[i] of
// the PMC, so the blocks' rows are lists, not the parity layout. Only its
// weights are used (newMaskedForce).
type permutedPMC struct {
	*PMCOperator
	perm []int
}

func (p permutedPMC) maskedWeights() (func(int) bool, float64) {
	unobs, eps2 := p.PMCOperator.maskedWeights()
	return func(i int) bool { return unobs(p.perm[i]) }, eps2
}

// permuteRows returns the matrix whose row i is row perm[i] of A.
func permuteRows(A *mat.Dense, perm []int) *mat.Dense {
	n, c := A.Dims()
	B := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		B.SetRow(i, A.RawRowView(perm[i]))
	}
	return B
}

// TestStructuredRanksRowLists checks the kernels on blocks given by row
// lists (not the parity layout) against the parity layout on the same
// rows permuted, at r = 2, 3, 5: h, ‖XXᵀ − M*‖_F, ∇h and HessVec agree
// (to rounding: the rows reach the QR in another order).
func TestStructuredRanksRowLists(t *testing.T) {
	for _, n := range []int{300, 301} {
		for _, rk := range kernelRanks {
			r, k := rk[0], rk[1]
			name := fmt.Sprintf("n=%d/r=%d/k=%d", n, r, k)
			op, _ := NewPMCOperator(n, 0.2)
			perm := rand.New(rand.NewPCG(uint64(n), uint64(r))).Perm(n)
			Z, X, D := randDense(n, k, 1), randDense(n, r, 2), randDense(n, r, 3)
			Zp, Xp, Dp := permuteRows(Z, perm), permuteRows(X, perm), permuteRows(D, perm)
			par := newMaskedForce(op, Z, r)
			lst := newMaskedForce(permutedPMC{op, perm}, Zp, r)
			if !par.parity || lst.parity {
				t.Fatalf("%s: layouts parity %v and %v", name, par.parity, lst.parity)
			}
			wp, wl := par.newWork(), lst.newWork()
			g, gl := mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
			qp, ql := par.eval(wp, g, X), lst.eval(wl, gl, Xp)
			if hp, hl := qp.h(par), ql.h(lst); relErr(hp, hl) > 1e-12 {
				t.Errorf("%s: h = %v with row lists, %v with parity", name, hl, hp)
			}
			if relErr(wp.dist, wl.dist) > 1e-12 {
				t.Errorf("%s: dist = %v with row lists, %v with parity", name, wl.dist, wp.dist)
			}
			if e := relDiff(gl, permuteRows(g, perm)); e > 1e-12 {
				t.Errorf("%s: ∇h with row lists differs by %.3g", name, e)
			}
			par.hessVec(wp, g, X, D)
			lst.hessVec(wl, gl, Xp, Dp)
			if e := relDiff(gl, permuteRows(g, perm)); e > 1e-12 {
				t.Errorf("%s: HessVec with row lists differs by %.3g", name, e)
			}
		}
	}
}

// TestStructuredRanksZeroTruthRows compares the structured path with the
// dense one when Z vanishes on observed rows, where the QR folds a chunk
// on its x columns alone while R's z column is zero: on all observed
// rows (the study's z = (1, 0, 1, 0, …)), on those of the first chunk
// only (the z column becomes nonzero later) and on those after it (R's z
// column is nonzero when the zero rows come).
func TestStructuredRanksZeroTruthRows(t *testing.T) {
	const n = 601 // blocks of 300 and 301 rows: three chunks each
	for _, r := range []int{2, 3, 5} {
		for _, tc := range []struct {
			what     string
			from, to int // zero z_i for the observed rows 2t + 1, from ≤ t < to
		}{{"all", 0, n}, {"first chunk", 0, kernel.QRChunk}, {"after the first chunk", kernel.QRChunk, n}} {
			name := fmt.Sprintf("r=%d/%s", r, tc.what)
			op, _ := NewPMCOperator(n, 0.1)
			Z := randDense(n, 1, uint64(r))
			for t := tc.from; 2*t+1 < n && t < tc.to; t++ {
				Z.Set(2*t+1, 0, 0)
			}
			sp, err := NewProblem(op, Z, r)
			if err != nil {
				t.Fatal(err)
			}
			sp.st = newMaskedForce(op, sp.Z, r)
			dp, _ := NewProblem(op, Z, r)
			dp.st = nil
			X := randDense(n, r, 5)
			var gs, gd mat.Dense
			sp.Grad(&gs, X)
			dp.Grad(&gd, X)
			if hs, hd := sp.H(X), dp.H(X); relErr(hs, hd) > 1e-12 {
				t.Errorf("%s: h = %v, dense %v", name, hs, hd)
			}
			if ds, dd := sp.DistStar(X), dp.DistStar(X); relErr(ds, dd) > 1e-12 {
				t.Errorf("%s: DistStar = %v, dense %v", name, ds, dd)
			}
			if e := relDiff(&gs, &gd); e > 1e-12 {
				t.Errorf("%s: ∇h differs from dense by %.3g", name, e)
			}
		}
	}
}

// TestStructuredRanksExtremeRows: with tiny or huge observed rows the
// streaming kernel leaves the work to evalHouse (scaled), at r = 3, 5;
// h, ∇h and ‖XXᵀ − M*‖_F still match the dense path (or h overflows in
// both).
func TestStructuredRanksExtremeRows(t *testing.T) {
	for _, tc := range []struct {
		r, k  int
		scale float64
	}{{3, 1, 1e-159}, {3, 1, 1e-300}, {5, 1, 1e-159}, {3, 2, 1e-159}, {3, 1, 1e130}, {5, 1, 1e130}} {
		const n = 300
		name := fmt.Sprintf("r=%d/k=%d/scale=%g", tc.r, tc.k, tc.scale)
		sp, dp := structuredPair(t, n, tc.r, tc.k, 0.1, 3)
		X := randDense(n, tc.r, 4)
		for i := 1; i < n; i += 2 {
			for c := 0; c < tc.r; c++ {
				X.Set(i, c, tc.scale*X.At(i, c))
			}
		}
		if _, ok := sp.st.evalStream(sp.st.newWork(), nil, X); ok {
			t.Errorf("%s: the streaming kernel did not leave the work to evalHouse", name)
		}
		hs, hd := sp.H(X), dp.H(X)
		if !(relErr(hs, hd) <= 1e-12 || (math.IsInf(hs, 1) && math.IsInf(hd, 1))) {
			t.Errorf("%s: h = %v, dense %v", name, hs, hd)
		}
		if math.IsInf(hd, 0) {
			continue
		}
		var gs, gd mat.Dense
		sp.Grad(&gs, X)
		dp.Grad(&gd, X)
		if e := relDiff(&gs, &gd); e > 1e-12 {
			t.Errorf("%s: ∇h differs by %.3g", name, e)
		}
		if ds, dd := sp.DistStar(X), dp.DistStar(X); relErr(ds, dd) > 1e-12 {
			t.Errorf("%s: dist = %v, dense %v", name, ds, dd)
		}
	}
}

// TestNormRJRBitExact holds normRJR and normRJRSym to ‖R_a J R_bᵀ‖_F²
// written plainly (one loop over l ≥ max(i, j) with the sign chosen per
// term), bit for bit, for upper triangular R with signed zeros, tiny and
// huge entries, at every s = r + k up to 9.
func TestNormRJRBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	special := []float64{0, math.Copysign(0, -1), 1e-160, -1e-160, 1e150, 1}
	plain := func(st *masked, ra, rb []float64) float64 {
		s, r := st.s, st.r
		sum := 0.0
		for i := 0; i < s; i++ {
			for j := 0; j < s; j++ {
				v := 0.0
				for l := max(i, j); l < s; l++ {
					if l < r {
						v += ra[i*s+l] * rb[j*s+l]
					} else {
						v -= ra[i*s+l] * rb[j*s+l]
					}
				}
				sum += v * v
			}
		}
		return sum
	}
	for s := 2; s <= 9; s++ {
		for r := 1; r < s; r++ {
			st := &masked{r: r, k: s - r, s: s}
			for trial := 0; trial < 50; trial++ {
				tri := func() []float64 {
					a := make([]float64, s*s)
					for i := 0; i < s; i++ {
						for l := i; l < s; l++ {
							if rng.IntN(4) == 0 {
								a[i*s+l] = special[rng.IntN(len(special))]
							} else {
								a[i*s+l] = rng.NormFloat64()
							}
						}
					}
					return a
				}
				ra, rb := tri(), tri()
				vv := make([]float64, s*s)
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"normRJR(Ra, Rb)", st.normRJR(ra, rb), plain(st, ra, rb)},
					{"normRJR(Ra, Ra)", st.normRJR(ra, ra), plain(st, ra, ra)},
					{"normRJRSym(Ra)", st.normRJRSym(ra, vv), plain(st, ra, ra)},
				} {
					if math.Float64bits(c.got) != math.Float64bits(c.want) {
						t.Fatalf("s=%d r=%d trial %d: %s = %v, plain sum %v", s, r, trial, c.name, c.got, c.want)
					}
				}
			}
		}
	}
}
