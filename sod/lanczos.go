package sod

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// lanczosBasis is the largest Krylov basis lanczosMin keeps (it restarts
// from its best Ritz vector when a basis of this size has not converged):
// lanczosBasis·n float64s of memory, 0.5 GB at n = 10⁶.
const lanczosBasis = 64

// lanczosMaxCycles bounds the restarts of lanczosMin.
const lanczosMaxCycles = 200

// lanczosMin returns the smallest eigenvalue λ_n of a symmetric n×n
// operator given by its product apply(dst, v) = Av, and a unit eigenvector
// u_n. scale bounds ‖A‖₂ (for example ‖A‖_F). It is the escape analysis'
// replacement for a dense eigendecomposition of ∇f(X̂X̂ᵀ) when only
// O(n·(r + k)) products are affordable (section 4 needs λ_n and u_n only).
//
// Method: Lanczos with full reorthogonalisation (twice, "twice is
// enough"), from a fixed pseudo-random start (so results are reproducible),
// explicitly restarted from the current Ritz vector when lanczosBasis steps
// have not converged. An invariant subspace (common here: ∇f(X̂X̂ᵀ) has few
// distinct eigenvalues) ends the iteration with exact Ritz pairs. It
// returns once the true residual ‖Au − θu‖ is at most tol·scale, and an
// error wrapping ErrFactorization if that has not happened after
// lanczosMaxCycles restarts. When λ_n is multiple, u_n is one unit vector
// of its eigenspace (as with a dense solver, which one is arbitrary but
// deterministic).
func lanczosMin(n int, apply func(dst, v []float64), scale, tol float64) (float64, []float64, error) {
	rng := rand.New(rand.NewPCG(0x1a2c205, uint64(n)))
	u := make([]float64, n)
	for i := range u {
		u[i] = rng.NormFloat64()
	}
	floats.Scale(1/floats.Norm(u, 2), u)
	if scale == 0 {
		return 0, u, nil // A = 0: every vector is an eigenvector
	}
	kmax := min(n, lanczosBasis)
	V := make([]float64, (kmax+1)*n)
	alpha := make([]float64, kmax)
	beta := make([]float64, kmax)
	au := make([]float64, n)
	resid := math.Inf(1)
	for cycle := 0; cycle < lanczosMaxCycles; cycle++ {
		copy(V[:n], u)
		m := 0
		invariant := false
		for j := 0; j < kmax; j++ {
			vj := V[j*n : (j+1)*n]
			w := V[(j+1)*n : (j+2)*n]
			apply(w, vj)
			alpha[j] = floats.Dot(vj, w)
			for pass := 0; pass < 2; pass++ {
				for i := 0; i <= j; i++ {
					vi := V[i*n : (i+1)*n]
					floats.AddScaled(w, -floats.Dot(vi, w), vi)
				}
			}
			b := floats.Norm(w, 2)
			beta[j] = b
			m = j + 1
			if b <= 1e-14*scale {
				invariant = true
				break
			}
			if j+1 < kmax {
				floats.Scale(1/b, w)
			}
		}
		// Ritz pairs of the tridiagonal T (m×m).
		T := mat.NewSymDense(m, nil)
		for i := 0; i < m; i++ {
			T.SetSym(i, i, alpha[i])
			if i+1 < m {
				T.SetSym(i, i+1, beta[i])
			}
		}
		var eig mat.EigenSym
		if err := symEigen(&eig, T, true, "the Lanczos tridiagonal"); err != nil {
			return 0, nil, err
		}
		var y mat.Dense
		eig.VectorsTo(&y)
		for i := range u {
			u[i] = 0
		}
		for i := 0; i < m; i++ {
			floats.AddScaled(u, y.At(i, 0), V[i*n:(i+1)*n])
		}
		floats.Scale(1/floats.Norm(u, 2), u)
		// The true residual, not the recurrence's estimate.
		apply(au, u)
		theta := floats.Dot(u, au)
		floats.AddScaled(au, -theta, u)
		resid = floats.Norm(au, 2)
		if resid <= tol*scale || (invariant && resid <= 1e3*tol*scale) {
			return theta, u, nil
		}
	}
	return 0, nil, fmt.Errorf("%w: Lanczos for λ_n did not converge (residual %.3g·‖∇f‖ after %d restarts)", ErrFactorization, resid/scale, lanczosMaxCycles)
}
