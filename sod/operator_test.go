package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestNewDenseOperatorErrors(t *testing.T) {
	sym := mat.NewDense(2, 2, []float64{1, 2, 2, 3})
	for _, tc := range []struct {
		name string
		as   []*mat.Dense
		want error
	}{
		{"empty", nil, ErrNoMeasurements},
		{"nil matrix", []*mat.Dense{sym, nil}, ErrShape},
		{"not square", []*mat.Dense{mat.NewDense(2, 3, nil)}, ErrShape},
		{"size mismatch", []*mat.Dense{sym, mat.NewDense(3, 3, nil)}, ErrShape},
		{"not symmetric", []*mat.Dense{sym, mat.NewDense(2, 2, []float64{1, 2, 2.1, 3})}, ErrNotSymmetric},
		{"NaN", []*mat.Dense{mat.NewDense(2, 2, []float64{math.NaN(), 0, 0, 1})}, ErrNotFinite},
		{"Inf", []*mat.Dense{mat.NewDense(2, 2, []float64{1, math.Inf(1), math.Inf(1), 1})}, ErrNotFinite},
	} {
		_, err := NewDenseOperator(tc.as)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got error %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestOperatorConstructorErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"PMC ε = 0", second(NewPMCOperator(3, 0)), ErrBadParameter},
		{"PMC ε < 0", second(NewPMCOperator(3, -0.1)), ErrBadParameter},
		{"PMC ε NaN", second(NewPMCOperator(3, math.NaN())), ErrBadParameter},
		{"PMC n = 0", second(NewPMCOperator(0, 0.1)), ErrBadParameter},
		{"Gaussian m = 0", second(NewGaussianOperator(3, 0, 1)), ErrNoMeasurements},
		{"Gaussian n = 0", second(NewGaussianOperator(0, 3, 1)), ErrBadParameter},
		{"DataPoints m = 0", second(NewDataPointsOperator(&mat.Dense{})), ErrNoMeasurements},
		{"DataPoints NaN", second(NewDataPointsOperator(mat.NewDense(1, 2, []float64{1, math.NaN()}))), ErrNotFinite},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// testOperators returns one operator of each kind.
func testOperators(t *testing.T) map[string]Operator {
	t.Helper()
	pmc, err := NewPMCOperator(5, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGaussianOperator(4, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	dp, err := NewDataPointsOperator(randDense(6, 4, 11))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Operator{
		"basic":      BasicExampleOperator(),
		"real-world": RealWorldOperator(),
		"pmc":        pmc,
		"gaussian":   g,
		"datapoints": dp,
	}
}

// TestAdjointIdentity checks ⟨𝒜(M), y⟩ = ⟨M, 𝒜*(y)⟩ for symmetric M, and
// that Normal (when present) equals Adjoint∘Apply, also for matrices that
// are not *mat.Dense (the generic code path).
func TestAdjointIdentity(t *testing.T) {
	for name, op := range testOperators(t) {
		n, m := op.Dims()
		M := randSym(n, 5)
		y := randDense(1, m, 6).RawRowView(0)
		am := make([]float64, m)
		op.Apply(am, M)
		ay := mat.NewDense(n, n, nil)
		op.Adjoint(ay, y)
		lhs := floats.Dot(am, y)
		rhs := mat.Sum(elemMul(M, ay))
		if math.Abs(lhs-rhs) > 1e-12*(1+math.Abs(lhs)) {
			t.Errorf("%s: ⟨𝒜M,y⟩ = %v, ⟨M,𝒜*y⟩ = %v", name, lhs, rhs)
		}
		// Generic path: a symmetric matrix that is not a *mat.Dense.
		ms := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				ms.SetSym(i, j, M.At(i, j))
			}
		}
		am2 := make([]float64, m)
		op.Apply(am2, ms)
		if !floats.EqualApprox(am, am2, 1e-13) {
			t.Errorf("%s: Apply differs between Dense and SymDense inputs", name)
		}
		if no, ok := op.(NormalOperator); ok {
			nm := mat.NewDense(n, n, nil)
			no.Normal(nm, M)
			ref := mat.NewDense(n, n, nil)
			op.Adjoint(ref, am)
			if d := relDiff(nm, ref); d > 1e-13 {
				t.Errorf("%s: Normal differs from Adjoint∘Apply by %v", name, d)
			}
		}
		// SensingMatrix (when implemented) agrees with 𝒜*(e_i).
		if sm, ok := op.(SensingMatrixer); ok {
			for i, a := range explicitSensing(op) {
				s := mat.NewSymDense(n, nil)
				sm.SensingMatrix(s, i)
				if d := relDiff(s, a); d > 1e-15 {
					t.Errorf("%s: SensingMatrix(%d) differs from 𝒜*(e_%d)", name, i, i)
				}
			}
		}
	}
}

// TestPMCAgainstDefinition compares the elementwise PMC operator with the
// n² explicit matrices W_ij e_i e_jᵀ of eq. pmc_data (built here from the
// definition of Ω): same ‖𝒜(M)‖², and Ω for n = 3 is as in REPRODUCTION.md C8.
func TestPMCAgainstDefinition(t *testing.T) {
	for _, tc := range []struct {
		n   int
		eps float64
	}{{3, 0.3}, {4, 0.15}, {7, 0.1}} {
		p, err := NewPMCOperator(tc.n, tc.eps)
		if err != nil {
			t.Fatal(err)
		}
		n := tc.n
		inOmega := func(i, j int) bool { // 1-based definition
			if i == j {
				return true
			}
			for k := 1; k <= n/2; k++ {
				if j == 2*k || i == 2*k {
					return true
				}
			}
			return false
		}
		M := randSym(n, 9)
		want := 0.0
		for i := 1; i <= n; i++ {
			for j := 1; j <= n; j++ {
				w := tc.eps
				if inOmega(i, j) {
					w = 1
				}
				v := w * M.At(i-1, j-1)
				want += v * v
			}
		}
		_, m := p.Dims()
		y := make([]float64, m)
		p.Apply(y, M)
		if got := floats.Dot(y, y); math.Abs(got-want) > 1e-12*want {
			t.Errorf("n=%d: ‖𝒜(M)‖² = %v, want %v", n, got, want)
		}
		if p.XiSquared() != 1 {
			t.Errorf("n=%d: Ξ² = %v, want 1", n, p.XiSquared())
		}
		if x, _ := XiSquared(struct{ Operator }{p}); math.Abs(x-1) > 1e-14 {
			t.Errorf("n=%d: generic Ξ² = %v, want 1", n, x)
		}
	}
	p, _ := NewPMCOperator(3, 0.3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			want := !((i == 0 && j == 2) || (i == 2 && j == 0))
			if p.Observed(i, j) != want {
				t.Errorf("PMC n=3: Observed(%d,%d) = %v, want %v", i, j, p.Observed(i, j), want)
			}
		}
	}
}

