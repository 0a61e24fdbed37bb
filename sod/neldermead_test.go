package sod

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"sodworkbench.org/workbench/sod/randstream"
)

// TestNelderMeadMatchesGonum: minimizeNelderMead gives gonum's
// optimize.Minimize with optimize.NelderMead the same minimum, point and
// number of evaluations, to the bit: on RIPOptimize's objective over the
// paper's instances and on functions with ties, plateaus, NaN, infinities,
// one dimension and the evaluation limit.
func TestNelderMeadMatchesGonum(t *testing.T) {
	type fcase struct {
		name     string
		f        func([]float64) float64
		x0       []float64
		maxEvals int
		conv     func() *optimize.FunctionConverge
	}
	ripConv := func(d int) func() *optimize.FunctionConverge {
		return func() *optimize.FunctionConverge {
			return &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-13, Iterations: 50 * d}
		}
	}
	defConv := func() *optimize.FunctionConverge { return &optimize.FunctionConverge{Absolute: 1e-10, Iterations: 100} }
	never := func() *optimize.FunctionConverge { return &optimize.FunctionConverge{} }
	rosen := func(x []float64) float64 {
		s := 0.0
		for i := 0; i+1 < len(x); i++ {
			s += 100*math.Pow(x[i+1]-x[i]*x[i], 2) + math.Pow(1-x[i], 2)
		}
		return s
	}
	quad := func(x []float64) float64 {
		s := 0.0
		for i, v := range x {
			s += float64(i+1) * (v - 0.3) * (v - 0.3)
		}
		return s
	}
	cases := []fcase{
		{"rosenbrock 2", rosen, []float64{-1.2, 1}, 0, defConv},
		{"rosenbrock 5", rosen, []float64{0.1, -0.4, 0.9, 1.3, -2}, 4000, ripConv(5)},
		{"rosenbrock limit 7", rosen, []float64{-1.2, 1}, 7, defConv},
		{"limit 1", rosen, []float64{-1.2, 1}, 1, defConv},
		{"quadratic 1-d", quad, []float64{2}, 0, defConv},
		{"quadratic never converges", quad, []float64{2, -1, 0.5}, 500, never},
		{"constant (ties)", func([]float64) float64 { return 1 }, []float64{0.2, 0.1, 0.3}, 300, defConv},
		{"plateaus (ties)", func(x []float64) float64 { return math.Floor(4*x[0]) + math.Floor(4*x[1]) }, []float64{0.7, 0.7}, 500, defConv},
		{"NaN region", func(x []float64) float64 {
			if x[0] > 0.02 {
				return math.NaN()
			}
			return quad(x)
		}, []float64{0, 1}, 300, defConv},
		{"+Inf at the start", func([]float64) float64 { return math.Inf(1) }, []float64{1, 2}, 300, defConv},
		{"NaN at the start", func([]float64) float64 { return math.NaN() }, []float64{1, 2}, 300, defConv},
		{"−Inf reached", func(x []float64) float64 {
			if x[0] > 0.04 {
				return math.Inf(-1)
			}
			return quad(x)
		}, []float64{0, 0}, 300, defConv},
	}
	// RIPOptimize's objective: both signs, p = 1, 2, three seeded starts per instance.
	for _, in := range PaperInstances() {
		n, _ := in.P.Op.Dims()
		for p := 1; p <= 2; p++ {
			ev := newRIPEval(in.P.Op, p)
			y := mat.NewDense(n, p, nil)
			rng := randstream.New(7, randstream.RIPStarts)
			for k := 0; k < 3; k++ {
				x0 := make([]float64, n*p)
				for i := range x0 {
					x0[i] = rng.NormFloat64()
				}
				for _, sign := range []float64{1, -1} {
					f := func(x []float64) float64 {
						y.SetRawMatrix(blas64.General{Rows: n, Cols: p, Stride: p, Data: x})
						lo, hi := ev.setU(y)
						if sign > 0 {
							return lo
						}
						return -hi
					}
					cases = append(cases, fcase{in.Name + " RIP", f, x0, 400 * n * p, ripConv(n * p)})
				}
			}
		}
	}
	for _, c := range cases {
		gonumEvals := 0
		res, err := optimize.Minimize(optimize.Problem{Func: func(x []float64) float64 { gonumEvals++; return c.f(x) }},
			c.x0, &optimize.Settings{FuncEvaluations: c.maxEvals, Converger: c.conv()}, &optimize.NelderMead{})
		if res == nil {
			t.Fatalf("%s: gonum: %v", c.name, err)
		}
		x0 := append([]float64(nil), c.x0...)
		got := minimizeNelderMead(c.f, x0, c.maxEvals, c.conv())
		if !sameBits(got.F, res.F) || got.Evals != gonumEvals || len(got.X) != len(res.X) {
			t.Errorf("%s: F = %v after %d evaluations, gonum %v after %d (status %v)", c.name, got.F, got.Evals, res.F, gonumEvals, res.Status)
			continue
		}
		for i := range got.X {
			if !sameBits(got.X[i], res.X[i]) {
				t.Errorf("%s: X[%d] = %v, gonum %v", c.name, i, got.X[i], res.X[i])
			}
		}
		for i := range x0 {
			if !sameBits(x0[i], c.x0[i]) {
				t.Errorf("%s: x0 changed", c.name)
			}
		}
	}
}

