package sod

import (
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/paper"
)

// BasicExampleOperator returns the three 2×2 sensing matrices of the
// paper's basic example (section 1.1, eq. basic_example, from Zhang et al.
// 2018): A_1 = diag(1, ½), A_2 = (√3/2)(e_1e_2ᵀ + e_2e_1ᵀ),
// A_3 = diag(0, √3/2).
func BasicExampleOperator() *DenseOperator {
	s := math.Sqrt(3) / 2
	op, err := NewDenseOperator([]*mat.Dense{
		mat.NewDense(2, 2, []float64{1, 0, 0, 0.5}),
		mat.NewDense(2, 2, []float64{0, s, s, 0}),
		mat.NewDense(2, 2, []float64{0, 0, 0, s}),
	})
	if err != nil {
		panic("sod: basic example operator: " + err.Error()) // unreachable: constant data
	}
	return op
}

// BasicExampleProblem returns the paper's basic example (eq. basic_example):
// n = 2, ground truth z = e_1 (M* = e_1e_1ᵀ), search rank r = 1.
// It has the spurious local minima x̂ = (0, ±1/√2) (BasicExampleXHat),
// where h = 3/8, ∇f(x̂x̂ᵀ) = diag(−¾, 0) and h(x̂ + ρe_1) = (ρ⁴ + ¾)/2, so
// h is quartic along u_n = e_1 (REPRODUCTION.md F5) and the Hessian is singular.
//
// Contrary to the paper, x̂ is not a local minimum but a degenerate saddle:
// h is a quadratic in (u, w) = (x_1², x_2²), and along
// x = (√u, √(½ − 2u)) one has h − 3/8 = −3u²/2 exactly. Gradient descent
// started next to x̂ (off the x_2 axis) leaves it and reaches z.
func BasicExampleProblem() *Problem {
	p, err := NewProblem(BasicExampleOperator(), mat.NewDense(2, 1, []float64{1, 0}), 1)
	if err != nil {
		panic("sod: basic example: " + err.Error()) // unreachable: constant data
	}
	return p
}

// BasicExampleXHat returns the spurious local minimum x̂ = (0, 1/√2)ᵀ of
// the basic example (its mirror −x̂ is the other one).
func BasicExampleXHat() *mat.Dense {
	return mat.NewDense(2, 1, []float64{0, 1 / math.Sqrt2})
}

// RealWorldOperator returns the operator with the six printed 3×3 sensing
// matrices of the real-world case (Appendix, eq. sensing-matrices-real-world,
// from Xu et al. 2024; paper.RealWorldMatrices).
func RealWorldOperator() *DenseOperator {
	printed := paper.RealWorldMatrices()
	as := make([]*mat.Dense, len(printed))
	for i := range printed {
		as[i] = mat.NewDense(3, 3, printed[i][:])
	}
	op, err := NewDenseOperator(as)
	if err != nil {
		panic("sod: real-world operator: " + err.Error()) // unreachable: constant data
	}
	return op
}

// RealWorldProblem returns the real-world case of the paper's section 6.1 and
// Appendix case 2: n = 3, ground truth z = e_1, search rank r = 1. Its
// prominent spurious local minima are printed as x̂ = ±(0.2234, 0.0918,
// 0.5985) (RealWorldXHat); gradient descent converges to
// ≈ (0.223471, 0.091832, 0.598578) from there.
func RealWorldProblem() *Problem {
	p, err := NewProblem(RealWorldOperator(), mat.NewDense(3, 1, []float64{1, 0, 0}), 1)
	if err != nil {
		panic("sod: real-world problem: " + err.Error()) // unreachable: constant data
	}
	return p
}

// RealWorldXHat returns the spurious minimum of the real-world case exactly
// as printed in the paper, x̂ = (0.2234, 0.0918, 0.5985)ᵀ. The paper's
// ablation table is reproduced with this rounded point, not with the
// converged minimum (REPRODUCTION.md C9).
func RealWorldXHat() *mat.Dense {
	x := paper.RealWorldSettings().XHat
	return mat.NewDense(3, 1, []float64{x[0].Value(), x[1].Value(), x[2].Value()})
}

// PMCCaseStudyProblem returns the paper's PMC case study (section 6.1, Appendix
// case 1): the PMC operator with n = 3 and the given ε (the paper uses
// ε = 0.3), ground truth z = (1, 0, 1)ᵀ and search rank 1. For ε = 0.3 its
// spurious minimum is ±√((1−ε²)/(1+ε²))·(1, 0, −1), not (1, 0, −1)
// (REPRODUCTION.md F1).
func PMCCaseStudyProblem(eps float64) (*Problem, error) {
	op, err := NewPMCOperator(3, eps)
	if err != nil {
		return nil, err
	}
	return NewProblem(op, mat.NewDense(3, 1, []float64{1, 0, 1}), 1)
}
