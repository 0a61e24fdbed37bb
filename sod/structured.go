package sod

import (
	"math"
	"sodworkbench.org/workbench/sod/internal/kernel"

	"gonum.org/v1/gonum/mat"
)

// This file holds the structured path of a Problem: h, ∇h and
// ‖XXᵀ − M*‖_F for operators whose squared weights are "all ones, minus a
// rank-one term, plus a diagonal" (the PMC operator of the paper's Appendix
// case 1) and a known low-rank ground truth M* = ZZᵀ (Z n×k).
//
// Write O for the rows whose entries are all observed and U for the others
// (for PMC, the 1-based odd indices), c = 1 − ε² and D = XXᵀ − ZZᵀ. Then
// W∘W = 11ᵀ − c(eeᵀ − diag(e)), with e the indicator of U, and
//
//	h(X) = ½ Σ_ij W_ij² D_ij²
//	     = ½ (‖D_OO‖² + 2‖D_OU‖² + ε²‖D_UU‖² + c Σ_{i∈U} D_ii²),
//	∇h(X) = 2(W∘W∘D)X:  row i ∈ O: 2 d_i (F_OᵀX_O + F_UᵀX_U),
//	                    row i ∈ U: 2 d_i (F_OᵀX_O + ε² F_UᵀX_U) + 2c D_ii x_i,
//
// with F = [X Z] (rows f_i) and d_i = f_i J, J = diag(I_r, −I_k), so that
// D = F J Fᵀ. Every term is an n×s by s×r product (s = r + k): O(n·s·r) time.
//
// The norms are not taken from Gram matrices (‖XᵀX‖² − 2‖XᵀZ‖² + ‖ZᵀZ‖²
// loses every digit of a small h: its rounding error is u‖X‖⁴, u = 2⁻⁵³).
// Instead a Householder QR of each block, F_O = Q_O R_O and F_U = Q_U R_U,
// gives D_ab = Q_a (R_a J R_bᵀ) Q_bᵀ, so ‖D_ab‖_F = ‖R_a J R_bᵀ‖_F is an s×s
// computation whose error, u·‖F‖², is that of forming D entry by entry:
// h and ‖XXᵀ − M*‖_F keep their accuracy near the minimum (h ≈ 1e-16),
// O(n·s²) time, and no n×n array. Every term of h is a sum of squares
// (no cancellation) when ε ≤ 1.

// maskedWeighter is implemented by operators with the structured weights
// above: W_ij² = 1 except eps2 on the entries i ≠ j with unobserved(i) and
// unobserved(j).
type maskedWeighter interface {
	Operator
	maskedWeights() (unobserved func(i int) bool, eps2 float64)
}

// masked is the immutable data of the structured path of one Problem.
type masked struct {
	n, r, k, s int
	eps2, c    float64 // ε², 1 − ε²
	obs, unobs []int   // the rows of O and of U
	isU        []bool  // isU[i]: row i is in U
	parity     bool    // O = the odd rows, U = the even rows (0-based): PMC
	zO, zU     []float64
	zz         float64 // ‖Z‖_F² = Tr(M*)
	// zzO, zzU: z_Oᵀz_O and z_Uᵀz_U when k = 1, each summed in its
	// block's row order (eval11's Gram entries that do not depend on X).
	zzO, zzU float64
	// zPair: z of row pair t (U row 2t, O row 2t + 1) at 2t, 2t + 1, for
	// t < |O|, when k = 1 and the layout is the parity one (pass11).
	zPair []float64
	// zAlt: zPair is (1, +0, 1, +0, …), the study's truth
	// (AlternatingTruth): the pass need not read it (kernel.Step11Alt).
	zAlt bool
}

// newMasked returns the structured data for op, ground truth Z (n×k) and
// search rank r, or nil when op has no masked weights or the structure
// does not pay: it is used when 2(r + k)² ≤ n·r, i.e. when an
// O(n(r + k)²) step is cheaper than a dense O(n² r) one. So the paper's
// n = 3 case study keeps the dense path, and every PMC study instance
// (n ≥ 8, r = k = 1) takes the structured one.
func newMasked(op Operator, Z *mat.Dense, r int) *masked {
	mw, ok := op.(maskedWeighter)
	if !ok {
		return nil
	}
	n, k := Z.Dims()
	s := r + k
	if 2*s*s > n*r {
		return nil
	}
	return newMaskedForce(mw, Z, r)
}

