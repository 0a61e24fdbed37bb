package sod

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestExplicitRankOneObjective checks the dense lifting against the
// identity h^l(vec(X)^{⊗l}) = ‖y‖^{2l} − 2⟨y,b⟩^l + ‖b‖^{2l}, y = 𝒜(XXᵀ).
func TestExplicitRankOneObjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ n, r, m, l int }{{2, 1, 3, 3}, {3, 1, 6, 3}, {2, 2, 4, 3}, {3, 1, 6, 5}, {2, 2, 3, 5}} {
		op := refGaussianOperator(tc.n, tc.m, uint64(tc.n*100+tc.l))
		b := refMeasure(op, randDenseFrom(rng, tc.n, tc.r))
		e, err := NewExplicitLifting(op, b, tc.r, tc.l)
		if err != nil {
			t.Fatal(err)
		}
		x := randDenseFrom(rng, tc.n, tc.r)
		w, err := e.Lift([]float64{1}, x)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Objective(w)
		if err != nil {
			t.Fatal(err)
		}
		var xx mat.Dense
		xx.Mul(x, x.T())
		y := make([]float64, tc.m)
		op.Apply(y, &xx)
		want := math.Pow(floats.Dot(y, y), float64(tc.l)) - 2*math.Pow(floats.Dot(y, b), float64(tc.l)) + math.Pow(floats.Dot(b, b), float64(tc.l))
		if !relClose(got, want, 1e-12) {
			t.Errorf("%+v: explicit h^l = %v, identity %v", tc, got, want)
		}
	}
}

// TestExplicitGradientFD checks the dense gradient 4 G W against central
// differences at a generic (full-rank) tensor.
func TestExplicitGradientFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ n, r, m, l int }{{2, 1, 3, 3}, {2, 2, 3, 3}, {3, 1, 4, 3}} {
		op := refGaussianOperator(tc.n, tc.m, uint64(7*tc.n+tc.r))
		b := refMeasure(op, randDenseFrom(rng, tc.n, tc.r))
		e, err := NewExplicitLifting(op, b, tc.r, tc.l)
		if err != nil {
			t.Fatal(err)
		}
		w := make([]float64, e.Size())
		for i := range w {
			w[i] = 0.3 * rng.NormFloat64()
		}
		g := make([]float64, len(w))
		if _, err := e.Gradient(g, w); err != nil {
			t.Fatal(err)
		}
		const hstep = 1e-5
		maxErr := 0.0
		for i := range w {
			old := w[i]
			w[i] = old + hstep
			fp, _ := e.Objective(w)
			w[i] = old - hstep
			fm, _ := e.Objective(w)
			w[i] = old
			maxErr = math.Max(maxErr, math.Abs((fp-fm)/(2*hstep)-g[i]))
		}
		if scale := floats.Norm(g, math.Inf(1)); maxErr > 1e-7*math.Max(1, scale) {
			t.Errorf("%+v: gradient vs central differences: max error %g (‖g‖∞ = %g)", tc, maxErr, scale)
		}
	}
}

func TestExplicitErrors(t *testing.T) {
	op := refGaussianOperator(6, 4, 1)
	b := make([]float64, 4)
	for _, tc := range []struct {
		name string
		r, l int
		want error
	}{
		{"too large", 1, 5, ErrTooLarge},
		{"even l", 1, 4, ErrBadParameter},
		{"l=1", 1, 1, ErrBadParameter},
		{"r=0", 0, 3, ErrBadParameter},
	} {
		if _, err := NewExplicitLifting(op, b, tc.r, tc.l); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// The limit as documented on ExplicitMaxBytes.
	small, _ := ExplicitBytes(5, 1, 15, 5)
	big, _ := ExplicitBytes(6, 1, 2, 5)
	if small > ExplicitMaxBytes || big <= ExplicitMaxBytes {
		t.Errorf("ExplicitBytes: n=5,l=5,m=15 %g; n=6,l=5 %g; limit %d", small, big, ExplicitMaxBytes)
	}
	if _, err := ExplicitBytes(-1, 1, 2, 3); !errors.Is(err, ErrBadParameter) {
		t.Errorf("ExplicitBytes(-1, ...): %v, want ErrBadParameter", err)
	}
	if b, err := ExplicitBytes(3, 1, 6, math.MaxInt); err != nil || !math.IsInf(b, 1) {
		t.Errorf("ExplicitBytes(l = MaxInt) = %v, %v, want +Inf at once", b, err)
	}
	if _, err := NewExplicitLifting(op, b[:3], 1, 3); !errors.Is(err, ErrShape) {
		t.Errorf("short b: %v", err)
	}
	e, err := NewExplicitLifting(refGaussianOperator(2, 3, 1), make([]float64, 3), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Objective(make([]float64, 5)); !errors.Is(err, ErrShape) {
		t.Errorf("wrong w length: %v", err)
	}
}

// BenchmarkLiftingStep measures one lifted PGD step on the paper's
// subspace done explicitly (dense gradient 4GW of size (nr)^l, the
// dominant cost of an explicit step) and simulated (SubspacePGD.Step with
// m-vectors), for n ∈ {2, 3, 5}, l ∈ {3, 5}, r = 1, m = 2n Gaussian
// measurements. The ratio explicit/simulated is what simulation saves.
func BenchmarkLiftingStep(b *testing.B) {
	for _, n := range []int{2, 3, 5} {
		for _, l := range []int{3, 5} {
			op := refGaussianOperator(n, 2*n, uint64(n))
			rng := rand.New(rand.NewPCG(uint64(n), uint64(l)))
			bb := refMeasure(op, randDenseFrom(rng, n, 1))
			dirs := []mat.Matrix{randDenseFrom(rng, n, 1), randDenseFrom(rng, n, 1), randDenseFrom(rng, n, 1)}
			coef := []float64{1, 0.1, 0}
			b.Run(fmt.Sprintf("n=%d/l=%d/explicit", n, l), func(b *testing.B) {
				e, err := NewExplicitLifting(op, bb, 1, l)
				if err != nil {
					b.Fatal(err)
				}
				w, _ := e.Lift(coef, dirs...)
				g := make([]float64, len(w))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					e.Gradient(g, w)
				}
			})
			b.Run(fmt.Sprintf("n=%d/l=%d/simulated", n, l), func(b *testing.B) {
				s, err := NewLiftedSubspace(op, bb, l, dirs...)
				if err != nil {
					b.Fatal(err)
				}
				p, _ := NewSubspacePGD(s, 1e-3)
				c := append([]float64(nil), coef...)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					copy(c, coef)
					p.Step(c)
				}
			})
		}
	}
}
