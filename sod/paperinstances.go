package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/paper"
)

// RIPConstant is an RIP constant δ used with one of the paper's instances,
// labelled by how it was obtained. The paper never says which δ_p it uses
// (section 4, Definition "RIP"), so each instance carries the candidates:
// the rank-1 constant δ₁ (RIPOptimize, p = 1), the constant over all
// symmetric matrices (RIPExact; here δ₂ = δ_n) and, for PMC, the value the
// paper quotes. δ enters EFS, ρ̂₁, ρ̂₂, r₁, r₂ and the conditions on l, but
// not ρ_min, U_β, U_γ or the escape points.
type RIPConstant struct {
	Delta float64
	Label string // e.g. "δ₁", "δ₂ = exact", "paper's (1−ε)/(1+ε)"
}

// Instance is one of the paper's instances at its spurious point: the
// problem, X̂, the lifting order l and step count t of the multi-step
// escape the paper applies to it (section 6.1), and the RIP constants the
// notebooks evaluate it with.
type Instance struct {
	Name   string
	P      *Problem
	XHat   *mat.Dense
	L      int   // lifting order l of the multi-step escape
	T      int64 // TPGD steps t of the multi-step escape
	Deltas []RIPConstant
}

// Delta returns the instance's first RIP constant (δ₁, or the only one).
func (in *Instance) Delta() float64 {
	if in == nil || len(in.Deltas) == 0 {
		panic(fmt.Errorf("%w: Instance.Delta on a nil instance or one without RIP constants (Deltas)", ErrBadParameter))
	}
	return in.Deltas[0].Delta
}

// Critical analyses X̂ with AnalyzeCritical.
func (in Instance) Critical(opt CriticalOptions) (*CriticalPoint, error) {
	return AnalyzeCritical(in.P, in.XHat, opt)
}

// PMCCaseStudyXHat returns the spurious local minimum x̂ = a·(1, 0, −1)ᵀ,
// a = √((1−ε²)/(1+ε²)), of the PMC case study PMCCaseStudyProblem(ε). The paper
// calls (1, 0, −1) itself the spurious solution, but ∇h ≠ 0 there
// (∇h(1, 0, −1) = (0.36, 0, −0.36) for ε = 0.3); minimising h along the ray
// gives a, and that point is a strict local minimum with h = 0.330275 for
// ε = 0.3. ε must lie in (0, 1].
func PMCCaseStudyXHat(eps float64) (*mat.Dense, error) {
	if !(eps > 0 && eps <= 1) {
		return nil, fmt.Errorf("%w: PMC ε = %v, want 0 < ε ≤ 1", ErrBadParameter, eps)
	}
	a := math.Sqrt((1 - eps*eps) / (1 + eps*eps))
	return mat.NewDense(3, 1, []float64{a, 0, -a}), nil
}

// PaperInstances returns the paper's three instances at their spurious
// points, in the order of section 6.1: BasicExample, PMCCase and
// RealWorldCase. A notebook names the one it uses; this list is for
// tables and loops over all three.
func PaperInstances() []Instance {
	return []Instance{BasicExample(), PMCCase(), RealWorldCase()}
}

// BasicExample returns the basic example (eq. basic_example) at its
// spurious point x̂ = (0, 1/√2), with δ = ½ (its exact constant, for every
// p) and (l, t) = (3, 40): the paper does not state them for this instance
// (Fig. basic_example); they are the smallest odd l and a t in U_β whose
// escape point lowers h. Each call returns a new value.
func BasicExample() Instance {
	return Instance{Name: "basic example", P: BasicExampleProblem(), XHat: BasicExampleXHat(), L: 3, T: 40,
		Deltas: []RIPConstant{{0.5, "exact"}}}
}

// PMCCase returns the perturbed matrix completion case study (Appendix,
// case 1; n = 3, ε = 0.3, paper.PMCSettings) at its spurious local minimum
// PMCCaseStudyXHat(0.3), with δ₁ = 0.455, the paper's δ ≈ (1−ε)/(1+ε) =
// 0.538 (paper.PMCDelta) and δ₂ = 0.91 (exact: 1 − ε²), and the paper's
// (l, t) = (11, 59000). Each call returns a new value.
//
// The δ values here and in RealWorldCase are rounded results of
// RIPOptimize (p = 1) and RIPExact; the tests recompute them.
func PMCCase() Instance {
	pc := paper.PMCSettings()
	p, err := PMCCaseStudyProblem(pc.Eps)
	if err != nil {
		panic("sod: PMC case study: " + err.Error()) // unreachable: the paper's ε = 0.3 is valid
	}
	xp, _ := PMCCaseStudyXHat(pc.Eps)
	return Instance{Name: "PMC n=3 ε=0.3", P: p, XHat: xp, L: pc.L, T: pc.T,
		Deltas: []RIPConstant{{0.455, "δ₁"}, {paper.PMCDelta.Value(), "paper's (1−ε)/(1+ε)"}, {0.91, "δ₂ = exact"}}}
}