// newMaskedForce builds the structured data without the cost rule (tests
// use it at small n).
func newMaskedForce(mw maskedWeighter, Z *mat.Dense, r int) *masked {
	n, k := Z.Dims()
	unobs, eps2 := mw.maskedWeights()
	st := &masked{n: n, r: r, k: k, s: r + k, eps2: eps2, c: 1 - eps2, isU: make([]bool, n)}
	for i := 0; i < n; i++ {
		row := Z.RawRowView(i)
		if unobs(i) {
			st.isU[i] = true
			st.unobs = append(st.unobs, i)
			st.zU = append(st.zU, row...)
		} else {
			st.obs = append(st.obs, i)
			st.zO = append(st.zO, row...)
		}
		for _, v := range row {
			st.zz += v * v
		}
	}
	if k == 1 {
		for _, v := range st.zO {
			st.zzO += v * v
		}
		for _, v := range st.zU {
			st.zzU += v * v
		}
	}
	st.parity = true
	for t, i := range st.obs {
		st.parity = st.parity && i == 2*t+1
	}
	for t, i := range st.unobs {
		st.parity = st.parity && i == 2*t
	}
	if k == 1 && st.parity {
		st.zPair = make([]float64, 2*len(st.zO))
		for t, zo := range st.zO {
			st.zPair[2*t], st.zPair[2*t+1] = st.zU[t], zo
		}
		st.zAlt = true
		for t := 0; t+1 < len(st.zPair); t += 2 {
			st.zAlt = st.zAlt && st.zPair[t] == 1 && math.Float64bits(st.zPair[t+1]) == 0
		}
	}
	return st
}

// maskedWork holds the buffers of one structured evaluation: O(s²)
// (evalStream, hessVec), plus O(n·s) for evalHouse, allocated when it is
// first needed.
type maskedWork struct {
	rO, rU []float64 // R_O, R_U (s×s, zero below the diagonal)
	mO, mU []float64 // F_OᵀX_O, F_UᵀX_U (s×r)
	chunk  []float64 // kernel.QRChunk×s, column-major (evalStream)
	hv     []float64 // hessVec's sums: 2 blocks × (2r² + kr)
	row    []float64 // one row of a product (r)
	vv     []float64 // R J Rᵀ (s×s, normRJRSym)
	house  *houseWork
	// dist is ‖XXᵀ − M*‖_F of the last evaluation (GD traces it without a
	// second QR).
	dist float64
	// gradSS is the sum of squares of ∇h's entries from the last
	// evaluation that wrote ∇h, in the kernel's order, or −1 when it did
	// not sum them (GD's convergence test; see stepEval).
	gradSS float64
}

// gradSSOr returns gradSS, or the sum of squares of g's entries when the
// last evaluation did not leave it.
func (w *maskedWork) gradSSOr(g *mat.Dense) float64 {
	if w.gradSS >= 0 {
		return w.gradSS
	}
	return kernel.SumSquares(g)
}

// houseWork holds evalHouse's copies of the blocks: O(n·s).
type houseWork struct {
	aO, aU []float64 // F_O, F_U (|O|×s, |U|×s), overwritten by their QR
	d      []float64 // D_ii, i ∈ U
}

func (st *masked) houseWork(w *maskedWork) *houseWork {
	if w.house == nil {
		s := st.s
		w.house = &houseWork{aO: make([]float64, len(st.obs)*s), aU: make([]float64, len(st.unobs)*s), d: make([]float64, len(st.unobs))}
	}
	return w.house
}

// maskedNorms are the squared Frobenius norms of the blocks of D.
type maskedNorms struct {
	oo, ou, uu float64 // ‖D_OO‖², ‖D_OU‖², ‖D_UU‖²
	diag       float64 // Σ_{i∈U} D_ii²
}

// h returns ½ Σ W_ij² D_ij².
func (q maskedNorms) h(st *masked) float64 {
	return 0.5 * (q.oo + 2*q.ou + st.eps2*q.uu + st.c*q.diag)
}