// sameBits reports whether a and b are the same float64, NaN included.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// BenchmarkRIPOptimize is RIPOptimize over the paper's instances, p = 1, 2,
// 40 starts (the live book's RIP table, notebook 01).
func BenchmarkRIPOptimize(b *testing.B) {
	insts := PaperInstances()
	for b.Loop() {
		for _, in := range insts {
			for p := 1; p <= 2; p++ {
				if _, err := RIPOptimize(b.Context(), in.P.Op, p, 40, 1); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// TestRIPEvalMatchesMat: ripEval.setU, which calls BLAS and LAPACK
// directly, gives the numbers of gonum's mat (Dense.Outer, Operator.Apply,
// SymDense.SymOuterK, EigenSym.Factorize) to the bit: K_U and its extreme
// eigenvalues, for p = 1, 2, 3 on the paper's instances and on PMC
// operators, from seeded random factors (zero rows included).
func TestRIPEvalMatchesMat(t *testing.T) {
	type opCase struct {
		name string
		op   Operator
	}
	ops := []opCase{}
	for _, in := range PaperInstances() {
		ops = append(ops, opCase{in.Name, in.P.Op})
	}
	for _, c := range []struct {
		n   int
		eps float64
	}{{4, 0.3}, {7, 0.1}} {
		op, err := NewPMCOperator(c.n, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, opCase{fmt.Sprintf("PMC n=%d", c.n), op})
	}
	rng := randstream.New(3, randstream.RIPSamples)
	for _, oc := range ops {
		n, m := oc.op.Dims()
		for p := 1; p <= 3 && p <= n; p++ {
			ev := newRIPEval(oc.op, p)
			for trial := 0; trial < 20; trial++ {
				y := mat.NewDense(n, p, nil)
				for i := 0; i < n; i++ {
					for j := 0; j < p; j++ {
						if trial%5 != 4 || i != 0 { // every fifth factor has a zero row
							y.Set(i, j, rng.NormFloat64())
						}
					}
				}
				lo, hi := ev.setU(y)
				// The reference: the same Q, then mat's operations.
				U := ev.U
				phi := mat.NewDense(m, p, nil)
				uu := mat.NewDense(n, n, nil)
				ym := make([]float64, m)
				for k := 0; k < p; k++ {
					u := U.ColView(k)
					uu.Outer(1, u, u)
					oc.op.Apply(ym, uu)
					phi.SetCol(k, ym)
				}
				K := mat.NewSymDense(p, nil)
				K.SymOuterK(1, phi.T())
				var eig mat.EigenSym
				if !eig.Factorize(K, false) {
					t.Fatalf("%s p=%d: reference eigen failed", oc.name, p)
				}
				v := eig.RawValues()
				if !sameBits(lo, v[0]) || !sameBits(hi, v[p-1]) {
					t.Errorf("%s p=%d trial %d: extremes (%v, %v), mat (%v, %v)", oc.name, p, trial, lo, hi, v[0], v[p-1])
				}
				for i := 0; i < p; i++ {
					for j := i; j < p; j++ {
						if !sameBits(ev.K.At(i, j), K.At(i, j)) {
							t.Errorf("%s p=%d trial %d: K[%d,%d] = %v, mat %v", oc.name, p, trial, i, j, ev.K.At(i, j), K.At(i, j))
						}
					}
				}
			}
		}
	}
}
