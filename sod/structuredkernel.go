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

// blockRow returns the row index of the t-th row of a block: 2t + off
// for the PMC parity layout, rows[t] otherwise.
func blockRow(rows []int, parity bool, off, t int) int {
	if parity {
		return 2*t + off
	}
	return rows[t]
}

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
	q.oo = st.normRJR(w.rO, w.rO)
	q.ou = st.normRJR(w.rO, w.rU)
	q.uu = st.normRJR(w.rU, w.rU)
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
			st.gradRows(gr, xr, st.obs[t0:t1], 1+2*t0, st.zO[t0*k:t1*k], w.mO, false)
		}
		if t0 < nU {
			t1 := min(t0+win, nU)
			st.gradRows(gr, xr, st.unobs[t0:t1], 2*t0, st.zU[t0*k:t1*k], w.mU, true)
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

// gradRows writes the rows of ∇h of one block: 2(x_i m_X − z_i m_Z), plus
// 2c·D_ii·x_i on the unobserved rows (diag), m = [m_X; m_Z] s×r.
func (st *masked) gradRows(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	r, k := st.r, st.k
	if r == 3 && k == 1 {
		st.gradRows31(gr, xr, rows, off, z, m, diag)
		return
	}
	if r == 2 && k == 1 {
		st.gradRows21(gr, xr, rows, off, z, m, diag)
		return
	}
	if r == 5 && k == 1 {
		st.gradRows51(gr, xr, rows, off, z, m, diag)
		return
	}
	if k == 1 && r <= kernel.QRMaxS {
		st.gradRowsK1(gr, xr, rows, off, z, m, diag)
		return
	}
	cnt := len(z) / k
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	mx, mz := m[:r*r], m[r*r:]
	cc := st.c
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, st.parity, off, t)
		xi := xd[i*xs : i*xs+r]
		zi := z[t*k : t*k+k]
		gi := gd[i*gs : i*gs+r]
		for c := range gi {
			gi[c] = 0
		}
		for l, v := range xi {
			ml := mx[l*r : l*r+r]
			for c, mv := range ml {
				gi[c] += v * mv
			}
		}
		for l, v := range zi {
			ml := mz[l*r : l*r+r]
			for c, mv := range ml {
				gi[c] -= v * mv
			}
		}
		if diag {
			dd := 0.0
			for _, v := range xi {
				dd += v * v
			}
			for _, v := range zi {
				dd -= v * v
			}
			cd := cc * dd
			for c, v := range xi {
				gi[c] += cd * v
			}
		}
		for c := range gi {
			gi[c] *= 2
		}
	}
}

// gradRows31 is gradRows for r = 3, k = 1, unrolled.
func (st *masked) gradRows31(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	// 2m and 2c in memory, not in registers: the loop then keeps its
	// values in registers (the compiler spilled and reloaded them every
	// row), and each product takes its factor from L1.
	var mm [13]float64
	for i, v := range m[:12] {
		mm[i] = 2 * v
	}
	mm[12] = 2 * st.c
	if !st.parity {
		for t, zi := range z {
			i := rows[t]
			gradRow31(gd[i*gs:i*gs+3:i*gs+3], xd[i*xs:i*xs+3:i*xs+3], zi, &mm, diag)
		}
		return
	}
	// gradRow31 inline (the compiler does not inline it).
	ix, ig := off*xs, off*gs
	for _, zi := range z {
		x, g := xd[ix:ix+3:ix+3], gd[ig:ig+3:ig+3]
		ix += 2 * xs
		ig += 2 * gs
		a, b, c := x[0], x[1], x[2]
		g0 := (a*mm[0] + b*mm[3]) + (c*mm[6] - zi*mm[9])
		g1 := (a*mm[1] + b*mm[4]) + (c*mm[7] - zi*mm[10])
		g2 := (a*mm[2] + b*mm[5]) + (c*mm[8] - zi*mm[11])
		if diag {
			cd := mm[12] * ((a*a + b*b) + (c*c - zi*zi))
			g0 += cd * a
			g1 += cd * b
			g2 += cd * c
		}
		g[0], g[1], g[2] = g0, g1, g2
	}
}

