package experiments

import (
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
