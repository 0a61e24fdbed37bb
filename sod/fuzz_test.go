package sod

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod/paper"
)

// Fuzz targets for the numeric entry points. Their seed corpora (f.Add and
// testdata/fuzz) run in every `go test`; scripts/test.sh also fuzzes each
// for a few seconds.

// checkHGrad checks h and ∇h of p at x: h ≥ 0 and finite, h(−X) = h(X),
// ∇h finite, and ⟨∇h(X), X⟩ equal to the derivative of s ↦ h(sX) at
// s = 1 (a quartic, differentiated exactly by the five-point stencil).
func checkHGrad(t *testing.T, p *Problem, x *mat.Dense) {
	t.Helper()
	h := p.H(x)
	var neg mat.Dense
	neg.Scale(-1, x)
	if !(h >= 0) || math.IsInf(h, 0) || math.Abs(p.H(&neg)-h) > 1e-12*(1+h) {
		t.Fatalf("h(X) = %v, h(−X) = %v for X = %v", h, p.H(&neg), mat.Formatted(x.T()))
	}
	var g mat.Dense
	p.Grad(&g, x)
	if !allFinite(g.RawMatrix().Data...) {
		t.Fatalf("∇h not finite at X = %v", mat.Formatted(x.T()))
	}
	// h(sX) is a quartic in s, so the five-point stencil is exact up to
	// rounding: ⟨∇h(X), X⟩ = d/ds h(sX) at s = 1.
	const d = 1e-2
	hs := func(s float64) float64 {
		var y mat.Dense
		y.Scale(s, x)
		return p.H(&y)
	}
	f2m, f1m, f1p, f2p := hs(1-2*d), hs(1-d), hs(1+d), hs(1+2*d)
	fd := (f2m - 8*f1m + 8*f1p - f2p) / (12 * d)
	scale := math.Max(math.Max(f2m, f2p), 1) / d
	if dot := floats.Dot(g.RawMatrix().Data, x.RawMatrix().Data); math.Abs(dot-fd) > 1e-11*scale {
		t.Fatalf("⟨∇h, X⟩ = %v, five-point difference %v at X = %v", dot, fd, mat.Formatted(x.T()))
	}
}

// FuzzPMC: NewPMCOperator accepts exactly n ∈ [1, MaxPMCSize] and finite ε > 0
// (anything else is ErrBadParameter, without allocating), and on small
// problems h and ∇h are consistent.
func FuzzPMC(f *testing.F) {
	f.Add(3, 0.1, 0.3, -0.7)
	f.Add(40, 0.15, 0.01, 0.02)
	f.Add(0, 0.1, 1.0, 1.0)
	f.Add(-5, 0.1, 1.0, 1.0)
	f.Add(1<<31, 0.1, 1.0, 1.0)
	f.Add(10, math.NaN(), 1.0, 1.0)
	f.Add(10, math.Inf(1), 1.0, 1.0)
	f.Add(7, 1e-300, 1e3, -1e3)
	f.Fuzz(func(t *testing.T, n int, eps, a, b float64) {
		op, err := NewPMCOperator(n, eps)
		valid := n >= 1 && n <= MaxPMCSize && eps > 0 && !math.IsInf(eps, 0)
		if (err == nil) != valid || (err != nil && !errors.Is(err, ErrBadParameter)) {
			t.Fatalf("NewPMCOperator(%d, %v): %v", n, eps, err)
		}
		if err != nil || n > 12 || !allFinite(a, b) || math.Abs(a) > 1e3 || math.Abs(b) > 1e3 || eps > 1e3 {
			return
		}
		z := mat.NewDense(n, 1, nil)
		for i := 0; i < n; i += 2 {
			z.Set(i, 0, 1)
		}
		p, err := NewProblem(op, z, 1)
		if err != nil {
			t.Fatal(err)
		}
		checkHGrad(t, p, fillX(n, 1, 1, a, b))
	})
}