// RealWorldCase returns the real-world case study (Appendix, case 2;
// paper.RealWorldSettings) at the printed x̂ = (0.2234, 0.0918, 0.5985), with
// δ₁ = 0.81106 and δ₂ = 0.89834 (exact), and the paper's (l, t) =
// (5, 150000). Each call returns a new value.
func RealWorldCase() Instance {
	rc := paper.RealWorldSettings()
	return Instance{Name: "real-world", P: RealWorldProblem(), XHat: RealWorldXHat(), L: rc.L, T: rc.T,
		Deltas: []RIPConstant{{0.81106, "δ₁"}, {0.89834, "δ₂ = exact"}}}
}

// DesignedSaddleInstance returns a 2×2 instance designed so that single-step SOD
// certifies an escape (EFS > 1, section 4.2): A₁ = [[½, √3/2], [√3/2, 0]],
// A₂ = e₂e₂ᵀ, A₃ = ½e₁e₁ᵀ, z = (2√3, −1), X̂ = (0, 1). There
// ∇f(X̂X̂ᵀ) = −3e₁e₁ᵀ, so X̂ is a critical point with λ_n = −3, u_n = e₁,
// σ_r = 1, and δ = √(5/8) is the operator's exact RIP constant. X̂ is a
// strict saddle, not a local minimum: at a local minimum with a valid δ < 1,
// EFS ≤ 1 (see SingleStep). L and T are unset.
func DesignedSaddleInstance() *Instance {
	s := math.Sqrt(3) / 2
	op, err := NewDenseOperator([]*mat.Dense{
		mat.NewDense(2, 2, []float64{0.5, s, s, 0}),
		mat.NewDense(2, 2, []float64{0, 0, 0, 1}),
		mat.NewDense(2, 2, []float64{0.5, 0, 0, 0}),
	})
	if err != nil {
		panic("sod: designed saddle: " + err.Error()) // unreachable: constant data
	}
	p, err := NewProblem(op, mat.NewDense(2, 1, []float64{2 * math.Sqrt(3), -1}), 1)
	if err != nil {
		panic("sod: designed saddle: " + err.Error()) // unreachable: constant data
	}
	return &Instance{Name: "designed 2×2 saddle", P: p, XHat: mat.NewDense(2, 1, []float64{0, 1}),
		Deltas: []RIPConstant{{math.Sqrt(5.0 / 8), "exact √(5/8)"}}}
}

// GaussianSpuriousInstance returns a seeded Gaussian instance (eq.
// gaussian_ensemble, n = 2, m = 3, seed 164, z = e₁) with the spurious
// local minimum X̂ that gradient descent (step 0.05, ‖∇h‖ ≤ 1e-10) reaches
// from (0.3, 0.6), and the operator's exact RIP constant. Its single-step
// line X̂ + ρ u_n q_rᵀ contains descent points although EFS < 1, which shows
// the sign pitfall of the paper's "Case 1" (section 4.2): with one sign of
// u_n the paper's recipe −X̂ + ρ̂ u_n q_rᵀ is the mirror point, where h rises.
func GaussianSpuriousInstance() (*Instance, error) {
	op, err := NewGaussianOperator(2, 3, 164)
	if err != nil {
		return nil, err
	}
	p, err := NewProblem(op, mat.NewDense(2, 1, []float64{1, 0}), 1)
	if err != nil {
		return nil, err
	}
	gd, err := GradientDescent(context.Background(), p, mat.NewDense(2, 1, []float64{0.3, 0.6}), GDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 20000}, GradTol: 1e-10})
	if err != nil {
		return nil, err
	}
	rip, err := RIPExact(op)
	if err != nil {
		return nil, err
	}
	return &Instance{Name: "Gaussian n=2 m=3 seed 164", P: p, XHat: gd.X,
		Deltas: []RIPConstant{{rip.Delta, "exact"}}}, nil
}

// LinePoint returns s·X̂ + ρ u_n q_rᵀ: for s = +1 the single-step SOD
// point X̌ = X̂ + ρ u_n q_rᵀ (eq. single-step-sod), for s = −1 the paper's
// "Case 1" point −X̂ + ρ u_n q_rᵀ.
func (cp *CriticalPoint) LinePoint(s, rho float64) *mat.Dense {
	if cp == nil || cp.X == nil {
		panic(errUnbuilt("CriticalPoint", "LinePoint", "AnalyzeCritical"))
	}
	n, r := cp.X.Dims()
	x := mat.NewDense(n, r, nil)
	x.Outer(rho, cp.Un, cp.Qr)
	var sx mat.Dense
	sx.Scale(s, cp.X)
	x.Add(x, &sx)
	return x
}

// TPGDConditions evaluates the conditions of Theorem multi-step-sod-formal
// (TPGDConditionsAt) at the instance's X̂, for lifting order l, with its
// first RIP constant (Delta).
func (in Instance) TPGDConditions(l int) ([]Condition, error) {
	cp, err := in.Critical(CriticalOptions{})
	if err != nil {
		return nil, err
	}
	if len(in.Deltas) == 0 {
		return nil, fmt.Errorf("%w: Instance.TPGDConditions on an instance without RIP constants (Deltas)", ErrBadParameter)
	}
	return TPGDConditionsAt(in.P, cp, l, in.Deltas[0].Delta)
}
