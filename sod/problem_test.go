package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// testProblems returns problems of each operator kind with r = 1 and r = 2.
func testProblems(t *testing.T) map[string]*Problem {
	t.Helper()
	out := map[string]*Problem{"basic": BasicExampleProblem(), "real-world": RealWorldProblem()}
	for name, op := range testOperators(t) {
		n, _ := op.Dims()
		for _, r := range []int{1, 2} {
			p, err := NewProblem(op, randDense(n, 2, 21), r)
			if err != nil {
				t.Fatal(err)
			}
			out[name+"/r="+string(rune('0'+r))] = p
		}
	}
	return out
}

// TestGradFiniteDifference checks ∇h against central differences of h
// computed from the explicit sensing matrices (naiveH), and H against naiveH.
func TestGradFiniteDifference(t *testing.T) {
	for name, p := range testProblems(t) {
		n, r := p.Dims()
		X := randDense(n, r, 33)
		as := explicitSensing(p.Op)
		f := func(x mat.Matrix) float64 { return naiveH(as, p.B, x) }
		if h, want := p.H(X), f(X); math.Abs(h-want) > 1e-12*(1+want) {
			t.Errorf("%s: H = %v, explicit %v", name, h, want)
		}
		g := mat.NewDense(n, r, nil)
		p.Grad(g, X)
		fd := fdGrad(f, X, 1e-5)
		if d := relDiff(g, fd); d > 1e-7 {
			t.Errorf("%s: ∇h differs from finite differences by %v", name, d)
		}
	}
}

// TestHessVecFiniteDifference checks ∇²h(X)[D] against central differences
// of ∇h along D, and Hessian against HessVec.
func TestHessVecFiniteDifference(t *testing.T) {
	for name, p := range testProblems(t) {
		n, r := p.Dims()
		X := randDense(n, r, 34)
		D := randDense(n, r, 35)
		hv := mat.NewDense(n, r, nil)
		p.HessVec(hv, X, D)
		const s = 1e-5
		var xp, xm mat.Dense
		xp.Scale(s, D)
		xp.Add(X, &xp)
		xm.Scale(-s, D)
		xm.Add(X, &xm)
		gp, gm := mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
		p.Grad(gp, &xp)
		p.Grad(gm, &xm)
		var fd mat.Dense
		fd.Sub(gp, gm)
		fd.Scale(1/(2*s), &fd)
		if d := relDiff(hv, &fd); d > 1e-7 {
			t.Errorf("%s: HessVec differs from finite differences by %v", name, d)
		}
		H, err := p.Hessian(X)
		if err != nil {
			t.Fatal(err)
		}
		vd := mat.NewVecDense(n*r, append([]float64(nil), D.RawMatrix().Data...))
		var hvd mat.VecDense
		hvd.MulVec(H, vd)
		if d := relDiff(&hvd, mat.NewVecDense(n*r, append([]float64(nil), hv.RawMatrix().Data...))); d > 1e-12 {
			t.Errorf("%s: Hessian·vec(D) differs from HessVec by %v", name, d)
		}
	}
}

// TestGradF checks ∇f(M) against finite differences of f(M) = ½‖𝒜(M)−b‖²
// along symmetric directions, on the real-world problem.
func TestGradF(t *testing.T) {
	p := RealWorldProblem()
	M := randSym(3, 3)
	G := mat.NewDense(3, 3, nil)
	p.GradF(G, M)
	as := explicitSensing(p.Op)
	f := func(M mat.Matrix) float64 {
		s := 0.0
		for i, a := range as {
			d := mat.Sum(elemMul(a, M)) - p.B[i]
			s += d * d
		}
		return s / 2
	}
	D := randSym(3, 4)
	const h = 1e-6
	var mp, mm mat.Dense
	mp.Scale(h, D)
	mp.Add(M, &mp)
	mm.Scale(-h, D)
	mm.Add(M, &mm)
	fd := (f(&mp) - f(&mm)) / (2 * h)
	if got := mat.Sum(elemMul(G, D)); math.Abs(got-fd) > 1e-8 {
		t.Errorf("⟨∇f, D⟩ = %v, finite difference %v", got, fd)
	}
}

// TestBasicExampleValues checks h against the closed form
// h(x̂ + ρe₁) = (ρ⁴ + ¾)/2 derived by hand for x̂ = (0, 1/√2) (REPRODUCTION.md F5).
func TestBasicExampleValues(t *testing.T) {
	p := BasicExampleProblem()
	for _, rho := range []float64{0, 0.1, -0.3, 1, 2.5} {
		x := BasicExampleXHat()
		x.Set(0, 0, rho)
		want := (math.Pow(rho, 4) + 0.75) / 2
		if got := p.H(x); math.Abs(got-want) > 1e-14*(1+want) {
			t.Errorf("h(x̂ + %v e₁) = %v, want %v", rho, got, want)
		}
	}
	if d := p.DistStar(mat.NewDense(2, 1, []float64{1, 0})); d != 0 {
		t.Errorf("DistStar(z) = %v, want 0", d)
	}
	if d, want := p.DistStar(BasicExampleXHat()), math.Sqrt(1+0.25); math.Abs(d-want) > 1e-15 {
		t.Errorf("DistStar(x̂) = %v, want √(1+¼) = %v", d, want)
	}
}

