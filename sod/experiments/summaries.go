package experiments

import (
	"fmt"
	"math"
	"strings"
)

// Summary describes the configuration in three lines: features and start,
// the optimisers, the escapes.
func (cfg QNNConfig) Summary() string {
	features := cfg.Features
	if features == "" {
		features = "standardized/2"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "features %q, no bias: %v, ±1 targets: %v; width %d, W₀ = %g·N(0, I) from seed %d\n",
		features, cfg.NoBias, cfg.PlusMinusOne, cfg.Width, cfg.InitScale, cfg.Seed)
	fmt.Fprintf(&b, "GD step %g for %d steps; stagnation: relative decrease < %g over %d steps; SGD batch %d; Adam step %g\n",
		cfg.Step, cfg.Iters, cfg.StagnationTol, cfg.StagnationWindow, cfg.SGDBatch, cfg.AdamStep)
	fmt.Fprintf(&b, "SOD line search: l = %d, ρ = %g, η = %g capped by GrowthQ = %g; at most %d escapes",
		cfg.L, cfg.Rho, cfg.Eta, cfg.GrowthQ, cfg.MaxEscapes)
	return b.String()
}

// BelowReference returns the first and the last recorded t ≥ 1 at which
// the closed form's h^l, and exact PGD's, are below the paper's reference
// level h^l(ŵ) (the criterion h^l(w̃(t)) < h^l(ŵ) of section 5, after at
// least one step); NaN when never.
func (lp *LiftedPanels) BelowReference() (closedFirst, closedLast, exactFirst, exactLast float64) {
	if lp == nil {
		panic(fmt.Errorf("%w: LiftedPanels.BelowReference on nil panels", ErrBadExperiment))
	}
	span := func(y Floats) (first, last float64) {
		first, last = math.NaN(), math.NaN()
		for k, v := range y {
			if k < len(lp.T) && lp.T[k] >= 1 && v < lp.HLHat {
				if math.IsNaN(first) {
					first = lp.T[k]
				}
				last = lp.T[k]
			}
		}
		return first, last
	}
	closedFirst, closedLast = span(lp.CloseHL)
	exactFirst, exactLast = span(lp.ExactHL)
	return closedFirst, closedLast, exactFirst, exactLast
}
