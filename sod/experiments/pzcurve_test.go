package experiments

import (
	"context"
	"errors"
	"math"
	"testing"
)

// The bound follows the theorem's three cases, written out by hand, and lies below the Monte
// Carlo probability (it is a lower bound) within 3 standard errors.
func TestPZCurve(t *testing.T) {
	cfg := DefaultPZCurveConfig()
	cfg.Points, cfg.Samples = 9, 2000
	res, err := RunPZCurve(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, d := float64(cfg.M), cfg.Delta
	r2 := 2 * (1 + d) / (1 - d) // σ_r²Tr(M*) = 1
	r1 := 2 * (1 - 1/((1+d)*(1+d)*m)) * (1 + d) / (1 - d)
	if math.Abs(res.R1-r1) > 1e-12 || math.Abs(res.R2-r2) > 1e-12 {
		t.Fatalf("radii %v, %v, want %v, %v", res.R1, res.R2, r1, r2)
	}
	band := 0
	for i, D := range res.D {
		theta := (1 - D/r2) * (1 + d) * (1 + d) * m
		want := 0.0
		switch {
		case D >= r2:
			want = 1
		case D >= r1:
			want = (1 - theta) * (1 - theta) * m / (3 * (m + 2))
			band++
		}
		if math.Abs(res.Bound[i]-want) > 1e-12 || math.Abs(res.Theta[i]-theta) > 1e-12 {
			t.Errorf("D = %.4f: bound %v (want %v), θ %v (want %v)", D, res.Bound[i], want, res.Theta[i], theta)
		}
		if res.MC[i] < 0 || res.MC[i] > 1 || (want < 1 && res.Bound[i] > res.MC[i]+3*res.StdErr[i]+1e-12) {
			t.Errorf("D = %.4f: Monte Carlo %v ± %v against the bound %v", D, res.MC[i], res.StdErr[i], res.Bound[i])
		}
	}
	if band == 0 {
		t.Error("no point in the band [r₁, r₂)")
	}
	if _, err := RunPZCurve(context.Background(), PZCurveConfig{N: 3, M: 10, Delta: 0.5, SigmaTr: 1, Points: 1, Samples: 10}, nil); !errors.Is(err, ErrBadExperiment) {
		t.Errorf("one point: %v, want ErrBadExperiment", err)
	}
	if _, err := RunPZCurve(context.Background(), PZCurveConfig{N: 3, M: 10, Delta: 1.5, SigmaTr: 1, Points: 5, Samples: 10}, nil); err == nil {
		t.Error("δ = 1.5 accepted")
	}
}
