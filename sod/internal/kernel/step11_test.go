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

// TestStep11AltBitExact holds Step11AltGo and Step11Alt to Step11Go with
// z = (1, 0, 1, 0, …)ᵀ bit for bit: rows with signed zeros, subnormals,
// values whose square overflows, ±Inf and NaN, and coefficients of either
// sign, zero, infinite or NaN (where +0·m_zO and the sum x_oᵀz_O differ
// from a plain +0).
func TestStep11AltBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -1e-310, 1e150, 1e200, -1e200, FlushBelow, -0.5 * FlushBelow, math.Inf(1), math.Inf(-1), math.NaN()}
	coef := []float64{0.3, -0.7, 0, math.Copysign(0, -1), 1e300, math.Inf(-1), math.NaN()}
	for _, n := range []int{0, 2, 11, 1000} {
		for trial := 0; trial < 40; trial++ {
			x, z := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i] = rng.NormFloat64() * math.Pow(10, 6*(rng.Float64()-0.5))
				if rng.IntN(8) == 0 && trial%4 != 0 {
					x[i] = special[rng.IntN(len(special))]
				}
				if i%2 == 0 {
					z[i] = 1
				}
			}
			var k Coef11
			for i := range 4 {
				k[i] = rng.NormFloat64()
				if rng.IntN(3) == 0 {
					k[i] = coef[rng.IntN(len(coef))]
				}
			}
			alpha := []float64{-1e-3, 0, -0.5}[trial%3]
			tau := []float64{0, FlushBelow, 1e-2}[trial%3]
			k[4], k[5], k[6], k[8], k[9] = alpha, alpha, 0.99, tau, tau
			want := make([]float64, n)
			var sw Sums11
			Step11Go(want, x, z, &k, &sw)
			for _, f := range []struct {
				name string
				step func(next []float64, out *Sums11)
			}{
				{"Step11AltGo", func(next []float64, out *Sums11) { Step11AltGo(next, x, &k, out) }},
				{"Step11Alt", func(next []float64, out *Sums11) { Step11Alt(next, x, z, &k, out) }},
			} {
				got := make([]float64, n)
				var sg Sums11
				f.step(got, &sg)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d trial %d k=%v: %s row %d = %v, Step11Go %v", n, trial, k, f.name, i, got[i], want[i])
					}
				}
				for i := range sg {
					if math.Float64bits(sg[i]) != math.Float64bits(sw[i]) && !(math.IsNaN(sg[i]) && math.IsNaN(sw[i])) {
						t.Fatalf("n=%d trial %d k=%v: %s sum %d = %v, Step11Go %v", n, trial, k, f.name, i, sg[i], sw[i])
					}
				}
			}
		}
	}
}
