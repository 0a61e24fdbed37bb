package kernel

import "math"

// This file holds the tall-skinny QR of sod's streaming kernels
// (structuredkernel.go, evalStream and blockQR): each block's rows
// [x_i z_i] are gathered, QRChunk at a time, into an L1-resident chunk
// (Gather, which also forms the first reflection's dot products) and
// folded into the block's s×s R factor by Householder reflections of the
// stacked matrix [R; chunk] (QRFold).

// QRChunk is the number of rows a QR chunk holds: s·kernel.QRChunk float64s,
// 3–10 KiB for s ≤ 10, so a chunk stays in L1 while it is reflected; the
// per-chunk cost of the reflections (a square root and a division per
// column) is spread over 128 rows (64 was 5 % slower at r = 3, 256 no
// faster).
const QRChunk = 128

// ZeroCol reports whether column c of the upper triangular R (leading
// dimension ld) is zero.
func ZeroCol(R []float64, ld, c int) bool {
	for p := 0; p <= c; p++ {
		if R[p*ld+c] != 0 {
			return false
		}
	}
	return true
}

// Gather copies the rows [x_i z_i] of one chunk (t0 ≤ t < t0 + b of a
// block) into chunk, column-major, and adds Σ D_ii² over them to sum when
// diag is set. The rank methods (k = 1) also store the dots of the first
// column with every column in w and report whether the z column is zero.
type Gather struct {
	Chunk  []float64 // QRChunk×s, column-major
	XD     []float64 // X's data
	XS     int       // X's stride
	Rows   []int     // the block's rows (without the parity layout)
	Parity bool      // row t of the block is 2t + Off
	Off    int
	T0     int  // the chunk's first row in the block
	Diag   bool // add Σ D_ii² over the chunk to Sum
	Sum    float64
}

// row returns the offset in xd of the block's row t0 + tt.
func (g *Gather) row(tt int) int {
	if g.Parity {
		return (2*(g.T0+tt) + g.Off) * g.XS
	}
	return g.Rows[g.T0+tt] * g.XS
}

// Rank33 is the Gather for r = 3, k = 3 (the PMC rank family): Any's
// copies and Σ D_ii², plus the dots of the first column with every column
// in w, each summed as DotCols sums it after Any (dot4's order for columns
// 0–3, dot2's two partial sums for 4 and 5), so the result is the same to
// the last bit (TestGatherRank33BitExact).
func (g *Gather) Rank33(w *[QRMaxS]float64, z []float64) {
	b := len(z) / 3
	ch := g.Chunk
	c0, c1, c2 := ch[:b], ch[QRChunk:QRChunk+b], ch[2*QRChunk:2*QRChunk+b]
	c3, c4, c5 := ch[3*QRChunk:3*QRChunk+b], ch[4*QRChunk:4*QRChunk+b], ch[5*QRChunk:5*QRChunk+b]
	var s0, s1, s2, s3, s4, s5, t4, t5 float64
	sum := g.Sum
	for tt := 0; tt < b; tt++ {
		i := g.row(tt)
		x, zt := g.XD[i:i+3:i+3], z[3*tt:3*tt+3:3*tt+3]
		a0, a1, a2, z0, z1, z2 := x[0], x[1], x[2], zt[0], zt[1], zt[2]
		c0[tt], c1[tt], c2[tt], c3[tt], c4[tt], c5[tt] = a0, a1, a2, z0, z1, z2
		s0 += a0 * a0
		s1 += a0 * a1
		s2 += a0 * a2
		s3 += a0 * z0
		if tt%2 == 0 {
			s4 += a0 * z1
			s5 += a0 * z2
		} else {
			t4 += a0 * z1
			t5 += a0 * z2
		}
		if g.Diag {
			dd := 0.0
			dd += a0 * a0
			dd += a1 * a1
			dd += a2 * a2
			dd -= z0 * z0
			dd -= z1 * z1
			dd -= z2 * z2
			sum += dd * dd
		}
	}
	w[0], w[1], w[2], w[3], w[4], w[5] = s0, s1, s2, s3, s4+t4, s5+t5
	if g.Diag {
		g.Sum = sum
	}
}

// any is the Gather for any r and k (z the chunk's rows of Z, k each).
func (g *Gather) Any(r, k int, z []float64) {
	b := len(z) / k
	for tt := 0; tt < b; tt++ {
		i := g.row(tt)
		dd := 0.0
		for c, v := range g.XD[i : i+r] {
			g.Chunk[c*QRChunk+tt] = v
			dd += v * v
		}
		for c, v := range z[tt*k : tt*k+k] {
			g.Chunk[(r+c)*QRChunk+tt] = v
			dd -= v * v
		}
		g.Sum += dd * dd
	}
}