// gradRow31 writes one row of gradRows31: g = x·mm_X − zi·mm_Z, plus
// mm_c·D_ii·x when diag is set.
func gradRow31(g, x []float64, zi float64, mm *[13]float64, diag bool) {
	a, b, c := x[0], x[1], x[2]
	g0 := (a*mm[0] + b*mm[3]) + (c*mm[6] - zi*mm[9])
	g1 := (a*mm[1] + b*mm[4]) + (c*mm[7] - zi*mm[10])
	g2 := (a*mm[2] + b*mm[5]) + (c*mm[8] - zi*mm[11])
	if diag {
		cd := mm[12] * ((a*a + b*b) + (c*c - zi*zi))
		g0 += cd * a
		g1 += cd * b
		g2 += cd * c
	}
	g[0], g[1], g[2] = g0, g1, g2
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
				hessSums31(hO, xr, dr, 1+2*t0, st.zO[t0:min(t0+kernel.QRChunk, nO)])
			}
			if t0 < nU {
				hessSums31(hU, xr, dr, 2*t0, st.zU[t0:min(t0+kernel.QRChunk, nU)])
			}
		}
	} else {
		st.hessSums(hO, xr, dr, st.obs, 1, st.zO)
		st.hessSums(hU, xr, dr, st.unobs, 0, st.zU)
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
				hessRows31(or, xr, dr, 1+2*t0, st.zO[t0:min(t0+kernel.QRChunk, nO)], hO, 0)
			}
			if t0 < nU {
				hessRows31(or, xr, dr, 2*t0, st.zU[t0:min(t0+kernel.QRChunk, nU)], hU, st.c)
			}
		}
		return
	}
	st.hessRows(w.row, or, xr, dr, st.obs, 1, st.zO, hO, false)
	st.hessRows(w.row, or, xr, dr, st.unobs, 0, st.zU, hU, true)
}

// hessSums31 adds A = X_aᵀX_a, B = X_aᵀD_a and C = Z_aᵀD_a over the rows
// 2t + off (t < len(z)) to h, for r = 3, k = 1 (see hessSums): two loops
// over the rows (L1-resident after the first), nine sums each, so that
// every sum stays in a register.
func hessSums31(h []float64, xr, dr blas64.General, off int, z []float64) {
	xd, xs, dd, ds := xr.Data, xr.Stride, dr.Data, dr.Stride
	var a00, a01, a02, a11, a12, a22, c0, c1, c2 float64
	ix, id := off*xs, off*ds
	for _, zt := range z {
		x, d := xd[ix:ix+3:ix+3], dd[id:id+3:id+3]
		ix += 2 * xs
		id += 2 * ds
		x0, x1, x2 := x[0], x[1], x[2]
		a00 += x0 * x0
		a01 += x0 * x1
		a02 += x0 * x2
		a11 += x1 * x1
		a12 += x1 * x2
		a22 += x2 * x2
		c0 += zt * d[0]
		c1 += zt * d[1]
		c2 += zt * d[2]
	}
	var b00, b01, b02, b10, b11, b12, b20, b21, b22 float64
	ix, id = off*xs, off*ds
	for range z {
		x, d := xd[ix:ix+3:ix+3], dd[id:id+3:id+3]
		ix += 2 * xs
		id += 2 * ds
		x0, x1, x2 := x[0], x[1], x[2]
		d0, d1, d2 := d[0], d[1], d[2]
		b00 += x0 * d0
		b01 += x0 * d1
		b02 += x0 * d2
		b10 += x1 * d0
		b11 += x1 * d1
		b12 += x1 * d2
		b20 += x2 * d0
		b21 += x2 * d1
		b22 += x2 * d2
	}
	h = h[:21]
	for i, v := range [21]float64{
		a00, a01, a02, a01, a11, a12, a02, a12, a22,
		b00, b01, b02, b10, b11, b12, b20, b21, b22,
		c0, c1, c2,
	} {
		h[i] += v
	}
}

