package sod

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkGradPMC measures one h/∇h evaluation for the elementwise PMC
// operator, r = 1, n = 40…80: "generic" is Apply/Adjoint through XXᵀ (used
// by Problem.Grad), "fused" the single-pass path used inside
// GradientDescent. Compare ns/op as ratios (across n: ∝ n²).
func BenchmarkGradPMC(b *testing.B) {
	for _, n := range []int{40, 50, 60, 70, 80} {
		for _, fused := range []bool{false, true} {
			name := "generic"
			if fused {
				name = "fused"
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
				op, err := NewPMC(n, 0.1)
				if err != nil {
					b.Fatal(err)
				}
				p, err := NewProblem(op, randDense(n, 1, 1), 1)
				if err != nil {
					b.Fatal(err)
				}
				X := randDense(n, 1, 2)
				G := mat.NewDense(n, 1, nil)
				ws := p.getWorkspace()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if fused {
						p.gradFast(ws, G, X)
					} else {
						p.evalGrad(ws, G, X)
					}
				}
			})
		}
	}
}

// BenchmarkGradGaussian measures h/∇h for a dense Gaussian operator with
// n = 40, m = 2000 (two BLAS matrix–vector products with the m×n² matrix Φ).
func BenchmarkGradGaussian(b *testing.B) {
	op, err := NewGaussian(40, 2000, 1)
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewProblem(op, randDense(40, 1, 1), 1)
	if err != nil {
		b.Fatal(err)
	}
	X := randDense(40, 1, 2)
	G := mat.NewDense(40, 1, nil)
	ws := p.getWorkspace()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.evalGrad(ws, G, X)
	}
}

// BenchmarkGradientDescentPMC measures 1000 GD steps for PMC n = 80, the
// unit of the success-rate study, tracing every step or every 100 steps.
func BenchmarkGradientDescentPMC(b *testing.B) {
	op, _ := NewPMC(80, 0.1)
	p, _ := NewProblem(op, randDense(80, 1, 1), 1)
	x0 := randDense(80, 1, 2)
	x0.Scale(0.01, x0)
	for _, every := range []int{1, 100} {
		b.Run(fmt.Sprintf("traceEvery=%d", every), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := GradientDescent(p, x0, GDOptions{Step: 1e-3, MaxIter: 1000, TraceEvery: every}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAnalyzeCritical measures the critical-point analysis at n = 80
// (PMC, r = 1), with and without the 80×80 Hessian.
func BenchmarkAnalyzeCritical(b *testing.B) {
	op, _ := NewPMC(80, 0.1)
	p, _ := NewProblem(op, randDense(80, 1, 1), 1)
	X := randDense(80, 1, 2)
	for _, skip := range []bool{false, true} {
		b.Run(fmt.Sprintf("skipHessian=%v", skip), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := AnalyzeCritical(p, X, CriticalOptions{SkipHessian: skip}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
