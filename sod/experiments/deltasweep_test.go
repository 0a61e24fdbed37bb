package experiments

import (
	"context"
	"errors"
	"math"
	"testing"
)

// The exact RIP constant of PMC is 1 − ε² (independently: the operator's weights are 1 and ε,
// so ‖𝒜(M)‖²/‖M‖²_F ranges over [ε², 1]); at ε = 1 (δ = 0, full observation) GD always succeeds.
func TestDeltaSweep(t *testing.T) {
	cfg := DefaultDeltaSweepConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{3, 4}, []float64{1, 0.5, 0.1}, 8
	res, err := RunDeltaSweep(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := range cfg.Sizes {
		for j, eps := range cfg.Epsilons {
			if d := res.Delta[k][j]; math.Abs(d-(1-eps*eps)) > 1e-9 {
				t.Errorf("n = %d, ε = %v: δ = %v, want 1 − ε² = %v", cfg.Sizes[k], eps, d, 1-eps*eps)
			}
			if r := res.Rate[k][j]; r < 0 || r > 1 || r*8 != math.Round(r*8) {
				t.Errorf("n = %d, ε = %v: rate %v is not a count of 8", cfg.Sizes[k], eps, r)
			}
		}
		if res.Rate[k][0] != 1 {
			t.Errorf("n = %d, ε = 1: success rate %v, want 1", cfg.Sizes[k], res.Rate[k][0])
		}
	}
	for _, bad := range []func(*DeltaSweepConfig){
		func(c *DeltaSweepConfig) { c.Sizes = nil }, func(c *DeltaSweepConfig) { c.Trials = 0 },
		func(c *DeltaSweepConfig) { c.Step = math.NaN() }, func(c *DeltaSweepConfig) { c.Epsilons = []float64{0} },
	} {
		c := DefaultDeltaSweepConfig()
		bad(&c)
		if _, err := RunDeltaSweep(context.Background(), c, nil); !errors.Is(err, ErrBadExperiment) {
			t.Errorf("bad config %+v: %v, want ErrBadExperiment", c, err)
		}
	}
}
