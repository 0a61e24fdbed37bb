package sod

// Reference computations for the tests: an explicit-matrix operator and
// independent computations of h, ∇f, gradient descent, SGD and the
// critical-point quantities, written without the code under test so that
// the tests compare the package against an independent computation.

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/sod/randstream"
)

// refOperator is a sensing operator given by explicit symmetric matrices.
type refOperator struct {
	n int
	a []*mat.SymDense
}

func (o *refOperator) Dims() (int, int) { return o.n, len(o.a) }

func (o *refOperator) Apply(dst []float64, M mat.Matrix) {
	for i, a := range o.a {
		s := 0.0
		for j := 0; j < o.n; j++ {
			for k := 0; k < o.n; k++ {
				s += a.At(j, k) * M.At(j, k)
			}
		}
		dst[i] = s
	}
}

func (o *refOperator) Adjoint(dst *mat.Dense, y []float64) {
	dst.Zero()
	for i, a := range o.a {
		for j := 0; j < o.n; j++ {
			for k := 0; k < o.n; k++ {
				dst.Set(j, k, dst.At(j, k)+y[i]*a.At(j, k))
			}
		}
	}
}

// refRealWorldOperator returns the six 3×3 sensing matrices of the paper's
// real-world case (eq. sensing-matrices-real-world) as printed
// (paper.RealWorldMatrices), as a refOperator.
func refRealWorldOperator() *refOperator {
	op := &refOperator{n: 3}
	for _, a := range paper.RealWorldMatrices() {
		op.a = append(op.a, mat.NewSymDense(3, a[:]))
	}
	return op
}

// refMeasure returns b = 𝒜(Z Zᵀ).
func refMeasure(op Operator, z *mat.Dense) []float64 {
	_, m := op.Dims()
	var mm mat.Dense
	mm.Mul(z, z.T())
	b := make([]float64, m)
	op.Apply(b, &mm)
	return b
}

// refGradF returns ∇f(M) = 𝒜*(𝒜(M) − b).
func refGradF(op Operator, b []float64, M mat.Matrix) *mat.Dense {
	n, m := op.Dims()
	y := make([]float64, m)
	op.Apply(y, M)
	floats.Sub(y, b)
	g := mat.NewDense(n, n, nil)
	op.Adjoint(g, y)
	return g
}

// refH returns h(X) = ½‖𝒜(XXᵀ) − b‖².
func refH(op Operator, b []float64, x mat.Matrix) float64 {
	_, m := op.Dims()
	var mm mat.Dense
	mm.Mul(x, x.T())
	y := make([]float64, m)
	op.Apply(y, &mm)
	floats.Sub(y, b)
	return 0.5 * floats.Dot(y, y)
}

// refGD runs plain gradient descent X ← X − step·2∇f(XXᵀ)X.
func refGD(op Operator, b []float64, x0 mat.Matrix, step float64, iters int) *mat.Dense {
	var x mat.Dense
	x.CloneFrom(x0)
	var mm, g mat.Dense
	for it := 0; it < iters; it++ {
		mm.Mul(&x, x.T())
		gf := refGradF(op, b, &mm)
		g.Mul(gf, &x)
		g.Scale(-2*step, &g)
		x.Add(&x, &g)
		if v := mat.Norm(&x, 2); math.IsNaN(v) || math.IsInf(v, 0) || v > 1e150 {
			x.Apply(func(int, int, float64) float64 { return math.NaN() }, &x)
			return &x
		}
	}
	return &x
}

// refCriticalPoint holds the rank-1 critical-point quantities computed independently.
type refCriticalPoint struct {
	lambdaN, sigma float64
	un, qr         *mat.VecDense
	ex             *mat.Dense
}

// refAnalyzeCritical computes λ_n, u_n, σ_r, q_r = +1, v_r = x/‖x‖ and E X̂ for a
// rank-1 point x, with gonum's EigenSym. If signRef is non-nil, u_n is
// flipped to have a positive inner product with it.
func refAnalyzeCritical(op Operator, b []float64, x *mat.Dense, signRef []float64) refCriticalPoint {
	n, _ := op.Dims()
	var mm mat.Dense
	mm.Mul(x, x.T())
	gf := refGradF(op, b, &mm)
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, 0.5*(gf.At(i, j)+gf.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		panic("eigen")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	un := mat.VecDenseCopyOf(vecs.ColView(0))
	if signRef != nil && mat.Dot(un, mat.NewVecDense(n, signRef)) < 0 {
		un.ScaleVec(-1, un)
	}
	sigma := mat.Norm(x, 2)
	vr := mat.NewDense(n, 1, nil)
	vr.Scale(1/sigma, x)
	// E = 𝒜*𝒜(u vᵀ + v uᵀ).
	u := mat.NewDense(n, 1, un.RawVector().Data)
	var p, pt mat.Dense
	p.Mul(u, vr.T())
	pt.CloneFrom(p.T())
	p.Add(&p, &pt)
	_, m := op.Dims()
	y := make([]float64, m)
	op.Apply(y, &p)
	e := mat.NewDense(n, n, nil)
	op.Adjoint(e, y)
	var ex mat.Dense
	ex.Mul(e, x)
	return refCriticalPoint{lambdaN: eig.Values(nil)[0], sigma: sigma, un: un, qr: mat.NewVecDense(1, []float64{1}), ex: &ex}
}

// refPMCOperator returns the perturbed matrix completion operator of REPRODUCTION.md
// C8 as m = n(n+1)/2 explicit symmetric matrices.
func refPMCOperator(n int, eps float64) *refOperator {
	obs := func(i, j int) bool { // 0-based; Ω uses 1-based even indices
		return i == j || (j+1)%2 == 0 || (i+1)%2 == 0
	}
	op := &refOperator{n: n}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			w := eps
			if obs(i, j) {
				w = 1
			}
			a := mat.NewSymDense(n, nil)
			if i == j {
				a.SetSym(i, i, w)
			} else {
				a.SetSym(i, j, w/math.Sqrt2)
			}
			op.a = append(op.a, a)
		}
	}
	return op
}

