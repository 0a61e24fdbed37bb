package sod

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSymEigenTinyBlock: gonum v0.17.0's EigenSym panics ("insufficient length of a") on the
// first matrix when only values are asked for. symEigen must give its eigenvalues up to
// float64 resolution: {−1, 0, 0} up to 1e-159.
func TestSymEigenTinyBlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    *mat.SymDense
		want []float64
	}{
		{"tiny block", mat.NewSymDense(3, []float64{-1, 0, 0, 0, 1e-160, 1e-160, 0, 1e-160, 2e-160}), []float64{-1, 0, 0}},
		{"ordinary", mat.NewSymDense(2, []float64{2, 1, 1, 2}), []float64{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, vectors := range []bool{false, true} {
				var eig mat.EigenSym
				if err := symEigen(&eig, tc.a, vectors, "test matrix"); err != nil {
					t.Fatalf("vectors=%v: %v", vectors, err)
				}
				got := eig.Values(nil)
				for i := range tc.want {
					if math.Abs(got[i]-tc.want[i]) > 1e-14 {
						t.Errorf("vectors=%v: eigenvalues %v, want %v", vectors, got, tc.want)
					}
				}
			}
		})
	}
}

// TestAnalyzeCriticalTinyEntries: the analysis at the PMC spurious minimum with one coordinate
// of X̂ replaced by 1e-159 (as GD leaves it) must agree with the analysis at the exact point.
func TestAnalyzeCriticalTinyEntries(t *testing.T) {
	p, err := NewProblem(mustPMC(t, 3, 0.3), mat.NewDense(3, 1, []float64{1, 0, 1}), 1)
	if err != nil {
		t.Fatal(err)
	}
	a := math.Sqrt((1 - 0.09) / (1 + 0.09))
	exact, err := AnalyzeCritical(p, mat.NewDense(3, 1, []float64{a, 0, -a}), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tiny, err := AnalyzeCritical(p, mat.NewDense(3, 1, []float64{a, 1e-159, -a}), CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(exact.LambdaN-tiny.LambdaN) > 1e-12 || math.Abs(exact.HessMin-tiny.HessMin) > 1e-12 {
		t.Errorf("λ_n %v vs %v, Hessian min %v vs %v", exact.LambdaN, tiny.LambdaN, exact.HessMin, tiny.HessMin)
	}
}

// TestAnalyzeCriticalStudyPoint: a real GD end point (PMC n = 40, ε = 0.10, with odd
// coordinates ≈1e-157) where the success-rate study once saw gonum's EigenSym return
// λ_n ≈ −1e121. λ_n must agree with gonum's general (non-symmetric) eigensolver, an
// independent code path.
func TestAnalyzeCriticalStudyPoint(t *testing.T) {
	b, err := os.ReadFile("testdata/pmc40-tiny-x.txt")
	if err != nil {
		t.Fatal(err)
	}
	var xs []float64
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, v)
	}
	n := len(xs)
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(mustPMC(t, n, 0.10), z, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(n, 1, xs)
	cp, err := AnalyzeCritical(p, x, CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var xx, gf mat.Dense
	xx.Mul(x, x.T())
	p.GradF(&gf, &xx)
	var eig mat.Eigen
	if !eig.Factorize(&gf, mat.EigenNone) {
		t.Fatal("mat.Eigen failed")
	}
	want := math.Inf(1)
	for _, v := range eig.Values(nil) {
		want = math.Min(want, real(v))
	}
	if math.Abs(cp.LambdaN-want) > 1e-10 {
		t.Errorf("λ_n = %.15g, general eigensolver gives %.15g", cp.LambdaN, want)
	}
}