// FuzzGaussian: NewGaussianOperator refuses sizes outside its limits (before
// allocating) and otherwise builds an operator whose adjoint is its
// transpose: ⟨𝒜(M), y⟩ = ⟨M, 𝒜*(y)⟩.
func FuzzGaussian(f *testing.F) {
	f.Add(3, 2, uint64(1), 0.5, -1.0)
	f.Add(1, 1, uint64(0), 1.0, 1.0)
	f.Add(0, 3, uint64(7), 1.0, 1.0)
	f.Add(4, 0, uint64(7), 1.0, 1.0)
	f.Add(1_000_000, 1, uint64(7), 1.0, 1.0)
	f.Add(2048, 1000, uint64(7), 1.0, 1.0)
	f.Fuzz(func(t *testing.T, n, m int, seed uint64, a, b float64) {
		refused := n < 1 || n > MaxDenseSize || m < 1 || 16*float64(m)*float64(n)*float64(n) > MaxGaussianBytes
		if !refused && n*n*m > 512 {
			return // valid but too big to fuzz cheaply
		}
		op, err := NewGaussianOperator(n, m, seed)
		if refused {
			if err == nil || !(errors.Is(err, ErrBadParameter) || errors.Is(err, ErrNoMeasurements) || errors.Is(err, ErrTooLarge)) {
				t.Fatalf("NewGaussianOperator(%d, %d): %v, want a refusal", n, m, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("NewGaussianOperator(%d, %d): %v", n, m, err)
		}
		if !allFinite(a, b) || math.Abs(a) > 1e100 || math.Abs(b) > 1e100 {
			return
		}
		M := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				M.SetSym(i, j, a+b*float64(i-j))
			}
		}
		y := make([]float64, m)
		for i := range y {
			y[i] = b - a*float64(i)
		}
		am := make([]float64, m)
		op.Apply(am, M)
		var ay mat.Dense
		ay.ReuseAs(n, n)
		op.Adjoint(&ay, y)
		lhs := mat.Dot(mat.NewVecDense(m, am), mat.NewVecDense(m, y))
		rhs := 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				rhs += M.At(i, j) * ay.At(i, j)
			}
		}
		scale := (math.Abs(a) + math.Abs(b)*float64(n)) * (math.Abs(a) + math.Abs(b)) * float64(m*n*n)
		if math.Abs(lhs-rhs) > 1e-12*(1+scale) {
			t.Fatalf("n=%d m=%d: ⟨𝒜(M), y⟩ = %v, ⟨M, 𝒜*(y)⟩ = %v", n, m, lhs, rhs)
		}
	})
}

// FuzzRealWorldH: on the paper's real-world case, a finite X gets
// consistent h and ∇h; a non-finite one is refused by CheckX.
func FuzzRealWorldH(f *testing.F) {
	x := paper.RealWorldSettings().XHat // the printed spurious point
	f.Add(x[0].Value(), x[1].Value(), x[2].Value())
	f.Add(1.0, 0.0, 0.0)
	f.Add(0.0, 0.0, 0.0)
	f.Add(math.NaN(), 0.0, 0.0)
	f.Add(1e300, -1e300, 1e-300)
	f.Add(1e3, -1e3, 5.0)
	p := RealWorldProblem()
	f.Fuzz(func(t *testing.T, a, b, c float64) {
		x := mat.NewDense(3, 1, []float64{a, b, c})
		if !allFinite(a, b, c) {
			if err := p.CheckX(x); !errors.Is(err, ErrNotFinite) {
				t.Fatalf("CheckX(%v, %v, %v) = %v, want ErrNotFinite", a, b, c, err)
			}
			return
		}
		if math.Abs(a)+math.Abs(b)+math.Abs(c) > 1e6 {
			return // h overflows float64 beyond ~1e77; checked elsewhere
		}
		checkHGrad(t, p, x)
	})
}

// FuzzTPGDClosedForm: any inputs are either refused with ErrBadParameter
// or give NaN-free log-domain coefficients, thresholds, term norms and
// scales (an overflowing scale is ErrScaleOverflow, never Inf).
func FuzzTPGDClosedForm(f *testing.F) {
	f.Add(-0.45, 0.6, 0.66, 0.4, 1001, 0.1, 0.1, int64(150000))
	f.Add(-0.45, 0.6, 0.66, 0.4, 5, 0.1, 0.1, int64(150000))
	f.Add(-2.0, 0.6, 0.66, 0.4, 11, 0.1, 0.1, int64(59000))
	f.Add(-1.0, 1.0, 1.0, 0.0, 3, 0.5, 0.5, int64(math.MaxInt64))
	f.Add(0.0, 1.0, 1.0, 1.0, 3, 0.1, 0.1, int64(1))
	f.Add(-1e-300, 1e300, 1e-300, 1e300, math.MaxInt, 1e-300, 0.999, int64(0))
	f.Add(math.Inf(-1), 1.0, 1.0, 1.0, 3, 0.1, 0.1, int64(1))
	f.Add(-0.5, 0.5, 0.5, 0.5, 4, 0.1, 0.1, int64(-1))
	f.Fuzz(func(t *testing.T, lambda, sigma, normX, normEX float64, l int, rho, eta float64, tt int64) {
		c, err := NewTPGDClosedForm(TPGDInputs{LambdaN: lambda, SigmaR: sigma, NormX: normX, NormEX: normEX}, l, rho, eta)
		if err != nil {
			if !errors.Is(err, ErrBadParameter) {
				t.Fatalf("error %v does not wrap ErrBadParameter", err)
			}
			return
		}
		tBA, tBC, tCA := c.Thresholds()
		if !allFinite(c.LogQ(), c.LogLogQ()) || math.IsNaN(tBA) || math.IsNaN(tBC) || math.IsNaN(tCA) || math.IsNaN(c.RhoMin()) || math.IsNaN(c.LogK()) {
			t.Fatalf("NaN: thresholds %v %v %v, log Q %v, log log Q %v, ρ_min %v, log K %v", tBA, tBC, tCA, c.LogQ(), c.LogLogQ(), c.RhoMin(), c.LogK())
		}
		_, _, _, err = c.Coefficients(tt)
		if tt < 0 {
			if !errors.Is(err, ErrBadParameter) {
				t.Fatalf("t = %d: %v", tt, err)
			}
			return
		}
		a, b, g, err := c.Coefficients(tt)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []LogScalar{a, b, g} {
			if math.IsNaN(v.Log) || math.IsInf(v.Log, 1) || (v.Sign != 0 && math.IsInf(v.Log, 0)) {
				t.Fatalf("t = %d: coefficient %+v", tt, v)
			}
		}
		na, nb, nc, err := c.TermNorms(tt)
		if err != nil || math.IsNaN(na) || math.IsNaN(nb) || math.IsNaN(nc) {
			t.Fatalf("t = %d: term norms %v %v %v, %v", tt, na, nb, nc, err)
		}
		for _, s := range []func(int64) (float64, error){c.BetaScale, c.GammaScale} {
			v, err := s(tt)
			if err == nil && !allFinite(v) || err != nil && !errors.Is(err, ErrScaleOverflow) {
				t.Fatalf("t = %d: scale %v, %v", tt, v, err)
			}
		}
		_ = c.Select(tt)
	})
}

