package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestCriticalPaperSigns checks that the documented sign rule gives the u_n
// with which the paper's X_final columns were produced (REPRODUCTION.md C3), and the
// rank-1 convention q_r = +1, v_r = X̂/‖X̂‖.
func TestCriticalPaperSigns(t *testing.T) {
	pmc, err := PMCCaseStudyProblem(0.3)
	if err != nil {
		t.Fatal(err)
	}
	a := math.Sqrt(0.91 / 1.09)
	for _, tc := range []struct {
		name string
		p    *Problem
		x    *mat.Dense
		un   []float64
		tol  float64
	}{
		{"real-world", RealWorldProblem(), RealWorldXHat(), []float64{-0.93577, 0.12392, 0.33013}, 5e-6},
		{"pmc", pmc, mat.NewDense(3, 1, []float64{a, 0, -a}), []float64{1 / math.Sqrt2, 0, 1 / math.Sqrt2}, 1e-12},
		{"basic", BasicExampleProblem(), BasicExampleXHat(), []float64{1, 0}, 1e-15},
	} {
		for _, x := range []*mat.Dense{tc.x, scaled(-1, tc.x)} {
			cp, err := AnalyzeCritical(tc.p, x, CriticalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !floats.EqualApprox(cp.Un.RawVector().Data, tc.un, tc.tol) {
				t.Errorf("%s: u_n = %v, want %v", tc.name, cp.Un.RawVector().Data, tc.un)
			}
			if cp.Qr.AtVec(0) != 1 {
				t.Errorf("%s: q_r = %v, want +1", tc.name, cp.Qr.AtVec(0))
			}
			var v mat.VecDense
			v.ScaleVec(1/mat.Norm(x, 2), x.ColView(0))
			if !mat.EqualApprox(&v, cp.Vr, 1e-14) {
				t.Errorf("%s: v_r = %v, want X̂/‖X̂‖ = %v", tc.name, cp.Vr.RawVector().Data, v.RawVector().Data)
			}
			flip, _ := AnalyzeCritical(tc.p, x, CriticalOptions{FlipUn: true, FlipQr: true})
			if !floats.EqualApprox(flip.Un.RawVector().Data, floats.ScaleTo(make([]float64, len(tc.un)), -1, tc.un), tc.tol) || flip.Qr.AtVec(0) != -1 {
				t.Errorf("%s: flip options not applied", tc.name)
			}
		}
	}
}

// TestCriticalValues checks the quantities against hand derivations and
// Reference values: basic example (∇f = diag(−¾, 0), σ_r = 1/√2, E = √3·A₂·√3 has
// zero diagonal so Euu = 0, Hessian eigenvalues {0, 2}); PMC spurious
// minimum (h = 0.330275 and Hessian eigenvalues 2.679, 3.339,
// 3.640, REPRODUCTION.md F1); E equals Σ_i ⟨A_i, P⟩ A_i from explicit matrices.
func TestCriticalValues(t *testing.T) {
	cp, err := AnalyzeCritical(BasicExampleProblem(), BasicExampleXHat(), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !floats.EqualApprox(cp.Lambda, []float64{0, -0.75}, 1e-15) || math.Abs(cp.SigmaR-1/math.Sqrt2) > 1e-15 ||
		math.Abs(cp.Euu) > 1e-15 || math.Abs(cp.H-0.375) > 1e-15 || cp.Xi2 != 1 || cp.M != 3 {
		t.Errorf("basic: λ = %v, σ_r = %v, Euu = %v, h = %v, Ξ² = %v, m = %d", cp.Lambda, cp.SigmaR, cp.Euu, cp.H, cp.Xi2, cp.M)
	}
	if !floats.EqualApprox(cp.HessEig, []float64{0, 2}, 1e-14) {
		t.Errorf("basic: Hessian eigenvalues %v, want [0 2]", cp.HessEig)
	}
	if e := cp.E.At(0, 1); math.Abs(e-1.5) > 1e-15 {
		t.Errorf("basic: E₁₂ = %v, want 3/2", e)
	}

	pmc, _ := PMCCaseStudyProblem(0.3)
	a := math.Sqrt(0.91 / 1.09)
	cp, err = AnalyzeCritical(pmc, mat.NewDense(3, 1, []float64{a, 0, -a}), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(cp.H-0.330275) > 5e-7 || cp.GradNorm > 1e-14 || cp.CheckSpurious(1e-10) != nil {
		t.Errorf("pmc: h = %v, ‖∇h‖ = %v, CheckSpurious = %v", cp.H, cp.GradNorm, cp.CheckSpurious(1e-10))
	}
	if !floats.EqualApprox(cp.HessEig, []float64{2.679, 3.339, 3.640}, 1e-3) || !cp.IsLocalMinimum(0) {
		t.Errorf("pmc: Hessian eigenvalues %v, want (2.679, 3.339, 3.640)", cp.HessEig)
	}

	// E from explicit sensing matrices, at the real-world x̂.
	p := RealWorldProblem()
	cp, err = AnalyzeCritical(p, RealWorldXHat(), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var P mat.Dense
	P.Outer(1, cp.Un, cp.Vr)
	P.Add(&P, P.T())
	E := mat.NewDense(3, 3, nil)
	for _, A := range explicitSensing(p.Op) {
		var t mat.Dense
		t.Scale(mat.Sum(elemMul(A, &P)), A)
		E.Add(E, &t)
	}
	if d := relDiff(cp.E, E); d > 1e-14 {
		t.Errorf("real-world: E differs from Σ⟨A_i,P⟩A_i by %v", d)
	}
	if got := mat.Inner(cp.Un, E, cp.Un); math.Abs(got-cp.Euu) > 1e-14 {
		t.Errorf("Euu = %v, explicit %v", cp.Euu, got)
	}
	if cp.IsLocalMinimum(0) != true || cp.CheckSpurious(1e-4) != nil {
		t.Errorf("real-world x̂: Hessian %v, CheckSpurious %v", cp.HessEig, cp.CheckSpurious(1e-4))
	}
}

func TestCriticalErrors(t *testing.T) {
	p := RealWorldProblem()
	pmc, _ := PMCCaseStudyProblem(0.3)
	for _, tc := range []struct {
		name string
		p    *Problem
		x    mat.Matrix
		opt  CriticalOptions
		want error
	}{
		{"wrong shape", p, mat.NewDense(3, 2, nil), CriticalOptions{}, ErrShape},
		{"NaN", p, mat.NewDense(3, 1, []float64{1, math.NaN(), 0}), CriticalOptions{}, ErrNotFinite},
		{"zero X", p, mat.NewDense(3, 1, nil), CriticalOptions{}, ErrRankDeficient},
		{"rank-deficient r=2", mustProblem(t, p.Op, 2), mat.NewDense(3, 2, []float64{1, 2, 0, 0, 1, 2}), CriticalOptions{}, ErrRankDeficient},
		{"UnRef length", pmc, mat.NewDense(3, 1, []float64{1, 0, -1}), CriticalOptions{UnRef: []float64{1}}, ErrShape},
	} {
		if _, err := AnalyzeCritical(tc.p, tc.x, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	// Rank-deficient point accepted on request: σ_r is the nonzero one.
	cp, err := AnalyzeCritical(mustProblem(t, p.Op, 2), mat.NewDense(3, 2, []float64{1, 2, 0, 0, 1, 2}), CriticalOptions{AllowRankDeficient: true})
	if err != nil || cp.Rank != 1 || math.Abs(cp.SigmaR-math.Sqrt(10)) > 1e-12 {
		t.Errorf("AllowRankDeficient: err %v, rank %v, σ_r %v (want 1, √10)", err, cp.Rank, cp.SigmaR)
	}

	// Not a spurious minimum: (1,0,−1) for PMC has ‖∇h‖ = 0.36√2 (REPRODUCTION.md F1);
	// the ground truth has λ_n(∇f) = 0.
	cp, err = AnalyzeCritical(pmc, mat.NewDense(3, 1, []float64{1, 0, -1}), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(cp.GradNorm-0.36*math.Sqrt2) > 1e-12 || !errors.Is(cp.CheckSpurious(1e-6), ErrNotSpuriousMinimum) {
		t.Errorf("(1,0,−1): ‖∇h‖ = %v (want 0.36√2), CheckSpurious = %v", cp.GradNorm, cp.CheckSpurious(1e-6))
	}
	cp, err = AnalyzeCritical(pmc, mat.NewDense(3, 1, []float64{1, 0, 1}), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(cp.CheckSpurious(1e-6), ErrNotSpuriousMinimum) {
		t.Errorf("ground truth: λ_n = %v, CheckSpurious = %v", cp.LambdaN, cp.CheckSpurious(1e-6))
	}
}
