package experiments

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// On the basic example h(c·e₁) = ½(c² − 1)² (by hand), so the floor along e₁ is 0 (at c = 1);
// along e₂ see below.
func TestLineFloor(t *testing.T) {
	p := sod.BasicExampleProblem()
	if f, err := LineFloor(p, mat.NewDense(2, 1, []float64{1, 0})); err != nil || f > 1e-9 {
		t.Errorf("floor along e₁ = %v, want 0", f)
	}
	// h(c e₂) = ½[(s/2 − 1)² + ¾s²] with s = c²: minimal at s = 1/2, value ½[(3/4)² + 3/16] = 3/8.
	if f, err := LineFloor(p, mat.NewDense(2, 1, []float64{0, 1})); err != nil || math.Abs(f-3.0/8) > 1e-9 {
		t.Errorf("floor along e₂ = %v, want 3/8", f)
	}
}

// The brute-force floors agree with QNNScan's closed-form floors at the spurious minimum of the
// default quadratic network (two independent computations).
func TestSODFloorsAgreeWithQNNScan(t *testing.T) {
	opt := DefaultQNNScanConfig()
	opt.Starts = 1
	cfg := opt.QNN
	sc, err := RunQNNScan(context.Background(), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := QNNProblem(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Minima[0]
	n, r := p.Dims()
	beta, gamma, cp, err := SODFloors(p, mat.NewDense(n, r, m.X))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(beta-m.BetaBest) > 1e-6*m.BetaBest || math.Abs(gamma-m.GammaBest) > 1e-6*m.GammaBest || math.Abs(cp.H-m.H) > 1e-9 {
		t.Errorf("brute force β %v, γ %v, h %v; closed form %v, %v, %v", beta, gamma, cp.H, m.BetaBest, m.GammaBest, m.H)
	}
}

func TestScaleMeasurements(t *testing.T) {
	w := []float64{1, 2, 3, 4, 5}
	got, err := ScaleMeasurements(w, 5, 1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0.5, 1, 1.5, 2, 5}; !mat.Equal(got, mat.NewDense(5, 1, want)) {
		t.Errorf("got %v, want %v", got.RawMatrix().Data, want)
	}
	if w[0] != 1 {
		t.Error("the input was modified")
	}
	for _, bad := range []struct{ n, r, len int }{{3, 1, 3}, {5, 1, 4}, {5, 0, 0}} {
		if _, err := ScaleMeasurements(make([]float64, bad.len), bad.n, bad.r, 2); !errors.Is(err, ErrBadExperiment) {
			t.Errorf("n = %d, r = %d, %d entries: %v, want ErrShape", bad.n, bad.r, bad.len, err)
		}
	}
}
