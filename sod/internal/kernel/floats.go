package kernel

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Contiguous returns the raw row-major data of M when M is a *mat.Dense
// with stride equal to its number of columns, and nil otherwise.
func Contiguous(M mat.Matrix) []float64 {
	d, ok := M.(*mat.Dense)
	if !ok {
		return nil
	}
	raw := d.RawMatrix()
	if raw.Stride != raw.Cols {
		return nil
	}
	return raw.Data[:raw.Rows*raw.Cols]
}

// FrobNorm returns ‖a‖_F: a plain sum of squares when it is safely inside
// float64's range, else gonum's scaled computation.
func FrobNorm(a *mat.Dense) float64 {
	v := Contiguous(a)
	if v == nil {
		return mat.Norm(a, 2)
	}
	ss := 0.0
	for _, x := range v {
		ss += x * x
	}
	if ss >= 1e-280 && ss <= 1e280 {
		return math.Sqrt(ss)
	}
	return mat.Norm(a, 2)
}

// AxpyDense computes y += alpha·x for equal-shaped dense matrices, in place
// and without allocating.
func AxpyDense(alpha float64, x, y *mat.Dense) {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		xr, yr := x.RawRowView(i), y.RawRowView(i)
		for j := 0; j < c; j++ {
			yr[j] += alpha * xr[j]
		}
	}
}

// SumSquares returns the sum of the squares of a's entries in four
// interleaved partial sums (not FrobNorm's row order: four independent
// chains of additions instead of one), or −1 if a is not contiguous.
func SumSquares(a *mat.Dense) float64 {
	v := Contiguous(a)
	if v == nil {
		return -1
	}
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		s0 += w[0] * w[0]
		s1 += w[1] * w[1]
		s2 += w[2] * w[2]
		s3 += w[3] * w[3]
	}
	for ; i < len(v); i++ {
		s0 += v[i] * v[i]
	}
	return (s0 + s1) + (s2 + s3)
}
