package sod

import (
	"math"
	"math/rand/v2"

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

// explicitSensing returns the sensing matrices of op, extracted one by one
// as 𝒜*(e_i) (independently of any SensingMatrixer implementation).
func explicitSensing(op Operator) []*mat.Dense {
	n, m := op.Dims()
	as := make([]*mat.Dense, m)
	for i := range as {
		e := make([]float64, m)
		e[i] = 1
		as[i] = mat.NewDense(n, n, nil)
		op.Adjoint(as[i], e)
	}
	return as
}

// naiveH computes h(X) = ½ Σ_i (⟨A_i, XXᵀ⟩ − b_i)² from explicit matrices.
func naiveH(as []*mat.Dense, b []float64, X mat.Matrix) float64 {
	var M mat.Dense
	M.Mul(X, X.T())
	h := 0.0
	for i, a := range as {
		d := mat.Sum(elemMul(a, &M)) - b[i]
		h += d * d
	}
	return h / 2
}

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
