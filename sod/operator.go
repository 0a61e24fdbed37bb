package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Operator is a linear sensing operator 𝒜 : ℝ^{n×n} → ℝ^m of the paper's
// section 1.1, 𝒜(M)_i = ⟨A_i, M⟩ with symmetric sensing matrices A_i.
//
// Implementations must be safe for concurrent use by several goroutines
// (they are read-only after construction). Apply and Adjoint do not check
// their arguments: shapes are validated once, where a Problem is built.
type Operator interface {
	// Dims returns n, the side of the sensed matrices, and m, the
	// number of measurements.
	Dims() (n, m int)
	// Apply stores 𝒜(M) in dst: dst[i] = ⟨A_i, M⟩. len(dst) == m and M is n×n.
	Apply(dst []float64, M mat.Matrix)
	// Adjoint stores 𝒜*(y) = Σ_i y_i A_i in dst, an n×n matrix.
	Adjoint(dst *mat.Dense, y []float64)
}

// NormalOperator is implemented by operators that have a faster path for
// 𝒜*𝒜(M) = Σ_i ⟨A_i, M⟩ A_i than Apply followed by Adjoint (for example
// the elementwise perturbed matrix completion operator).
type NormalOperator interface {
	Operator
	// Normal stores 𝒜*𝒜(M) in dst (n×n).
	Normal(dst *mat.Dense, M mat.Matrix)
}

// SensingMatrixer is an optional interface for operators that can return
// their i-th sensing matrix A_i directly (0 ≤ i < m). Operators that do not
// implement it still expose A_i as 𝒜*(e_i); see SensingMatrix.
type SensingMatrixer interface {
	Operator
	// SensingMatrix stores A_i in dst, which must be n×n.
	SensingMatrix(dst *mat.SymDense, i int)
}

// XiSquarer is an optional interface for operators that know
// Ξ² = max_i ‖A_i‖₂², the squared largest spectral norm of their sensing
// matrices (the quantity Ξ of the paper's section 5 conditions on l).
type XiSquarer interface {
	Operator
	// XiSquared returns max_i ‖A_i‖₂².
	XiSquared() float64
}

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
