package sod

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// criticalPMC returns the study's PMC instance (ε = 0.02, z = (1, 0, 1,
// 0, …), r = 1) at size n and the point where GD from 0.01·N(0, I) stops.
func criticalPMC(t *testing.T, n int) (*Problem, *mat.Dense) {
	t.Helper()
	op, _ := NewPMCOperator(n, 0.02)
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(op, z, 1)
	if err != nil {
		t.Fatal(err)
	}
	x0 := randDense(n, 1, 5)
	x0.Scale(0.01, x0)
	res, err := GradientDescent(t.Context(), p, x0, GDOptions{Iteration: Iteration{Step: 0.5 / float64(n), MaxIter: 20000}, GradTol: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	return p, res.X
}

// TestCriticalHessianMethods: above DenseHessianMaxSize the default
// analysis takes λ_min(∇²h) from Lanczos (HessLanczos, HessEig nil), and
// it agrees with the dense eigendecomposition, which stays available
// (HessianDense); at and below it the default is the dense one. Every
// other field is the same either way.
func TestCriticalHessianMethods(t *testing.T) {
	for _, n := range []int{DenseHessianMaxSize, DenseHessianMaxSize + 44} {
		p, X := criticalPMC(t, n)
		auto, err := AnalyzeCritical(p, X, CriticalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		dense, err := AnalyzeCritical(p, X, CriticalOptions{Hessian: HessianDense})
		if err != nil {
			t.Fatal(err)
		}
		lz, err := AnalyzeCritical(p, X, CriticalOptions{Hessian: HessianLanczos})
		if err != nil {
			t.Fatal(err)
		}
		if dense.HessLanczos || dense.HessEig == nil || !lz.HessLanczos || lz.HessEig != nil {
			t.Fatalf("n=%d: HessianDense gave HessLanczos %v, HessianLanczos gave HessEig %v", n, dense.HessLanczos, lz.HessEig != nil)
		}
		if want := n > DenseHessianMaxSize; auto.HessLanczos != want || (auto.HessEig == nil) != want {
			t.Errorf("n=%d: default HessLanczos = %v, want %v", n, auto.HessLanczos, want)
		}
		scale := math.Max(math.Abs(dense.HessEig[0]), math.Abs(dense.HessEig[len(dense.HessEig)-1]))
		if d := math.Abs(lz.HessMin - dense.HessMin); d > 1e-8*scale {
			t.Errorf("n=%d: Lanczos λ_min = %.12g, dense %.12g (‖∇²h‖ = %.3g)", n, lz.HessMin, dense.HessMin, scale)
		}
		if lz.IsLocalMinimum(1e-8*scale) != dense.IsLocalMinimum(1e-8*scale) {
			t.Errorf("n=%d: IsLocalMinimum differs between Lanczos and dense", n)
		}
		if lz.LambdaN != dense.LambdaN || lz.SigmaR != dense.SigmaR || lz.EXNorm != dense.EXNorm || lz.H != dense.H {
			t.Errorf("n=%d: the Hessian method changed other fields", n)
		}
	}
}

// TestCriticalNoDenseMatrixByDefault backs the claim that the default
// analysis forms no n×n or nr×nr matrix above StructuredCriticalMinN and
// DenseHessianMaxSize: at n = 2000 (r = 1) it allocates less than a
// quarter of one such matrix in all.
func TestCriticalNoDenseMatrixByDefault(t *testing.T) {
	const n = 2000
	p, X := criticalPMC(t, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cp, err := AnalyzeCritical(p, X, CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got, matrix := after.TotalAlloc-before.TotalAlloc, uint64(8*n*n); got >= matrix/4 || !cp.HessLanczos {
		t.Errorf("allocated %d bytes (an n×n matrix is %d), HessLanczos %v", got, matrix, cp.HessLanczos)
	}
}

// TestCriticalHessianErrors: an unknown HessianMethod, and the dense
// Hessian of a problem without dense data (n > MaxDenseSize), are errors
// naming the value; the default works there.
func TestCriticalHessianErrors(t *testing.T) {
	p, X := criticalPMC(t, 8)
	for _, m := range []HessianMethod{-1, HessianLanczos + 1} {
		_, err := AnalyzeCritical(p, X, CriticalOptions{Hessian: m})
		if !errors.Is(err, ErrBadParameter) || !strings.Contains(err.Error(), fmt.Sprint(int(m))) || !strings.Contains(err.Error(), "HessianAuto") {
			t.Errorf("Hessian = %d: error %v", int(m), err)
		}
	}
	big, Xb := criticalPMC(t, MaxDenseSize+2)
	if _, err := AnalyzeCritical(big, Xb, CriticalOptions{Hessian: HessianDense}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("dense Hessian above MaxDenseSize: error %v", err)
	}
	cp, err := AnalyzeCritical(big, Xb, CriticalOptions{})
	if err != nil || !cp.HessLanczos {
		t.Errorf("default above MaxDenseSize: %v", err)
	}
	for m, want := range map[HessianMethod]string{HessianAuto: "auto", HessianDense: "dense", HessianLanczos: "lanczos"} {
		if m.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(m), m.String(), want)
		}
	}
}
