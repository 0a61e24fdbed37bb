package sod

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/paper"
)

// TestPaperInstances checks each instance against independent computations: X̂ is a critical
// point with λ_n < 0 and the h the paper (or the hand computation) gives, and every δ is what
// RIPOptimize (rank 1) or RIPExact gives, to the digits stated.
func TestPaperInstances(t *testing.T) {
	insts := PaperInstances()
	if len(insts) != 3 {
		t.Fatalf("%d instances, want 3", len(insts))
	}
	for _, tc := range []struct {
		name    string
		h       float64 // h(X̂), reference value
		hTol    float64
		gradTol float64 // the printed real-world x̂ is rounded to 4 decimals
		l       int
		t       int64
	}{
		{"basic example", 3.0 / 8, 1e-15, 1e-15, 3, 40},
		{"PMC n=3 ε=0.3", 0.330275, 1e-6, 1e-12, paper.PMCSettings().L, paper.PMCSettings().T},
		{"real-world", 0.058289, 1e-5, 1e-3, paper.RealWorldSettings().L, paper.RealWorldSettings().T},
	} {
		var in *Instance
		for i := range insts {
			if insts[i].Name == tc.name {
				in = &insts[i]
			}
		}
		if in == nil {
			t.Fatalf("no instance %q", tc.name)
		}
		cp, err := in.Critical(CriticalOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(cp.H-tc.h) > tc.hTol || cp.GradNorm > tc.gradTol || !(cp.LambdaN < 0) {
			t.Errorf("%s: h = %.8g (want %.8g), ‖∇h‖ = %.2g (≤ %g), λ_n = %.4g (< 0)", tc.name, cp.H, tc.h, cp.GradNorm, tc.gradTol, cp.LambdaN)
		}
		if in.L != tc.l || in.T != tc.t {
			t.Errorf("%s: (l, t) = (%d, %d), want (%d, %d)", tc.name, in.L, in.T, tc.l, tc.t)
		}
		exact, err := RIPExact(in.P.Op)
		if err != nil {
			t.Fatal(err)
		}
		rank1, err := RIPOptimize(t.Context(), in.P.Op, 1, 40, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range in.Deltas {
			var want, tol float64
			switch {
			case strings.HasPrefix(d.Label, "δ₁"):
				want, tol = rank1.Delta, 5e-4 // printed to 3–5 digits
			case strings.Contains(d.Label, "exact"):
				want, tol = exact.Delta, 2e-5
			case strings.Contains(d.Label, "paper's"):
				want, tol = (1-0.3)/(1+0.3), 5e-4
			default:
				t.Fatalf("%s: unknown δ label %q", tc.name, d.Label)
			}
			if math.Abs(d.Delta-want) > tol {
				t.Errorf("%s: %s = %v, computed %v (tolerance %g)", tc.name, d.Label, d.Delta, want, tol)
			}
		}
		if in.Delta() != in.Deltas[0].Delta {
			t.Errorf("%s: Delta() = %v, want the first δ %v", tc.name, in.Delta(), in.Deltas[0].Delta)
		}
	}
}

// The basic example's escape (l, t) = (3, 40): t is in U_β and the β-type point lowers h.
func TestBasicExampleEscapeLT(t *testing.T) {
	in := PaperInstances()[0]
	cp, err := in.Critical(CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cf, err := NewTPGDFromCritical(cp, in.L, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	x, kind, err := cf.EscapePointAt(cp, in.T)
	if err != nil || x == nil {
		t.Fatalf("escape point at t = %d: %v, %v", in.T, x, err)
	}
	if kind.String() != "β" || !(in.P.H(x) < cp.H) {
		t.Errorf("t = %d: %v-type point with h = %.4g, want a β-type point below h(x̂) = %.4g", in.T, kind, in.P.H(x), cp.H)
	}
}

func TestPMCCaseStudyXHat(t *testing.T) {
	for _, eps := range []float64{0, -0.1, 1.5, math.NaN(), math.Inf(1)} {
		if _, err := PMCCaseStudyXHat(eps); !errors.Is(err, ErrBadParameter) {
			t.Errorf("PMCCaseStudyXHat(%v): error %v, want ErrBadParameter", eps, err)
		}
	}
	for _, eps := range []float64{0.1, 0.2, 0.3, 1} {
		p, err := PMCCaseStudyProblem(eps)
		if err != nil {
			t.Fatal(err)
		}
		x, err := PMCCaseStudyXHat(eps)
		if err != nil {
			t.Fatal(err)
		}
		// Independently: h(a(1,0,−1)) = (a²−1)² + ε²(a²+1)² is minimal at a² = (1−ε²)/(1+ε²), so ∇h = 0.
		g := mat.NewDense(3, 1, nil)
		p.Grad(g, x)
		a2 := x.At(0, 0) * x.At(0, 0)
		if mat.Norm(g, 2) > 1e-12 || math.Abs(p.H(x)-((a2-1)*(a2-1)+eps*eps*(a2+1)*(a2+1))) > 1e-12 {
			t.Errorf("ε = %v: ‖∇h(x̂)‖ = %.2g, h = %.8g", eps, mat.Norm(g, 2), p.H(x))
		}
	}
}

func TestDesignedSaddleInstance(t *testing.T) {
	in := DesignedSaddleInstance()
	cp, err := in.Critical(CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rip, err := RIPExact(in.P.Op)
	if err != nil {
		t.Fatal(err)
	}
	if cp.GradNorm > 1e-14 || math.Abs(cp.LambdaN+3) > 1e-12 || math.Abs(cp.SigmaR-1) > 1e-14 ||
		math.Abs(rip.Delta-in.Delta()) > 1e-12 || !(cp.HessMin < 0) {
		t.Errorf("‖∇h‖ = %.2g, λ_n = %v, σ_r = %v, δ = %v (exact %v), smallest Hessian eigenvalue %v (want < 0)",
			cp.GradNorm, cp.LambdaN, cp.SigmaR, in.Delta(), rip.Delta, cp.HessMin)
	}
	s, err := SingleStep(in.P, in.XHat, SingleStepOptions{Delta: in.Delta(), GradTol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if !(s.EFS > 1) || !s.Descends {
		t.Errorf("EFS = %v, descends %v: want a certified escape", s.EFS, s.Descends)
	}
}

func TestGaussianSpuriousInstance(t *testing.T) {
	in, err := GaussianSpuriousInstance()
	if err != nil {
		t.Fatal(err)
	}
	cp, err := in.Critical(CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cp.GradNorm > 1e-9 || !(cp.HessMin > 0) || !(in.P.DistStar(in.XHat) > 0.1) {
		t.Errorf("‖∇h‖ = %.2g, smallest Hessian eigenvalue %.3g, ‖X̂X̂ᵀ − M*‖ = %.3g: want a spurious local minimum", cp.GradNorm, cp.HessMin, in.P.DistStar(in.XHat))
	}
}

func TestLinePoint(t *testing.T) {
	cp, err := AnalyzeCritical(RealWorldProblem(), RealWorldXHat(), CriticalOptions{SkipHessian: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ s, rho float64 }{{1, 0.3}, {-1, 0.3}, {1, -2}, {1, 0}} {
		got := cp.LinePoint(tc.s, tc.rho)
		for i := 0; i < 3; i++ { // rank 1: q_r = ±1, so X̌_i = s·X̂_i + ρ·u_i·q
			want := tc.s*cp.X.At(i, 0) + tc.rho*cp.Un.AtVec(i)*cp.Qr.AtVec(0)
			if math.Abs(got.At(i, 0)-want) > 1e-15 {
				t.Errorf("s = %v, ρ = %v: entry %d = %v, want %v", tc.s, tc.rho, i, got.At(i, 0), want)
			}
		}
	}
}

// TestNamedInstances: the named instances are PaperInstances in its order, and each call
// returns a value of its own (changing one does not change the next).
func TestNamedInstances(t *testing.T) {
	insts := PaperInstances()
	for i, tc := range []struct {
		name string
		in   func() Instance
	}{{"basic example", BasicExample}, {"PMC n=3 ε=0.3", PMCCase}, {"real-world", RealWorldCase}} {
		a, b := tc.in(), tc.in()
		if a.Name != tc.name || insts[i].Name != tc.name {
			t.Errorf("instance %d: named %q, PaperInstances()[%d] %q, want %q", i, a.Name, i, insts[i].Name, tc.name)
		}
		if a.L != insts[i].L || a.T != insts[i].T || a.Delta() != insts[i].Delta() || !mat.Equal(a.XHat, insts[i].XHat) {
			t.Errorf("%s differs from PaperInstances()[%d]", tc.name, i)
		}
		a.XHat.Set(0, 0, 99)
		a.Deltas[0].Delta = 99
		if b.XHat.At(0, 0) == 99 || b.Deltas[0].Delta == 99 || tc.in().XHat.At(0, 0) == 99 {
			t.Errorf("%s: changing one value changed another", tc.name)
		}
	}
}

// TestInstanceTPGDConditions: the method is TPGDConditionsAt at X̂ with the first δ.
func TestInstanceTPGDConditions(t *testing.T) {
	in := RealWorldCase()
	got, err := in.TPGDConditions(5)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := AnalyzeCritical(in.P, in.XHat, CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := TPGDConditionsAt(in.P, cp, 5, 0.81106)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) || len(got) == 0 {
		t.Errorf("TPGDConditions(5) = %v, want %v (%v)", got, want, err)
	}
}