// FuzzEscapePoint: vectors and matrices of any shape are either refused
// (ErrShape, ErrNotFinite, ErrBadParameter) or give a point of shape
// len(u_n) × len(q_r), or nil with KindNone.
func FuzzEscapePoint(f *testing.F) {
	f.Add(int64(100), uint8(3), uint8(1), uint8(3), uint8(1), 0.5, -0.2)
	f.Add(int64(2000000), uint8(3), uint8(1), uint8(3), uint8(1), 0.5, -0.2)
	f.Add(int64(100), uint8(2), uint8(1), uint8(3), uint8(1), 0.5, -0.2)
	f.Add(int64(100), uint8(0), uint8(0), uint8(0), uint8(0), 0.5, -0.2)
	f.Add(int64(-1), uint8(3), uint8(2), uint8(3), uint8(2), math.NaN(), 1.0)
	c, err := NewTPGDClosedForm(TPGDInputs{LambdaN: -0.5, SigmaR: 0.6, NormX: 0.7, NormEX: 0.4}, 3, 0.1, 0.1)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tt int64, nu, nq, er, ec uint8, a, b float64) {
		n, r := int(nu%6), int(nq%4)
		var un, qr mat.Vector
		if n > 0 {
			un = mat.NewVecDense(n, fillX(n, 1, 1, a, b).RawMatrix().Data)
		}
		if r > 0 {
			qr = mat.NewVecDense(r, fillX(r, 1, 1, b, a).RawMatrix().Data)
		}
		var ex mat.Matrix
		if er%6 > 0 && ec%4 > 0 {
			ex = fillX(int(er%6), int(ec%4), 1, a, b)
		}
		x, kind, err := c.EscapePoint(tt, un, qr, ex)
		if err != nil {
			if !errors.Is(err, ErrShape) && !errors.Is(err, ErrNotFinite) && !errors.Is(err, ErrBadParameter) && !errors.Is(err, ErrScaleOverflow) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if kind == KindNone {
			if x != nil {
				t.Fatalf("KindNone with a point")
			}
			return
		}
		xr, xc := x.Dims()
		if xr != n || xc != r {
			t.Fatalf("point %d×%d for u_n %d, q_r %d", xr, xc, n, r)
		}
		if !allFinite(x.RawMatrix().Data...) {
			t.Fatalf("non-finite point %v", mat.Formatted(x))
		}
	})
}

