package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/paper"
)

// TestSingleStepPaperInstances: EFS on the paper's instances (REPRODUCTION.md F3:
// basic example exactly 1, real-world ≈ 0.22–0.24, PMC ≈ 0.10–0.14), with
// the δ values of REPRODUCTION.md C4 (and the paper's PMC value (1−ε)/(1+ε) = 0.538).
// No escape is certified on any of them.
func TestSingleStepPaperInstances(t *testing.T) {
	pmc, _ := PMCCaseStudyProblem(0.3)
	a := math.Sqrt(0.91 / 1.09)
	for _, tc := range []struct {
		name   string
		p      *Problem
		x      *mat.Dense
		delta  float64
		lo, hi float64
	}{
		{"basic δ=0.5", BasicExampleProblem(), BasicExampleXHat(), 0.5, 1 - 1e-12, 1 + 1e-12},
		{"real-world δ₁", RealWorldProblem(), RealWorldXHat(), 0.81106, 0.22, 0.24},
		{"real-world δ₂", RealWorldProblem(), RealWorldXHat(), 0.89834, 0.22, 0.24},
		{"pmc δ₁", pmc, mat.NewDense(3, 1, []float64{a, 0, -a}), 0.455, 0.10, 0.14},
		{"pmc paper δ", pmc, mat.NewDense(3, 1, []float64{a, 0, -a}), paper.PMCDelta.Value(), 0.10, 0.14},
		{"pmc δ₂", pmc, mat.NewDense(3, 1, []float64{a, 0, -a}), 0.91, 0.10, 0.14},
	} {
		s, err := SingleStep(tc.p, tc.x, SingleStepOptions{Delta: tc.delta})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s.EFS < tc.lo || s.EFS > tc.hi {
			t.Errorf("%s: EFS = %v, want in [%v, %v]", tc.name, s.EFS, tc.lo, tc.hi)
		}
		// Δ = 8σ_r²(1+δ)²(EFS − 1) (REPRODUCTION.md C5), an algebraic identity.
		sr := s.CP.SigmaR
		if want := 8 * sr * sr * (1 + tc.delta) * (1 + tc.delta) * (s.EFS - 1); math.Abs(s.Disc-want) > 1e-12 {
			t.Errorf("%s: Δ = %v, 8σ²(1+δ)²(EFS−1) = %v", tc.name, s.Disc, want)
		}
		if s.Feasible || s.Candidate != nil || s.HCheck != s.HHat {
			t.Errorf("%s: escape reported although EFS = %v", tc.name, s.EFS)
		}
		if s.Verdict == "" {
			t.Errorf("%s: empty verdict", tc.name)
		}
	}
}