// TestDataPointsAgainstExplicit compares DataPointsOperator with a DenseOperator
// built from the rank-one matrices x_i x_iᵀ.
func TestDataPointsAgainstExplicit(t *testing.T) {
	xs := randDense(5, 3, 2)
	dp, err := NewDataPointsOperator(xs)
	if err != nil {
		t.Fatal(err)
	}
	as := make([]*mat.Dense, 5)
	xi2 := 0.0
	for i := range as {
		x := xs.RowView(i)
		as[i] = mat.NewDense(3, 3, nil)
		as[i].Outer(1, x, x)
		xi2 = math.Max(xi2, math.Pow(mat.Norm(x, 2), 4))
	}
	ref, err := NewDenseOperator(as)
	if err != nil {
		t.Fatal(err)
	}
	M := randSym(3, 4)
	a, b := make([]float64, 5), make([]float64, 5)
	dp.Apply(a, M)
	ref.Apply(b, M)
	if !floats.EqualApprox(a, b, 1e-12) {
		t.Errorf("Apply: %v vs %v", a, b)
	}
	if math.Abs(dp.XiSquared()-xi2) > 1e-12*xi2 || math.Abs(ref.XiSquared()-xi2) > 1e-12*xi2 {
		t.Errorf("Ξ² = %v (DataPointsOperator), %v (dense), want %v", dp.XiSquared(), ref.XiSquared(), xi2)
	}
}

