package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// eigenFlush is the relative size below which entries of a symmetric matrix are set to zero
// before its eigen-decomposition. Changing entries of size ≤ 2⁻¹⁰⁰·max|a_ij| moves every
// eigenvalue by at most n·2⁻¹⁰⁰·max|a_ij|, far below float64 resolution.
const eigenFlush = 0x1p-100

// symEigen factorises the symmetric matrix a (values ascending, and vectors when vectors is
// true) and guards against failures of gonum v0.17.0's LAPACK path on matrices with a
// nearly-zero block, as gradient descent on PMC produces when some coordinates of X decay to
// ≈1e-159: asking for values only can panic ("insufficient length of a"; reproduced in
// TestSymEigenTinyBlock), and absurd eigenvalues (λ_n ≈ −1e121 for a matrix of norm 0.76)
// were seen once in the success-rate study. So entries far below float64 resolution are
// flushed to zero first (see eigenFlush), the decomposition always runs with vectors, a panic
// becomes an error, and the result is checked: every |λ| must be at most the Frobenius norm of
// a (the spectral radius never exceeds it).
func symEigen(eig *mat.EigenSym, a mat.Symmetric, vectors bool, what string) error {
	n := a.SymmetricDim()
	maxAbs, frob := 0.0, 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := math.Abs(a.At(i, j))
			maxAbs = math.Max(maxAbs, v)
			frob += v * v
		}
	}
	frob = math.Sqrt(frob)
	if math.IsNaN(frob) || math.IsInf(frob, 0) {
		return fmt.Errorf("%w: %s has non-finite entries", ErrNotFinite, what)
	}
	b := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := a.At(i, j)
			if math.Abs(v) < eigenFlush*maxAbs {
				v = 0
			}
			b.SetSym(i, j, v)
		}
	}
	ok, err := func() (ok bool, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: eigen-decomposition of %s: %v", ErrFactorization, what, r)
			}
		}()
		return eig.Factorize(b, true), nil
	}()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: eigen-decomposition of %s did not converge", ErrFactorization, what)
	}
	for _, v := range eig.RawValues() {
		if math.IsNaN(v) || math.Abs(v) > frob*(1+1e-8)+1e-300 {
			return fmt.Errorf("%w: eigen-decomposition of %s returned eigenvalue %g for a matrix of norm %g", ErrFactorization, what, v, frob)
		}
	}
	_ = vectors // vectors are always computed; the flag documents intent at call sites
	return nil
}
