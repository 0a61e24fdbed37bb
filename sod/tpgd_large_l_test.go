package sod

import (
	"math"
	"math/big"
	"testing"
)

// bigLog returns the natural log of a positive big.Float (to float64
// precision) from its mantissa and binary exponent, so that values far
// outside float64's range can be compared.
func bigLog(x *big.Float) float64 {
	var mant big.Float
	e := x.MantExp(&mant) // x = mant · 2^e, mant ∈ [0.5, 1)
	m, _ := mant.Float64()
	return math.Log(m) + float64(e)*math.Ln2
}

// bigLogS returns log S_t = log((Q^t − 1)/(Q − 1)) with Q = 1 + η(−λ)^l,
// computed in arbitrary precision: an independent check of the log-domain
// formulas, with enough bits that 1 + η(−λ)^l does not round to 1.
func bigLogS(lambda float64, l int, eta float64, t int64) float64 {
	// Q − 1 = η(−λ)^l: about l·|log2(−λ)| bits below 1, plus 200 guard bits.
	prec := uint(float64(l)*math.Abs(math.Log2(-lambda))) + 256
	d := new(big.Float).SetPrec(prec).SetFloat64(-lambda)
	pow := new(big.Float).SetPrec(prec).SetFloat64(1)
	for k, base := l, new(big.Float).Copy(d); k > 0; k >>= 1 {
		if k&1 == 1 {
			pow.Mul(pow, base)
		}
		base.Mul(base, base)
	}
	qm1 := new(big.Float).SetPrec(prec).Mul(pow, big.NewFloat(eta))
	q := new(big.Float).SetPrec(prec).Add(qm1, big.NewFloat(1))
	qt := new(big.Float).SetPrec(prec).SetFloat64(1)
	for k, base := t, new(big.Float).Copy(q); k > 0; k >>= 1 {
		if k&1 == 1 {
			qt.Mul(qt, base)
		}
		base.Mul(base, base)
	}
	qt.Sub(qt, big.NewFloat(1))
	return bigLog(qt) - bigLog(qm1)
}

// TestTPGDLargeL: the closed form stays exact for lifting orders far
// beyond the paper's (l = 1001 gave NaN γ coefficients on the real-world
// case before: Q − 1 = η(−λ_n)^l underflowed float64), checked against an
// arbitrary-precision evaluation of S_t, and for |λ_n| > 1 where Q^t
// overflows.
func TestTPGDLargeL(t *testing.T) {
	for _, tc := range []struct {
		lambda float64
		l      int
		t      int64
	}{
		{-0.45, 1001, 1},
		{-0.45, 1001, 150000},
		{-0.45, 1001, 2000000},
		{-0.45, 10001, 33500},
		{-0.9, 3, 1000},
		{-0.9, 101, 100000},
		{-1.5, 101, 7},
		{-1.5, 1001, 2},
		{-3, 11, 1000},
		{-0.01, 5001, 1 << 40},
	} {
		cf, err := NewTPGDClosedForm(TPGDInputs{LambdaN: tc.lambda, SigmaR: 0.5, NormX: 0.8, NormEX: 0.4}, tc.l, 0.1, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		got := cf.logS(tc.t)
		want := bigLogS(tc.lambda, tc.l, 0.1, tc.t)
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("λ=%v l=%d t=%d: log S_t = %.17g, arbitrary precision %.17g", tc.lambda, tc.l, tc.t, got, want)
		}
		_, _, g, err := cf.Coefficients(tc.t)
		if err != nil || math.IsNaN(g.Log) || math.IsInf(g.Log, 0) || g.Sign != -1 {
			t.Errorf("λ=%v l=%d t=%d: γ̃ = %+v, %v", tc.lambda, tc.l, tc.t, g, err)
		}
		if gs, err := cf.GammaScale(tc.t); err == nil && (math.IsNaN(gs) || !(gs < 0)) {
			t.Errorf("λ=%v l=%d t=%d: GammaScale %v", tc.lambda, tc.l, tc.t, gs)
		}
	}
}

// TestTPGDNoNaN: for every valid l (up to math.MaxInt) and t (up to
// math.MaxInt64), on the real-world case and on inputs with |λ_n| above
// and below 1, nothing the closed form returns is NaN; log-domain values
// are finite, thresholds are numbers in [−Inf, +Inf] with UBeta/UGamma
// well formed.
func TestTPGDNoNaN(t *testing.T) {
	_, _, xh, _, cr := refRealWorld()
	rw := TPGDInputs{LambdaN: cr.lambdaN, SigmaR: cr.sigma, NormX: normF(xh), NormEX: normF(cr.ex)}
	inputs := []TPGDInputs{rw,
		{LambdaN: -1e-300, SigmaR: 1e-300, NormX: 1e300, NormEX: 1e-300},
		{LambdaN: -1e300, SigmaR: 1e300, NormX: 1e-300, NormEX: 1e300},
		{LambdaN: -1, SigmaR: 1, NormX: 1, NormEX: 0},
	}
	for _, in := range inputs {
		for _, l := range []int{3, 5, 1001, 100001, 1<<40 + 1, math.MaxInt} {
			for _, rho := range []float64{1e-300, 0.1, 1 - 1e-16} {
				cf, err := NewTPGDClosedForm(in, l, rho, 0.1)
				if err != nil {
					t.Fatalf("%+v l=%d: %v", in, l, err)
				}
				tBA, tBC, tCA := cf.Thresholds()
				for _, v := range []float64{tBA, tBC, tCA, cf.RhoMin(), cf.LogK(), cf.LogQ(), cf.LogLogQ()} {
					if math.IsNaN(v) {
						t.Errorf("%+v l=%d ρ=%v: NaN among thresholds %v %v %v, ρ_min %v, log K %v, log Q %v, log log Q %v",
							in, l, rho, tBA, tBC, tCA, cf.RhoMin(), cf.LogK(), cf.LogQ(), cf.LogLogQ())
						break
					}
				}
				for _, tt := range []int64{0, 1, 2, 1000, 2000000, 1 << 50, math.MaxInt64} {
					a, b, g, err := cf.Coefficients(tt)
					if err != nil {
						t.Fatal(err)
					}
					for _, v := range []LogScalar{a, b, g} {
						if math.IsNaN(v.Log) || math.IsInf(v.Log, 1) || (v.Sign != 0 && math.IsInf(v.Log, 0)) {
							t.Errorf("%+v l=%d t=%d: coefficient %+v", in, l, tt, v)
						}
					}
					na, nb, nc, err := cf.TermNorms(tt)
					if err != nil || math.IsNaN(na) || math.IsNaN(nb) || math.IsNaN(nc) {
						t.Errorf("%+v l=%d t=%d: term norms %v %v %v %v", in, l, tt, na, nb, nc, err)
					}
					for _, f := range []func(int64) (float64, error){cf.BetaScale, cf.GammaScale} {
						if v, err := f(tt); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
							t.Errorf("%+v l=%d t=%d: scale %v", in, l, tt, v)
						}
					}
					_ = cf.Select(tt)
				}
			}
		}
	}
}

func normF(x interface {
	At(i, j int) float64
	Dims() (int, int)
}) float64 {
	r, c := x.Dims()
	s := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			s += x.At(i, j) * x.At(i, j)
		}
	}
	return math.Sqrt(s)
}
