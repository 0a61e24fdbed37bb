package escapebench

import (
	"context"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// The counters match a hand count of the oracle calls on the basic
// example (n = 2, r = 1).
func TestCounterHandCount(t *testing.T) {
	ctx := context.Background()
	base := sod.BasicExampleProblem()
	var c sod.EvalCounter
	p := base.WithCounter(&c)
	x := mat.NewDense(2, 1, []float64{0.3, 0.5})
	g := mat.NewDense(2, 1, nil)
	want := sod.EvalCounts{}
	check := func(step string) {
		t.Helper()
		if got := c.Counts(); got != want {
			t.Fatalf("after %s: counts %+v, want %+v", step, got, want)
		}
	}
	p.H(x)
	p.H(x)
	want.H = 2
	check("2 H")
	p.Grad(g, x)
	want.Grad = 1
	check("1 Grad")
	p.HessVec(g, x, x)
	want.HessVec = 1
	check("1 HessVec")
	p.DistStar(x) // a measurement, not counted
	check("DistStar")
	// 5 GD steps: ∇h at x₀ and after each step.
	if _, err := sod.GradientDescent(ctx, p, x, sod.GDOptions{Iteration: sod.Iteration{Step: 0.01, MaxIter: 5}}); err != nil {
		t.Fatal(err)
	}
	want.Grad += 6
	check("5 GD steps")
	// The dense Hessian: nr = 2 products; its decomposition in Certify is
	// not a sod eigen-solve (Certify calls gonum directly), but H, ∇h are.
	if _, err := p.Hessian(x); err != nil {
		t.Fatal(err)
	}
	want.HessVec += 2
	check("Hessian")
	// AnalyzeCritical: h and ∇h at X̂, the spectrum of ∇f, the Hessian
	// (2 products) and its spectrum.
	if _, err := sod.AnalyzeCritical(p, x, sod.CriticalOptions{SkipXi: true}); err != nil {
		t.Fatal(err)
	}
	want.Grad++
	want.HessVec += 2
	want.Eigen += 2
	check("AnalyzeCritical")
	// The problem it was made from counts nothing.
	base.H(x)
	check("uncounted base problem")
}

func TestCounterLanczos(t *testing.T) {
	var c sod.EvalCounter
	p := sod.BasicExampleProblem().WithCounter(&c)
	if _, err := sod.HessianMinEig(context.Background(), p, sod.BasicExampleXHat()); err != nil {
		t.Fatal(err)
	}
	if got := c.Counts(); got.Eigen != 1 || got.HessVec < 30 || got.Grad != 0 {
		t.Fatalf("HessianMinEig counts %+v, want 1 eigen-solve and ≥ 30 products (30 power iterations)", got)
	}
}

// BenchmarkOracleCosts measures the relative costs behind
// DefaultCostWeights on benchmark instances: the time of an h evaluation,
// a Hessian–vector product and an eigen-solve (sod.AnalyzeCritical's
// spectrum of ∇f(X̂X̂ᵀ)) over the time of a ∇h evaluation, reported as
// h/grad, hv/grad and eigen/grad (go test -bench OracleCosts
// ./sod/escapebench).
func BenchmarkOracleCosts(b *testing.B) {
	ctx := context.Background()
	for _, f := range []Family{
		GaussianFamily{Cells: []GaussianCell{{20, 30, 1}}, Tries: 40},
		PMCFamily{Cells: []PMCCell{{N: 100, Eps: 0.05}}, Start: StartRandomSigns},
	} {
		fi, err := Instances(ctx, f, 1, 1, CertifyOptions{})
		if err != nil || len(fi.Instances) == 0 {
			b.Fatal(err, fi)
		}
		in := fi.Instances[0]
		b.Run(f.Name(), func(b *testing.B) {
			p, x := in.P, in.X
			n, r := p.Dims()
			g := mat.NewDense(n, r, nil)
			per := func(f func()) float64 {
				t0 := time.Now()
				for range b.N {
					f()
				}
				return time.Since(t0).Seconds()
			}
			tg := per(func() { p.Grad(g, x) })
			b.ReportMetric(per(func() { p.H(x) })/tg, "h/grad")
			b.ReportMetric(per(func() { p.HessVec(g, x, x) })/tg, "hv/grad")
			b.ReportMetric(per(func() { sod.AnalyzeCritical(p, x, sod.CriticalOptions{SkipHessian: true, SkipXi: true}) })/tg, "eigen/grad")
		})
	}
}
