package sod

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSGDFullBatchIsGD compares full-batch SGD with the package's
// GradientDescent and with the test's own GD loop.
func TestSGDFullBatchIsGD(t *testing.T) {
	p := RealWorldProblem()
	op, b, _, _, _ := refRealWorld()
	x0 := mat.NewDense(3, 1, []float64{0.3, -0.2, 0.5})
	sgd, err := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 300}})
	if err != nil {
		t.Fatal(err)
	}
	gd, err := GradientDescent(t.Context(), p, x0, GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 300}})
	if err != nil {
		t.Fatal(err)
	}
	own := refGD(op, b, x0, 0.1, 300)
	if !mat.EqualApprox(sgd.X, gd.X, 1e-12) || !mat.EqualApprox(sgd.X, own, 1e-12) {
		t.Errorf("full-batch SGD %v, GD %v, own GD %v", sgd.X.RawMatrix().Data, gd.X.RawMatrix().Data, own.RawMatrix().Data)
	}
	if len(sgd.Trace.H) != 301 || sgd.Iter != 300 {
		t.Errorf("trace length %d, iter %d", len(sgd.Trace.H), sgd.Iter)
	}
}

// TestSGDUnbiased checks that the minibatch gradient averages to ∇h:
// with batch size 1 the mean of many seeded draws approaches the full
// gradient (m = 6, 60000 draws, tolerance ~5 standard errors).
func TestSGDUnbiased(t *testing.T) {
	p := RealWorldProblem()
	x := RealWorldXHat()
	x.Set(0, 0, 0.7)
	st, err := newStochasticGradient(p, 1, 42)
	if err != nil {
		t.Fatal(err)
	}
	full := mat.NewDense(3, 1, nil)
	p.Grad(full, x)
	mean := mat.NewDense(3, 1, nil)
	const draws = 60000
	var sq float64
	for i := 0; i < draws; i++ {
		st.grad(x)
		mean.Add(mean, st.g)
		sq += mat.Dot(st.g.ColView(0), st.g.ColView(0))
	}
	mean.Scale(1.0/draws, mean)
	var d mat.Dense
	d.Sub(mean, full)
	se := math.Sqrt(sq/draws) / math.Sqrt(draws)
	if mat.Norm(&d, 2) > 5*se {
		t.Errorf("mean minibatch gradient %v, full %v (se %v)", mean.RawMatrix().Data, full.RawMatrix().Data, se)
	}
}

// TestAdamAgainstReference compares Adam with a plain reference
// implementation on the test's own gradient.
func TestAdamAgainstReference(t *testing.T) {
	p := RealWorldProblem()
	op, b, _, _, _ := refRealWorld()
	x0 := mat.NewDense(3, 1, []float64{0.3, -0.2, 0.5})
	const iters = 200
	res, err := Adam(t.Context(), p, x0, AdamOptions{Iteration: Iteration{Step: 0.01, MaxIter: iters}})
	if err != nil {
		t.Fatal(err)
	}
	x := mat.DenseCopyOf(x0)
	m := make([]float64, 3)
	v := make([]float64, 3)
	for k := 1; k <= iters; k++ {
		var xx, g mat.Dense
		xx.Mul(x, x.T())
		g.Mul(refGradF(op, b, &xx), x)
		for i := 0; i < 3; i++ {
			gi := 2 * g.At(i, 0)
			m[i] = 0.9*m[i] + 0.1*gi
			v[i] = 0.999*v[i] + 0.001*gi*gi
			mh := m[i] / (1 - math.Pow(0.9, float64(k)))
			vh := v[i] / (1 - math.Pow(0.999, float64(k)))
			x.Set(i, 0, x.At(i, 0)-0.01*mh/(math.Sqrt(vh)+1e-8))
		}
	}
	if !mat.EqualApprox(res.X, x, 1e-12) {
		t.Errorf("Adam %v, reference %v", res.X.RawMatrix().Data, x.RawMatrix().Data)
	}
}