// dist returns ‖D‖_F.
func (q maskedNorms) dist() float64 { return math.Sqrt(q.oo + 2*q.ou + q.uu) }

// gradFNorm returns ‖W∘W∘D‖_F = ‖∇f(XXᵀ)‖_F.
func (q maskedNorms) gradFNorm(st *masked) float64 {
	e4 := st.eps2 * st.eps2
	return math.Sqrt(q.oo + 2*q.ou + e4*q.uu + (1-e4)*q.diag)
}

// evalHouse is eval by Householder QR of copies of the two blocks, with
// the scaling of tiny or huge columns; O(n·s) memory. It is the fallback
// of evalStream.
func (st *masked) evalHouse(w *maskedWork, dst, X *mat.Dense) maskedNorms {
	hw := st.houseWork(w)
	xr := X.RawMatrix()
	r, k, s := st.r, st.k, st.s
	grad := dst != nil
	for i := range w.mO {
		w.mO[i], w.mU[i] = 0, 0
	}
	copyBlock := func(rows []int, zb, a, m []float64, d []float64) {
		for t, i := range rows {
			xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
			zi := zb[t*k : t*k+k]
			ai := a[t*s : t*s+s]
			copy(ai, xi)
			copy(ai[r:], zi)
			if d != nil {
				d[t] = kernel.RowD(xi, zi)
			}
			if grad {
				for l, al := range ai {
					ml := m[l*r : l*r+r]
					for c, v := range xi {
						ml[c] += al * v
					}
				}
			}
		}
	}
	copyBlock(st.obs, st.zO, hw.aO, w.mO, nil)
	copyBlock(st.unobs, st.zU, hw.aU, w.mU, hw.d)

	var q maskedNorms
	for _, v := range hw.d {
		q.diag += v * v
	}
	houseR(w.rO, hw.aO, len(st.obs), s)
	houseR(w.rU, hw.aU, len(st.unobs), s)
	q.oo = st.normRJRSym(w.rO, w.vv)
	q.ou = st.normRJR(w.rO, w.rU)
	q.uu = st.normRJRSym(w.rU, w.vv)
	w.dist = q.dist()

	if grad {
		gr := dst.RawMatrix()
		// mO ← F_OᵀX_O + F_UᵀX_U (rows in O); mU ← F_OᵀX_O + ε²F_UᵀX_U.
		for i, v := range w.mO {
			u := w.mU[i]
			w.mO[i] = v + u
			w.mU[i] = v + st.eps2*u
		}
		scatter := func(rows []int, zb, m []float64, d []float64) {
			for t, i := range rows {
				xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
				zi := zb[t*k : t*k+k]
				gi := gr.Data[i*gr.Stride : i*gr.Stride+r]
				for c := range gi {
					gi[c] = 0
				}
				for l, v := range xi {
					ml := m[l*r : l*r+r]
					for c, mv := range ml {
						gi[c] += v * mv
					}
				}
				for l, v := range zi {
					ml := m[(r+l)*r : (r+l)*r+r]
					for c, mv := range ml {
						gi[c] -= v * mv
					}
				}
				if d != nil {
					cd := st.c * d[t]
					for c, v := range xi {
						gi[c] += cd * v
					}
				}
				for c := range gi {
					gi[c] *= 2
				}
			}
		}
		scatter(st.obs, st.zO, w.mO, nil)
		scatter(st.unobs, st.zU, w.mU, hw.d)
	}
	return q
}

// eval11 is eval for r = k = 1 and the PMC parity layout (the study's
// instance) in two passes over the rows and no copies: the R factor of
// each block [x z] comes from modified Gram–Schmidt, R = [‖x‖, β‖x‖; 0,
// ‖z − βx‖] with β = xᵀz/xᵀx, whose R is as accurate as Householder's
// (Björck). It reports false, and eval falls back to Householder with
// scaling, when xᵀx or zᵀz is outside [1e-250, 1e250] in a block (tiny x
// on the observed rows at a spurious point, or overflow).
func (st *masked) eval11(w *maskedWork, dst, X *mat.Dense) (maskedNorms, bool) {
	xr := X.RawMatrix()
	return st.finish11(w, dst, xr.Data, xr.Stride, st.gram11(xr.Data, xr.Stride))
}