// rank2 is the Gather for r = 2, k = 1.
func (g *Gather) Rank2(w *[QRMaxS]float64, z []float64) bool {
	b := len(z)
	ch := g.Chunk
	c0, c1, c2 := ch[:b], ch[QRChunk:QRChunk+b], ch[2*QRChunk:2*QRChunk+b]
	var s00, s01, s02, sum float64
	var nz uint64
	for tt, zt := range z {
		i := g.row(tt)
		x := g.XD[i : i+2 : i+2]
		a, bb := x[0], x[1]
		c0[tt], c1[tt], c2[tt] = a, bb, zt
		s00 += a * a
		s01 += a * bb
		s02 += a * zt
		nz |= math.Float64bits(zt)
		if g.Diag {
			dd := a*a + bb*bb - zt*zt
			sum += dd * dd
		}
	}
	w[0], w[1], w[2] = s00, s01, s02
	g.Sum += sum
	return nz<<1 == 0
}

// rank3 is the Gather for r = 3, k = 1.
func (g *Gather) Rank3(w *[QRMaxS]float64, z []float64) bool {
	b := len(z)
	ch := g.Chunk
	c0, c1, c2, c3 := ch[:b], ch[QRChunk:QRChunk+b], ch[2*QRChunk:2*QRChunk+b], ch[3*QRChunk:3*QRChunk+b]
	var s00, s01, s02, s03, sum float64
	var nz uint64
	for tt, zt := range z {
		i := g.row(tt)
		x := g.XD[i : i+3 : i+3]
		a, bb, c := x[0], x[1], x[2]
		c0[tt], c1[tt], c2[tt], c3[tt] = a, bb, c, zt
		s00 += a * a
		s01 += a * bb
		s02 += a * c
		s03 += a * zt
		nz |= math.Float64bits(zt)
		if g.Diag {
			dd := a*a + bb*bb + c*c - zt*zt
			sum += dd * dd
		}
	}
	w[0], w[1], w[2], w[3] = s00, s01, s02, s03
	g.Sum += sum
	return nz<<1 == 0
}

// rank5 is the Gather for r = 5, k = 1.
func (g *Gather) Rank5(w *[QRMaxS]float64, z []float64) bool {
	b := len(z)
	ch := g.Chunk
	c0, c1, c2 := ch[:b], ch[QRChunk:QRChunk+b], ch[2*QRChunk:2*QRChunk+b]
	c3, c4, c5 := ch[3*QRChunk:3*QRChunk+b], ch[4*QRChunk:4*QRChunk+b], ch[5*QRChunk:5*QRChunk+b]
	var s00, s01, s02, s03, s04, s05, sum float64
	var nz uint64
	for tt, zt := range z {
		i := g.row(tt)
		x := g.XD[i : i+5 : i+5]
		a := x[0]
		c0[tt], c1[tt], c2[tt], c3[tt], c4[tt], c5[tt] = a, x[1], x[2], x[3], x[4], zt
		s00 += a * a
		s01 += a * x[1]
		s02 += a * x[2]
		s03 += a * x[3]
		s04 += a * x[4]
		s05 += a * zt
		nz |= math.Float64bits(zt)
		if g.Diag {
			dd := a*a + x[1]*x[1] + x[2]*x[2] + x[3]*x[3] + x[4]*x[4] - zt*zt
			sum += dd * dd
		}
	}
	w[0], w[1], w[2], w[3], w[4], w[5] = s00, s01, s02, s03, s04, s05
	g.Sum += sum
	return nz<<1 == 0
}

// QRFold replaces the upper triangular R (leading dimension ld, its first
// s columns and rows used) with the R factor of the stacked matrix [R; C],
// C the first s columns of the b-row chunk, stored column-major with
// leading dimension QRChunk (overwritten). w holds the dots of the first
// column with every column (w[c] = C_0ᵀC_c, overwritten). It reports false
// when a column's sum of squares leaves [1e-250, 1e250] (or underflows to
// zero with nonzero entries).
//
// Reflection j needs c_jᵀc_c for the columns c ≥ j, which do not depend on
// the reflection itself: the sweep that applies reflection j − 1 to the
// columns c ≥ j computes them from the updated values still in registers,
// so each reflection costs one sweep over the columns it changes.
func QRFold(R []float64, ld int, C []float64, b, s int, w *[QRMaxS]float64) bool {
	for j := 0; j < s; j++ {
		cj := C[j*QRChunk : j*QRChunk+b]
		m := s - 1 - j
		if !reflectRow(R, ld, j, w[:m+1], cj) {
			return false
		}
		if m > 0 {
			sweep(w[:m+1], cj, C[(j+1)*QRChunk:], b)
		}
	}
	return true
}