// hessRows31 writes the rows 2t + off (t < len(z)) of hessVec's product
// for r = 3, k = 1 (see hessRows; h combined, c the weight of the D_ii
// terms: 1 − ε² on U, 0 on O). Each row's x_i and d_i are read before its
// output is written, so dst may alias X or D.
func hessRows31(or, xr, dr blas64.General, off int, z, h []float64, c float64) {
	xd, xs, dd, ds, od, os := xr.Data, xr.Stride, dr.Data, dr.Stride, or.Data, or.Stride
	// 2A, 2(B + Bᵀ), 2C and 2c in memory, as in gradRows31.
	var mm [22]float64
	for i, v := range h[:21] {
		mm[i] = 2 * v
	}
	mm[21] = 2 * c
	diag := c != 0
	ix, id, io := off*xs, off*ds, off*os
	for _, zt := range z {
		x, d := xd[ix:ix+3:ix+3], dd[id:id+3:id+3]
		x0, x1, x2 := x[0], x[1], x[2]
		d0, d1, d2 := d[0], d[1], d[2]
		o0 := (d0*mm[0] + d1*mm[3]) + (d2*mm[6] - zt*mm[18]) + ((x0*mm[9] + x1*mm[12]) + x2*mm[15])
		o1 := (d0*mm[1] + d1*mm[4]) + (d2*mm[7] - zt*mm[19]) + ((x0*mm[10] + x1*mm[13]) + x2*mm[16])
		o2 := (d0*mm[2] + d1*mm[5]) + (d2*mm[8] - zt*mm[20]) + ((x0*mm[11] + x1*mm[14]) + x2*mm[17])
		if diag {
			xdd := 2 * ((x0*d0 + x1*d1) + x2*d2)
			dii := (x0*x0 + x1*x1) + (x2*x2 - zt*zt)
			o0 += mm[21] * (xdd*x0 + dii*d0)
			o1 += mm[21] * (xdd*x1 + dii*d1)
			o2 += mm[21] * (xdd*x2 + dii*d2)
		}
		o := od[io : io+3 : io+3]
		o[0], o[1], o[2] = o0, o1, o2
		ix += 2 * xs
		id += 2 * ds
		io += 2 * os
	}
}

// hessSums stores A = X_aᵀX_a, B = X_aᵀD_a and C = Z_aᵀD_a of one block
// in h (r×r, r×r, k×r, row-major).
func (st *masked) hessSums(h []float64, xr, dr blas64.General, rows []int, off int, z []float64) {
	r, k := st.r, st.k
	for i := range h {
		h[i] = 0
	}
	A, B, C := h[:r*r], h[r*r:2*r*r], h[2*r*r:]
	cnt := len(z) / k
	if r == 1 && k == 1 {
		var a, b, c float64
		xd, xs, dd, ds := xr.Data, xr.Stride, dr.Data, dr.Stride
		for t, zv := range z {
			i := blockRow(rows, st.parity, off, t)
			xv, dv := xd[i*xs], dd[i*ds]
			a += xv * xv
			b += xv * dv
			c += zv * dv
		}
		A[0], B[0], C[0] = a, b, c
		return
	}
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, st.parity, off, t)
		xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
		di := dr.Data[i*dr.Stride : i*dr.Stride+r]
		zi := z[t*k : t*k+k]
		for l, xv := range xi {
			al := A[l*r : l*r+r]
			bl := B[l*r : l*r+r]
			for c := l; c < r; c++ {
				al[c] += xv * xi[c]
			}
			for c, dv := range di {
				bl[c] += xv * dv
			}
		}
		for m, zv := range zi {
			cm := C[m*r : m*r+r]
			for c, dv := range di {
				cm[c] += zv * dv
			}
		}
	}
	for l := 0; l < r; l++ {
		for c := 0; c < l; c++ {
			A[l*r+c] = A[c*r+l]
		}
	}
}

// hessRows writes the rows of one block of hessVec's product (h from
// hessSums, combined); row is an r-vector of scratch.
func (st *masked) hessRows(row []float64, or, xr, dr blas64.General, rows []int, off int, z, h []float64, diag bool) {
	r, k := st.r, st.k
	A, S, C := h[:r*r], h[r*r:2*r*r], h[2*r*r:]
	cnt := len(z) / k
	if r == 1 && k == 1 {
		a, sv, cv := A[0], S[0], C[0]
		xd, xs, dd, ds, od, os := xr.Data, xr.Stride, dr.Data, dr.Stride, or.Data, or.Stride
		c := st.c
		if !diag {
			c = 0
		}
		for t, zv := range z {
			i := blockRow(rows, st.parity, off, t)
			xv, dv := xd[i*xs], dd[i*ds]
			od[i*os] = 2 * (dv*a + xv*sv - zv*cv + c*(2*xv*dv*xv+(xv*xv-zv*zv)*dv))
		}
		return
	}
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, st.parity, off, t)
		xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
		di := dr.Data[i*dr.Stride : i*dr.Stride+r]
		zi := z[t*k : t*k+k]
		for c := range row {
			row[c] = 0
		}
		for l := 0; l < r; l++ {
			dv, xv := di[l], xi[l]
			al, sl := A[l*r:l*r+r], S[l*r:l*r+r]
			for c := range row {
				row[c] += dv*al[c] + xv*sl[c]
			}
		}
		for m, zv := range zi {
			cm := C[m*r : m*r+r]
			for c := range row {
				row[c] -= zv * cm[c]
			}
		}
		if diag {
			xd, dd := 0.0, 0.0
			for c, v := range xi {
				xd += v * di[c]
				dd += v * v
			}
			for _, v := range zi {
				dd -= v * v
			}
			xd *= 2
			for c := range row {
				row[c] += st.c * (xd*xi[c] + dd*di[c])
			}
		}
		out := or.Data[i*or.Stride : i*or.Stride+r]
		for c, v := range row {
			out[c] = 2 * v
		}
	}
}