// saddleInstance is a 2×2 instance designed by hand (see the test below):
// A₁ = [[α, β], [β, 0]], A₂ = e₂e₂ᵀ, A₃ = γe₁e₁ᵀ with α = γ = ½, β = √3/2,
// z = (2√3, −1) and X̂ = (0, 1). Then ∇f(X̂X̂ᵀ) = −3e₁e₁ᵀ, so X̂ is critical
// with λ_n = −3, u_n = e₁, v_r = e₂, σ_r = 1, and
// Euu = ⟨𝒜(e₁e₂ᵀ+e₂e₁ᵀ), 𝒜(e₁e₁ᵀ)⟩ = 2αβ = √3/2. The exact RIP range over
// all symmetric matrices is {1} ∪ eig([[½, √6/4], [√6/4, 3/2]]) =
// [1 − √(5/8), 1 + √(5/8)], so δ = √(5/8) ≈ 0.7906 is valid. It is a strict
// saddle: the Hessian along u_n q_rᵀ is σ²‖𝒜P‖² + 2λ_n = 3 − 6 < 0.
func saddleInstance(t *testing.T) (*Problem, *mat.Dense, float64) {
	t.Helper()
	al, be, ga := 0.5, math.Sqrt(3)/2, 0.5
	op, err := NewDenseOperator([]*mat.Dense{
		mat.NewDense(2, 2, []float64{al, be, be, 0}),
		mat.NewDense(2, 2, []float64{0, 0, 0, 1}),
		mat.NewDense(2, 2, []float64{ga, 0, 0, 0}),
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProblem(op, mat.NewDense(2, 1, []float64{2 * math.Sqrt(3), -1}), 1)
	if err != nil {
		t.Fatal(err)
	}
	return p, mat.NewDense(2, 1, []float64{0, 1}), math.Sqrt(5.0 / 8)
}

// TestSingleStepEscape checks the escape path on the designed saddle:
// NCM = 3/(1+δ), AIC = (3/4)/(2(1+δ)²), both roots have the sign of −Euu,
// the candidate X̂ + ρ̂u_nq_rᵀ decreases h, and h(X̌) − h(X̂) equals the
// exact quartic of ExactLine evaluated by hand.
func TestSingleStepEscape(t *testing.T) {
	p, xhat, delta := saddleInstance(t)
	rip, err := RIPExact(p.Op)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(rip.Delta-delta) > 1e-12 {
		t.Fatalf("exact δ = %v, want √(5/8) = %v", rip.Delta, delta)
	}
	s, err := SingleStep(p, xhat, SingleStepOptions{Delta: delta, GradTol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.CP.LambdaN+3) > 1e-12 || math.Abs(s.CP.Euu-math.Sqrt(3)/2) > 1e-12 || s.CP.GradNorm > 1e-12 {
		t.Fatalf("λ_n = %v, Euu = %v, ‖∇h‖ = %v; want −3, √3/2, 0", s.CP.LambdaN, s.CP.Euu, s.CP.GradNorm)
	}
	if want := 3 / (1 + delta); math.Abs(s.NCM-want) > 1e-12 {
		t.Errorf("NCM = %v, want %v", s.NCM, want)
	}
	if want := 0.75 / (2 * (1 + delta) * (1 + delta)); math.Abs(s.AIC-want) > 1e-12 {
		t.Errorf("AIC = %v, want %v", s.AIC, want)
	}
	// C₃ = 2σ²(1+δ) + 2λ_n < 0 at this saddle, so the roots straddle 0
	// (their product is C₃/C₁); their sum is −C₂/C₁ = −2σEuu/(1+δ).
	if !s.Feasible || !(s.Rho1 < 0 && s.Rho2 > 0) || math.Abs(s.Rho1*s.Rho2-s.C3/s.C1) > 1e-12 ||
		math.Abs(s.Rho1+s.Rho2+math.Sqrt(3)/(1+delta)) > 1e-12 {
		t.Fatalf("Feasible = %v, roots (%v, %v), C₃ = %v", s.Feasible, s.Rho1, s.Rho2, s.C3)
	}
	if !s.Descends || !(s.HCheck < s.HHat) {
		t.Errorf("candidate does not descend: h(X̌) = %v, h(X̂) = %v", s.HCheck, s.HHat)
	}
	// Exact quartic by hand: C2 = λ + ½σ²‖𝒜P‖² = −3 + 3/2, C3 = σEuu,
	// C4 = ½‖𝒜Q‖² = ½(α² + γ²) = ¼.
	rho := s.Rho
	want := -1.5*rho*rho + math.Sqrt(3)/2*rho*rho*rho + 0.25*rho*rho*rho*rho
	if got := s.HCheck - s.HHat; math.Abs(got-want) > 1e-12 {
		t.Errorf("h(X̌) − h(X̂) = %v, exact quartic %v", got, want)
	}
	if s.ExactCandidate == nil || s.Exact.BestDecrease >= s.HCheck-s.HHat+1e-15 {
		t.Errorf("exact line minimum %v should be at most the candidate's decrease %v", s.Exact.BestDecrease, s.HCheck-s.HHat)
	}
	// Any ρ inside (ρ̂₁, ρ̂₂) descends (the theorem, with a valid δ).
	for _, f := range []float64{0.01, 0.3, 0.7, 0.99} {
		r := s.Rho1 + f*(s.Rho2-s.Rho1)
		s2, err := SingleStep(p, xhat, SingleStepOptions{Delta: delta, GradTol: 1e-12, Rho: r})
		if err != nil || !s2.Descends {
			t.Errorf("ρ̂ = %v inside the interval does not descend (%v)", r, err)
		}
	}
}

// TestEFSAtMostOneAtLocalMinima checks a consequence derived for this
// workbench (see SingleStep's doc): if X̂ satisfies the second-order
// condition along u_n q_rᵀ (σ_r²‖𝒜(P)‖² + 2λ_n ≥ 0) and δ < 1 is a valid RIP
// constant for rank ≤ 2, then EFS ≤ 1. It is checked on spurious local
// minima of seeded Gaussian instances found by GD, with δ from RIPExact,
// and on the paper's instances with their exact δ.
func TestEFSAtMostOneAtLocalMinima(t *testing.T) {
	checked := 0
	check := func(name string, p *Problem, x mat.Matrix) {
		rip, err := RIPExact(p.Op)
		if err != nil {
			t.Fatal(err)
		}
		if rip.Delta >= 1 {
			return
		}
		s, err := SingleStep(p, x, SingleStepOptions{Delta: rip.Delta, GradTol: 1e-6})
		if err != nil {
			return // not a spurious point
		}
		cp, err := AnalyzeCritical(p, x, CriticalOptions{})
		if err != nil || !cp.IsLocalMinimum(1e-9) {
			return
		}
		checked++
		if s.EFS > 1+1e-9 {
			t.Errorf("%s: EFS = %v > 1 at a local minimum with valid δ = %v", name, s.EFS, rip.Delta)
		}
	}
	pmc, _ := PMCCaseStudyProblem(0.3)
	a := math.Sqrt(0.91 / 1.09)
	check("basic", BasicExampleProblem(), BasicExampleXHat())
	check("real-world", RealWorldProblem(), RealWorldXHat())
	check("pmc", pmc, mat.NewDense(3, 1, []float64{a, 0, -a}))
	cpReal, err := GradientDescent(t.Context(), RealWorldProblem(), RealWorldXHat(), GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	check("real-world (converged)", RealWorldProblem(), cpReal.X)
	for _, eps := range []float64{0.05, 0.1} {
		for n := 3; n <= 6; n++ {
			op, _ := NewPMCOperator(n, eps)
			for trial := uint64(0); trial < 6; trial++ {
				p, _ := NewProblem(op, randDense(n, 1, 77+trial), 1)
				res, err := GradientDescent(t.Context(), p, randDense(n, 1, 50+trial), GDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 20000}, GradTol: 1e-10})
				if err != nil || res.Stop != StopConverged || p.DistStar(res.X) < 1e-3 {
					continue
				}
				check("pmc", p, res.X)
			}
		}
	}
	for _, nm := range [][2]int{{2, 3}, {3, 6}} {
		for seed := uint64(0); seed < 60; seed++ {
			op, err := NewGaussianOperator(nm[0], nm[1], seed)
			if err != nil {
				t.Fatal(err)
			}
			z := mat.NewDense(nm[0], 1, nil)
			z.Set(0, 0, 1)
			p, _ := NewProblem(op, z, 1)
			for trial := uint64(0); trial < 3; trial++ {
				res, err := GradientDescent(t.Context(), p, randDense(nm[0], 1, 100*seed+trial), GDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 5000}, GradTol: 1e-10})
				if err != nil || res.Stop != StopConverged || p.DistStar(res.X) < 1e-3 {
					continue
				}
				check("gaussian", p, res.X)
			}
		}
	}
	t.Logf("%d local minima checked", checked)
	if checked < 10 {
		t.Errorf("only %d local minima checked; the test would be vacuous", checked)
	}
}

