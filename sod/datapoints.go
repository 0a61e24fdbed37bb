package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
)

// DataPointsOperator is the sensing operator of a one-hidden-layer network
// with quadratic activation (paper section 6.3): the sensing matrices are
// A_i = x_i x_iᵀ for data points x_1, …, x_m ∈ ℝⁿ, so that
// 𝒜(XXᵀ)_i = ‖Xᵀx_i‖² is the network's output on x_i and h(X) is half the
// squared training error against the labels b.
//
// The rank-one matrices are never formed: Apply and Adjoint cost O(m n²).
// A DataPointsOperator is read-only after construction and safe for
// concurrent use.
type DataPointsOperator struct {
	n, m int
	x    *mat.Dense // m×n, row i = x_i
}

// NewDataPointsOperator returns the operator whose sensing matrices are
// x_i x_iᵀ, where x_i is the i-th row of xs (m×n, m ≥ 1, finite). xs is
// copied.
func NewDataPointsOperator(xs mat.Matrix) (*DataPointsOperator, error) {
	if xs == nil {
		return nil, ErrNoMeasurements
	}
	m, n := xs.Dims()
	if m == 0 {
		return nil, ErrNoMeasurements
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: data points have dimension 0", ErrShape)
	}
	if err := checkFinite("x", xs); err != nil {
		return nil, err
	}
	return &DataPointsOperator{n: n, m: m, x: mat.DenseCopyOf(xs)}, nil
}

// Dims returns n (the data dimension) and m (the number of data points).
func (d *DataPointsOperator) Dims() (n, m int) {
	if d == nil {
		return 0, 0
	}
	return d.n, d.m
}

// Apply stores 𝒜(M)_i = x_iᵀ M x_i in dst.
func (d *DataPointsOperator) Apply(dst []float64, M mat.Matrix) {
	n := d.n
	v := kernel.Contiguous(M)
	for i := 0; i < d.m; i++ {
		x := d.x.RawRowView(i)
		s := 0.0
		for j := 0; j < n; j++ {
			t := 0.0
			if v != nil {
				row := v[j*n : j*n+n]
				for k, xk := range x {
					t += row[k] * xk
				}
			} else {
				for k, xk := range x {
					t += M.At(j, k) * xk
				}
			}
			s += x[j] * t
		}
		dst[i] = s
	}
}

// Adjoint stores 𝒜*(y) = Σ_i y_i x_i x_iᵀ in dst.
func (d *DataPointsOperator) Adjoint(dst *mat.Dense, y []float64) {
	dst.Zero()
	raw := dst.RawMatrix()
	n := d.n
	for i := 0; i < d.m; i++ {
		if y[i] == 0 {
			continue
		}
		// The rank-one update dst += y_i x_i x_iᵀ as BLAS's dger does it
		// (row j gets (y_i x_ij)·x_i, the same operations in the same
		// order), written out: at n = 5 (the network's features) a
		// call of blas64.Ger per point cost more than its arithmetic.
		x := d.x.RawRowView(i)[:n]
		for j, xj := range x {
			a := y[i] * xj
			row := raw.Data[j*raw.Stride : j*raw.Stride+n]
			for k, xk := range x {
				row[k] += a * xk
			}
		}
	}
}

// SensingMatrix stores x_i x_iᵀ in dst.
func (d *DataPointsOperator) SensingMatrix(dst *mat.SymDense, i int) {
	x := d.x.RawRowView(i)
	for j := 0; j < d.n; j++ {
		for k := j; k < d.n; k++ {
			dst.SetSym(j, k, x[j]*x[k])
		}
	}
}

// XiSquared returns max_i ‖x_i x_iᵀ‖₂² = max_i ‖x_i‖⁴.
func (d *DataPointsOperator) XiSquared() float64 {
	if d == nil || d.x == nil {
		panic(errUnbuilt("DataPointsOperator", "XiSquared", "NewDataPointsOperator"))
	}
	best := 0.0
	for i := 0; i < d.m; i++ {
		x := d.x.RawRowView(i)
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		best = math.Max(best, s*s)
	}
	return best
}
