package sod

import (
	"fmt"
	"math"

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