// TestExactLineQuartic compares the ExactLine polynomial with direct
// evaluations of h along the line at the real-world x̂ (which is only
// approximately critical, so C1 ≠ 0 matters).
func TestExactLineQuartic(t *testing.T) {
	p := RealWorldProblem()
	s, err := SingleStep(p, RealWorldXHat(), SingleStepOptions{Delta: 0.81106})
	if err != nil {
		t.Fatal(err)
	}
	e := s.Exact
	for _, rho := range []float64{-2, -0.5, 0.1, 0.7, 3} {
		x := linePoint(s.CP, rho)
		want := p.H(x) - s.HHat
		got := rho * (e.C1 + rho*(e.C2+rho*(e.C3+rho*e.C4)))
		if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Errorf("ρ = %v: quartic %v, direct %v", rho, got, want)
		}
	}
	if e.Feasible || s.ExactCandidate != nil {
		t.Errorf("real-world: the exact line should not descend (Disc = %v)", e.Disc)
	}
}

func TestSingleStepErrors(t *testing.T) {
	pmc, _ := PMCCaseStudyProblem(0.3)
	for _, tc := range []struct {
		name string
		p    *Problem
		x    mat.Matrix
		opt  SingleStepOptions
		want error
	}{
		{"δ = 1", RealWorldProblem(), RealWorldXHat(), SingleStepOptions{Delta: 1}, ErrDelta},
		{"δ < 0", RealWorldProblem(), RealWorldXHat(), SingleStepOptions{Delta: -0.1}, ErrDelta},
		{"δ NaN", RealWorldProblem(), RealWorldXHat(), SingleStepOptions{Delta: math.NaN()}, ErrDelta},
		{"large gradient", pmc, mat.NewDense(3, 1, []float64{1, 0, -1}), SingleStepOptions{Delta: 0.5}, ErrNotSpuriousMinimum},
		{"global minimum (λ_n ≥ 0)", pmc, mat.NewDense(3, 1, []float64{1, 0, 1}), SingleStepOptions{Delta: 0.5}, ErrNotSpuriousMinimum},
		{"σ_r = 0", RealWorldProblem(), mat.NewDense(3, 1, nil), SingleStepOptions{Delta: 0.5}, ErrRankDeficient},
		{"wrong shape", RealWorldProblem(), mat.NewDense(2, 1, nil), SingleStepOptions{Delta: 0.5}, ErrShape},
		{"tight gradient tolerance", RealWorldProblem(), RealWorldXHat(), SingleStepOptions{Delta: 0.5, GradTol: 1e-6}, ErrNotSpuriousMinimum},
	} {
		if _, err := SingleStep(tc.p, tc.x, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestSingleStepCaseOneMirror checks the finding REPRODUCTION.md F4 on the
// seeded Gaussian instance of notebook 02 (n = 2, m = 3, seed 164, z = e₁,
// X̂ where GD with step 0.05 from (0.3, 0.6) stops): the line X̂ + ρ u_n q_rᵀ
// holds a descent point ρ* (the exact line's minimiser), with the sign of
// −⟨E, u_n u_nᵀ⟩. With u_n signed so that ⟨E, u_n u_nᵀ⟩ > 0 (the paper's
// Case 1) the paper's point −X̂ + ρ* u_n q_rᵀ is the mirror of
// X̂ − ρ* u_n q_rᵀ and raises h; X̂ + ρ* u_n q_rᵀ lowers it, and it is the
// same point for both signs of u_n.
func TestSingleStepCaseOneMirror(t *testing.T) {
	op, err := NewGaussianOperator(2, 3, 164)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProblem(op, mat.NewDense(2, 1, []float64{1, 0}), 1)
	if err != nil {
		t.Fatal(err)
	}
	gd, err := GradientDescent(t.Context(), p, mat.NewDense(2, 1, []float64{0.3, 0.6}), GDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 20000}, GradTol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	rip, err := RIPExact(op)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := AnalyzeCritical(p, gd.X, CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.CheckSpurious(1e-8); err != nil || !cp.IsLocalMinimum(1e-10) {
		t.Fatalf("X̂ = %v is not a spurious local minimum: %v, Hessian %v", gd.X.RawMatrix().Data, err, cp.HessEig)
	}
	h0 := p.H(gd.X)
	line := func(s *SingleStepResult, sign, rho float64) *mat.Dense {
		var x, d mat.Dense
		x.Scale(sign, s.CP.X)
		d.Outer(rho, s.CP.Un, s.CP.Qr)
		x.Add(&x, &d)
		return &x
	}
	var good [2]*mat.Dense
	caseOne := 0
	for i, flip := range []bool{false, true} {
		s, err := SingleStep(p, gd.X, SingleStepOptions{Delta: rip.Delta, Critical: CriticalOptions{FlipUn: flip}})
		if err != nil {
			t.Fatal(err)
		}
		rho := s.Exact.BestRho
		if !s.Exact.Feasible || rho == 0 || math.Signbit(rho) != math.Signbit(-s.CP.Euu) {
			t.Fatalf("flip %v: ρ* = %v, ⟨E, uuᵀ⟩ = %v: want a descent point with the sign of −⟨E, uuᵀ⟩", flip, rho, s.CP.Euu)
		}
		good[i] = line(s, 1, rho)
		if h := p.H(good[i]); !(h < h0) {
			t.Errorf("flip %v: h(X̂ + ρ* u qᵀ) = %v, not below h(X̂) = %v", flip, h, h0)
		}
		if s.CP.Euu > 0 {
			caseOne++
			if h := p.H(line(s, -1, rho)); !(h > h0) {
				t.Errorf("Case 1: h(−X̂ + ρ* u qᵀ) = %v, want above h(X̂) = %v", h, h0)
			}
		}
	}
	if caseOne != 1 {
		t.Errorf("%d sign conventions with ⟨E, uuᵀ⟩ > 0, want exactly 1", caseOne)
	}
	if !mat.EqualApprox(good[0], good[1], 1e-12) {
		t.Errorf("X̂ + ρ* u qᵀ depends on the sign of u_n: %v, %v", good[0].RawMatrix().Data, good[1].RawMatrix().Data)
	}
}

// TestExactLineStructured: above StructuredCriticalMinN the structured
// analysis of a PMC problem leaves CriticalPoint.GradF nil; the exact line
// check must then form ∇f(X̂X̂ᵀ) itself (it used to dereference the nil
// matrix). Its coefficients are compared with the dense path's, computed
// independently from the n×n analysis.
func TestExactLineStructured(t *testing.T) {
	for _, tc := range []struct {
		n   int
		eps float64
	}{
		{StructuredCriticalMinN + 44, 0.1},
		{StructuredCriticalMinN + 1, 0.3},
	} {
		op, err := NewPMCOperator(tc.n, tc.eps)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewProblem(op, randDense(tc.n, 1, 5), 1)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Structured() {
			t.Fatalf("n = %d: PMC problem is not structured", tc.n)
		}
		x := randDense(tc.n, 1, 6)
		cps, err := AnalyzeCritical(p, x, CriticalOptions{SkipHessian: true})
		if err != nil {
			t.Fatal(err)
		}
		if cps.GradF != nil {
			t.Fatalf("n = %d: expected the structured analysis (GradF nil)", tc.n)
		}
		dp, err := p.DensePath()
		if err != nil {
			t.Fatal(err)
		}
		cpd, err := AnalyzeCritical(dp, x, CriticalOptions{SkipHessian: true})
		if err != nil {
			t.Fatal(err)
		}
		// Align the eigenvector signs (u_n is defined up to sign; the sign
		// convention may differ numerically between the two paths).
		if mat.Dot(cps.Un, cpd.Un) < 0 {
			cpd.Un.ScaleVec(-1, cpd.Un)
			cpd.Euu = -cpd.Euu
		}
		got, want := exactLine(p, cps), exactLine(dp, cpd)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"C1", got.C1, want.C1}, {"C2", got.C2, want.C2}, {"C3", got.C3, want.C3}, {"C4", got.C4, want.C4},
		} {
			if math.Abs(c.got-c.want) > 1e-6*(1+math.Abs(c.want)) {
				t.Errorf("n = %d ε = %v: %s structured %v, dense %v", tc.n, tc.eps, c.name, c.got, c.want)
			}
		}
	}
}
