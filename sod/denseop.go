package sod

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
)

// DenseOperator is a sensing operator given by explicit symmetric sensing
// matrices A_1, …, A_m (paper section 1.1, 𝒜(M)_i = ⟨A_i, M⟩). It stores
// them as the rows of an m×n² matrix Φ, Φ[i, j·n+k] = (A_i)_jk, so that
// 𝒜(M) = Φ vec(M) and 𝒜*(y) = mat(Φᵀ y) are single BLAS calls.
//
// A DenseOperator is read-only after construction and safe for concurrent use.
type DenseOperator struct {
	n, m int
	phi  *mat.Dense // m × n²

	xiOnce sync.Once
	xi2    float64
	xiErr  error
}

// symTol is the relative tolerance used to accept a sensing matrix as
// symmetric: |a_jk − a_kj| ≤ symTol·(1 + max|a|).
const symTol = 1e-12

// NewDenseOperator returns the operator with sensing matrices as. Each
// matrix must be n×n with the same n, finite and symmetric (up to a
// relative 1e-12, after which it is symmetrised exactly); at least one
// matrix is required. The matrices are copied.
func NewDenseOperator(as []*mat.Dense) (*DenseOperator, error) {
	if len(as) == 0 {
		return nil, ErrNoMeasurements
	}
	if as[0] == nil {
		return nil, fmt.Errorf("%w: sensing matrix 0 is nil", ErrShape)
	}
	n, c := as[0].Dims()
	if n != c || n == 0 {
		return nil, fmt.Errorf("%w: sensing matrix 0 is %d×%d, want square", ErrShape, n, c)
	}
	m := len(as)
	phi := mat.NewDense(m, n*n, nil)
	for i, a := range as {
		if a == nil {
			return nil, fmt.Errorf("%w: sensing matrix %d is nil", ErrShape, i)
		}
		r, c := a.Dims()
		if r != n || c != n {
			return nil, fmt.Errorf("%w: sensing matrix %d is %d×%d, want %d×%d", ErrShape, i, r, c, n, n)
		}
		if err := checkFinite(fmt.Sprintf("A_%d", i), a); err != nil {
			return nil, err
		}
		amax := mat.Norm(a, math.Inf(1))
		row := phi.RawRowView(i)
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				ajk, akj := a.At(j, k), a.At(k, j)
				if math.Abs(ajk-akj) > symTol*(1+amax) {
					return nil, fmt.Errorf("%w: A_%d[%d,%d] = %v but A_%d[%d,%d] = %v", ErrNotSymmetric, i, j, k, ajk, i, k, j, akj)
				}
				row[j*n+k] = 0.5 * (ajk + akj)
			}
		}
	}
	return &DenseOperator{n: n, m: m, phi: phi}, nil
}

// Dims returns n and m.
func (o *DenseOperator) Dims() (n, m int) {
	if o == nil {
		return 0, 0
	}
	return o.n, o.m
}

// Apply stores 𝒜(M) in dst.
func (o *DenseOperator) Apply(dst []float64, M mat.Matrix) {
	if v := kernel.Contiguous(M); v != nil {
		blas64.Gemv(blas.NoTrans, 1, o.phi.RawMatrix(), blas64.Vector{N: len(v), Data: v, Inc: 1}, 0, blas64.Vector{N: o.m, Data: dst, Inc: 1})
		return
	}
	n := o.n
	for i := 0; i < o.m; i++ {
		row := o.phi.RawRowView(i)
		s := 0.0
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				s += row[j*n+k] * M.At(j, k)
			}
		}
		dst[i] = s
	}
}

// Adjoint stores 𝒜*(y) = Σ_i y_i A_i in dst.
func (o *DenseOperator) Adjoint(dst *mat.Dense, y []float64) {
	if v := kernel.Contiguous(dst); v != nil {
		blas64.Gemv(blas.Trans, 1, o.phi.RawMatrix(), blas64.Vector{N: o.m, Data: y, Inc: 1}, 0, blas64.Vector{N: len(v), Data: v, Inc: 1})
		return
	}
	n := o.n
	dst.Zero()
	for i := 0; i < o.m; i++ {
		row := o.phi.RawRowView(i)
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				dst.Set(j, k, dst.At(j, k)+y[i]*row[j*n+k])
			}
		}
	}
}

// SensingMatrix stores A_i in dst (n×n).
func (o *DenseOperator) SensingMatrix(dst *mat.SymDense, i int) {
	row := o.phi.RawRowView(i)
	for j := 0; j < o.n; j++ {
		for k := j; k < o.n; k++ {
			dst.SetSym(j, k, row[j*o.n+k])
		}
	}
}

// XiSquared returns Ξ² = max_i ‖A_i‖₂², computed once on first use.
// It returns 0 only if every A_i is zero; if an eigen-decomposition fails
// (which does not happen for finite symmetric matrices) it returns +Inf.
func (o *DenseOperator) XiSquared() float64 {
	if o == nil || o.phi == nil {
		panic(errUnbuilt("DenseOperator", "XiSquared", "NewDenseOperator"))
	}
	o.xiOnce.Do(func() {
		var eig mat.EigenSym
		a := mat.NewSymDense(o.n, nil)
		for i := 0; i < o.m; i++ {
			o.SensingMatrix(a, i)
			s, err := spectralNormSym(&eig, a)
			if err != nil {
				o.xi2, o.xiErr = math.Inf(1), err
				return
			}
			o.xi2 = math.Max(o.xi2, s*s)
		}
	})
	return o.xi2
}
