package sod

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// gaussianStream is the second PCG word used with the caller's seed, so
// that NewGaussian(n, m, seed) is reproducible across runs and platforms.
const gaussianStream = 0x50d6a055

// NewGaussian draws m independent symmetric n×n sensing matrices from the
// Gaussian ensemble of the paper's section 4.3 (eq. gaussian_ensemble):
// (A_i)_jj ~ N(0, 1/m), (A_i)_jk ~ N(0, 1/(2m)) for j < k, and
// (A_i)_kj = (A_i)_jk. For every symmetric M this gives
// E‖𝒜(M)‖² = ‖M‖_F².
//
// The draw is deterministic given seed (math/rand/v2 PCG with seed and a
// fixed stream word). Entries are drawn matrix by matrix, row by row over
// the upper triangle.
func NewGaussian(n, m int, seed uint64) (*DenseOperator, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: Gaussian ensemble size n = %d", ErrBadParameter, n)
	}
	if m < 1 {
		return nil, ErrNoMeasurements
	}
	rng := rand.New(rand.NewPCG(seed, gaussianStream))
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