// FuzzEscapeDistances: any shapes and values give an error or three
// NaN-free distances (ratio +Inf only when dStar = 0 < dHat).
func FuzzEscapeDistances(f *testing.F) {
	f.Add(uint8(3), uint8(3), uint8(3), 1.0, 0.0, 0.5)
	f.Add(uint8(3), uint8(2), uint8(3), 1.0, 0.0, 0.5)
	f.Add(uint8(2), uint8(2), uint8(2), 1.0, 1.0, 1.0)
	f.Add(uint8(2), uint8(2), uint8(2), 1e200, -1e200, 1.0)
	f.Add(uint8(1), uint8(1), uint8(1), math.Inf(1), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, nh, nc, nm uint8, a, b, c float64) {
		xh := fillX(int(nh%4)+1, 1, 1, a, b)
		xc := fillX(int(nc%4)+1, 1, 1, b, c)
		n := int(nm%4) + 1
		ms := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			ms.Set(i, i, c)
		}
		dh, ds, ratio, err := EscapeDistances(xh, xc, ms)
		if err != nil {
			if !errors.Is(err, ErrShape) && !errors.Is(err, ErrNotFinite) && !errors.Is(err, ErrBadParameter) && !errors.Is(err, ErrScaleOverflow) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if !allFinite(dh, ds) || dh < 0 || ds < 0 || math.IsNaN(ratio) || (math.IsInf(ratio, 0) && !(ds == 0 && dh > 0)) {
			t.Fatalf("distances %v %v ratio %v", dh, ds, ratio)
		}
	})
}

// FuzzEscaperSettings: every built-in escaper either refuses its settings
// in its Validate (an error wrapping ErrBadParameter,
// ErrTooLarge or ErrDelta, before any work) or, its settings accepted,
// proposes from the real-world spurious point without a panic, within a
// deadline, at most MaxCandidates candidates, each n×r and finite.
func FuzzEscaperSettings(f *testing.F) {
	f.Add(3, int64(100), 0.1, 0.1, 0.0, 0.5, 1, 1, 0.5, uint8(1), int64(10))
	f.Add(5, int64(150000), 0.1, 0.1, 2.0, 1e-3, 0, 0, 10.0, uint8(2), int64(1))
	f.Add(4, int64(-1), math.NaN(), 2.0, 0.5, -1.0, -1, 1<<20, math.Inf(1), uint8(99), int64(-5))
	f.Add(math.MaxInt, int64(math.MaxInt64), 1e-300, 0.999, math.Inf(1), math.MaxFloat64, math.MaxInt, math.MaxInt, math.Copysign(0, -1), uint8(0), int64(math.MaxInt64))
	f.Add(1, int64(0), 0.0, 0.0, 1.0, math.NaN(), MaxCandidates, MaxCandidates+1, math.SmallestNonzeroFloat64, uint8(3), int64(0))
	p, x := RealWorldProblem(), RealWorldXHat()
	n, r := p.Dims()
	f.Fuzz(func(t *testing.T, l int, steps int64, rho, eta, growth, radius float64, dirs, samples int, alpha float64, kind uint8, ts int64) {
		escs := []Escaper{
			&MultiStepSOD{L: l, T: steps, Rho: rho, Eta: eta, Force: EscapeKind(kind)},
			&SODLineSearch{L: l, Rho: rho, Eta: eta, GrowthQ: growth, Ts: []int64{ts, steps}, Kinds: []EscapeKind{EscapeKind(kind)}},
			&SODLineSearch{L: l, Rho: rho, Eta: eta, GrowthQ: growth},
			&PerturbedGD{Radius: radius, TThres: int(min(max(steps, -1), 1<<31)), Samples: samples},
			&RandomLineSearch{Directions: dirs, Alphas: []float64{alpha, 1}},
			&NegGradLineSearch{Alphas: []float64{alpha}},
			&ExactSubspaceSOD{L: l, T: int(min(max(steps, -1), 1<<31)), Rho: rho, Eta: eta},
			&SingleStepSOD{Options: SingleStepOptions{Delta: eta, Rho: rho, GradTol: growth}},
		}
		for _, esc := range escs {
			if err := ValidateEscaper(esc); err != nil {
				if !errors.Is(err, ErrBadParameter) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrDelta) {
					t.Errorf("%s: Validate: %v, want ErrBadParameter, ErrTooLarge or ErrDelta", esc.Name(), err)
				}
				continue
			}
			if e, ok := esc.(*ExactSubspaceSOD); ok && (e.T > 1000 || e.L > 101) {
				continue // accepted; the exact dynamics cost O(T·l): checked in subspace_test.go
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			start := time.Now()
			cands, err := esc.Propose(ctx, &EscapeState{P: p, X: x, H: p.H(x)})
			cancel()
			if d := time.Since(start); d > 6*time.Second {
				t.Errorf("%s: Propose took %v, beyond its deadline", esc.Name(), d)
			}
			if err != nil {
				continue // a refusal at run time (no negative curvature, a scale beyond float64) is fine
			}
			if len(cands) > MaxCandidates {
				t.Errorf("%s: %d candidates, more than MaxCandidates", esc.Name(), len(cands))
			}
			for i, c := range cands {
				if c.X == nil {
					t.Fatalf("%s: candidate %d has no X", esc.Name(), i)
				}
				if cr, cc := c.X.Dims(); cr != n || cc != r {
					t.Errorf("%s: candidate %d is %d×%d, want %d×%d", esc.Name(), i, cr, cc, n, r)
				}
			}
		}
	})
}
