package experiments

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestQNNConfigSummary(t *testing.T) {
	s := DefaultQNNConfig().Summary()
	for _, want := range []string{`features "standardized/2"`, "width 1", "seed 13", "GrowthQ = 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

func TestBelowReference(t *testing.T) {
	nan := math.NaN()
	lp := &LiftedPanels{HLHat: 1, T: Floats{0, 1, 10, 100, 1000},
		CloseHL: Floats{0.1, 0.5, 2, 0.9, 3}, ExactHL: Floats{0.1, 2, nan, 3, 4}}
	cf, cl, ef, el := lp.BelowReference()
	if cf != 1 || cl != 100 || !math.IsNaN(ef) || !math.IsNaN(el) {
		t.Errorf("BelowReference = %v, %v, %v, %v; want 1, 100, NaN, NaN", cf, cl, ef, el)
	}
}

// The configuration of the quadratic-network experiment, in three lines.
func ExampleQNNConfig_Summary() {
	fmt.Println(DefaultQNNConfig().Summary())
	// Output:
	// features "standardized/2", no bias: false, ±1 targets: false; width 1, W₀ = 1·N(0, I) from seed 13
	// GD step 0.001 for 10000 steps; stagnation: relative decrease < 1e-05 over 200 steps; SGD batch 10; Adam step 0.01
	// SOD line search: l = 3, ρ = 0.1, η = 0.1 capped by GrowthQ = 2; at most 3 escapes
}

// Where the PMC case study's closed form and exact PGD are below h^l(ŵ).
func ExampleLiftedPanels_BelowReference() {
	r, err := RunCaseStudy(context.Background(), PMCCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	cf, cl, ef, el := r.Lifted.BelowReference()
	fmt.Printf("closed form below for t in [%g, %g], exact PGD for t in [%g, %g]\n", cf, cl, ef, el)
	// Output:
	// closed form below for t in [1, 20670], exact PGD for t in [1, 59000]
}
