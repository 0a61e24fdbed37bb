package sod

import (
	"fmt"
	"math"
	"sodworkbench.org/workbench/sod/internal/kernel"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchSizes are the n of the structured-path benchmarks (issue: n = 80,
// 10³, 10⁴, 10⁶); the dense path runs only where its n×n arrays fit.
var benchSizes = []int{80, 1000, 10_000, 1_000_000}

// benchPMC returns the study's PMC instance (ε = 0.1, z = (1, 0, 1, 0, …)ᵀ,
// search rank r) on the structured or the dense path, with a start
// X = 0.01·N(0, I) rescaled like the study's and a gradient buffer.
func benchPMC(b *testing.B, n, r int, structured bool) (*Problem, *mat.Dense) {
	op, err := NewPMCOperator(n, 0.1)
	if err != nil {
		b.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(op, z, r)
	if err != nil {
		b.Fatal(err)
	}
	if !structured {
		p.st = nil // the fused O(n²r) loop
	}
	x := randDense(n, r, 2)
	return p, x
}

// BenchmarkGradPMC measures one h + ∇h evaluation of the PMC objective
// (the unit of a GD step) on the structured path, O(n(r + r*)²), and on
// the dense fused loop, O(n²r), where it fits (n ≤ MaxDenseSize; r = 1
// and 3 only). Read it with benchstat -col /path: ns per evaluation
// against n, and the ratio; -col /r for the cost of the rank.
func BenchmarkGradPMC(b *testing.B) {
	for _, r := range []int{1, 2, 3, 5} {
		for _, n := range benchSizes {
			for _, path := range []string{"structured", "dense"} {
				if path == "dense" && (n > MaxDenseSize || r == 2 || r == 5) {
					continue
				}
				b.Run(fmt.Sprintf("r=%d/n=%d/path=%s", r, n, path), func(b *testing.B) {
					p, x := benchPMC(b, n, r, path == "structured")
					g := mat.NewDense(n, r, nil)
					ws := p.getWorkspace()
					b.ReportAllocs()
					b.ResetTimer()
					done := cpuMetric(b)
					for i := 0; i < b.N; i++ {
						p.gradFast(ws, g, x)
					}
					done()
				})
			}
		}
	}
}

// BenchmarkHessVecPMC measures one Hessian–vector product ∇²h(X)[D] on
// the structured path (the unit of HessianMinEig's Lanczos iteration),
// O(n·r(r + r*)), against n and r.
func BenchmarkHessVecPMC(b *testing.B) {
	for _, r := range []int{1, 3} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("r=%d/n=%d/path=structured", r, n), func(b *testing.B) {
				p, x := benchPMC(b, n, r, true)
				d := randDense(n, r, 3)
				out := mat.NewDense(n, r, nil)
				p.HessVec(out, x, d)
				b.ReportAllocs()
				b.ResetTimer()
				done := cpuMetric(b)
				for i := 0; i < b.N; i++ {
					p.HessVec(out, x, d)
				}
				done()
			})
		}
	}
}

// BenchmarkGradPMCGeneric measures the generic Apply/Adjoint evaluation
// through XXᵀ (what Problem.Grad did for every operator before the fused
// and structured paths) at the paper's sizes.
func BenchmarkGradPMCGeneric(b *testing.B) {
	for _, n := range []int{40, 80} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p, x := benchPMC(b, n, 1, false)
			g := mat.NewDense(n, 1, nil)
			ws := p.getWorkspace()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.evalGrad(ws, g, x)
			}
		})
	}
}