// sums11 are eval11's pass-1 sums: each block's Gram entries xᵀx, xᵀz,
// zᵀz, and Σ_U D_ii².
type sums11 struct{ xxO, xzO, zzO, xxU, xzU, zzU, diag float64 }

// gram11 is eval11's pass 1 over the rows of X (data xd, stride xs). Row
// pair t is U-row 2t and O-row 2t + 1: one loop reads both, so the
// blocks' sums are independent chains of additions, each in the order of
// its block's rows; zᵀz of each block does not depend on X and was summed
// once, in the same order (masked.zzO, zzU).
func (st *masked) gram11(xd []float64, xs int) sums11 {
	zO, zU := st.zO, st.zU
	zU2 := zU[:len(zO)]
	var xxO, xzO, xxU, xzU, diag float64
	for t, zo := range zO {
		xu, xo, zu := xd[2*t*xs], xd[(2*t+1)*xs], zU2[t]
		xxO += xo * xo
		xzO += xo * zo
		xxU += xu * xu
		xzU += xu * zu
		d := xu*xu - zu*zu
		diag += d * d
	}
	for t := len(zO); t < len(zU); t++ {
		xu, zu := xd[2*t*xs], zU[t]
		xxU += xu * xu
		xzU += xu * zu
		d := xu*xu - zu*zu
		diag += d * d
	}
	return sums11{xxO, xzO, st.zzO, xxU, xzU, st.zzU, diag}
}

// stepGram11 is gram11 at X = F + αD (contiguous n×1 data xd, fd, dd;
// dd may be the gradient that finish11 then overwrites): it stores each
// row of X as it reads it, the step of gradient descent fused with the
// next evaluation's first pass. X's entries (flushed, flushTiny), and so
// the sums, are those of stepInto followed by gram11.
func (st *masked) stepGram11(xd, fd, dd []float64, alpha float64) sums11 {
	zO, zU := st.zO, st.zU
	zU2 := zU[:len(zO)]
	n := len(zO) + len(zU)
	xd, fd, dd = xd[:n], fd[:n], dd[:n]
	tau := flushAt
	var xxO, xzO, xxU, xzU, diag float64
	for t, zo := range zO {
		i := 2 * t
		xu := kernel.Flush(fd[i]+alpha*dd[i], tau)
		xo := kernel.Flush(fd[i+1]+alpha*dd[i+1], tau)
		xd[i], xd[i+1] = xu, xo
		zu := zU2[t]
		xxO += xo * xo
		xzO += xo * zo
		xxU += xu * xu
		xzU += xu * zu
		d := xu*xu - zu*zu
		diag += d * d
	}
	for t := len(zO); t < len(zU); t++ {
		i := 2 * t
		xu := kernel.Flush(fd[i]+alpha*dd[i], tau)
		xd[i] = xu
		zu := zU[t]
		xxU += xu * xu
		xzU += xu * zu
		d := xu*xu - zu*zu
		diag += d * d
	}
	return sums11{xxO, xzO, st.zzO, xxU, xzU, st.zzU, diag}
}

// safe reports whether the Gram entries are in the range where eval11 is
// used: each is zero or in [1e-250, 1e250]. Outside it eval falls back to
// Householder with scaling.
func (s sums11) safe() bool {
	in := func(v float64) bool { return v == 0 || (v >= 1e-250 && v <= 1e250) }
	return in(s.xxO) && in(s.zzO) && in(s.xxU) && in(s.zzU)
}

// coef11 returns the factors of ∇h's rows at the point with Gram entries
// s: row i ∈ O uses m_x = x_Oᵀx_O + x_Uᵀx_U and m_z = x_Oᵀz_O + x_Uᵀz_U,
// row i ∈ U the same with the U-block sums weighted by ε².
func (st *masked) coef11(s sums11) (mxO, mzO, mxU, mzU float64) {
	return s.xxO + s.xxU, s.xzO + s.xzU, s.xxO + st.eps2*s.xxU, s.xzO + st.eps2*s.xzU
}

