package escapebench

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

func TestCertify(t *testing.T) {
	ctx := context.Background()
	saddle := sod.DesignedSaddleInstance()
	basic := sod.BasicExampleProblem()
	for _, c := range []struct {
		name     string
		p        *sod.Problem
		x        *mat.Dense
		ok       bool
		kind     PointKind
		contains string
	}{
		// X̂ = (0, 1): ∇f = −3e₁e₁ᵀ, a critical point with a direction of
		// negative curvature (h(X̂ + ρe₁) < h(X̂) to second order).
		{"strict saddle", saddle.P, saddle.XHat, false, 0, "strict saddle"},
		// The basic example at (0.3, 0.5) is not stationary.
		{"not stationary", basic, mat.NewDense(2, 1, []float64{0.3, 0.5}), false, 0, "not stationary"},
		// The global minimum z = e₁ is not spurious.
		{"global minimum", basic, mat.NewDense(2, 1, []float64{1, 0}), false, 0, "not spurious"},
		// One measurement ⟨e₁e₁ᵀ, M⟩ of M* = e₁e₁ᵀ: X = (1, 5) has h = 0
		// but XXᵀ ≠ M*, a global minimum of h, not a spurious point.
		{"h = 0 away from M*", oneMeasurement(t), mat.NewDense(2, 1, []float64{1, 5}), false, 0, "not identifiable"},
		// x̂ = (0, 1/√2): h is quartic along e₁, so λ_min(∇²h) = 0: a
		// degenerate second-order point (not a local minimum).
		{"degenerate", basic, mat.NewDense(2, 1, []float64{0, 1 / math.Sqrt2}), true, DegenerateSecondOrder, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cert, err := Certify(ctx, c.p, c.x, CertifyOptions{})
			if c.ok {
				if err != nil || cert.Kind != c.kind {
					t.Fatalf("Certify = %+v, %v; want kind %v", cert, err, c.kind)
				}
				return
			}
			if !errors.Is(err, ErrNotCertified) || !strings.Contains(err.Error(), c.contains) {
				t.Fatalf("Certify = %+v, %v; want ErrNotCertified mentioning %q", cert, err, c.contains)
			}
		})
	}
}

// The Lanczos path (forced by DenseMax = 1) agrees with the dense
// eigendecomposition on PMC points, including the structured problem.
func TestCertifyLanczosMatchesDense(t *testing.T) {
	ctx := context.Background()
	fi, err := Instances(ctx, PMCFamily{Sizes: []int{20}, Epsilons: []float64{0.15}}, 1, 4, CertifyOptions{})
	if err != nil || len(fi.Instances) == 0 {
		t.Fatalf("PMC instances: %v, %v", fi, err)
	}
	for _, in := range fi.Instances {
		lc, err := Certify(ctx, in.P, in.X, CertifyOptions{DenseMax: 1})
		if err != nil || !lc.Lanczos || in.Cert.Lanczos {
			t.Fatalf("%s: %+v %v", in.Name, lc, err)
		}
		if d := math.Abs(lc.MinHessEig - in.Cert.MinHessEig); d > 1e-7*math.Max(1, math.Abs(in.Cert.MinHessEig)) {
			t.Errorf("%s: Lanczos λ_min = %v, dense %v", in.Name, lc.MinHessEig, in.Cert.MinHessEig)
		}
	}
}

func TestCertifyBadOptions(t *testing.T) {
	_, err := Certify(context.Background(), sod.BasicExampleProblem(), mat.NewDense(2, 1, nil), CertifyOptions{Tol: -1})
	if !errors.Is(err, ErrBadBench) {
		t.Fatalf("Tol = −1: %v", err)
	}
}

