package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestSMomentsMonteCarlo compares the closed-form moments of S_𝒜(P,Q)
// (section 4.3) with a seeded Monte Carlo over full Gaussian-ensemble
// draws. Tolerance: 5 empirical standard errors of each sample mean.
// An independent Monte Carlo run (20 000 samples, m = 10) gave E S² = 0.2014, E S⁴ = 0.1414 (theory 0.2, 0.144).
func TestSMomentsMonteCarlo(t *testing.T) {
	for _, tc := range []struct {
		n, m, samples int
	}{{3, 10, 20000}, {4, 3, 20000}, {2, 40, 10000}} {
		s, err := SampleS(t.Context(), tc.n, tc.m, tc.samples, 7)
		if err != nil {
			t.Fatal(err)
		}
		mean, second, fourth, err := SMoments(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		pow := func(k float64) []float64 {
			out := make([]float64, len(s))
			for i, v := range s {
				out[i] = math.Pow(v, k)
			}
			return out
		}
		for _, c := range []struct {
			name string
			x    []float64
			want float64
		}{{"E S", s, mean}, {"E S²", pow(2), second}, {"E S⁴", pow(4), fourth}} {
			mu, sd := stat.MeanStdDev(c.x, nil)
			se := sd / math.Sqrt(float64(len(c.x)))
			if math.Abs(mu-c.want) > 5*se {
				t.Errorf("n=%d m=%d: %s = %.5g ± %.2g, theory %.5g", tc.n, tc.m, c.name, mu, se, c.want)
			}
		}
	}
}

// TestPZBoundHolds checks the Paley–Zygmund inequality itself against the
// Monte Carlo distribution of AIC: P(AIC ≥ θ E[AIC]) must be at least the
// bound (minus 3 standard errors), and MonteCarloEFS must agree with the
// directly counted event.
func TestPZBoundHolds(t *testing.T) {
	const n, m, N = 3, 10, 20000
	const delta = 0.3
	s, err := SampleS(t.Context(), n, m, N, 11)
	if err != nil {
		t.Fatal(err)
	}
	eAIC, eAIC2, err := AICMoments(m, delta)
	if err != nil {
		t.Fatal(err)
	}
	// Moments of AIC from the closed forms of S.
	_, s2, s4, _ := SMoments(m)
	d2 := (1 + delta) * (1 + delta)
	if math.Abs(eAIC-s2/(2*d2)) > 1e-15 || math.Abs(eAIC2-s4/(4*d2*d2)) > 1e-15 {
		t.Errorf("AIC moments %v, %v inconsistent with S moments", eAIC, eAIC2)
	}
	for _, theta := range []float64{0.05, 0.25, 0.5, 0.9} {
		hit := 0
		for _, v := range s {
			if v*v/(2*d2) >= theta*eAIC {
				hit++
			}
		}
		pr := float64(hit) / N
		se := math.Sqrt(pr * (1 - pr) / N)
		b, err := PZBound(theta, m)
		if err != nil {
			t.Fatal(err)
		}
		if pr < b-3*se {
			t.Errorf("θ = %v: P(AIC ≥ θE) = %v < PZ bound %v", theta, pr, b)
		}
		// The same event through MonteCarloEFS: NCM = 1 − θ E[AIC].
		est, err := MonteCarloEFS(t.Context(), n, m, delta, 1-theta*eAIC, N, 11)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(est.P-pr) > 1.0/N+1e-12 {
			t.Errorf("θ = %v: MonteCarloEFS = %v, direct count %v", theta, est.P, pr)
		}
	}
	if b, _ := PZBound(0, 1_000_000); math.Abs(b-1.0/3) > 1e-5 {
		t.Errorf("PZ bound for θ → 0, m → ∞ = %v, want 1/3", b)
	}
}

// TestRadiiAndCases: r₂/2 at the real-world x̂ is 3.99 (δ₁) and 7.78 (δ₂)
// while ‖X̂X̂ᵀ − M*‖² = 1.0737 (REPRODUCTION.md F7), so the printed x̂ is in Case 2.
func TestRadiiAndCases(t *testing.T) {
	p := RealWorldProblem()
	cp, err := AnalyzeCritical(p, RealWorldXHat(), CriticalOptions{SkipHessian: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		delta, halfR2 float64
	}{{0.81106, 3.99}, {0.89834, 7.78}} {
		a, err := PaleyZygmund(p, cp, tc.delta)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.R2/2-tc.halfR2) > 0.005 || math.Abs(a.Dist2-1.0737) > 5e-4 || a.Case != PZNear || a.Bound != 0 {
			t.Errorf("δ = %v: r₂/2 = %v (want %v), D = %v (want 1.0737), case %v", tc.delta, a.R2/2, tc.halfR2, a.Dist2, a.Case)
		}
		if want := (1 - 1/((1+tc.delta)*(1+tc.delta)*6)) * a.R2; math.Abs(a.R1-want) > 1e-12 {
			t.Errorf("r₁ = %v, want %v", a.R1, want)
		}
	}
	// Hand-checked classification with σ_r = 1, Tr = 1, δ = 0, m = 2:
	// r₂ = 2, r₁ = 2(1 − 1/2) = 1.
	r1, r2, err := Radii(0, 1, 1, 2)
	if err != nil || r1 != 1 || r2 != 2 {
		t.Fatalf("Radii = %v, %v, %v; want 1, 2", r1, r2, err)
	}
	b, _ := PZBound(0.5, 2)
	if math.Abs(b-0.25*2/12) > 1e-15 {
		t.Errorf("PZBound(0.5, 2) = %v, want 1/24", b)
	}
}

func TestPZErrors(t *testing.T) {
	noTruth, _ := NewProblemFromMeasurements(RealWorldOperator(), make([]float64, 6), 1)
	cp, _ := AnalyzeCritical(RealWorldProblem(), RealWorldXHat(), CriticalOptions{SkipHessian: true})
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"SMoments m=0", func() error { _, _, _, err := SMoments(0); return err }(), ErrNoMeasurements},
		{"AICMoments δ=1", func() error { _, _, err := AICMoments(3, 1); return err }(), ErrDelta},
		{"PZBound θ>1", second(PZBound(1.5, 3)), ErrBadParameter},
		{"PZBound m=0", second(PZBound(0.5, 0)), ErrNoMeasurements},
		{"Radii δ<0", func() error { _, _, err := Radii(-0.1, 1, 1, 3); return err }(), ErrDelta},
		{"Radii m=0", func() error { _, _, err := Radii(0.1, 1, 1, 0); return err }(), ErrNoMeasurements},
		{"PZ no truth", second(PaleyZygmund(noTruth, cp, 0.5)), ErrNoGroundTruth},
		{"PZ δ NaN", second(PaleyZygmund(RealWorldProblem(), cp, math.NaN())), ErrDelta},
		{"SampleS m=0", second(SampleS(t.Context(), 3, 0, 10, 1)), ErrNoMeasurements},
		{"SampleS n=1", second(SampleS(t.Context(), 1, 3, 10, 1)), ErrBadParameter},
		{"MonteCarloEFS δ=1", second(MonteCarloEFS(t.Context(), 3, 3, 1, 0.5, 10, 1)), ErrDelta},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}