func TestBaselineSeededAndErrors(t *testing.T) {
	p := RealWorldProblem()
	x0 := mat.NewDense(3, 1, []float64{0.3, -0.2, 0.5})
	a, _ := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 50}, Minibatch: Minibatch{BatchSize: 2, Seed: 9}})
	b, _ := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 50}, Minibatch: Minibatch{BatchSize: 2, Seed: 9}})
	c, _ := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 0.05, MaxIter: 50}, Minibatch: Minibatch{BatchSize: 2, Seed: 10}})
	if !mat.Equal(a.X, b.X) || mat.Equal(a.X, c.X) {
		t.Errorf("SGD seeding: same seed equal %v, different seeds equal %v", mat.Equal(a.X, b.X), mat.Equal(a.X, c.X))
	}
	// A huge step diverges: reported, last finite iterate returned.
	d, err := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 1e3, MaxIter: 100}})
	if err != nil || d.Stop != StopDiverged || !isFinite(d.H) {
		t.Errorf("divergence: %v stop=%v h=%v", err, d != nil && d.Stop == StopDiverged, d)
	}
	for _, o := range []SGDOptions{
		{Iteration: Iteration{Step: 0, MaxIter: 1}}, {Iteration: Iteration{Step: -1}}, {Iteration: Iteration{Step: 0.1, MaxIter: -1}},
		{Iteration: Iteration{Step: 0.1}, Minibatch: Minibatch{BatchSize: 7}}, {Iteration: Iteration{Step: math.Inf(1)}},
	} {
		if _, err := SGD(t.Context(), p, x0, o); !errors.Is(err, ErrBadParameter) {
			t.Errorf("SGD %+v: %v", o, err)
		}
	}
	for _, o := range []AdamOptions{
		{Iteration: Iteration{Step: 0}}, {Iteration: Iteration{Step: 0.1}, Beta1: 1, Beta2: 0.9}, {Iteration: Iteration{Step: 0.1}, Beta1: 0.9, Beta2: 1.2},
		{Iteration: Iteration{Step: 0.1}, Eps: -1}, {Iteration: Iteration{Step: 0.1}, Minibatch: Minibatch{BatchSize: -1}},
	} {
		if _, err := Adam(t.Context(), p, x0, o); !errors.Is(err, ErrBadParameter) {
			t.Errorf("Adam %+v: %v", o, err)
		}
	}
	if _, err := SGD(t.Context(), p, mat.NewDense(2, 1, nil), SGDOptions{Iteration: Iteration{Step: 0.1}}); !errors.Is(err, ErrShape) {
		t.Errorf("bad x0: %v", err)
	}
}

// TestBaselineGradNoAlloc checks that the minibatch gradient does not
// allocate per iteration.
func TestBaselineGradNoAlloc(t *testing.T) {
	p := RealWorldProblem()
	st, err := newStochasticGradient(p, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := RealWorldXHat()
	if a := testing.AllocsPerRun(100, func() { st.grad(x) }); a != 0 {
		t.Errorf("minibatch gradient allocates %v times per call", a)
	}
}

// TestBaselineKeepIterates: SGD's and Adam's KeepIterates record the
// traced iterates without changing them. SGD's path is checked step by
// step against the test's own loop on explicit matrices (same estimator,
// same seed), each kept iterate against the traced h computed by hand.
func TestBaselineKeepIterates(t *testing.T) {
	p := RealWorldProblem()
	as := explicitSensing(p.Op)
	x0 := mat.NewDense(3, 1, []float64{0.3, -0.2, 0.5})
	const iters = 60
	ref := refSGD(as, p.B, x0, 0.05, 2, iters, 9)
	for _, every := range []int{1, 7} {
		plain, err := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 0.05, MaxIter: iters, TraceEvery: every}, Minibatch: Minibatch{BatchSize: 2, Seed: 9}})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := SGD(t.Context(), p, x0, SGDOptions{Iteration: Iteration{Step: 0.05, MaxIter: iters, TraceEvery: every, KeepIterates: true}, Minibatch: Minibatch{BatchSize: 2, Seed: 9}})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Trace.Iterates != nil || !mat.Equal(plain.X, kept.X) || len(kept.Trace.Iterates) != len(kept.Trace.Iter) {
			t.Fatalf("every %d: KeepIterates changed the run or the trace (%d iterates, %d entries)", every, len(kept.Trace.Iterates), len(kept.Trace.Iter))
		}
		for k, it := range kept.Trace.Iter {
			x := kept.Trace.Iterates[k]
			if d := relDiff(x, ref[it]); d > 1e-12 {
				t.Errorf("every %d: SGD iterate %d differs from the reference loop by %g", every, it, d)
			}
			if h := naiveH(as, p.B, x); math.Abs(h-kept.Trace.H[k]) > 1e-12*math.Max(1, h) {
				t.Errorf("every %d: traced h %v at step %d, h of the kept iterate %v", every, kept.Trace.H[k], it, h)
			}
		}
	}
	plain, err := Adam(t.Context(), p, x0, AdamOptions{Iteration: Iteration{Step: 0.01, MaxIter: iters}, Minibatch: Minibatch{BatchSize: 3, Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := Adam(t.Context(), p, x0, AdamOptions{Iteration: Iteration{Step: 0.01, MaxIter: iters, KeepIterates: true}, Minibatch: Minibatch{BatchSize: 3, Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(plain.X, kept.X) || len(kept.Trace.Iterates) != iters+1 || !mat.Equal(kept.Trace.Iterates[iters], kept.X) || !mat.Equal(kept.Trace.Iterates[0], x0) {
		t.Fatalf("Adam KeepIterates: %d iterates, or the run changed", len(kept.Trace.Iterates))
	}
	for k, x := range kept.Trace.Iterates {
		if h := naiveH(as, p.B, x); math.Abs(h-kept.Trace.H[k]) > 1e-12*math.Max(1, h) {
			t.Errorf("Adam: traced h %v at step %d, h of the kept iterate %v", kept.Trace.H[k], k, h)
		}
	}
}