// gradRows21 is gradRows for r = 2, k = 1, unrolled.
func (st *masked) gradRows21(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	m = m[:6]
	m00, m01 := 2*m[0], 2*m[1]
	m10, m11 := 2*m[2], 2*m[3]
	z0, z1 := 2*m[4], 2*m[5]
	c2 := 2 * st.c
	parity := st.parity
	for t, zi := range z {
		i := 2*t + off
		if !parity {
			i = rows[t]
		}
		x := xd[i*xs : i*xs+2 : i*xs+2]
		g := gd[i*gs : i*gs+2 : i*gs+2]
		a, b := x[0], x[1]
		g0 := a*m00 + b*m10 - zi*z0
		g1 := a*m01 + b*m11 - zi*z1
		if diag {
			cd := c2 * (a*a + b*b - zi*zi)
			g0 += cd * a
			g1 += cd * b
		}
		g[0], g[1] = g0, g1
	}
}

// gradRows51 is gradRows for r = 5, k = 1, unrolled.
func (st *masked) gradRows51(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	var mm [30]float64 // 2m, row-major 6×5
	for i, v := range m[:30] {
		mm[i] = 2 * v
	}
	c2 := 2 * st.c
	parity := st.parity
	for t, zi := range z {
		i := 2*t + off
		if !parity {
			i = rows[t]
		}
		x := xd[i*xs : i*xs+5 : i*xs+5]
		g := gd[i*gs : i*gs+5 : i*gs+5]
		x0, x1, x2, x3, x4 := x[0], x[1], x[2], x[3], x[4]
		cd := 0.0
		if diag {
			cd = c2 * ((x0*x0 + x1*x1) + (x2*x2 + x3*x3) + (x4*x4 - zi*zi))
		}
		g[0] = (x0*mm[0] + x1*mm[5]) + (x2*mm[10] + x3*mm[15]) + (x4*mm[20] - zi*mm[25]) + cd*x0
		g[1] = (x0*mm[1] + x1*mm[6]) + (x2*mm[11] + x3*mm[16]) + (x4*mm[21] - zi*mm[26]) + cd*x1
		g[2] = (x0*mm[2] + x1*mm[7]) + (x2*mm[12] + x3*mm[17]) + (x4*mm[22] - zi*mm[27]) + cd*x2
		g[3] = (x0*mm[3] + x1*mm[8]) + (x2*mm[13] + x3*mm[18]) + (x4*mm[23] - zi*mm[28]) + cd*x3
		g[4] = (x0*mm[4] + x1*mm[9]) + (x2*mm[14] + x3*mm[19]) + (x4*mm[24] - zi*mm[29]) + cd*x4
	}
}

// gradRowsK1 is gradRows for k = 1 and any r ≤ kernel.QRMaxS: each entry of the
// row is one dot product over a column of m (copied contiguous, scaled by
// 2), accumulated in a register.
func (st *masked) gradRowsK1(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	r := st.r
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	var mtBuf [kernel.QRMaxS * kernel.QRMaxS]float64
	var mzBuf [kernel.QRMaxS]float64
	mt, mz := mtBuf[:r*r], mzBuf[:r]
	for l := 0; l < r; l++ {
		for c := 0; c < r; c++ {
			mt[c*r+l] = 2 * m[l*r+c]
		}
		mz[l] = 2 * m[r*r+l]
	}
	c2 := 2 * st.c
	for t, zi := range z {
		i := blockRow(rows, st.parity, off, t)
		xi := xd[i*xs : i*xs+r : i*xs+r]
		gi := gd[i*gs : i*gs+r : i*gs+r]
		cd := 0.0
		if diag {
			dd := -zi * zi
			for _, v := range xi {
				dd += v * v
			}
			cd = c2 * dd
		}
		for c := range gi {
			col := mt[c*r : c*r+r : c*r+r]
			acc := -zi * mz[c]
			for l, v := range xi {
				acc += v * col[l]
			}
			gi[c] = acc + cd*xi[c]
		}
	}
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