func TestProblemErrors(t *testing.T) {
	op := RealWorldOperator()
	z := mat.NewDense(3, 1, []float64{1, 0, 0})
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"nil op", second(NewProblem(nil, z, 1)), ErrBadParameter},
		{"nil Z", second(NewProblem(op, nil, 1)), ErrShape},
		{"Z wrong rows", second(NewProblem(op, mat.NewDense(2, 1, nil), 1)), ErrShape},
		{"r = 0", second(NewProblem(op, z, 0)), ErrBadParameter},
		{"Z NaN", second(NewProblem(op, mat.NewDense(3, 1, []float64{math.NaN(), 0, 0}), 1)), ErrNotFinite},
		{"b wrong length", second(NewProblemFromMeasurements(op, []float64{1, 2}, 1)), ErrShape},
		{"b Inf", second(NewProblemFromMeasurements(op, []float64{1, 2, 3, 4, 5, math.Inf(1)}, 1)), ErrNotFinite},
		{"CheckX shape", RealWorldProblem().CheckX(mat.NewDense(3, 2, nil)), ErrShape},
		{"CheckX NaN", RealWorldProblem().CheckX(mat.NewDense(3, 1, []float64{0, math.NaN(), 0})), ErrNotFinite},
		{"literal without B", (&Problem{Op: op, R: 1}).Validate(), ErrShape},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	p, err := NewProblemFromMeasurements(op, make([]float64, 6), 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.HasTruth() || p.DistStar(z) != -1 {
		t.Errorf("without ground truth: HasTruth = %v, DistStar = %v, want false, −1", p.HasTruth(), p.DistStar(z))
	}
}

// TestFusedGradPMC compares the single-pass PMC h/∇h (used by GD) with the
// generic Apply/Adjoint path, for r = 1 and r = 3, and distStar with a
// dense computation of ‖XXᵀ − M*‖_F.
func TestFusedGradPMC(t *testing.T) {
	for _, r := range []int{1, 3} {
		op, _ := NewPMCOperator(9, 0.15)
		p, err := NewProblem(op, randDense(9, 2, 3), r)
		if err != nil {
			t.Fatal(err)
		}
		X := randDense(9, r, 4)
		ws := p.getWorkspace()
		g1, g2 := mat.NewDense(9, r, nil), mat.NewDense(9, r, nil)
		h1 := p.evalGrad(ws, g1, X)
		h2 := p.gradFast(ws, g2, X)
		if math.Abs(h1-h2) > 1e-12*h1 || relDiff(g2, g1) > 1e-13 {
			t.Errorf("r=%d: fused h = %v (generic %v), ∇h differs by %v", r, h2, h1, relDiff(g2, g1))
		}
		var d mat.Dense
		d.Mul(X, X.T())
		d.Sub(&d, p.MStar)
		if got, want := p.DistStar(X), mat.Norm(&d, 2); math.Abs(got-want) > 1e-12*want {
			t.Errorf("r=%d: DistStar = %v, want %v", r, got, want)
		}
	}
}

// TestEvalGradNoAlloc checks that the h/∇h evaluation used by GD does not
// allocate for the PMC and dense operators.
func TestEvalGradNoAlloc(t *testing.T) {
	pmc, _ := NewPMCOperator(80, 0.1)
	g, _ := NewGaussianOperator(10, 50, 1)
	for name, op := range map[string]Operator{"pmc": pmc, "gaussian": g} {
		n, _ := op.Dims()
		p, err := NewProblem(op, randDense(n, 2, 1), 2)
		if err != nil {
			t.Fatal(err)
		}
		ws := p.getWorkspace()
		X := randDense(n, 2, 2)
		G := mat.NewDense(n, 2, nil)
		if a := testing.AllocsPerRun(20, func() { p.evalGrad(ws, G, X) }); a != 0 {
			t.Errorf("%s: evalGrad allocates %v times per call", name, a)
		}
		if a := testing.AllocsPerRun(20, func() { p.gradFast(ws, G, X) }); a != 0 {
			t.Errorf("%s: gradFast allocates %v times per call", name, a)
		}
		if a := testing.AllocsPerRun(20, func() { p.distStar(ws, X) }); a != 0 {
			t.Errorf("%s: distStar allocates %v times per call", name, a)
		}
	}
}
