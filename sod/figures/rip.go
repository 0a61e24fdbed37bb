package figures

import (
	"context"
	"fmt"
	"strconv"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/widgets"
)

// ripReference holds reference ratio ranges and δ_p of the paper's
// instances from an independent computation (another implementation of
// the same three estimators), by instance name and p.
var ripReference = map[string]map[int]string{
	"basic example": {1: "[1.0, 1.5] → 0.5", 2: "[0.5, 1.5] → 0.5"},
	"real-world":    {1: "[0.18894, 1.77207] → 0.81106", 2: "[0.10173, 1.89834] → 0.89834", 3: "[0.10172, 1.89835] → 0.89835"},
	"PMC n=3 ε=0.3": {1: "[0.545, 1.0] → 0.455", 2: "[0.09, 1.0] → 0.91", 3: "[0.09, 1.0] → 0.91"},
}

// RIPTable estimates the RIP constant δ_p (Definition "RIP") of every
// instance's operator three ways — sampling samples random rank-p matrices
// (sod.RIPSample, an inner estimate), optimising over rank-p factors from
// starts Nelder–Mead starts (sod.RIPOptimize) for p = 1, 2, and exactly over
// all symmetric matrices (sod.RIPExact, p = n) — with the ratio range
// ‖𝒜(M)‖²/‖M‖²_F and, beside each, a reference value computed
// independently. ctx stops the sampling and the optimisation early.
func RIPTable(ctx context.Context, insts []sod.Instance, samples, starts int, seed uint64) (widgets.Table, error) {
	for i, in := range insts {
		if err := checkProblem(fmt.Sprintf("RIPTable: instance %d", i), in.P); err != nil {
			return widgets.Table{}, err
		}
	}
	tab := widgets.Table{Caption: fmt.Sprintf("RIP estimates (seed %d): ratio range ‖𝒜(M)‖²/‖M‖²_F and δ_p", seed),
		Header: []string{"instance", "method", "p", "ratio range", "δ_p", "independent reference"}}
	for _, in := range insts {
		n, _ := in.P.Op.Dims()
		var ests []*sod.RIPEstimate
		for p := 1; p <= 2 && p <= n; p++ {
			s, err := sod.RIPSample(ctx, in.P.Op, p, samples, seed)
			if err != nil {
				return widgets.Table{}, fmt.Errorf("%s: %w", in.Name, err)
			}
			o, err := sod.RIPOptimize(ctx, in.P.Op, p, starts, seed)
			if err != nil {
				return widgets.Table{}, fmt.Errorf("%s: %w", in.Name, err)
			}
			ests = append(ests, s, o)
		}
		e, err := sod.RIPExact(in.P.Op)
		if err != nil {
			return widgets.Table{}, fmt.Errorf("%s: %w", in.Name, err)
		}
		for _, r := range append(ests, e) {
			tab.Rows = append(tab.Rows, []widgets.Cell{{Text: in.Name}, {Text: r.Method.String()}, {Text: strconv.Itoa(r.P)},
				{Text: fmt.Sprintf("[%.5f, %.5f]", r.MinRatio, r.MaxRatio)}, num("%.5f", r.Delta), {Text: ripReference[in.Name][r.P]}})
		}
	}
	tab.Notes = []string{fmt.Sprintf("sampling: %d random rank-p matrices; optimize: Nelder–Mead over rank-p factors, %d starts; exact: all symmetric matrices (p = n).", samples, starts),
		"PMC: the paper quotes δ ≈ (1−ε)/(1+ε) = " + string(paper.PMCDelta) + "; the best uniform rescaling of the operator gives (1−ε²)/(1+ε²) = 0.835 (REPRODUCTION.md F2)."}
	return tab, nil
}

// DeltaSweepChart draws the GD success rate of experiments.RunDeltaSweep against the
// exact RIP constant δ = 1 − ε² of the PMC operator, one line per n.
func DeltaSweepChart(res *experiments.DeltaSweepResult) (widgets.Chart, error) {
	if res == nil {
		return nil, errNil("DeltaSweepChart", "DeltaSweepResult")
	}
	if len(res.Delta) == 0 {
		return nil, fmt.Errorf("%w: DeltaSweep: empty result", ErrBadFigure)
	}
	series := map[string][]float64{}
	for k, n := range res.Sizes {
		series[fmt.Sprintf("GD success rate, n = %2d", n)] = res.Rate[k]
	}
	return widgets.Curves{Title: "PMC: GD success rate against the exact RIP constant δ = 1 − ε²", XName: "δ", YName: "success rate",
		X: res.Delta[0], Series: seriesByName(series)}.Chart(widgets.Subtitle(fmt.Sprintf("%d seeded starts x₀ ~ N(0, I/n) per point", res.Trials)))
}
