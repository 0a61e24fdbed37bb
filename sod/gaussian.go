package sod

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/randstream"
)

// MaxGaussianBytes bounds the memory of NewGaussianOperator (2·8·m·n² bytes: the
// drawn matrices and the operator's copy).
const MaxGaussianBytes = 1 << 30

// NewGaussianOperator draws m independent symmetric n×n sensing matrices from the
// Gaussian ensemble of the paper's section 4.3 (eq. gaussian_ensemble):
// (A_i)_jj ~ N(0, 1/m), (A_i)_jk ~ N(0, 1/(2m)) for j < k, and
// (A_i)_kj = (A_i)_jk. For every symmetric M this gives
// E‖𝒜(M)‖² = ‖M‖_F².
//
// The draw is deterministic given seed (randstream.New(seed,
// randstream.GaussianEnsemble)). Entries are drawn matrix by matrix, row by row over
// the upper triangle.
//
// n must lie in [1, MaxDenseSize] and m ≥ 1, and the m dense matrices (and
// the operator's copy) must fit in MaxGaussianBytes; a larger request is
// refused with ErrTooLarge before anything is allocated.
func NewGaussianOperator(n, m int, seed uint64) (*DenseOperator, error) {
	if n < 1 || n > MaxDenseSize {
		return nil, fmt.Errorf("%w: Gaussian ensemble size n = %d, want 1 ≤ n ≤ %d (MaxDenseSize)", ErrBadParameter, n, MaxDenseSize)
	}
	if m < 1 {
		return nil, fmt.Errorf("%w: Gaussian ensemble with m = %d sensing matrices, want m ≥ 1", ErrNoMeasurements, m)
	}
	if need := 2 * 8 * float64(m) * float64(n) * float64(n); need > MaxGaussianBytes {
		return nil, fmt.Errorf("%w: Gaussian ensemble n = %d, m = %d needs %.3g bytes, more than MaxGaussianBytes = %d MiB", ErrTooLarge, n, m, need, MaxGaussianBytes>>20)
	}
	rng := randstream.New(seed, randstream.GaussianEnsemble)
	as := make([]*mat.Dense, m)
	sd := 1 / math.Sqrt(float64(m))
	so := 1 / math.Sqrt(2*float64(m))
	for i := range as {
		a := mat.NewDense(n, n, nil)
		for j := 0; j < n; j++ {
			a.Set(j, j, sd*rng.NormFloat64())
			for k := j + 1; k < n; k++ {
				v := so * rng.NormFloat64()
				a.Set(j, k, v)
				a.Set(k, j, v)
			}
		}
		as[i] = a
	}
	return NewDenseOperator(as)
}

// gaussianMatrix returns an n×r matrix of independent N(0, 1) draws from rng.
func gaussianMatrix(rng *rand.Rand, n, r int) *mat.Dense {
	d := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < r; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}
