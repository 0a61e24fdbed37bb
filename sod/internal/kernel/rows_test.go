package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// TestGradRows compares GradRows, for every r it unrolls or treats
// apart and for k = 1, 2, in both layouts, with the formula written
// directly: row i is 2(x_i m_X − z_i m_Z) + [diag] 2c(‖x_i‖² − ‖z_i‖²)x_i.
func TestGradRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 9
	for _, k := range []int{1, 2, 3} {
		for _, r := range []int{1, 2, 3, 4, 5, 7} {
			for _, parity := range []bool{false, true} {
				for _, diag := range []bool{false, true} {
					x := make([]float64, n*r)
					for i := range x {
						x[i] = rng.NormFloat64()
					}
					var rows []int
					off := 1
					for i := off; i < n; i += 2 {
						rows = append(rows, i)
					}
					z := make([]float64, len(rows)*k)
					for i := range z {
						z[i] = rng.NormFloat64()
					}
					m := make([]float64, (r+k)*r)
					for i := range m {
						m[i] = rng.NormFloat64()
					}
					c := 0.75
					g := make([]float64, n*r)
					sh := Shape{R: r, K: k, C: c, Parity: parity}
					sh.GradRows(blas64.General{Rows: n, Cols: r, Stride: r, Data: g},
						blas64.General{Rows: n, Cols: r, Stride: r, Data: x}, rows, off, z, m, diag)
					for t0, i := range rows {
						xi, zi := x[i*r:i*r+r], z[t0*k:t0*k+k]
						dd := 0.0
						for _, v := range xi {
							dd += v * v
						}
						for _, v := range zi {
							dd -= v * v
						}
						for col := 0; col < r; col++ {
							want := 0.0
							for l := 0; l < r; l++ {
								want += xi[l] * m[l*r+col]
							}
							for l := 0; l < k; l++ {
								want -= zi[l] * m[(r+l)*r+col]
							}
							if diag {
								want += c * dd * xi[col]
							}
							want *= 2
							if got := g[i*r+col]; math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
								t.Errorf("r=%d k=%d parity=%v diag=%v: g[%d,%d] = %v, want %v", r, k, parity, diag, i, col, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestGradRowsBitExact holds GradRows's paths for k > 1 (gradRows33,
// gradRowsCols) to gradRowsPlain bit for bit, in both layouts, with and
// without the diagonal term, on entries that include signed zeros, tiny
// and huge values (where a reordered sum or a dropped 0 + (−0) would
// show).
func TestGradRowsBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e300, 5e-324, 1}
	entry := func() float64 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64()
	}
	const n = 41
	for _, k := range []int{2, 3, 4} {
		for _, r := range []int{1, 2, 3, 4, 5, 7, QRMaxS - k} {
			for _, parity := range []bool{false, true} {
				for _, diag := range []bool{false, true} {
					for trial := 0; trial < 20; trial++ {
						x := make([]float64, n*r)
						for i := range x {
							x[i] = entry()
						}
						var rows []int
						off := trial % 2
						for i := off; i < n; i += 2 {
							rows = append(rows, i)
						}
						z := make([]float64, len(rows)*k)
						for i := range z {
							z[i] = entry()
						}
						m := make([]float64, (r+k)*r)
						for i := range m {
							m[i] = entry()
						}
						sh := Shape{R: r, K: k, C: 0.75, Parity: parity}
						got, want := make([]float64, n*r), make([]float64, n*r)
						xr := blas64.General{Rows: n, Cols: r, Stride: r, Data: x}
						sh.GradRows(blas64.General{Rows: n, Cols: r, Stride: r, Data: got}, xr, rows, off, z, m, diag)
						sh.gradRowsPlain(blas64.General{Rows: n, Cols: r, Stride: r, Data: want}, xr, rows, off, z, m, diag)
						for i := range got {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("r=%d k=%d parity=%v diag=%v trial %d: g[%d] = %v, plain path %v", r, k, parity, diag, trial, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}
