package reproduction

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
)

// the quadratic network

// QNNValues are the report's values of the quadratic network on Iris (§6.3) with the workbench's
// setting.
type QNNValues struct {
	Config    experiments.QNNConfig
	StallIter int // −1: GD never stagnated
	StallH    float64
	// Final training loss of each optimiser of panel (a) and each line
	// search of panel (b).
	GD, SGD, Adam, SOD                     float64
	SODSearch, RandomSearch, NegGradSearch float64
	// The first escape of GD+SOD: h before and after, and whether it
	// lowered h.
	Escaped             bool
	EscapeHHat, EscapeH float64
	EscapeDescent       bool
	// The verdicts, where "lower" means by more than qnnMargin: GD stalls;
	// SGD ends no lower than GD; Adam ends lower than GD (by at least the
	// margin); the first SOD
	// escape lowers h and GD+SOD ends lower than GD; the SOD line search
	// ends lower than both others.
	GDStalls, SGDStalls, AdamDecreases, EscapeDrops, SODSearchWins bool
}

// qnnMargin is how much lower a final loss must be to count as lower.
const qnnMargin = 0.5

func computeQNN(ctx context.Context) (*QNNValues, error) {
	v := &QNNValues{}
	v.Config = experiments.DefaultQNNConfig()
	res, err := experiments.RunQNN(ctx, v.Config, nil)
	if err != nil {
		return nil, err
	}
	v.StallIter, v.StallH = res.StallIter, res.StallH
	final := map[string]*float64{"GD": &v.GD, "SGD": &v.SGD, "Adam": &v.Adam, "GD+SOD": &v.SOD,
		"GD+SOD line search": &v.SODSearch, "GD+random line search": &v.RandomSearch, "GD+negative-gradient line search": &v.NegGradSearch}
	seen := 0
	for _, c := range append(res.Optimizers, res.Searches...) {
		if p, ok := final[c.Name]; ok {
			*p = c.FinalH
			seen++
		}
		if c.Name == "GD+SOD" && len(c.Escapes) > 0 {
			e := c.Escapes[0]
			v.Escaped, v.EscapeHHat, v.EscapeH, v.EscapeDescent = true, e.HHat, e.HCheck, e.Descent
		}
	}
	if seen != len(final) {
		return nil, fmt.Errorf("quadratic network: %d of the %d runs the report states", seen, len(final))
	}
	lower := func(a, b float64) bool { return a < b-qnnMargin }
	v.GDStalls = v.StallIter >= 0
	v.SGDStalls = !lower(v.SGD, v.GD)
	v.AdamDecreases = v.Adam <= v.GD-qnnMargin
	v.EscapeDrops = v.Escaped && v.EscapeDescent && lower(v.SOD, v.GD)
	v.SODSearchWins = lower(v.SODSearch, v.RandomSearch) && lower(v.SODSearch, v.NegGradSearch)
	return v, nil
}
