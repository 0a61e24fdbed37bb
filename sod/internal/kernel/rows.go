package kernel

import "gonum.org/v1/gonum/blas/blas64"

// This file holds the row passes of sod's streaming kernels for any
// search rank r and truth rank k (sod's structured.go has the algebra,
// structuredkernel.go the passes that call these): the rows of ∇h of one
// block from its s×r Gram products (GradRows, unrolled for r = 2, 3, 5 at
// k = 1 and for r = k = 3, with a column-register path for other k > 1 and
// the plain loop, gradRowsPlain, beyond), and the block sums and rows of the Hessian–vector product
// (HessSums, HessRows; HessSums31 and HessRows31 for r = 3, k = 1 with
// the parity layout).

// Shape is what the row passes read of one structured problem: the
// search rank R, the truth rank K, C = 1 − ε² (the weight of the D_ii
// terms on the unobserved rows U), and Parity, set for the PMC parity
// layout (O the odd rows, U the even rows; a block's t-th row is then
// 2t + off, not rows[t]).
type Shape struct {
	R, K   int
	C      float64
	Parity bool
}

// blockRow returns the row index of the t-th row of a block: 2t + off
// for the PMC parity layout, rows[t] otherwise.
func blockRow(rows []int, parity bool, off, t int) int {
	if parity {
		return 2*t + off
	}
	return rows[t]
}

// GradRows writes the rows of ∇h of one block: 2(x_i m_X − z_i m_Z), plus
// 2c·D_ii·x_i on the unobserved rows (diag), m = [m_X; m_Z] s×r.
func (sh Shape) GradRows(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	r, k := sh.R, sh.K
	if r == 3 && k == 1 {
		sh.gradRows31(gr, xr, rows, off, z, m, diag)
		return
	}
	if r == 2 && k == 1 {
		sh.gradRows21(gr, xr, rows, off, z, m, diag)
		return
	}
	if r == 5 && k == 1 {
		sh.gradRows51(gr, xr, rows, off, z, m, diag)
		return
	}
	if k == 1 && r <= QRMaxS {
		sh.gradRowsK1(gr, xr, rows, off, z, m, diag)
		return
	}
	if r == 3 && k == 3 {
		sh.gradRows33(gr, xr, rows, off, z, m, diag)
		return
	}
	if r+k <= QRMaxS {
		sh.gradRowsCols(gr, xr, rows, off, z, m, diag)
		return
	}
	sh.gradRowsPlain(gr, xr, rows, off, z, m, diag)
}

// RowD is D_ii = ‖x_i‖² − ‖z_i‖² of one row (x = x_i, z = z_i): the
// squares of x added in order, then those of z subtracted in order; the
// rows of ∇h (GradRows) and sod's Householder path use it, so their D_ii
// are the same to the last bit.
func RowD(x, z []float64) float64 {
	dd := 0.0
	for _, v := range x {
		dd += v * v
	}
	for _, v := range z {
		dd -= v * v
	}
	return dd
}

// gradRowsPlain is GradRows written plainly, for any r and k: each entry
// of the row starts at 0 and takes the products x_il·m_X[l, c] (l < r),
// then −z_il·m_Z[l, c] (l < k), then 2c·D_ii·x_ic on the unobserved rows,
// and is doubled. The other paths for k > 1 (gradRowsCols, gradRows33)
// make the same operations in the same order (TestGradRowsBitExact).
func (sh Shape) gradRowsPlain(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	r, k := sh.R, sh.K
	cnt := len(z) / k
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	mx, mz := m[:r*r], m[r*r:]
	cc := sh.C
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, sh.Parity, off, t)
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
			cd := cc * RowD(xi, zi)
			for c, v := range xi {
				gi[c] += cd * v
			}
		}
		for c := range gi {
			gi[c] *= 2
		}
	}
}