// finish11 is eval11's pass 2 from the sums of pass 1: each block's
// residual ‖z − βx‖², and ∇h into dst (if not nil), whose sum of squares
// it leaves in w.gradSS (summed blockwise, not in row order). It reports
// false when a Gram entry is unsafe (see eval11).
func (st *masked) finish11(w *maskedWork, dst *mat.Dense, xd []float64, xs int, s sums11) (maskedNorms, bool) {
	q := maskedNorms{diag: s.diag}
	if !s.safe() {
		return q, false
	}
	betaO, betaU := 0.0, 0.0
	if s.xxO > 0 {
		betaO = s.xzO / s.xxO
	}
	if s.xxU > 0 {
		betaU = s.xzU / s.xxU
	}
	// ‖z − βx‖² of each block, and the gradient
	// row i ∈ O: 2(x_i (xᵀx) − z_i (zᵀx)), row i ∈ U: the same with the
	// U-block sums weighted by ε², plus 2c D_ii x_i.
	var resO, resU, ssO, ssU float64
	mxO, mzO, mxU, mzU := st.coef11(s)
	c := st.c
	zO, zU := st.zO, st.zU
	zU2 := zU[:len(zO)]
	if dst != nil {
		gr := dst.RawMatrix()
		gd, gs := gr.Data, gr.Stride
		for t, zo := range zO {
			i, j := 2*t+1, 2*t
			xo, xu, zu := xd[i*xs], xd[j*xs], zU2[t]
			e := zo - betaO*xo
			resO += e * e
			g := kernel.GradRowO11(xo, zo, mxO, mzO)
			gd[i*gs] = g
			ssO += g * g
			e = zu - betaU*xu
			resU += e * e
			g = kernel.GradRowU11(xu, zu, mxU, mzU, c)
			gd[j*gs] = g
			ssU += g * g
		}
		for t := len(zO); t < len(zU); t++ {
			j := 2 * t
			xu, zu := xd[j*xs], zU[t]
			e := zu - betaU*xu
			resU += e * e
			g := kernel.GradRowU11(xu, zu, mxU, mzU, c)
			gd[j*gs] = g
			ssU += g * g
		}
	} else {
		for t, zo := range zO {
			e := zo - betaO*xd[(2*t+1)*xs]
			resO += e * e
			e = zU2[t] - betaU*xd[2*t*xs]
			resU += e * e
		}
		for t := len(zO); t < len(zU); t++ {
			e := zU[t] - betaU*xd[2*t*xs]
			resU += e * e
		}
	}
	w.gradSS = -1
	if dst != nil {
		w.gradSS = ssO + ssU
	}
	fill := func(r []float64, sxx, beta, res float64) {
		n1 := math.Sqrt(sxx)
		r[0], r[1], r[2], r[3] = n1, beta*n1, 0, math.Sqrt(res)
	}
	fill(w.rO, s.xxO, betaO, resO)
	fill(w.rU, s.xxU, betaU, resU)
	q.oo = st.normRJRSym(w.rO, w.vv)
	q.ou = st.normRJR(w.rO, w.rU)
	q.uu = st.normRJRSym(w.rU, w.vv)
	w.dist = q.dist()
	return q, true
}

// normRJR returns ‖R_a J R_bᵀ‖_F² for upper triangular s×s R_a, R_b: the
// sum, row by row, of the squares of (R_a J R_bᵀ)_ij =
// Σ_{l ≥ max(i,j)} ±R_a[i,l]R_b[j,l] (+ for l < r, − after), each summed
// in the order of l.
func (st *masked) normRJR(ra, rb []float64) float64 {
	s, r := st.s, st.r
	sum := 0.0
	for i := 0; i < s; i++ {
		ai := ra[i*s : i*s+s : i*s+s]
		for j := 0; j < s; j++ {
			v := rjrEntry(ai, rb[j*s:j*s+s:j*s+s], max(i, j), r)
			sum += v * v
		}
	}
	return sum
}