// reflectRow performs step j of QRFold on R (leading dimension ld) given
// w[c] = c_jᵀc_{j+c} (c_j = cj, the chunk's column j): it updates row j
// of R and replaces w[1:] with the multiples f of cj to add to the chunk's
// columns j+1, … (all zero when the column is zero and there is nothing to
// reflect). It reports false for an unsafe sum of squares (see QRFold).
func reflectRow(R []float64, ld, j int, w, cj []float64) bool {
	ss := w[0]
	if ss == 0 {
		for _, v := range cj {
			if v != 0 {
				return false
			}
		}
		for c := 1; c < len(w); c++ {
			w[c] = 0
		}
		return true // nothing to reflect
	}
	if !(ss >= 1e-250 && ss <= 1e250) {
		return false
	}
	rjj := R[j*ld+j]
	alpha := -math.Copysign(math.Sqrt(rjj*rjj+ss), rjj)
	v0 := rjj - alpha
	// H = I − τvvᵀ, v = (v0 in row j, cj in the chunk), vᵀv = −2·alpha·v0.
	tau := -1 / (alpha * v0)
	for c := 1; c < len(w); c++ {
		f := tau * (v0*R[j*ld+j+c] + w[c])
		R[j*ld+j+c] -= f * v0
		w[c] = -f
	}
	R[j*ld+j] = alpha
	return true
}

// sweep adds w[c+1]·a to the m = len(w) − 1 columns C_c = cols[c·QRChunk :
// c·QRChunk+b] and stores C_0ᵀC_c of the updated columns in w[c]: C_0
// and up to two more columns in one loop, the rest up to three at a time
// against the updated C_0.
func sweep(w, a, cols []float64, b int) {
	m := len(w) - 1
	a = a[:b]
	col := func(c int) []float64 { return cols[c*QRChunk : c*QRChunk+b] }
	p := col(0)
	g := min(m, 3)
	switch g {
	case 3:
		w[0], w[1], w[2] = applyDot3(a, p, col(1), col(2), w[1], w[2], w[3])
	case 2:
		w[0], w[1] = applyDot2(a, p, col(1), w[1], w[2])
	case 1:
		w[0] = applyDot1(a, p, w[1])
	}
	for c := g; c < m; c += 3 {
		switch min(3, m-c) {
		case 3:
			w[c], w[c+1], w[c+2] = applyDotP3(a, p, col(c), col(c+1), col(c+2), w[c+1], w[c+2], w[c+3])
		case 2:
			w[c], w[c+1] = applyDotP2(a, p, col(c), col(c+1), w[c+1], w[c+2])
		case 1:
			w[c] = applyDotP1(a, p, col(c), w[c+1])
		}
	}
}

// applyDot3 adds f_c·a to c_0, c_1, c_2 and returns the dots of the
// updated c_0 with the three updated columns.
func applyDot3(a, c0, c1, c2 []float64, f0, f1, f2 float64) (s0, s1, s2 float64) {
	c0, c1, c2 = c0[:len(a)], c1[:len(a)], c2[:len(a)]
	for i, v := range a {
		u0, u1, u2 := c0[i]+f0*v, c1[i]+f1*v, c2[i]+f2*v
		c0[i], c1[i], c2[i] = u0, u1, u2
		s0 += u0 * u0
		s1 += u0 * u1
		s2 += u0 * u2
	}
	return s0, s1, s2
}

// applyDot2 is applyDot3 for two columns, with the rows in two halves
// (two independent sums per dot).
func applyDot2(a, c0, c1 []float64, f0, f1 float64) (s0, s1 float64) {
	h := len(a) / 2
	a0, a1 := a[:h], a[h:][:h]
	p0, p1, q0, q1 := c0[:h], c0[h:][:h], c1[:h], c1[h:][:h]
	var t0, t1 float64
	for i, v := range a0 {
		v1 := a1[i]
		u, x := p0[i]+f0*v, q0[i]+f1*v
		u1, x1 := p1[i]+f0*v1, q1[i]+f1*v1
		p0[i], q0[i], p1[i], q1[i] = u, x, u1, x1
		s0 += u * u
		s1 += u * x
		t0 += u1 * u1
		t1 += u1 * x1
	}
	if len(a)%2 == 1 {
		i := len(a) - 1
		u, x := c0[i]+f0*a[i], c1[i]+f1*a[i]
		c0[i], c1[i] = u, x
		s0 += u * u
		s1 += u * x
	}
	return s0 + t0, s1 + t1
}

