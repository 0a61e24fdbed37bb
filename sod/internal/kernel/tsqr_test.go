package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGatherRank33BitExact holds Rank33 to Any followed by DotCols (the
// general gather and dots it replaces at r = k = 3) bit for bit: the
// chunk, the dots and Σ D_ii², for chunks of every length parity, both
// row layouts, with and without the diagonal sum, from a nonzero running
// sum, on entries with signed zeros, tiny and huge values.
func TestGatherRank33BitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	special := []float64{0, math.Copysign(0, -1), 1e-160, -1e-200, 1e150, 1}
	entry := func() float64 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64()
	}
	const r, k, s = 3, 3, 6
	for _, b := range []int{1, 2, 7, 20, QRChunk - 1, QRChunk} {
		for _, parity := range []bool{false, true} {
			for _, diag := range []bool{false, true} {
				for trial := 0; trial < 10; trial++ {
					const t0 = 3
					n := 2*(t0+b) + 2
					xd := make([]float64, n*r)
					for i := range xd {
						xd[i] = entry()
					}
					off := trial % 2
					var rows []int
					for i := off; i < n; i += 2 {
						rows = append(rows, i)
					}
					z := make([]float64, b*k)
					for i := range z {
						z[i] = entry()
					}
					sum0 := []float64{0, 0.1, 3e5}[trial%3]
					mk := func() Gather {
						return Gather{Chunk: make([]float64, QRChunk*s), XD: xd, XS: r, Rows: rows, Parity: parity, Off: off, T0: t0, Diag: diag, Sum: sum0}
					}
					ga, gb := mk(), mk()
					var wa, wb [QRMaxS]float64
					ga.Rank33(&wa, z)
					gb.Any(r, k, z)
					DotCols(wb[:s], gb.Chunk[:b], gb.Chunk, b)
					for i := range ga.Chunk {
						if math.Float64bits(ga.Chunk[i]) != math.Float64bits(gb.Chunk[i]) {
							t.Fatalf("b=%d parity=%v diag=%v trial %d: chunk[%d] = %v, Any %v", b, parity, diag, trial, i, ga.Chunk[i], gb.Chunk[i])
						}
					}
					for c := 0; c < s; c++ {
						if math.Float64bits(wa[c]) != math.Float64bits(wb[c]) {
							t.Fatalf("b=%d parity=%v diag=%v trial %d: w[%d] = %v, DotCols %v", b, parity, diag, trial, c, wa[c], wb[c])
						}
					}
					if diag && math.Float64bits(ga.Sum) != math.Float64bits(gb.Sum) {
						t.Fatalf("b=%d parity=%v trial %d: Sum = %v, Any %v", b, parity, trial, ga.Sum, gb.Sum)
					}
				}
			}
		}
	}
}
