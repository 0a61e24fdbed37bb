package experiments

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// pmcFused is a reference for the benchmarks: h and ∇h of the PMC problem
// in one elementwise pass, ∇h = 2 (W∘W∘(XXᵀ − M*)) X and h = ½ Σ_ij
// W_ij² (XXᵀ − M*)_ij², without forming XXᵀ. It measures what the PMC
// gradient costs when nothing but the n² products is done.
type pmcFused struct {
	n, r int
	w2   []float64 // W∘W, row-major n×n
	ms   []float64 // M*, row-major
}

func newPMCFused(p *sod.Problem) *pmcFused {
	n, r := p.Dims()
	op := p.Op.(*sod.PMCOperator)
	f := &pmcFused{n: n, r: r, w2: make([]float64, n*n), ms: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w := op.Weight(i, j)
			f.w2[i*n+j] = w * w
			f.ms[i*n+j] = p.MStar.At(i, j)
		}
	}
	return f
}

func (f *pmcFused) grad(g, x []float64) float64 {
	n, r := f.n, f.r
	h := 0.0
	for i := range g {
		g[i] = 0
	}
	if r == 1 {
		for i := 0; i < n; i++ {
			xi, gi := x[i], 0.0
			w2, ms := f.w2[i*n:i*n+n], f.ms[i*n:i*n+n]
			for j, xj := range x[:n] {
				res := xi*xj - ms[j]
				wr := w2[j] * res
				h += wr * res
				gi += wr * xj
			}
			g[i] = 2 * gi
		}
		return 0.5 * h
	}
	for i := 0; i < n; i++ {
		xi := x[i*r : i*r+r]
		gi := g[i*r : i*r+r]
		for j := 0; j < n; j++ {
			xj := x[j*r : j*r+r]
			res := floats.Dot(xi, xj) - f.ms[i*n+j]
			wr := f.w2[i*n+j] * res
			h += wr * res
			floats.AddScaled(gi, 2*wr, xj)
		}
	}
	return 0.5 * h
}

// TestPMCFusedReference checks the benchmark reference against
// sod.Problem (so that the benchmark ratio compares equal work).
func TestPMCFusedReference(t *testing.T) {
	p, _ := PMCStudyProblem(12, 0.1)
	x := mat.NewDense(12, 1, nil)
	for i := 0; i < 12; i++ {
		x.Set(i, 0, float64(i%5)-1.7)
	}
	f := newPMCFused(p)
	g := make([]float64, 12)
	h := f.grad(g, x.RawMatrix().Data)
	var want mat.Dense
	p.Grad(&want, x)
	if !floats.EqualApprox(g, want.RawMatrix().Data, 1e-12*floats.Norm(g, 2)) || !scalarEqualRel(h, p.H(x), 1e-13) {
		t.Errorf("fused h=%v grad %v, sod h=%v grad %v", h, g, p.H(x), want.RawMatrix().Data)
	}
}

func benchX(n int) *mat.Dense {
	x := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, 0.3*float64(i%7-3))
	}
	return x
}

// BenchmarkPMCGradSod and BenchmarkPMCGradFused compare one ∇h of the
// study's largest instance (n = 80, r = 1) through sod.Problem.Grad (the
// general path: XXᵀ, 𝒜, 𝒜*, ·X) with the fused elementwise pass
// (sod.GradientDescent has its own fused PMC path; BenchmarkGD1000PMC80
// measures it).
func BenchmarkPMCGradSod(b *testing.B) {
	p, _ := PMCStudyProblem(80, 0.1)
	x := benchX(80)
	g := mat.NewDense(80, 1, nil)
	b.ReportAllocs()
	for b.Loop() {
		p.Grad(g, x)
	}
}

func BenchmarkPMCGradFused(b *testing.B) {
	p, _ := PMCStudyProblem(80, 0.1)
	x := benchX(80).RawMatrix().Data
	f := newPMCFused(p)
	g := make([]float64, 80)
	b.ReportAllocs()
	for b.Loop() {
		f.grad(g, x)
	}
}

// BenchmarkGD1000PMC80 is 1000 steps of sod.GradientDescent at n = 80 (the
// inner loop of the study).
func BenchmarkGD1000PMC80(b *testing.B) {
	p, _ := PMCStudyProblem(80, 0.1)
	x0 := benchX(80)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sod.GradientDescent(b.Context(), p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.5 / 80, MaxIter: 1000, TraceEvery: 10}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStudyCell runs one cell of the study (n = 80, ε = 0.10) with 10
// trials, in parallel and serially.
func BenchmarkStudyCell(b *testing.B) {
	for _, w := range []struct {
		name    string
		workers int
	}{{"parallel", 0}, {"serial", 1}} {
		b.Run(w.name, func(b *testing.B) {
			cfg := DefaultStudyConfig()
			cfg.Sizes, cfg.Epsilons, cfg.Trials, cfg.Workers = []int{80}, []float64{0.10}, 10, w.workers
			for b.Loop() {
				if _, err := RunStudy(context.Background(), cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStudyFull is the full study (5 sizes × 2 ε × 50 trials, GD and
// GD+SOD). Run it alone: go test -run X -bench StudyFull -benchtime 1x.
func BenchmarkStudyFull(b *testing.B) {
	cfg := DefaultStudyConfig()
	for b.Loop() {
		if _, err := RunStudy(context.Background(), cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAblation(b *testing.B) {
	for b.Loop() {
		if _, err := RunAblation(context.Background(), DefaultAblationConfig(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCaseStudyPMC(b *testing.B) {
	for b.Loop() {
		if _, err := RunCaseStudy(context.Background(), PMCCaseStudyConfig(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func scalarEqualRel(a, b, tol float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := b
	if m < 0 {
		m = -m
	}
	return d <= tol*m
}