// gradRowsCols is gradRowsPlain for r + k ≤ QRMaxS: the columns of m_X
// and m_Z copied contiguous, each entry of the row accumulated in a
// register, column by column; the same operations in the same order.
func (sh Shape) gradRowsCols(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	r, k := sh.R, sh.K
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	var mxBuf, mzBuf [QRMaxS * QRMaxS]float64
	mxT, mzT := mxBuf[:r*r], mzBuf[:k*r]
	for l := 0; l < r; l++ {
		for c := 0; c < r; c++ {
			mxT[c*r+l] = m[l*r+c]
		}
	}
	for l := 0; l < k; l++ {
		for c := 0; c < r; c++ {
			mzT[c*k+l] = m[(r+l)*r+c]
		}
	}
	cc := sh.C
	cnt := len(z) / k
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, sh.Parity, off, t)
		xi := xd[i*xs : i*xs+r : i*xs+r]
		zi := z[t*k : t*k+k : t*k+k]
		gi := gd[i*gs : i*gs+r : i*gs+r]
		cd := 0.0
		if diag {
			cd = cc * RowD(xi, zi)
		}
		for c := range gi {
			colX := mxT[c*r : c*r+r : c*r+r]
			colZ := mzT[c*k : c*k+k : c*k+k]
			acc := 0.0
			for l, v := range xi {
				acc += v * colX[l]
			}
			for l, v := range zi {
				acc -= v * colZ[l]
			}
			if diag {
				acc += cd * xi[c]
			}
			gi[c] = acc * 2
		}
	}
}

// gradRows33 is gradRowsPlain for r = 3, k = 3 (the PMC rank family's
// instances), unrolled: the same operations in the same order.
func (sh Shape) gradRows33(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	var mm [19]float64 // m (6×3, row-major), then c
	copy(mm[:18], m[:18])
	mm[18] = sh.C
	parity := sh.Parity
	cnt := len(z) / 3
	z = z[:3*cnt]
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, parity, off, t)
		x := xd[i*xs : i*xs+3 : i*xs+3]
		g := gd[i*gs : i*gs+3 : i*gs+3]
		zt := z[3*t : 3*t+3 : 3*t+3]
		x0, x1, x2 := x[0], x[1], x[2]
		z0, z1, z2 := zt[0], zt[1], zt[2]
		g0, g1, g2 := 0.0, 0.0, 0.0
		g0 += x0 * mm[0]
		g1 += x0 * mm[1]
		g2 += x0 * mm[2]
		g0 += x1 * mm[3]
		g1 += x1 * mm[4]
		g2 += x1 * mm[5]
		g0 += x2 * mm[6]
		g1 += x2 * mm[7]
		g2 += x2 * mm[8]
		g0 -= z0 * mm[9]
		g1 -= z0 * mm[10]
		g2 -= z0 * mm[11]
		g0 -= z1 * mm[12]
		g1 -= z1 * mm[13]
		g2 -= z1 * mm[14]
		g0 -= z2 * mm[15]
		g1 -= z2 * mm[16]
		g2 -= z2 * mm[17]
		if diag {
			dd := 0.0
			dd += x0 * x0
			dd += x1 * x1
			dd += x2 * x2
			dd -= z0 * z0
			dd -= z1 * z1
			dd -= z2 * z2
			cd := mm[18] * dd
			g0 += cd * x0
			g1 += cd * x1
			g2 += cd * x2
		}
		g[0], g[1], g[2] = g0*2, g1*2, g2*2
	}
}