// rjrEntry is (R_a J R_bᵀ)_ij from row i of R_a (a) and row j of R_b (b),
// both upper triangular, from column l0 = max(i, j): Σ_l ±a_l·b_l, + for
// l < r and − after, summed in the order of l.
func rjrEntry(a, b []float64, l0, r int) float64 {
	v := 0.0
	if l0 < r {
		ap, bp := a[l0:r], b[l0:r]
		bp = bp[:len(ap)]
		for l, x := range ap {
			v += x * bp[l]
		}
		l0 = r
	}
	an, bn := a[l0:], b[l0:]
	bn = bn[:len(an)]
	for l, x := range an {
		v -= x * bn[l]
	}
	return v
}

// normRJRSym is normRJR(R, R), to the last bit: (R J Rᵀ)_ij for j < i is
// the (j, i) entry of an earlier row (the same products, summed in the same
// order), kept in vv (s×s scratch) instead of computed again.
func (st *masked) normRJRSym(ra, vv []float64) float64 {
	s, r := st.s, st.r
	vv = vv[:s*s]
	sum := 0.0
	for i := 0; i < s; i++ {
		ai := ra[i*s : i*s+s : i*s+s]
		for j := 0; j < i; j++ {
			v := vv[j*s+i]
			sum += v * v
		}
		for j := i; j < s; j++ {
			v := rjrEntry(ai, ra[j*s:j*s+s:j*s+s], j, r)
			vv[i*s+j] = v
			sum += v * v
		}
	}
	return sum
}

// houseR computes the R factor of the Householder QR of the rows×s matrix
// a (row-major, overwritten) into r (s×s, zero below the diagonal and in
// the rows beyond min(rows, s)). It does not allocate. Columns whose sum
// of squares leaves [1e-250, 1e250] are scaled first (as LAPACK's Dnrm2
// would), so tiny or huge entries neither underflow to a zero norm nor
// overflow.
func houseR(r, a []float64, rows, s int) {
	for i := range r {
		r[i] = 0
	}
	p := min(rows, s)
	for j := 0; j < p; j++ {
		ss := 0.0
		for i := j; i < rows; i++ {
			v := a[i*s+j]
			ss += v * v
		}
		scale := 1.0
		if !(ss >= 1e-250 && ss <= 1e250) {
			big := 0.0
			for i := j; i < rows; i++ {
				big = math.Max(big, math.Abs(a[i*s+j]))
			}
			if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) {
				// A zero column (R_jj = 0, nothing to reflect), or a
				// non-finite one (callers check their inputs).
				for c := j; c < s; c++ {
					r[j*s+c] = a[j*s+c]
				}
				continue
			}
			scale = big
			ss = 0
			for i := j; i < rows; i++ {
				v := a[i*s+j] / big
				a[i*s+j] = v
				ss += v * v
			}
		}
		norm := math.Sqrt(ss)
		ajj := a[j*s+j]
		alpha := -math.Copysign(norm, ajj)
		v0 := ajj - alpha
		// H = I − τvvᵀ with v = (v0, a[j+1:, j]) and vᵀv = −2·alpha·v0.
		tau := -1 / (alpha * v0) // 2/vᵀv
		for c := j + 1; c < s; c++ {
			w := v0 * a[j*s+c]
			for i := j + 1; i < rows; i++ {
				w += a[i*s+j] * a[i*s+c]
			}
			f := tau * w
			a[j*s+c] -= f * v0
			for i := j + 1; i < rows; i++ {
				a[i*s+c] -= f * a[i*s+j]
			}
		}
		r[j*s+j] = alpha * scale
		for c := j + 1; c < s; c++ {
			r[j*s+c] = a[j*s+c]
		}
	}
}

