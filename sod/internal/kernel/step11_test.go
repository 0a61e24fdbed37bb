package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestStep11: Step11 (SSE2 on amd64) equals Step11Go to the bit, rows
// and sums, with and without the flush, on data with signed zeros,
// subnormals, huge entries and coordinates around FlushBelow; every row
// it stores is +0 or at least τ in magnitude. (sod's TestStep11Kernel
// checks the pass against the two-pass step.)
func TestStep11(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -1e-310, 1e150, FlushBelow, -FlushBelow, math.Nextafter(FlushBelow, 0), -0.5 * FlushBelow}
	for _, n := range []int{0, 2, 10, 1000} {
		x, z := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, 6*(rng.Float64()-0.5))
			z[i] = rng.NormFloat64()
			if rng.IntN(4) == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
		}
		for _, kc := range []struct{ alpha, tau float64 }{{-1e-3, 0}, {-1e-3, FlushBelow}, {0, FlushBelow}, {-0.5, 1e-2}} {
			name := fmt.Sprintf("n=%d α=%v τ=%v", n, kc.alpha, kc.tau)
			k := Coef11{0.3, 1.7, -0.2, 0.9, kc.alpha, kc.alpha, 0.99, 0, kc.tau, kc.tau}
			a, b := make([]float64, n), make([]float64, n)
			var sa, sb Sums11
			Step11(a, x, z, &k, &sa)
			Step11Go(b, x, z, &k, &sb)
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("%s: row %d: Step11 %v, Step11Go %v", name, i, a[i], b[i])
				}
				if a[i] != 0 && math.Abs(a[i]) < kc.tau || math.Float64bits(a[i]) == 1<<63 && kc.tau > 0 {
					t.Fatalf("%s: row %d = %v, want +0 or |·| ≥ τ", name, i, a[i])
				}
			}
			for i := range sa {
				if math.Float64bits(sa[i]) != math.Float64bits(sb[i]) {
					t.Fatalf("%s: sum %d: Step11 %v, Step11Go %v", name, i, sa[i], sb[i])
				}
			}
		}
	}
}

// TestFlush: Flush stores +0 below τ (either sign, subnormals), keeps
// everything else (τ itself, NaN, ±Inf), and does nothing at τ = 0.
func TestFlush(t *testing.T) {
	for _, tc := range []struct{ v, tau, want float64 }{
		{FlushBelow, FlushBelow, FlushBelow},
		{-FlushBelow, FlushBelow, -FlushBelow},
		{math.Nextafter(FlushBelow, 0), FlushBelow, 0},
		{-1e-310, FlushBelow, 0},
		{math.Copysign(0, -1), FlushBelow, 0},
		{math.Inf(-1), FlushBelow, math.Inf(-1)},
		{1e-310, 0, 1e-310},
		{1, FlushBelow, 1},
	} {
		got := Flush(tc.v, tc.tau)
		if math.Float64bits(got) != math.Float64bits(tc.want) {
			t.Errorf("Flush(%v, %v) = %v, want %v", tc.v, tc.tau, got, tc.want)
		}
	}
	if v := Flush(math.NaN(), FlushBelow); !math.IsNaN(v) {
		t.Errorf("Flush(NaN) = %v", v)
	}
}

// BenchmarkStep11 is one pass over n = 2560 rows (the largest n of the
// scaling study, experiments.ScalingStudyConfig), by the platform's Step11
// and by Step11Go (what WebAssembly runs).
func BenchmarkStep11(b *testing.B) {
	const n = 2560
	rng := rand.New(rand.NewPCG(5, 6))
	x, z, next := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], z[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	k := &Coef11{0.9, 1.1, 0.3, 0.2, -1e-4, -1e-4, 0.01, 0, FlushBelow, FlushBelow}
	for _, v := range []struct {
		name string
		f    func(next, x, z []float64, k *Coef11, out *Sums11)
	}{{"platform", Step11}, {"go", Step11Go}} {
		b.Run(v.name, func(b *testing.B) {
			var out Sums11
			for b.Loop() {
				v.f(next, x, z, k, &out)
			}
		})
	}
}
