package sod

import "gonum.org/v1/gonum/mat"

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
