package sod

import (
	"fmt"
	"math"
	"sodworkbench.org/workbench/sod/internal/kernel"

	"gonum.org/v1/gonum/mat"
)

// Small helpers on floats and matrices used throughout the package.

// checkFinite returns ErrNotFinite if a has a NaN or infinite entry.
func checkFinite(what string, a mat.Matrix) error {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := a.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s[%d,%d] = %v", ErrNotFinite, what, i, j, v)
			}
		}
	}
	return nil
}

// isFinite reports whether x is neither NaN nor infinite.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// contiguous returns the raw row-major data of M when M is a *mat.Dense
// with stride equal to its number of columns, and nil otherwise.
func contiguous(M mat.Matrix) []float64 {
	d, ok := M.(*mat.Dense)
	if !ok {
		return nil
	}
	raw := d.RawMatrix()
	if raw.Stride != raw.Cols {
		return nil
	}
	return raw.Data[:raw.Rows*raw.Cols]
}

// finiteOrInf maps NaN (from ∞ − ∞ in an overflowing evaluation) to +Inf,
// so an overflow reads as one.
func finiteOrInf(h float64) float64 {
	if math.IsNaN(h) {
		return math.Inf(1)
	}
	return h
}

// flushAt is the threshold gradient descent's step uses (the package
// doc's "Overflow and subnormal numbers"): kernel.FlushBelow, or 0 in
// tests that compare with the unflushed computation.
var flushAt = kernel.FlushBelow

// flushTiny returns +0 when |v| < flushAt, else v (kernel.Flush).
func flushTiny(v float64) float64 { return kernel.Flush(v, flushAt) }

// flushDense applies flushTiny to every entry of a.
func flushDense(a *mat.Dense) {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)
		for j, v := range row[:c] {
			row[j] = flushTiny(v)
		}
	}
}

// stepInto stores x + alpha·g in dst (equal-shaped, contiguous dense
// matrices as GradientDescent allocates them) without allocating, each
// entry flushed (flushTiny).
func stepInto(dst, x, g *mat.Dense, alpha float64) {
	d, xv, gv := contiguous(dst), contiguous(x), contiguous(g)
	if d == nil || xv == nil || gv == nil {
		dst.Copy(x)
		axpyDense(alpha, g, dst)
		flushDense(dst)
		return
	}
	tau := flushAt
	for i, v := range xv {
		d[i] = kernel.Flush(v+alpha*gv[i], tau)
	}
}

// frobNorm returns ‖a‖_F: a plain sum of squares when it is safely inside
// float64's range, else gonum's scaled computation.
func frobNorm(a *mat.Dense) float64 {
	v := contiguous(a)
	if v == nil {
		return mat.Norm(a, 2)
	}
	ss := 0.0
	for _, x := range v {
		ss += x * x
	}
	if ss >= 1e-280 && ss <= 1e280 {
		return math.Sqrt(ss)
	}
	return mat.Norm(a, 2)
}

// axpyDense computes y += alpha·x for equal-shaped dense matrices, in place
// and without allocating.
func axpyDense(alpha float64, x, y *mat.Dense) {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		xr, yr := x.RawRowView(i), y.RawRowView(i)
		for j := 0; j < c; j++ {
			yr[j] += alpha * xr[j]
		}
	}
}

// sumSquares returns the sum of the squares of a's entries in four
// interleaved partial sums (not frobNorm's row order: four independent
// chains of additions instead of one), or −1 if a is not contiguous.
func sumSquares(a *mat.Dense) float64 {
	v := contiguous(a)
	if v == nil {
		return -1
	}
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		s0 += w[0] * w[0]
		s1 += w[1] * w[1]
		s2 += w[2] * w[2]
		s3 += w[3] * w[3]
	}
	for ; i < len(v); i++ {
		s0 += v[i] * v[i]
	}
	return (s0 + s1) + (s2 + s3)
}
