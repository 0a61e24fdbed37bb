package sod

// Helpers shared by the tests: random and filled matrices, relative
// differences, and constructors that fail the test on error. The
// independent reference computations are in reference_test.go.

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randDense returns an r×c matrix with N(0,1) entries from a seeded PCG.
func randDense(r, c int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

// randSym returns a symmetric n×n matrix with N(0,1) entries.
func randSym(n int, seed uint64) *mat.Dense {
	a := randDense(n, n, seed)
	var s mat.Dense
	s.Add(a, a.T())
	s.Scale(0.5, &s)
	return &s
}

// elemMul returns the elementwise product of a and b.
func elemMul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.MulElem(a, b)
	return &c
}

// fdGrad returns the central finite-difference gradient of f at X.
func fdGrad(f func(mat.Matrix) float64, X *mat.Dense, step float64) *mat.Dense {
	r, c := X.Dims()
	g := mat.NewDense(r, c, nil)
	x := mat.DenseCopyOf(X)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := x.At(i, j)
			x.Set(i, j, v+step)
			fp := f(x)
			x.Set(i, j, v-step)
			fm := f(x)
			x.Set(i, j, v)
			g.Set(i, j, (fp-fm)/(2*step))
		}
	}
	return g
}

// relDiff returns ‖a − b‖_F / max(1, ‖b‖_F).
func relDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, 2) / math.Max(1, mat.Norm(b, 2))
}

// randDenseFrom returns an r×c matrix with N(0,1) entries drawn from rng.
func randDenseFrom(rng *rand.Rand, r, c int) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

// maxRelDiff returns max_j |a_j − b_j| / max(max_j |b_j|, tiny).
func maxRelDiff(a, b []float64) float64 {
	scale := 0.0
	for _, v := range b {
		scale = math.Max(scale, math.Abs(v))
	}
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d / math.Max(scale, 1e-300)
}

// relClose reports |got − want| ≤ tol·|want|.
func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// scaled returns a·m as a new matrix.
func scaled(a float64, m mat.Matrix) *mat.Dense {
	var d mat.Dense
	d.Scale(a, m)
	return &d
}

// relErr returns |a − b| / max(|b|, tiny).
func relErr(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300)
}

// mustProblem returns the problem of op with ground truth e₁ and search
// rank r, failing the test on error.
func mustProblem(t *testing.T, op Operator, r int) *Problem {
	t.Helper()
	n, _ := op.Dims()
	z := mat.NewDense(n, 1, nil)
	z.Set(0, 0, 1)
	p, err := NewProblem(op, z, r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustPMC returns NewPMCOperator(n, eps), failing the test on error.
func mustPMC(t *testing.T, n int, eps float64) Operator {
	t.Helper()
	op, err := NewPMCOperator(n, eps)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// fillX returns an n×r matrix whose entries cycle through vals (scaled by
// scale), or nil when vals is empty.
func fillX(n, r int, scale float64, vals ...float64) *mat.Dense {
	x := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < r; j++ {
			x.Set(i, j, scale*vals[(i*r+j)%len(vals)])
		}
	}
	return x
}

// allFinite reports whether no value is NaN or ±Inf.
func allFinite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