// applyDot1 is applyDot3 for one column, with the rows in two halves.
func applyDot1(a, c0 []float64, f0 float64) float64 {
	h := len(a) / 2
	a0, a1 := a[:h], a[h:][:h]
	p0, p1 := c0[:h], c0[h:][:h]
	var s0, t0 float64
	for i, v := range a0 {
		u, u1 := p0[i]+f0*v, p1[i]+f0*a1[i]
		p0[i], p1[i] = u, u1
		s0 += u * u
		t0 += u1 * u1
	}
	if len(a)%2 == 1 {
		i := len(a) - 1
		u := c0[i] + f0*a[i]
		c0[i] = u
		s0 += u * u
	}
	return s0 + t0
}

// applyDotP3 adds f_c·a to c_0, c_1, c_2 and returns the dots of p with
// the updated columns.
func applyDotP3(a, p, c0, c1, c2 []float64, f0, f1, f2 float64) (s0, s1, s2 float64) {
	p, c0, c1, c2 = p[:len(a)], c0[:len(a)], c1[:len(a)], c2[:len(a)]
	for i, v := range a {
		u0, u1, u2 := c0[i]+f0*v, c1[i]+f1*v, c2[i]+f2*v
		c0[i], c1[i], c2[i] = u0, u1, u2
		pv := p[i]
		s0 += pv * u0
		s1 += pv * u1
		s2 += pv * u2
	}
	return s0, s1, s2
}

// applyDotP2 is applyDotP3 for two columns.
func applyDotP2(a, p, c0, c1 []float64, f0, f1 float64) (s0, s1 float64) {
	p, c0, c1 = p[:len(a)], c0[:len(a)], c1[:len(a)]
	for i, v := range a {
		u0, u1 := c0[i]+f0*v, c1[i]+f1*v
		c0[i], c1[i] = u0, u1
		s0 += p[i] * u0
		s1 += p[i] * u1
	}
	return s0, s1
}

// applyDotP1 is applyDotP3 for one column.
func applyDotP1(a, p, c0 []float64, f0 float64) float64 {
	p, c0 = p[:len(a)], c0[:len(a)]
	var s0 float64
	for i, v := range a {
		u := c0[i] + f0*v
		c0[i] = u
		s0 += p[i] * u
	}
	return s0
}

// QRMaxS is the largest s = r + k of the streaming kernel (evalStream
// leaves larger ones to evalHouse).
const QRMaxS = 32

// DotCols stores a·C_c in w[c] for the len(w) columns C_c =
// cols[c·QRChunk : c·QRChunk+b], in sweeps over up to four columns.
func DotCols(w, a, cols []float64, b int) {
	a = a[:b]
	col := func(c int) []float64 { return cols[c*QRChunk : c*QRChunk+b] }
	c := 0
	for ; c+4 <= len(w); c += 4 {
		w[c], w[c+1], w[c+2], w[c+3] = dot4(a, col(c), col(c+1), col(c+2), col(c+3))
	}
	switch len(w) - c {
	case 3:
		w[c], w[c+1], w[c+2] = dot3(a, col(c), col(c+1), col(c+2))
	case 2:
		w[c], w[c+1] = dot2(a, col(c), col(c+1))
	case 1:
		w[c] = dot(a, col(c))
	}
}

func dot4(a, b0, b1, b2, b3 []float64) (s0, s1, s2, s3 float64) {
	b0, b1, b2, b3 = b0[:len(a)], b1[:len(a)], b2[:len(a)], b3[:len(a)]
	for i, v := range a {
		s0 += v * b0[i]
		s1 += v * b1[i]
		s2 += v * b2[i]
		s3 += v * b3[i]
	}
	return
}

func dot3(a, b0, b1, b2 []float64) (s0, s1, s2 float64) {
	b0, b1, b2 = b0[:len(a)], b1[:len(a)], b2[:len(a)]
	for i, v := range a {
		s0 += v * b0[i]
		s1 += v * b1[i]
		s2 += v * b2[i]
	}
	return
}

func dot2(a, b0, b1 []float64) (s0, s1 float64) {
	var t0, t1 float64
	b0, b1 = b0[:len(a)], b1[:len(a)]
	i := 0
	for ; i+2 <= len(a); i += 2 {
		s0 += a[i] * b0[i]
		s1 += a[i] * b1[i]
		t0 += a[i+1] * b0[i+1]
		t1 += a[i+1] * b1[i+1]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b0[i]
		s1 += a[i] * b1[i]
	}
	return s0 + t0, s1 + t1
}

// dot returns xᵀy (len(y) ≥ len(x)) with four partial sums.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}