// refRealWorld returns the real-world problem (operator, b, printed X̂,
// M*) and its critical-point quantities with the paper's sign of u_n.
func refRealWorld() (*refOperator, []float64, *mat.Dense, *mat.Dense, refCriticalPoint) {
	op := refRealWorldOperator()
	z := mat.NewDense(3, 1, []float64{1, 0, 0})
	b := refMeasure(op, z)
	x := paper.RealWorldSettings().XHat
	xh := mat.NewDense(3, 1, []float64{x[0].Value(), x[1].Value(), x[2].Value()})
	cr := refAnalyzeCritical(op, b, xh, []float64{-0.93577, 0.12392, 0.33013})
	var mstar mat.Dense
	mstar.Mul(z, z.T())
	return op, b, xh, &mstar, cr
}

func classifyEscape(x *mat.Dense, z []float64) string {
	d := x.RawMatrix().Data
	if math.IsNaN(floats.Sum(d)) {
		return "nan"
	}
	if floats.Distance(d, z, 2) < 1e-6 {
		return "+"
	}
	nz := make([]float64, len(z))
	floats.ScaleTo(nz, -1, z)
	if floats.Distance(d, nz, 2) < 1e-6 {
		return "-"
	}
	return "other"
}

// refGaussianOperator returns m symmetric Gaussian sensing matrices (REPRODUCTION.md
// C5: diagonal N(0,1/m), off-diagonal N(0,1/(2m))), seeded.
func refGaussianOperator(n, m int, seed uint64) *refOperator {
	rng := randstream.New(seed, randstream.CaseStudyStarts)
	op := &refOperator{n: n}
	for i := 0; i < m; i++ {
		a := mat.NewSymDense(n, nil)
		for j := 0; j < n; j++ {
			a.SetSym(j, j, rng.NormFloat64()/math.Sqrt(float64(m)))
			for k := j + 1; k < n; k++ {
				a.SetSym(j, k, rng.NormFloat64()/math.Sqrt(2*float64(m)))
			}
		}
		op.a = append(op.a, a)
	}
	return op
}

// refSGD is the test's own minibatch SGD on explicit sensing matrices:
// each step draws a batch without replacement by a partial Fisher–Yates
// shuffle of the randstream.Minibatches stream of seed and steps along
// 2 (m/|S|) Σ_{i∈S} (⟨A_i, XXᵀ⟩ − b_i) A_i X. It returns every iterate.
func refSGD(as []*mat.Dense, b []float64, x0 *mat.Dense, step float64, batch, iters int, seed uint64) []*mat.Dense {
	m := len(as)
	rng := randstream.New(seed, randstream.Minibatches)
	perm := make([]int, m)
	for i := range perm {
		perm[i] = i
	}
	x := mat.DenseCopyOf(x0)
	out := []*mat.Dense{mat.DenseCopyOf(x)}
	for k := 0; k < iters; k++ {
		for i := 0; i < batch; i++ {
			j := i + rng.IntN(m-i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		var xx, ax mat.Dense
		xx.Mul(x, x.T())
		g := mat.NewDense(x.RawMatrix().Rows, x.RawMatrix().Cols, nil)
		for _, i := range perm[:batch] {
			res := mat.Sum(elemMul(as[i], &xx)) - b[i]
			ax.Mul(as[i], x)
			ax.Scale(2*float64(m)/float64(batch)*res, &ax)
			g.Add(g, &ax)
		}
		g.Scale(-step, g)
		x.Add(x, g)
		out = append(out, mat.DenseCopyOf(x))
	}
	return out
}

// naiveLiftedObjective evaluates h^l with unnormalised directions in float64.
func naiveLiftedObjective(op Operator, b []float64, l int, dirs []*mat.Dense, c []float64) float64 {
	k := len(dirs)
	_, m := op.Dims()
	a := make([][]float64, k*k)
	var yy mat.Dense
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			yy.Mul(dirs[j], dirs[i].T())
			a[j*k+i] = make([]float64, m)
			op.Apply(a[j*k+i], &yy)
		}
	}
	fl := float64(l)
	h := math.Pow(floats.Dot(b, b), fl)
	for x := 0; x < k*k; x++ {
		cx := c[x/k] * c[x%k]
		for y := 0; y < k*k; y++ {
			h += cx * c[y/k] * c[y%k] * math.Pow(floats.Dot(a[x], a[y]), fl)
		}
		h -= 2 * cx * math.Pow(floats.Dot(a[x], b), fl)
	}
	return h
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
