package escapebench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// BenchmarkGDCountingRatio runs blocks of steps on the plain and the
// counted problem alternately (so that both see the same machine load)
// and reports the ratio of their total CPU times (of the benchmark's own
// thread, so that waiting for a core on a loaded machine does not count)
// as "counted/plain".
func BenchmarkGDCountingRatio(b *testing.B) {
	for _, n := range []int{80, 10_000} {
		p, x0 := benchPMC(b, n)
		var c sod.EvalCounter
		pc := p.WithCounter(&c)
		steps := 200_000 / (1 + n/100)
		opt := sod.GDOptions{Iteration: sod.Iteration{Step: 0.5 / float64(n), MaxIter: steps, TraceEvery: steps}}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var tp, tc time.Duration
			for i := range b.N {
				for k := range 2 {
					q, acc := p, &tp
					if (i+k)%2 == 1 {
						q, acc = pc, &tc
					}
					stop := threadCPU()
					if _, err := sod.GradientDescent(context.Background(), q, x0, opt); err != nil {
						b.Fatal(err)
					}
					*acc += stop()
				}
			}
			b.ReportMetric(float64(tc)/float64(tp), "counted/plain")
			b.ReportMetric(float64(tp)/float64(b.N*steps), "plain-cpu-ns/step")
		})
	}
}

func benchPMC(b *testing.B, n int) (*sod.Problem, *mat.Dense) {
	op, err := sod.NewPMCOperator(n, 0.15)
	if err != nil {
		b.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := sod.NewProblem(op, z, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x0 := mat.NewDense(n, 1, nil)
	for i := range n {
		x0.Set(i, 0, 0.01*rng.NormFloat64())
	}
	return p, x0
}

// BenchmarkGDCounting times one gradient descent step on PMC (ε = 0.15,
// rank-1 alternating truth) at n = 80 and n = 10⁴ (both on
// sod's structured path, which NewProblem chooses for PMC), on the problem itself and on its counted copy
// (sod.Problem.WithCounter): the counting overhead is the ratio of the
// two ns/op (issue: at most 5 %). Run with
//
//	go test -run '^$' -bench GDCounting -count 5 ./sod/escapebench
func BenchmarkGDCounting(b *testing.B) {
	for _, n := range []int{80, 10_000} {
		p, x0 := benchPMC(b, n)
		var c sod.EvalCounter
		for _, v := range []struct {
			name string
			p    *sod.Problem
		}{{"plain", p}, {"counted", p.WithCounter(&c)}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, v.name), func(b *testing.B) {
				opt := sod.GDOptions{Iteration: sod.Iteration{Step: 0.5 / float64(n), MaxIter: b.N, TraceEvery: max(b.N, 1)}}
				b.ResetTimer()
				if _, err := sod.GradientDescent(context.Background(), v.p, x0, opt); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
