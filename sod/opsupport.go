package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SensingMatrix returns the i-th sensing matrix A_i of op (0 ≤ i < m).
// It uses op's SensingMatrix method when op implements SensingMatrixer and
// otherwise computes A_i = 𝒜*(e_i) with the adjoint, so it works for any
// Operator.
func SensingMatrix(op Operator, i int) (*mat.SymDense, error) {
	if op == nil {
		return nil, fmt.Errorf("%w: SensingMatrix: nil operator", ErrBadParameter)
	}
	n, m := op.Dims()
	if i < 0 || i >= m {
		return nil, fmt.Errorf("%w: sensing matrix index %d not in [0, %d)", ErrShape, i, m)
	}
	dst := mat.NewSymDense(n, nil)
	if sm, ok := op.(SensingMatrixer); ok {
		sm.SensingMatrix(dst, i)
		return dst, nil
	}
	e := make([]float64, m)
	e[i] = 1
	a := mat.NewDense(n, n, nil)
	op.Adjoint(a, e)
	for j := 0; j < n; j++ {
		for k := j; k < n; k++ {
			dst.SetSym(j, k, 0.5*(a.At(j, k)+a.At(k, j)))
		}
	}
	return dst, nil
}

// XiSquared returns Ξ² = max_i ‖A_i‖₂² (REPRODUCTION.md C2), the largest squared
// spectral norm (largest |eigenvalue|) of the sensing matrices. It uses
// op's XiSquared method when available and otherwise extracts each A_i with
// SensingMatrix and computes its eigenvalues (cost O(m n³)).
func XiSquared(op Operator) (float64, error) {
	if op == nil {
		return 0, fmt.Errorf("%w: XiSquared: nil operator", ErrBadParameter)
	}
	if xs, ok := op.(XiSquarer); ok {
		return xs.XiSquared(), nil
	}
	_, m := op.Dims()
	var eig mat.EigenSym
	best := 0.0
	for i := 0; i < m; i++ {
		a, err := SensingMatrix(op, i)
		if err != nil {
			return 0, err
		}
		s, err := spectralNormSym(&eig, a)
		if err != nil {
			return 0, err
		}
		best = math.Max(best, s*s)
	}
	return best, nil
}

// spectralNormSym returns max |eigenvalue| of a.
func spectralNormSym(eig *mat.EigenSym, a mat.Symmetric) (float64, error) {
	if err := symEigen(eig, a, false, "a sensing matrix"); err != nil {
		return 0, err
	}
	s := 0.0
	for _, v := range eig.RawValues() {
		s = math.Max(s, math.Abs(v))
	}
	return s, nil
}

// applyNormal stores 𝒜*𝒜(M) in dst, using the operator's Normal method
// when it has one and otherwise Apply into y (length m) followed by Adjoint.
func applyNormal(op Operator, dst *mat.Dense, M mat.Matrix, y []float64) {
	if no, ok := op.(NormalOperator); ok {
		no.Normal(dst, M)
		return
	}
	op.Apply(y, M)
	op.Adjoint(dst, y)
}

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
