package sod

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

var liftCases = []struct{ n, r, m, l int }{
	{2, 1, 3, 3}, {2, 1, 3, 5}, {3, 1, 6, 3}, {3, 1, 6, 5}, {2, 2, 4, 3}, {2, 2, 4, 5}, {3, 2, 5, 3},
}

// TestLiftedVsExplicit compares the m-vector closed form of h^l and of the
// projected gradient with dense explicit lifting (REPRODUCTION.md C7) on
// random K = 3 subspaces.
func TestLiftedVsExplicit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range liftCases {
		op := refGaussianOperator(tc.n, tc.m, uint64(31*tc.n+tc.r+tc.l))
		b := refMeasure(op, randDenseFrom(rng, tc.n, tc.r))
		dirs := []mat.Matrix{randDenseFrom(rng, tc.n, tc.r), randDenseFrom(rng, tc.n, tc.r), randDenseFrom(rng, tc.n, tc.r)}
		s, err := NewLiftedSubspace(op, b, tc.l, dirs...)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewExplicitLifting(op, b, tc.r, tc.l)
		if err != nil {
			t.Fatal(err)
		}
		coef := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		w, _ := e.Lift(coef, dirs...)
		wantH, _ := e.Objective(w)
		gotH, err := s.Objective(coef)
		if err != nil {
			t.Fatal(err)
		}
		if !relClose(gotH, wantH, 1e-12) {
			t.Errorf("%+v: h^l closed form %v, explicit %v", tc, gotH, wantH)
		}
		g := make([]float64, len(w))
		e.Gradient(g, w)
		pg := make([]float64, 3)
		if _, err := s.ProjectedGradient(pg, coef); err != nil {
			t.Fatal(err)
		}
		for i := range dirs {
			unit := make([]float64, 3)
			unit[i] = 1
			bi, _ := e.Lift(unit, dirs...)
			want := floats.Dot(g, bi)
			if !relClose(pg[i], want, 1e-11) {
				t.Errorf("%+v: ⟨∇h^l, dir %d⟩ = %v, explicit %v", tc, i, pg[i], want)
			}
		}
		gram := s.Gram()
		for i := range dirs {
			for j := range dirs {
				ui, uj := make([]float64, 3), make([]float64, 3)
				ui[i], uj[j] = 1, 1
				wi, _ := e.Lift(ui, dirs...)
				wj, _ := e.Lift(uj, dirs...)
				// Relative to ‖w_i‖‖w_j‖: the explicit dot product cancels.
				want := floats.Dot(wi, wj)
				if math.Abs(gram.At(i, j)-want) > 1e-12*floats.Norm(wi, 2)*floats.Norm(wj, 2) {
					t.Errorf("%+v: Gram[%d,%d] = %v, explicit %v", tc, i, j, gram.At(i, j), want)
				}
			}
		}
	}
}

// TestLiftedLogDomain checks LogObjective against Objective where the
// latter is finite, and its asymptotics h^l(λc) ~ λ⁴ Q₄ for coefficients far
// beyond float64 range.
func TestLiftedLogDomain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	op := refGaussianOperator(3, 6, 99)
	b := refMeasure(op, randDenseFrom(rng, 3, 1))
	dirs := []mat.Matrix{randDenseFrom(rng, 3, 1), randDenseFrom(rng, 3, 1), randDenseFrom(rng, 3, 1)}
	for _, l := range []int{3, 5, 7} {
		s, err := NewLiftedSubspace(op, b, l, dirs...)
		if err != nil {
			t.Fatal(err)
		}
		coef := []float64{0.7, -1.3, 0.2}
		lc := make([]LogScalar, 3)
		for _, scale := range []float64{1e-3, 1, 1e3} {
			c := make([]float64, 3)
			floats.ScaleTo(c, scale, coef)
			for j := range c {
				lc[j] = toLogScalar(c[j])
			}
			want, err := s.Objective(c)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := s.LogObjective(lc)
			if !relClose(got.Float(), want, 1e-11) {
				t.Errorf("l=%d scale=%g: log domain %v, float %v", l, scale, got.Float(), want)
			}
		}
		// Q₄ from a finite evaluation at λ = 1e8 (relative error ~1e-16).
		big := make([]float64, 3)
		floats.ScaleTo(big, 1e8, coef)
		hb, err := s.Objective(big)
		if err != nil {
			t.Fatal(err)
		}
		logQ4 := math.Log(hb) - 4*math.Log(1e8)
		for j := range lc {
			lc[j] = toLogScalar(coef[j])
			lc[j].Log += 1000
		}
		got, _ := s.LogObjective(lc)
		if got.Sign != 1 || math.Abs(got.Log-(4000+logQ4)) > 1e-9*4000 {
			t.Errorf("l=%d: log h^l(e^1000 c) = %v, want %v", l, got.Log, 4000+logQ4)
		}
		f := make([]float64, 3)
		floats.ScaleTo(f, math.Exp(300), coef)
		if _, err := s.Objective(f); !errors.Is(err, ErrScaleOverflow) {
			t.Errorf("l=%d: overflowing Objective error = %v, want ErrScaleOverflow", l, err)
		}
	}
}

