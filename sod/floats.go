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
	d, xv, gv := kernel.Contiguous(dst), kernel.Contiguous(x), kernel.Contiguous(g)
	if d == nil || xv == nil || gv == nil {
		dst.Copy(x)
		kernel.AxpyDense(alpha, g, dst)
		flushDense(dst)
		return
	}
	tau := flushAt
	for i, v := range xv {
		d[i] = kernel.Flush(v+alpha*gv[i], tau)
	}
}