// BenchmarkGradGaussian measures h/∇h for a dense Gaussian operator with
// n = 40, m = 2000 (two BLAS matrix–vector products with the m×n² matrix Φ).
func BenchmarkGradGaussian(b *testing.B) {
	op, err := NewGaussianOperator(40, 2000, 1)
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

// BenchmarkGradientDescentPMC measures 1000 GD steps (η = 0.5/n, the
// study's step, trace every 100 steps) on the structured path and, where
// it fits in time (n ≤ 1000), the dense one. The start is the study's
// 0.01·N(0, I).
func BenchmarkGradientDescentPMC(b *testing.B) {
	for _, r := range []int{1, 3} {
		for _, n := range benchSizes {
			for _, path := range []string{"structured", "dense"} {
				if path == "dense" && n > 1000 {
					continue
				}
				b.Run(fmt.Sprintf("r=%d/n=%d/path=%s", r, n, path), func(b *testing.B) {
					p, x0 := benchPMC(b, n, r, path == "structured")
					x0.Scale(0.01, x0)
					opt := GDOptions{Iteration: Iteration{Step: 0.5 / float64(n), MaxIter: 1000, TraceEvery: 100}}
					b.ReportAllocs()
					b.ResetTimer()
					done := cpuMetric(b)
					for i := 0; i < b.N; i++ {
						if _, err := GradientDescent(b.Context(), p, x0, opt); err != nil {
							b.Fatal(err)
						}
					}
					done()
				})
			}
		}
	}
}

// BenchmarkGDDecaying measures 3000 GD steps on PMC at n = 10⁴, ε =
// 0.002, r = 1, η = 0.5/n (traced every 100 steps), from x = 1 on the
// observed rows and v on the unobserved ones: v = 1e-3 (normal numbers
// throughout) and v = 1e-305, whose products are subnormal, with the
// step's flush of tiny coordinates (the package doc's "Overflow and
// subnormal numbers") and without it (flush=off: the arithmetic on
// subnormal numbers, which costs a microcode assist per operation on many
// Intel cores). perfreport sets them side by side.
func BenchmarkGDDecaying(b *testing.B) {
	const n = 10_000
	op, err := NewPMCOperator(n, 0.002)
	if err != nil {
		b.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(op, z, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		v     float64
		flush bool
	}{{"start=1e-3", 1e-3, true}, {"start=1e-305", 1e-305, true}, {"start=1e-305/flush=off", 1e-305, false}} {
		b.Run(tc.name, func(b *testing.B) {
			x0 := mat.NewDense(n, 1, nil)
			for i := 0; i < n; i++ {
				x0.Set(i, 0, 1)
				if i%2 == 0 {
					x0.Set(i, 0, tc.v)
				}
			}
			if !tc.flush {
				flushAt = 0
				defer func() { flushAt = kernel.FlushBelow }()
			}
			opt := GDOptions{Iteration: Iteration{Step: 0.5 / n, MaxIter: 3000, TraceEvery: 100}}
			b.ResetTimer()
			done := cpuMetric(b)
			for i := 0; i < b.N; i++ {
				if _, err := GradientDescent(b.Context(), p, x0, opt); err != nil {
					b.Fatal(err)
				}
			}
			done()
		})
	}
}

// BenchmarkAnalyzeCritical measures the critical-point analysis at n = 80
// (PMC, r = 1), with and without the 80×80 Hessian.
func BenchmarkAnalyzeCritical(b *testing.B) {
	op, _ := NewPMCOperator(80, 0.1)
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

// escapeRoundSetup returns the study's PMC instance (ε = 0.02,
// z = (1, 0, 1, 0, …), r = 1) at size n and the point where gradient
// descent from 0.01·N(0, I) stops (η = 0.5/n, ‖∇h‖_F ≤ 1e-6 or 20000
// steps), with the GD options of the study.
func escapeRoundSetup(b *testing.B, n int) (*Problem, *mat.Dense, GDOptions) {
	op, err := NewPMCOperator(n, 0.02)
	if err != nil {
		b.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(op, z, 1)
	if err != nil {
		b.Fatal(err)
	}
	x0 := randDense(n, 1, 5)
	x0.Scale(0.01, x0)
	gd := GDOptions{Iteration: Iteration{Step: 0.5 / float64(n), MaxIter: 20000}, GradTol: 1e-6}
	res, err := GradientDescent(b.Context(), p, x0, gd)
	if err != nil {
		b.Fatal(err)
	}
	return p, res.X, gd
}

// BenchmarkEscapeRound measures one escape round of RunEscape at a point
// where GD stalled on the study's PMC instance: SODLineSearch{L: 5,
// Rho: 0.1, Eta: 0.1} proposes its candidates (AnalyzeCritical with the
// default CriticalOptions, and at n = 300 also the dense Hessian, the
// default before DenseHessianMaxSize) and the driver evaluates each.
func BenchmarkEscapeRound(b *testing.B) {
	for _, n := range []int{300, 1000, 10_000} {
		for _, hm := range []HessianMethod{HessianAuto, HessianDense} {
			if hm == HessianDense && n > 300 {
				continue // 36 s of CPU at n = 1000
			}
			b.Run(fmt.Sprintf("n=%d/hessian=%v", n, hm), func(b *testing.B) {
				p, xhat, gd := escapeRoundSetup(b, n)
				esc := &SODLineSearch{L: 5, Rho: 0.1, Eta: 0.1}
				opt := EscapeOptions{GD: gd, Critical: CriticalOptions{Hessian: hm}}
				h := p.H(xhat)
				b.ReportAllocs()
				b.ResetTimer()
				done := cpuMetric(b)
				for i := 0; i < b.N; i++ {
					st := &EscapeState{P: p, X: xhat, H: h, critOpt: opt.Critical}
					cands, err := esc.Propose(b.Context(), st)
					if err != nil {
						b.Fatal(err)
					}
					for _, c := range cands {
						judgeCandidate(b.Context(), p, c, opt.GD, h, opt.GD.limit())
					}
				}
				done()
			})
		}
	}
}

// streamLen is the length of the arrays of BenchmarkStream: 3 × 32 MB,
// well beyond the caches.
const streamLen = 4 << 20

// BenchmarkStream measures the machine's memory bandwidth on one core
// with the STREAM triad a = b + s·c over arrays of streamLen float64s:
// 24 bytes moved per element (two reads and a write; the write's cache
// line fill is not counted, as in STREAM), reported as bytes-moved/op.
// The performance report divides each kernel's memory traffic by the
// bandwidth it implies: the time the traffic alone needs.
func BenchmarkStream(b *testing.B) {
	a, x, y := make([]float64, streamLen), make([]float64, streamLen), make([]float64, streamLen)
	for i := range x {
		x[i], y[i] = float64(i), 1
	}
	b.ResetTimer()
	done := cpuMetric(b)
	for i := 0; i < b.N; i++ {
		s := float64(i%3 + 1)
		for j, v := range x {
			a[j] = v + s*y[j]
		}
	}
	done()
	b.ReportMetric(24*streamLen, "bytes-moved/op") // after ResetTimer, which drops metrics
}

// mulAddLen is the length of BenchmarkMulAdd's vector: 16 KiB, in L1.
const mulAddLen = 2048

// BenchmarkMulAdd measures the machine's scalar floating-point
// multiply–add rate on one core, as the package's kernels compute (Go
// emits a multiplication and an addition, no SIMD): each entry read from
// an L1-resident vector is multiplied by four constants into eight
// independent sums, so neither memory, nor loads, nor the latency of a
// chain of additions limits it. It reports madds/op; the performance
// report divides each kernel's multiply–adds by the rate it implies: the
// time the arithmetic alone needs.
func BenchmarkMulAdd(b *testing.B) {
	x := make([]float64, mulAddLen)
	for i := range x {
		x[i] = 1 + float64(i%5)*1e-3
	}
	c0, c1, c2, c3 := 0.5, 0.25, 0.125, 0.0625
	var sink float64
	b.ResetTimer()
	done := cpuMetric(b)
	for i := 0; i < b.N; i++ {
		var s0, s1, s2, s3, s4, s5, s6, s7 float64
		for j := 0; j+2 <= len(x); j += 2 {
			u, v := x[j], x[j+1]
			s0 += u * c0
			s1 += u * c1
			s2 += u * c2
			s3 += u * c3
			s4 += v * c0
			s5 += v * c1
			s6 += v * c2
			s7 += v * c3
		}
		sink += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
	}
	done()
	if math.IsNaN(sink) {
		b.Fatal("NaN")
	}
	b.ReportMetric(4*mulAddLen, "madds/op")
}
