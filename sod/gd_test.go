package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGDRealWorld runs GD (step 0.1, the paper's setting) from the printed
// x̂ and checks the converged minimum against REPRODUCTION.md C9,
// ≈ (0.223471, 0.091832, 0.598578) (printed to 6 decimals: tolerance 1e-6).
func TestGDRealWorld(t *testing.T) {
	p := RealWorldProblem()
	res, err := GradientDescent(t.Context(), p, RealWorldXHat(), GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopConverged {
		t.Fatalf("GD stopped with %v, want converged: ‖∇h‖ = %v", res.Stop, res.GradNorm)
	}
	want := []float64{0.223471, 0.091832, 0.598578}
	for i, w := range want {
		if math.Abs(res.X.At(i, 0)-w) > 1e-6 {
			t.Errorf("x[%d] = %.7f, want %v", i, res.X.At(i, 0), w)
		}
	}
	// The trace starts at iteration 0 with h(x̂) and has one entry per step.
	if len(res.Trace.H) != res.Iter+1 || res.Trace.Iter[0] != 0 || res.Trace.H[0] != p.H(RealWorldXHat()) {
		t.Errorf("trace: len %d for %d iterations, first iteration %d", len(res.Trace.H), res.Iter, res.Trace.Iter[0])
	}
	for k := 1; k < len(res.Trace.H); k++ {
		if res.Trace.H[k] > res.Trace.H[k-1]+1e-15 {
			t.Fatalf("h increased at iteration %d", k)
		}
	}
	if len(res.Trace.Dist) != len(res.Trace.H) {
		t.Errorf("Dist trace length %d, want %d", len(res.Trace.Dist), len(res.Trace.H))
	}
}

// TestGDPMCSpuriousMinimum: from (1,0,−1), which is not critical, GD (PMC,
// n=3, ε=0.3) reaches the spurious minimum a(1,0,−1) with
// a = √((1−ε²)/(1+ε²)), derived by hand (REPRODUCTION.md F1), h = 0.330275.
func TestGDPMCSpuriousMinimum(t *testing.T) {
	p, err := PMCCaseStudyProblem(0.3)
	if err != nil {
		t.Fatal(err)
	}
	res, err := GradientDescent(t.Context(), p, mat.NewDense(3, 1, []float64{1, 0, -1}), GDOptions{Iteration: Iteration{Step: 0.01, MaxIter: 20000}, GradTol: 1e-11})
	if err != nil {
		t.Fatal(err)
	}
	a := math.Sqrt((1 - 0.09) / (1 + 0.09))
	want := []float64{a, 0, -a}
	for i, w := range want {
		if math.Abs(res.X.At(i, 0)-w) > 1e-9 {
			t.Errorf("x[%d] = %v, want %v", i, res.X.At(i, 0), w)
		}
	}
	if math.Abs(res.H-0.330275) > 5e-7 {
		t.Errorf("h = %v, want 0.330275", res.H)
	}
}

// TestGDDiverges: a huge step overflows; GD must report Diverged and return
// the last finite iterate, with a NaN-free trace.
func TestGDDiverges(t *testing.T) {
	p := RealWorldProblem()
	res, err := GradientDescent(t.Context(), p, mat.NewDense(3, 1, []float64{3, -2, 1}), GDOptions{Iteration: Iteration{Step: 50, MaxIter: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopDiverged {
		t.Fatal("expected divergence")
	}
	if err := p.CheckX(res.X); err != nil {
		t.Errorf("returned X not finite: %v", err)
	}
	for _, tr := range [][]float64{res.Trace.H, res.Trace.GradNorm, res.Trace.Dist} {
		for _, v := range tr {
			if !isFinite(v) {
				t.Fatal("trace contains a non-finite value")
			}
		}
	}
}

// TestGDStagnation: from the real-world x̂ GD reaches the spurious minimum,
// where h stays at 0.0583 > 0 while the gradient test (disabled here) is
// never met: stagnation must be detected. Started near the ground truth, h
// decreases linearly to 0 and stagnation must not be reported.
func TestGDStagnation(t *testing.T) {
	opt := GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 20000}, StagnationWindow: 100, StagnationTol: 1e-6, StopOnStagnation: true}
	res, err := GradientDescent(t.Context(), RealWorldProblem(), RealWorldXHat(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stagnated || res.Stop != StopStagnated || res.Iter == opt.MaxIter || res.StagnatedAt != res.Iter {
		t.Errorf("spurious minimum: Stagnated = %v at %d, stop %v, Iter = %d", res.Stagnated, res.StagnatedAt, res.Stop, res.Iter)
	}
	opt.GradTol = 1e-10
	res, err = GradientDescent(t.Context(), RealWorldProblem(), mat.NewDense(3, 1, []float64{0.9, 0.05, -0.05}), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stagnated || res.Stop != StopConverged || res.H > 1e-15 {
		t.Errorf("near z: Stagnated = %v, Converged = %v, h = %v", res.Stagnated, res.Stop == StopConverged, res.H)
	}
}

// TestBasicExampleNotLocalMinimum: the paper calls x̂ = (0, 1/√2) a local
// minimum of the basic example. h is a quadratic in (u, w) = (x₁², x₂²):
// h = ½[(u + w/2 − 1)² + 3uw + ¾w²], so along x = (√u, √(½ − 2u))
// h − 3/8 = −3u²/2 exactly: x̂ is a degenerate (fourth-order) saddle,
// although h(x̂ + ρe₁) = (ρ⁴ + ¾)/2 increases along the straight line and
// the Hessian is PSD (eigenvalues 0, 2). GD started next to x̂ leaves it and
// converges to z.
func TestBasicExampleNotLocalMinimum(t *testing.T) {
	p := BasicExampleProblem()
	for _, u := range []float64{1e-4, 1e-3, 1e-2} {
		x := mat.NewDense(2, 1, []float64{math.Sqrt(u), math.Sqrt(0.5 - 2*u)})
		if got, want := p.H(x)-0.375, -1.5*u*u; math.Abs(got-want) > 1e-15 {
			t.Errorf("u = %v: h − 3/8 = %v, want %v", u, got, want)
		}
	}
	x0 := BasicExampleXHat()
	x0.Set(0, 0, 0.05)
	res, err := GradientDescent(t.Context(), p, x0, GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopConverged || p.DistStar(res.X) > 1e-9 {
		t.Errorf("GD from x̂ + 0.05e₁: converged %v, ‖XXᵀ−M*‖ = %v, want → z", res.Stop == StopConverged, p.DistStar(res.X))
	}
}

func TestGDCallbackAndIterates(t *testing.T) {
	calls := 0
	res, err := GradientDescent(t.Context(), RealWorldProblem(), RealWorldXHat(), GDOptions{
		Iteration: Iteration{Step: 0.1, MaxIter: 100, KeepIterates: true, TraceEvery: 10}, Callback: func(k int, X *mat.Dense, h, g float64) bool { calls++; return k < 50 },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopCallback || res.Iter != 50 || calls != 6 || len(res.Trace.Iterates) != 6 {
		t.Errorf("Stopped = %v, Iter = %d, calls = %d, iterates = %d; want true, 50, 6, 6", res.Stop == StopCallback, res.Iter, calls, len(res.Trace.Iterates))
	}
	if !mat.Equal(res.Trace.Iterates[0], RealWorldXHat()) {
		t.Error("first iterate is not x0")
	}
}

func TestGDErrors(t *testing.T) {
	p := RealWorldProblem()
	x := RealWorldXHat()
	for _, tc := range []struct {
		name string
		x    mat.Matrix
		opt  GDOptions
		want error
	}{
		{"step 0", x, GDOptions{Iteration: Iteration{Step: 0, MaxIter: 1}}, ErrBadParameter},
		{"step NaN", x, GDOptions{Iteration: Iteration{Step: math.NaN(), MaxIter: 1}}, ErrBadParameter},
		{"negative iterations", x, GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: -1}}, ErrBadParameter},
		{"wrong shape", mat.NewDense(2, 1, nil), GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 1}}, ErrShape},
		{"NaN start", mat.NewDense(3, 1, []float64{math.NaN(), 0, 0}), GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 1}}, ErrNotFinite},
	} {
		if _, err := GradientDescent(t.Context(), p, tc.x, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestGDNoAllocPerIteration: the number of allocations must not grow with
// the number of iterations.
func TestGDNoAllocPerIteration(t *testing.T) {
	op, _ := NewPMCOperator(30, 0.1)
	p, _ := NewProblem(op, randDense(30, 1, 1), 1)
	x0 := randDense(30, 1, 2)
	x0.Scale(0.01, x0)
	allocs := func(iters int) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := GradientDescent(t.Context(), p, x0, GDOptions{Iteration: Iteration{Step: 1e-3, MaxIter: iters}}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a10, a1000 := allocs(10), allocs(1000); a1000 > a10 {
		t.Errorf("allocations grow with iterations: %v for 10, %v for 1000", a10, a1000)
	}
}
