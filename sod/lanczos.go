package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/randstream"
)

// lanczosBasis is the largest basis lanczosMin keeps (lanczosBasis·n
// float64s of memory, 0.5 GB at n = 10⁶), and lanczosKeep the number of
// Ritz vectors it keeps when it restarts.
const (
	lanczosBasis = 64
	lanczosKeep  = 32
)

// lanczosMaxCycles bounds the restarts of lanczosMin.
const lanczosMaxCycles = 300

// lanczosMin returns the smallest eigenvalue λ_n of a symmetric n×n
// operator given by its product apply(dst, v) = Av, and a unit eigenvector
// u_n. scale bounds ‖A‖₂ (for example ‖A‖_F); floor is the rounding error
// of one product (a residual below it cannot be asked for). It is the escape analysis'
// replacement for a dense eigendecomposition of ∇f(X̂X̂ᵀ) when only
// O(n·(r + k)) products are affordable (section 4 needs λ_n and u_n only).
//
// Method: thick-restart Lanczos (Wu and Simon) with full
// reorthogonalisation ("twice is enough"): the basis V grows by the
// orthonormalised product with its newest vector, the Rayleigh quotient
// H = VᵀAV is kept explicitly, and when V has lanczosBasis vectors it is
// cut to the lanczosKeep Ritz vectors of the smallest Ritz values and the
// newest vector, which keeps clusters of small eigenvalues (common here:
// ∇f(X̂X̂ᵀ) has few distinct eigenvalues, some of them nearly equal) from
// stalling the iteration. The start vector is a fixed pseudo-random one,
// so the result is reproducible. It returns once the true residual
// ‖Au − θu‖ is at most max(tol·scale, floor), and an error wrapping ErrFactorization
// after lanczosMaxCycles restarts without it. When λ_n is multiple, u_n is
// one unit vector of its eigenspace (as with a dense solver, which one is
// arbitrary but deterministic).
// lanczosSeed is the seed of lanczosMin's start vectors (the stream
// randstream.LanczosStarts, member n).
const lanczosSeed = 0x1a2c205

func lanczosMin(n int, apply func(dst, v []float64), scale, tol, floor float64) (float64, []float64, error) {
	rng := randstream.NewIndexed(lanczosSeed, randstream.LanczosStarts, uint64(n))
	randomUnit := func(dst []float64) {
		for i := range dst {
			dst[i] = rng.NormFloat64()
		}
		floats.Scale(1/floats.Norm(dst, 2), dst)
	}
	if scale == 0 {
		u := make([]float64, n)
		randomUnit(u)
		return 0, u, nil // A = 0: every vector is an eigenvector
	}
	kmax := min(n, lanczosBasis)
	keep := min(lanczosKeep, kmax-1)
	V := make([]float64, (kmax+1)*n)
	vec := func(i int) []float64 { return V[i*n : (i+1)*n] }
	H := mat.NewSymDense(kmax+1, nil)
	w := make([]float64, n)
	u := make([]float64, n)
	tmp := make([]float64, keep*n)
	// orth removes from x its components along V[0:m] (twice), adds the
	// coefficients to coef (if not nil) and returns the remaining ‖x‖.
	orth := func(x []float64, m int, coef []float64) float64 {
		for pass := 0; pass < 2; pass++ {
			for i := 0; i < m; i++ {
				c := floats.Dot(vec(i), x)
				if coef != nil {
					coef[i] += c
				}
				floats.AddScaled(x, -c, vec(i))
			}
		}
		return floats.Norm(x, 2)
	}
	randomUnit(vec(0))
	cur := 1     // vectors in V
	applied := 0 // V[0:applied] have their column of H
	coef := make([]float64, kmax+1)
	resid := math.Inf(1)
	for cycle := 0; cycle < lanczosMaxCycles; cycle++ {
		// Grow the basis until it is full or invariant.
		for applied < cur && applied < kmax {
			j := applied
			apply(w, vec(j))
			for i := range coef {
				coef[i] = 0
			}
			b := orth(w, cur, coef)
			for i := 0; i < cur; i++ {
				if i <= j {
					H.SetSym(i, j, coef[i])
				}
			}
			applied++
			if b <= 1e-13*scale {
				// An invariant subspace: continue with a fresh direction,
				// unless V spans everything.
				if cur == n {
					break
				}
				randomUnit(w)
				b = orth(w, cur, nil)
				if b == 0 {
					break
				}
			}
			floats.Scale(1/b, w)
			copy(vec(cur), w)
			cur++
		}
		// Rayleigh–Ritz on V[0:applied].
		m := applied
		Hm := mat.NewSymDense(m, nil)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				Hm.SetSym(i, j, H.At(i, j))
			}
		}
		var eig mat.EigenSym
		if err := symEigen(&eig, Hm, true, "the Lanczos projection"); err != nil {
			return 0, nil, err
		}
		var Y mat.Dense
		eig.VectorsTo(&Y)
		theta := eig.Values(nil)
		for i := range u {
			u[i] = 0
		}
		for j := 0; j < m; j++ {
			floats.AddScaled(u, Y.At(j, 0), vec(j))
		}
		floats.Scale(1/floats.Norm(u, 2), u)
		// The true residual of the smallest Ritz pair.
		apply(w, u)
		lam := floats.Dot(u, w)
		floats.AddScaled(w, -lam, u)
		resid = floats.Norm(w, 2)
		if resid <= max(tol*scale, floor) || m == n {
			return lam, append([]float64(nil), u...), nil
		}
		// Thick restart: the keep smallest Ritz vectors, then the
		// unapplied newest vector (orthogonal to all of them), if any.
		k := min(keep, m)
		for c := 0; c < k; c++ {
			t := tmp[c*n : (c+1)*n]
			for i := range t {
				t[i] = 0
			}
			for j := 0; j < m; j++ {
				floats.AddScaled(t, Y.At(j, c), vec(j))
			}
		}
		newest := cur > applied
		if newest {
			copy(vec(k), vec(cur-1))
		}
		copy(V[:k*n], tmp[:k*n])
		H.Zero()
		for c := 0; c < k; c++ {
			H.SetSym(c, c, theta[c])
		}
		applied, cur = k, k
		if newest {
			cur = k + 1
		} else {
			// No unapplied vector (the basis was invariant or full with
			// w discarded): extend with the residual of the best pair.
			apply(w, u)
			floats.AddScaled(w, -lam, u)
			if b := orth(w, k, nil); b > 1e-13*scale {
				floats.Scale(1/b, w)
				copy(vec(k), w)
				cur = k + 1
			}
		}
	}
	return 0, nil, fmt.Errorf("%w: Lanczos for λ_n did not converge (residual %.3g·‖∇f‖ after %d restarts)", ErrFactorization, resid/scale, lanczosMaxCycles)
}