// gradRows31 is GradRows for r = 3, k = 1, unrolled.
func (sh Shape) gradRows31(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	// 2m and 2c in memory, not in registers: the loop then keeps its
	// values in registers (the compiler spilled and reloaded them every
	// row), and each product takes its factor from L1.
	var mm [13]float64
	for i, v := range m[:12] {
		mm[i] = 2 * v
	}
	mm[12] = 2 * sh.C
	if !sh.Parity {
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

// HessSums31 adds A = X_aᵀX_a, B = X_aᵀD_a and C = Z_aᵀD_a over the rows
// 2t + off (t < len(z)) to h, for r = 3, k = 1 (see HessSums): two loops
// over the rows (L1-resident after the first), nine sums each, so that
// every sum stays in a register.
func HessSums31(h []float64, xr, dr blas64.General, off int, z []float64) {
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

// HessRows31 writes the rows 2t + off (t < len(z)) of sod's hessVec product
// for r = 3, k = 1 (see HessRows; h combined, c the weight of the D_ii
// terms: 1 − ε² on U, 0 on O). Each row's x_i and d_i are read before its
// output is written, so or may alias xr or dr.
func HessRows31(or, xr, dr blas64.General, off int, z, h []float64, c float64) {
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

// HessSums stores A = X_aᵀX_a, B = X_aᵀD_a and C = Z_aᵀD_a of one block
// in h (r×r, r×r, k×r, row-major).
func (sh Shape) HessSums(h []float64, xr, dr blas64.General, rows []int, off int, z []float64) {
	r, k := sh.R, sh.K
	for i := range h {
		h[i] = 0
	}
	A, B, C := h[:r*r], h[r*r:2*r*r], h[2*r*r:]
	cnt := len(z) / k
	if r == 1 && k == 1 {
		var a, b, c float64
		xd, xs, dd, ds := xr.Data, xr.Stride, dr.Data, dr.Stride
		for t, zv := range z {
			i := blockRow(rows, sh.Parity, off, t)
			xv, dv := xd[i*xs], dd[i*ds]
			a += xv * xv
			b += xv * dv
			c += zv * dv
		}
		A[0], B[0], C[0] = a, b, c
		return
	}
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, sh.Parity, off, t)
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

// HessRows writes the rows of one block of sod's hessVec product (h from
// HessSums, combined); row is an r-vector of scratch.
func (sh Shape) HessRows(row []float64, or, xr, dr blas64.General, rows []int, off int, z, h []float64, diag bool) {
	r, k := sh.R, sh.K
	A, S, C := h[:r*r], h[r*r:2*r*r], h[2*r*r:]
	cnt := len(z) / k
	if r == 1 && k == 1 {
		a, sv, cv := A[0], S[0], C[0]
		xd, xs, dd, ds, od, os := xr.Data, xr.Stride, dr.Data, dr.Stride, or.Data, or.Stride
		c := sh.C
		if !diag {
			c = 0
		}
		for t, zv := range z {
			i := blockRow(rows, sh.Parity, off, t)
			xv, dv := xd[i*xs], dd[i*ds]
			od[i*os] = 2 * (dv*a + xv*sv - zv*cv + c*(2*xv*dv*xv+(xv*xv-zv*zv)*dv))
		}
		return
	}
	for t := 0; t < cnt; t++ {
		i := blockRow(rows, sh.Parity, off, t)
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
				row[c] += sh.C * (xd*xi[c] + dd*di[c])
			}
		}
		out := or.Data[i*or.Stride : i*or.Stride+r]
		for c, v := range row {
			out[c] = 2 * v
		}
	}
}

// gradRows21 is GradRows for r = 2, k = 1, unrolled.
func (sh Shape) gradRows21(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	m = m[:6]
	m00, m01 := 2*m[0], 2*m[1]
	m10, m11 := 2*m[2], 2*m[3]
	z0, z1 := 2*m[4], 2*m[5]
	c2 := 2 * sh.C
	parity := sh.Parity
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

// gradRows51 is GradRows for r = 5, k = 1, unrolled.
func (sh Shape) gradRows51(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	var mm [30]float64 // 2m, row-major 6×5
	for i, v := range m[:30] {
		mm[i] = 2 * v
	}
	c2 := 2 * sh.C
	parity := sh.Parity
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

// gradRowsK1 is GradRows for k = 1 and any r ≤ QRMaxS: each entry of the
// row is one dot product over a column of m (copied contiguous, scaled by
// 2), accumulated in a register.
func (sh Shape) gradRowsK1(gr, xr blas64.General, rows []int, off int, z, m []float64, diag bool) {
	r := sh.R
	xd, xs := xr.Data, xr.Stride
	gd, gs := gr.Data, gr.Stride
	var mtBuf [QRMaxS * QRMaxS]float64
	var mzBuf [QRMaxS]float64
	mt, mz := mtBuf[:r*r], mzBuf[:r]
	for l := 0; l < r; l++ {
		for c := 0; c < r; c++ {
			mt[c*r+l] = 2 * m[l*r+c]
		}
		mz[l] = 2 * m[r*r+l]
	}
	c2 := 2 * sh.C
	for t, zi := range z {
		i := blockRow(rows, sh.Parity, off, t)
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