// TestGaussianEnsemble checks determinism and the ensemble's isotropy
// E‖𝒜(M)‖² = ‖M‖_F² by averaging over 400 seeded draws (relative standard
// error ≈ √(2/m)/20 ≈ 1.6% for m = 20; tolerance 6%).
func TestGaussianEnsemble(t *testing.T) {
	a, _ := NewGaussianOperator(4, 20, 42)
	b, _ := NewGaussianOperator(4, 20, 42)
	if !mat.Equal(a.phi, b.phi) {
		t.Fatal("NewGaussianOperator is not deterministic for a fixed seed")
	}
	M := randSym(4, 1)
	fro2 := mat.Norm(M, 2) * mat.Norm(M, 2)
	sum := 0.0
	const draws = 400
	y := make([]float64, 20)
	for s := uint64(0); s < draws; s++ {
		op, err := NewGaussianOperator(4, 20, 1000+s)
		if err != nil {
			t.Fatal(err)
		}
		op.Apply(y, M)
		sum += floats.Dot(y, y)
	}
	if got := sum / draws; math.Abs(got/fro2-1) > 0.06 {
		t.Errorf("E‖𝒜(M)‖² ≈ %v, want ‖M‖² = %v", got, fro2)
	}
}

// TestApplyStorageBitExact checks that an operator's Apply gives the same
// numbers, to the last bit, whatever the storage of M: a contiguous Dense,
// a SymDense (the PMC operator reads its upper triangle; NewProblem passes
// M* so) and a matrix seen only through At; and that NewProblem's
// measurements b are 𝒜(ZZᵀ) with ZZᵀ formed as a Dense product, entry by
// entry (rank k = 1: one product per entry, no rounding of a sum).
func TestApplyStorageBitExact(t *testing.T) {
	type onlyAt struct{ mat.Matrix }
	for _, tc := range []struct {
		name string
		op   func() (Operator, error)
	}{
		{"PMC n=3", func() (Operator, error) { return NewPMCOperator(3, 0.3) }},
		{"PMC n=8", func() (Operator, error) { return NewPMCOperator(8, 0.1) }},
		{"PMC n=33", func() (Operator, error) { return NewPMCOperator(33, 0.05) }},
		{"data points", func() (Operator, error) { return NewDataPointsOperator(randDense(9, 4, 3)) }},
	} {
		op, err := tc.op()
		if err != nil {
			t.Fatal(err)
		}
		n, m := op.Dims()
		d := randSym(n, 11)
		d.Set(0, n-1, math.Copysign(0, -1)) // a negative zero off the diagonal
		d.Set(n-1, 0, math.Copysign(0, -1))
		s := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				s.SetSym(i, j, d.At(i, j))
			}
		}
		want := make([]float64, m)
		op.Apply(want, onlyAt{d})
		for _, in := range []struct {
			name string
			M    mat.Matrix
		}{{"Dense", d}, {"SymDense", s}, {"SymDense via At", onlyAt{s}}} {
			got := make([]float64, m)
			op.Apply(got, in.M)
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Errorf("%s, %s: 𝒜(M)_%d = %v, want %v (M through At)", tc.name, in.name, k, got[k], want[k])
					break
				}
			}
		}
		z := randDense(n, 1, 5)
		p, err := NewProblem(op, z, 1)
		if err != nil {
			t.Fatal(err)
		}
		var zz mat.Dense
		zz.Mul(z, z.T())
		op.Apply(want, &zz)
		for k := range want {
			if math.Float64bits(p.B[k]) != math.Float64bits(want[k]) {
				t.Errorf("%s: NewProblem's b_%d = %v, want 𝒜(ZZᵀ)_%d = %v", tc.name, k, p.B[k], k, want[k])
				break
			}
		}
	}
}

// TestDataPointsAdjointBitExact compares DataPointsOperator.Adjoint with
// the rank-one updates of BLAS's dger, one per point, to the last bit.
func TestDataPointsAdjointBitExact(t *testing.T) {
	for _, tc := range []struct{ m, n int }{{1, 1}, {7, 5}, {100, 5}, {12, 9}} {
		xs := randDense(tc.m, tc.n, uint64(tc.m))
		op, err := NewDataPointsOperator(xs)
		if err != nil {
			t.Fatal(err)
		}
		y := randDense(tc.m, 1, 4).RawMatrix().Data
		y[0] = 0 // a point with no weight
		got := mat.NewDense(tc.n, tc.n, nil)
		op.Adjoint(got, y)
		want := mat.NewDense(tc.n, tc.n, nil)
		for i := 0; i < tc.m; i++ {
			x := blas64.Vector{N: tc.n, Data: xs.RawRowView(i), Inc: 1}
			blas64.Ger(y[i], x, x, want.RawMatrix())
		}
		for i, v := range got.RawMatrix().Data {
			if w := want.RawMatrix().Data[i]; math.Float64bits(v) != math.Float64bits(w) {
				t.Errorf("m=%d n=%d: 𝒜*(y) entry %d = %v, want %v (dger)", tc.m, tc.n, i, v, w)
				break
			}
		}
	}
}
