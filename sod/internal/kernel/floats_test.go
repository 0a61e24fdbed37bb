package kernel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFloats compares Contiguous, FrobNorm and SumSquares with gonum's
// computations, on contiguous and strided (sliced) matrices.
func TestFloats(t *testing.T) {
	big := mat.NewDense(4, 5, nil)
	for i := range 4 {
		for j := range 5 {
			big.Set(i, j, float64(i*5+j)-7.5)
		}
	}
	tests := []struct {
		name    string
		a       *mat.Dense
		strided bool
	}{
		{"contiguous", big, false},
		{"strided", big.Slice(1, 3, 1, 4).(*mat.Dense), true},
		{"huge", mat.NewDense(1, 2, []float64{3e200, 4e200}), false},
		{"tiny", mat.NewDense(1, 2, []float64{3e-200, 4e-200}), false},
	}
	for _, tc := range tests {
		if got := Contiguous(tc.a) == nil; got != tc.strided {
			t.Errorf("%s: Contiguous nil = %v, want %v", tc.name, got, tc.strided)
		}
		want := mat.Norm(tc.a, 2)
		if got := FrobNorm(tc.a); math.Abs(got-want) > 1e-14*want {
			t.Errorf("%s: FrobNorm = %v, gonum %v", tc.name, got, want)
		}
		ss := SumSquares(tc.a)
		switch {
		case tc.strided && ss != -1:
			t.Errorf("%s: SumSquares = %v, want −1", tc.name, ss)
		case !tc.strided && tc.name == "contiguous" && math.Abs(ss-want*want) > 1e-12*ss:
			t.Errorf("%s: SumSquares = %v, ‖a‖² = %v", tc.name, ss, want*want)
		}
	}
	y := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	AxpyDense(-2, mat.NewDense(2, 2, []float64{1, 1, 1, 1}), y)
	if !mat.Equal(y, mat.NewDense(2, 2, []float64{-1, 0, 1, 2})) {
		t.Errorf("AxpyDense = %v", mat.Formatted(y))
	}
}
