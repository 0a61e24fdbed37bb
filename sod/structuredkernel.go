package sod

import (
	"sodworkbench.org/workbench/sod/internal/kernel"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// This file holds the streaming kernels of the structured path for any
// search rank r and truth rank k (structured.go has the algebra): h, ∇h
// and ‖XXᵀ − M*‖_F in two passes over the rows, and the Hessian–vector
// product in two more, with O(s²) workspace (s = r + k) and no
// allocation.
//
// Pass 1 streams each block's rows [x_i z_i] through an L1-resident
// chunk of kernel.QRChunk rows (column-major, so every loop is contiguous) and
// folds the chunk into the block's s×s R factor by Householder
// reflections of the stacked matrix [R; chunk]: a tall-skinny QR whose
// result is the R of one Householder QR of the whole block (the same
// reflections, applied in a different order), columnwise backward stable,
// so ‖D_ab‖_F = ‖R_a J R_bᵀ‖_F keeps its accuracy near the minimum.
// The Gather that copies the rows also forms the first reflection's dot
// products, and each reflection is then one sweep over the columns it
// changes, which also forms the next reflection's dots (kernel.QRFold). A chunk
// whose z column is zero, while R's is too (Z vanishes on the observed
// rows of the study's instance), is folded on its x columns alone: the
// result is the same. The products F_aᵀX_a the gradient needs are the
// first r columns of R_aᵀR_a (O(s³), not another pass). Pass 2 writes
// ∇h row by row from those s×r matrices. The arithmetic is about
// n·s² (QR) + 2n·s·r (gradient) multiply–adds, and the memory traffic
// two reads of X and Z and one write of ∇h.

// evalStream is eval for the general case. It reports false, and leaves
// the work to evalHouse, when a chunk column's sum of squares leaves
// [1e-250, 1e250] (tiny or huge entries, which evalHouse scales).
func (st *masked) evalStream(w *maskedWork, dst, X *mat.Dense) (maskedNorms, bool) {
	var q maskedNorms
	if st.s > kernel.QRMaxS {
		return q, false
	}
	xr := X.RawMatrix()
	for i := range w.rO {
		w.rO[i], w.rU[i] = 0, 0
	}
	// With the parity layout the blocks' rows interleave, so the two blocks
	// go through the rows together, window by window: each window of X is
	// read from memory once, not once per block. The chunks, and so the
	// results, are those of one block after the other.
	nO, nU := len(st.obs), len(st.unobs)
	win := max(nO, nU)
	if st.parity {
		win = kernel.QRChunk
	}
	var dO, dU float64
	for t0 := 0; t0 < max(nO, nU); t0 += win {
		var ok bool
		if t0 < nO {
			if dO, ok = st.blockQR(w.rO, w.chunk, xr, st.obs, 1, st.zO, false, t0, min(t0+win, nO), dO); !ok {
				return q, false
			}
		}
		if t0 < nU {
			if dU, ok = st.blockQR(w.rU, w.chunk, xr, st.unobs, 0, st.zU, true, t0, min(t0+win, nU), dU); !ok {
				return q, false
			}
		}
	}
	q.diag = dU
	q.oo = st.normRJRSym(w.rO, w.vv)
	q.ou = st.normRJR(w.rO, w.rU)
	q.uu = st.normRJRSym(w.rU, w.vv)
	w.dist = q.dist()
	if dst == nil {
		return q, true
	}
	// m_a = F_aᵀX_a = (R_aᵀR_a)[:, :r]; mO ← m_O + m_U (rows in O),
	// mU ← m_O + ε² m_U (rows in U).
	s, r := st.s, st.r
	for l := 0; l < s; l++ {
		for c := 0; c < r; c++ {
			vo, vu := 0.0, 0.0
			for p := 0; p <= min(l, c); p++ {
				vo += w.rO[p*s+l] * w.rO[p*s+c]
				vu += w.rU[p*s+l] * w.rU[p*s+c]
			}
			w.mO[l*r+c] = vo + vu
			w.mU[l*r+c] = vo + st.eps2*vu
		}
	}
	gr := dst.RawMatrix()
	k := st.k
	for t0 := 0; t0 < max(nO, nU); t0 += win {
		if t0 < nO {
			t1 := min(t0+win, nO)
			st.shape().GradRows(gr, xr, st.obs[t0:t1], 1+2*t0, st.zO[t0*k:t1*k], w.mO, false)
		}
		if t0 < nU {
			t1 := min(t0+win, nU)
			st.shape().GradRows(gr, xr, st.unobs[t0:t1], 2*t0, st.zU[t0*k:t1*k], w.mU, true)
		}
	}
	return q, true
}

// blockQR folds the rows from ≤ t < to (from a multiple of kernel.QRChunk) of the
// block F_a = [X_a Z_a] (rows of X given by rows, or 2t + off with the
// parity layout; z the block's rows of Z) into R (s×s, zero before the
// first rows) and returns sum plus Σ D_ii² over them when diag is set (else
// sum).
func (st *masked) blockQR(R, chunk []float64, xr blas64.General, rows []int, off int, z []float64, diag bool, from, to int, sum float64) (float64, bool) {
	r, k, s := st.r, st.k, st.s
	xd, xs := xr.Data, xr.Stride
	for t0 := from; t0 < to; t0 += kernel.QRChunk {
		b := min(kernel.QRChunk, to-t0)
		g := kernel.Gather{Chunk: chunk, XD: xd, XS: xs, Rows: rows, Parity: st.parity, Off: off, T0: t0, Diag: diag}
		var w [kernel.QRMaxS]float64
		zeroZ := false
		switch {
		case k == 1 && r == 2:
			zeroZ = g.Rank2(&w, z[t0:t0+b])
		case k == 1 && r == 3:
			zeroZ = g.Rank3(&w, z[t0:t0+b])
		case k == 1 && r == 5:
			zeroZ = g.Rank5(&w, z[t0:t0+b])
		case k == 3 && r == 3:
			g.Rank33(&w, z[t0*3:(t0+b)*3])
		default:
			g.Any(r, k, z[t0*k:(t0+b)*k])
			kernel.DotCols(w[:s], chunk[:b], chunk, b)
		}
		sum += g.Sum
		// A zero z column in the chunk and in R stays zero under the
		// reflections of the x columns, and the last reflection is the
		// identity: fold the x columns alone.
		cols := s
		if zeroZ && kernel.ZeroCol(R, s, s-1) {
			cols = s - 1
		}
		if !kernel.QRFold(R, s, chunk, b, cols, &w) {
			return 0, false
		}
	}
	if !diag {
		sum = 0
	}
	return sum, true
}

// hessVec stores ∇²h(X)[D] = 2(W∘W∘(DXᵀ + XDᵀ))X + 2(W∘W∘(XXᵀ − ZZᵀ))D in
// dst (n×r; it may alias X or D) in two passes over the rows, O(n·r·s)
// time, without allocating. With the block sums A_a = X_aᵀX_a,
// B_a = X_aᵀD_a and C_a = Z_aᵀD_a, combined as in eval (O: A_O + A_U,
// U: A_O + ε²A_U), row i of the product is
//
//	2(d_i A + x_i (B + Bᵀ) − z_i C) + [i ∈ U] 2c(2(x_i·d_i) x_i + D_ii d_i).
func (st *masked) hessVec(w *maskedWork, dst, X, D *mat.Dense) {
	r, k := st.r, st.k
	xr, dr, or := X.RawMatrix(), D.RawMatrix(), dst.RawMatrix()
	blk := 2*r*r + k*r
	hO, hU := w.hv[:blk], w.hv[blk:2*blk]
	// r = 3, k = 1 with the parity layout: unrolled loops, the blocks
	// window by window (each window of X and D read from memory once).
	fast := r == 3 && k == 1 && st.parity
	nO, nU := len(st.obs), len(st.unobs)
	if fast {
		clear(hO)
		clear(hU)
		for t0 := 0; t0 < max(nO, nU); t0 += kernel.QRChunk {
			if t0 < nO {
				kernel.HessSums31(hO, xr, dr, 1+2*t0, st.zO[t0:min(t0+kernel.QRChunk, nO)])
			}
			if t0 < nU {
				kernel.HessSums31(hU, xr, dr, 2*t0, st.zU[t0:min(t0+kernel.QRChunk, nU)])
			}
		}
	} else {
		st.shape().HessSums(hO, xr, dr, st.obs, 1, st.zO)
		st.shape().HessSums(hU, xr, dr, st.unobs, 0, st.zU)
	}
	// hO ← sums for the rows in O, hU ← for the rows in U; A and C as they
	// are, B replaced by B + Bᵀ.
	for i, vo := range hO {
		vu := hU[i]
		hO[i] = vo + vu
		hU[i] = vo + st.eps2*vu
	}
	for _, h := range [][]float64{hO, hU} {
		b := h[r*r : 2*r*r]
		for l := 0; l < r; l++ {
			for c := l; c < r; c++ {
				v := b[l*r+c] + b[c*r+l]
				b[l*r+c], b[c*r+l] = v, v
			}
		}
	}
	if fast {
		for t0 := 0; t0 < max(nO, nU); t0 += kernel.QRChunk {
			if t0 < nO {
				kernel.HessRows31(or, xr, dr, 1+2*t0, st.zO[t0:min(t0+kernel.QRChunk, nO)], hO, 0)
			}
			if t0 < nU {
				kernel.HessRows31(or, xr, dr, 2*t0, st.zU[t0:min(t0+kernel.QRChunk, nU)], hU, st.c)
			}
		}
		return
	}
	st.shape().HessRows(w.row, or, xr, dr, st.obs, 1, st.zO, hO, false)
	st.shape().HessRows(w.row, or, xr, dr, st.unobs, 0, st.zU, hU, true)
}

// shape returns what kernel's row passes read of st.
func (st *masked) shape() kernel.Shape {
	return kernel.Shape{R: st.r, K: st.k, C: st.c, Parity: st.parity}
}

// newWork allocates the buffers of one structured evaluation (maskedWork).
func (st *masked) newWork() *maskedWork {
	s, r, k := st.s, st.r, st.k
	return &maskedWork{
		rO: make([]float64, s*s), rU: make([]float64, s*s),
		mO: make([]float64, s*r), mU: make([]float64, s*r),
		chunk: make([]float64, kernel.QRChunk*s),
		hv:    make([]float64, 2*(2*r*r+k*r)),
		row:   make([]float64, r),
		vv:    make([]float64, s*s),
	}
}

// eval computes the block norms of D = XXᵀ − ZZᵀ and, if dst is not nil,
// ∇h(X) into dst (n×r, not aliasing X). It does not allocate.
func (st *masked) eval(w *maskedWork, dst, X *mat.Dense) maskedNorms {
	w.gradSS = -1
	if st.r == 1 && st.k == 1 && st.parity {
		if q, ok := st.eval11(w, dst, X); ok {
			return q
		}
	}
	if q, ok := st.evalStream(w, dst, X); ok {
		return q
	}
	return st.evalHouse(w, dst, X)
}

// stepEval stores X = F + α·D (D may be dst) and evaluates at X as eval
// does: gradient descent's step, X_{k+1} = X_k − η∇h(X_k), and the
// evaluation at X_{k+1}. For r = k = 1 with the parity layout the step is
// fused into the evaluation's first pass (stepGram11): one pass over the
// rows fewer per step, and the same X, h and ∇h to the last bit.
func (st *masked) stepEval(w *maskedWork, dst, X, F, D *mat.Dense, alpha float64) maskedNorms {
	if st.r == 1 && st.k == 1 && st.parity {
		xd, fd, dd := kernel.Contiguous(X), kernel.Contiguous(F), kernel.Contiguous(D)
		if xd != nil && fd != nil && dd != nil {
			if q, ok := st.finish11(w, dst, xd, 1, st.stepGram11(xd, fd, dd, alpha)); ok {
				return q
			}
			return st.eval(w, dst, X) // unsafe sums: X is stored, the fallback scales
		}
	}
	stepInto(X, F, D, alpha)
	return st.eval(w, dst, X)
}