// mul stores (W∘W∘(F S Fᵀ))·Y in dst (n×p): F is n×q, S q×q symmetric,
// Y n×p, all row-major with stride = columns. It is the structured
// product behind the escape analysis (∇f(X̂X̂ᵀ)v, E X̂) and HessVec, in
// O(n·q·(q + p)) time:
//
//	row i ∈ O: f_i S (F_OᵀY_O + F_UᵀY_U),
//	row i ∈ U: f_i S (F_OᵀY_O + ε² F_UᵀY_U) + c (f_i S f_iᵀ) y_i.
func (st *masked) mul(dst []float64, F []float64, q int, S []float64, Y []float64, p int) {
	tO := make([]float64, q*p)
	tU := make([]float64, q*p)
	acc := func(rows []int, t []float64) {
		for _, i := range rows {
			fi := F[i*q : i*q+q]
			yi := Y[i*p : i*p+p]
			for l, fv := range fi {
				tl := t[l*p : l*p+p]
				for c, yv := range yi {
					tl[c] += fv * yv
				}
			}
		}
	}
	acc(st.obs, tO)
	acc(st.unobs, tU)
	// mO = S(tO + tU), mU = S(tO + ε² tU).
	mO := make([]float64, q*p)
	mU := make([]float64, q*p)
	for a := 0; a < q; a++ {
		for b := 0; b < q; b++ {
			sab := S[a*q+b]
			if sab == 0 {
				continue
			}
			for c := 0; c < p; c++ {
				mO[a*p+c] += sab * (tO[b*p+c] + tU[b*p+c])
				mU[a*p+c] += sab * (tO[b*p+c] + st.eps2*tU[b*p+c])
			}
		}
	}
	fs := make([]float64, q)
	apply := func(rows []int, m []float64, diag bool) {
		for _, i := range rows {
			fi := F[i*q : i*q+q]
			di := dst[i*p : i*p+p]
			for c := range di {
				di[c] = 0
			}
			for l, fv := range fi {
				ml := m[l*p : l*p+p]
				for c, mv := range ml {
					di[c] += fv * mv
				}
			}
			if diag {
				// (f_i S f_iᵀ) y_i
				for a := range fs {
					v := 0.0
					for b, fb := range fi {
						v += S[a*q+b] * fb
					}
					fs[a] = v
				}
				pii := 0.0
				for a, fa := range fi {
					pii += fa * fs[a]
				}
				yi := Y[i*p : i*p+p]
				for c, yv := range yi {
					di[c] += st.c * pii * yv
				}
			}
		}
	}
	apply(st.obs, mO, false)
	apply(st.unobs, mU, true)
}

// rowMajor returns the data of an n×c matrix as a row-major slice with
// stride c (a copy when the stride differs).
func rowMajor(a mat.Matrix) []float64 {
	if v := kernel.Contiguous(a); v != nil {
		return v
	}
	d := mat.DenseCopyOf(a)
	return d.RawMatrix().Data
}

// truthFactor returns [X Z] (n×(r+k)) row-major.
func (st *masked) truthFactor(X *mat.Dense) []float64 {
	n, r, k, s := st.n, st.r, st.k, st.s
	f := make([]float64, n*s)
	for t, i := range st.obs {
		copy(f[i*s:], X.RawRowView(i))
		copy(f[i*s+r:i*s+s], st.zO[t*k:t*k+k])
	}
	for t, i := range st.unobs {
		copy(f[i*s:], X.RawRowView(i))
		copy(f[i*s+r:i*s+s], st.zU[t*k:t*k+k])
	}
	return f
}

// signJ returns J = diag(I_r, −I_k) as an s×s row-major matrix.
func (st *masked) signJ() []float64 {
	s := st.s
	j := make([]float64, s*s)
	for i := 0; i < s; i++ {
		if i < st.r {
			j[i*s+i] = 1
		} else {
			j[i*s+i] = -1
		}
	}
	return j
}

// weight2 returns W_ij².
func (st *masked) weight2(i, j int) float64 {
	if i != j && st.isU[i] && st.isU[j] {
		return st.eps2
	}
	return 1
}

// gradF stores ∇f(M) = W∘W∘(sym(M) − ZZᵀ) in dst (n×n) without the
// measurements b (a structured problem above MaxDenseSize has none).
func (st *masked) gradF(op NormalOperator, dst *mat.Dense, M mat.Matrix) {
	op.Normal(dst, M)
	n, k := st.n, st.k
	z := make([]float64, n*k)
	for t, i := range st.obs {
		copy(z[i*k:i*k+k], st.zO[t*k:t*k+k])
	}
	for t, i := range st.unobs {
		copy(z[i*k:i*k+k], st.zU[t*k:t*k+k])
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		zi := z[i*k : i*k+k]
		for j := 0; j < n; j++ {
			zj := z[j*k : j*k+k]
			v := 0.0
			for l, a := range zi {
				v += a * zj[l]
			}
			row[j] -= st.weight2(i, j) * v
		}
	}
}