func TestFamiliesDeterministic(t *testing.T) {
	ctx := context.Background()
	for _, f := range []Family{PaperFamily{}, PMCFamily{Sizes: []int{12}, Epsilons: []float64{0.15}}, PMCFamily{Sizes: []int{12}, Epsilons: []float64{0.01}, Start: StartRandomSigns}, GaussianFamily{Sizes: []int{5}, Ms: []int{7}, Ranks: []int{1}}} {
		a, err := Instances(ctx, f, 7, 3, CertifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Instances(ctx, f, 7, 3, CertifyOptions{})
		if len(a.Instances) != len(b.Instances) || len(a.Dropped) != len(b.Dropped) {
			t.Fatalf("%s: not deterministic", f.Name())
		}
		for i := range a.Instances {
			if !mat.Equal(a.Instances[i].X, b.Instances[i].X) || a.Instances[i].Cert != b.Instances[i].Cert {
				t.Fatalf("%s: instance %d differs", f.Name(), i)
			}
		}
	}
	pf, _ := Instances(ctx, PaperFamily{}, 0, 1, CertifyOptions{})
	if len(pf.Instances) != 3 || pf.Instances[0].Cert.Kind != DegenerateSecondOrder || pf.Instances[1].Cert.Kind != StrictLocalMin {
		t.Fatalf("paper family: %+v", pf)
	}
}

func TestFuncFamily(t *testing.T) {
	f := FuncFamily("mine", func(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
		in := sod.DesignedSaddleInstance()
		return []StallPoint{{Name: "saddle", P: in.P, X: in.XHat, Step: 0.1}, {Name: "basic", P: sod.BasicExampleProblem(), X: sod.BasicExampleXHat(), Step: 0.1}}, nil
	})
	fi, err := Instances(context.Background(), f, 1, 1, CertifyOptions{Tol: 1e-3})
	if err != nil || len(fi.Instances) != 1 || len(fi.Dropped) != 1 || fi.Dropped[0].Name != "saddle" {
		t.Fatalf("user family: %+v, %v", fi, err)
	}
}

func oneMeasurement(t *testing.T) *sod.Problem {
	op, err := sod.NewDenseOperator([]*mat.Dense{mat.NewDense(2, 2, []float64{1, 0, 0, 0})})
	if err != nil {
		t.Fatal(err)
	}
	p, err := sod.NewProblem(op, mat.NewDense(2, 1, []float64{1, 0}), 1)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPointKindText(t *testing.T) {
	for _, k := range []PointKind{StrictLocalMin, DegenerateSecondOrder} {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back PointKind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("%v: round trip gives %v, %v", k, back, err)
		}
	}
	if _, err := PointKind(0).MarshalText(); err == nil {
		t.Error("the zero PointKind marshals")
	}
	var k PointKind
	if err := k.UnmarshalText([]byte("saddle")); err == nil {
		t.Error(`"saddle" unmarshals`)
	}
}

// TestGaussianTries: with Tries, the Gaussian cells near where spurious
// points disappear (m = 1.5nr and 2.25nr at n = 20) yield certified
// points, the same on every call; PMC cells give each cell its count.
func TestGaussianTries(t *testing.T) {
	ctx := context.Background()
	f := GaussianFamily{Cells: []GaussianCell{{20, 30, 1}, {20, 45, 1}}, Tries: 40}
	a, err := Instances(ctx, f, 1, 2, CertifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Instances) != 4 || len(a.Dropped) != 0 {
		t.Errorf("%d certified, %d dropped (%v), want 4 and 0", len(a.Instances), len(a.Dropped), a.Dropped)
	}
	b, err := Instances(ctx, f, 1, 2, CertifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Instances {
		if a.Instances[i].Name != b.Instances[i].Name || a.Instances[i].Cert != b.Instances[i].Cert {
			t.Errorf("instance %d differs between calls: %s / %s", i, a.Instances[i].Name, b.Instances[i].Name)
		}
	}
	p := PMCFamily{Cells: []PMCCell{{N: 12, Eps: 0.15}, {N: 20, Eps: 0.1, Points: 1}}, Start: StartRandomSigns}
	pts, err := p.Generate(ctx, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 || pts[3].Name != "pmc n=20 ε=0.1 #0" {
		t.Errorf("%d points (last %q), want 3 + 1", len(pts), pts[len(pts)-1].Name)
	}
	if _, err := (GaussianFamily{Cells: f.Cells, Tries: -1}).Generate(ctx, 1, 1); err == nil {
		t.Error("Tries = -1 accepted")
	}
}

// TestCertifyNoZeroOfH: the two tests that keep a zero of h away from M*
// out. A point on gradient descent's way to such a zero (Gaussian
// sensing with m < n, so h vanishes on a manifold away from M*) passes
// loose gradient and h tests but keeps descending; the zero itself fails
// the relative h test.
func TestCertifyNoZeroOfH(t *testing.T) {
	ctx := context.Background()
	op, err := sod.NewGaussianOperator(6, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	z := mat.NewDense(6, 1, []float64{1, -1, 0.5, 0, 0.3, -0.2})
	p, err := sod.NewProblem(op, z, 1)
	if err != nil {
		t.Fatal(err)
	}
	x0 := mat.NewDense(6, 1, []float64{-0.4, 0.9, 0.1, 0.7, -0.5, 0.2})
	run := func(steps int) *mat.Dense {
		res, err := sod.GradientDescent(ctx, p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.02, MaxIter: steps, TraceEvery: steps}})
		if err != nil {
			t.Fatal(err)
		}
		return res.X
	}
	on := run(200)
	_, err = Certify(ctx, p, on, CertifyOptions{Tol: 10, RelH: 1e-12, Step: 0.02})
	if !errors.Is(err, ErrNotCertified) || !strings.Contains(err.Error(), "keeps descending") {
		t.Errorf("point on the way: %v, want ErrNotCertified (keeps descending)", err)
	}
	zero := run(200000)
	c, err := Certify(ctx, p, zero, CertifyOptions{Tol: 10})
	if !errors.Is(err, ErrNotCertified) || !strings.Contains(err.Error(), "RelH") || !(c.HRel < DefaultRelH) {
		t.Errorf("zero of h (h/h(0) = %.3g, dist %.3g): %v, want ErrNotCertified (RelH)", c.HRel, c.Dist, err)
	}
}
