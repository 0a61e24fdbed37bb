package sod

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// This file holds the structured path's part of AnalyzeCritical (the
// paper's Algorithm 1 inputs at a stalled point X̂): the spectrum of
// ∇f(X̂X̂ᵀ) by Lanczos and the escape terms E X̂ and u_nᵀ E u_n, all in
// O(n·r) memory. It sits above both structured.go (the kernels) and
// critical.go (CriticalPoint), so that the Problem's structured kernels do
// not depend on the analysis that uses them.

// spectrum fills cp.H, GradNorm, GradFNorm, LambdaN and Un without n×n
// matrices: λ_n and u_n by Lanczos (lanczosMin) on the product
// v ↦ ∇f(X̂X̂ᵀ)v = (W∘W∘(F J Fᵀ))v, F = [X̂ Z].
func (st *masked) spectrum(cp *CriticalPoint, opt CriticalOptions) error {
	n, r := st.n, st.r
	g := mat.NewDense(n, r, nil)
	q := st.eval(st.newWork(), g, cp.X)
	cp.H = finiteOrInf(q.h(st))
	cp.GradNorm = mat.Norm(g, 2)
	cp.GradFNorm = q.gradFNorm(st)
	if !isFinite(cp.H) || !isFinite(cp.GradNorm) || !isFinite(cp.GradFNorm) {
		return fmt.Errorf("%w: h(X̂) = %v overflows", ErrNotFinite, cp.H)
	}
	F, J := st.truthFactor(cp.X), st.signJ()
	apply := func(dst, v []float64) { st.mul(dst, F, st.s, J, v, 1) }
	// The product's rounding error, u·s·‖[X Z]‖_F² per unit vector (it
	// forms X(Xᵀv) − Z(Zᵀv)), bounds the residual that can be reached.
	floor := 16 * 0x1p-53 * float64(st.s) * floats.Dot(F, F)
	lambda, u, err := lanczosMin(n, apply, cp.GradFNorm, lanczosTol, floor)
	if err != nil {
		return err
	}
	cp.LambdaN = lambda
	cp.Un = mat.NewVecDense(n, u)
	orientUn(cp.Un, opt)
	return nil
}

// lanczosTol is the residual ‖∇f u − λu‖ ≤ lanczosTol·‖∇f‖_F (or the
// rounding floor of the product, if larger) at which the structured
// analysis accepts (λ_n, u_n).
const lanczosTol = 1e-12

// escapeTerms fills cp.EX = E X̂, EXNorm and Euu = u_nᵀ E u_n with
// E = W∘W∘(u vᵀ + v uᵀ) (= 𝒜*𝒜(u_n v_rᵀ + v_r u_nᵀ)), F = [u v] and
// S = [0 1; 1 0], in O(n·r).
func (st *masked) escapeTerms(cp *CriticalPoint) {
	n, r := st.n, st.r
	F := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		F[2*i], F[2*i+1] = cp.Un.AtVec(i), cp.Vr.AtVec(i)
	}
	S := []float64{0, 1, 1, 0}
	ex := make([]float64, n*r)
	st.mul(ex, F, 2, S, rowMajor(cp.X), r)
	cp.EX = mat.NewDense(n, r, ex)
	cp.EXNorm = mat.Norm(cp.EX, 2)
	u := cp.Un.RawVector().Data
	eu := make([]float64, n)
	st.mul(eu, F, 2, S, u, 1)
	cp.Euu = floats.Dot(u, eu)
}