// TestLiftedAblationNaN reproduces REPRODUCTION.md F11: at l = 3, t = 2e6
// the lifted objective of w̃(t) overflows in a direct float64 evaluation
// (the paper's ✗²) but is finite in the log domain.
func TestLiftedAblationNaN(t *testing.T) {
	op, b, xh, _, cr := refRealWorld()
	cf, err := NewTPGDClosedForm(TPGDInputs{cr.lambdaN, cr.sigma, mat.Norm(xh, 2), mat.Norm(cr.ex, 2)}, 3, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	bdir := mat.NewDense(3, 1, cr.un.RawVector().Data)
	s, err := NewLiftedSubspace(op, b, 3, xh, bdir, cr.ex)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		t           int64
		naiveFinite bool
	}{{500000, true}, {2000000, false}} {
		a, be, g, _ := cf.Coefficients(tc.t)
		lh, err := s.LogObjective([]LogScalar{a, be, g})
		if err != nil || lh.Sign != 1 || math.IsInf(lh.Log, 0) || math.IsNaN(lh.Log) {
			t.Errorf("t=%d: log-domain h^l = %+v, %v", tc.t, lh, err)
		}
		// Naive float64: expand w̃ = a + β̃ b + γ̃ c in the raw quartic form.
		c := []float64{a.Float(), be.Float(), g.Float()}
		naive := naiveLiftedObjective(op, b, 3, []*mat.Dense{xh, bdir, cr.ex}, c)
		if isFinite(naive) != tc.naiveFinite {
			t.Errorf("t=%d: naive float64 h^l = %v, want finite=%v", tc.t, naive, tc.naiveFinite)
		}
		if tc.naiveFinite && !relClose(lh.Float(), naive, 1e-10) {
			t.Errorf("t=%d: log domain %v vs naive %v", tc.t, lh.Float(), naive)
		}
	}
}

func TestLiftedErrors(t *testing.T) {
	op := refGaussianOperator(2, 3, 1)
	b := make([]float64, 3)
	d := mat.NewDense(2, 1, []float64{1, 0})
	for _, tc := range []struct {
		name string
		l    int
		b    []float64
		dirs []mat.Matrix
		want error
	}{
		{"even l", 4, b, []mat.Matrix{d}, ErrBadParameter},
		{"l=1", 1, b, []mat.Matrix{d}, ErrBadParameter},
		{"no dirs", 3, b, nil, ErrBadParameter},
		{"zero dir", 3, b, []mat.Matrix{mat.NewDense(2, 1, nil)}, ErrBadParameter},
		{"bad shape", 3, b, []mat.Matrix{mat.NewDense(3, 1, []float64{1, 2, 3})}, ErrShape},
		{"NaN dir", 3, b, []mat.Matrix{mat.NewDense(2, 1, []float64{math.NaN(), 1})}, ErrNotFinite},
		{"short b", 3, b[:2], []mat.Matrix{d}, ErrShape},
		{"NaN b", 3, []float64{0, math.NaN(), 0}, []mat.Matrix{d}, ErrNotFinite},
	} {
		if _, err := NewLiftedSubspace(op, tc.b, tc.l, tc.dirs...); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	s, _ := NewLiftedSubspace(op, b, 3, d)
	if _, err := s.Objective([]float64{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("wrong coef length: %v", err)
	}
	if _, err := s.Objective([]float64{math.Inf(1)}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf coef: %v", err)
	}
}
