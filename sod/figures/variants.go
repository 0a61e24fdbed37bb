package figures

import (
	"context"
	"fmt"
	"strconv"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// VariantTable is the variant-comparison table: for each row of
// experiments.RunVariantComparison, the candidates proposed in the escape round,
// how many lower h, the accepted one and h(X̌)/h(X̂), the outcome
// (highlighted unless solved; a variant's failure is shown with its error)
// and the final distance to M*.
// Rows without a run are left out.
func VariantTable(rows []experiments.VariantRow) widgets.Table {
	tab := widgets.Table{Caption: "One escape round from each case study's spurious point",
		Header: []string{"case", "variant", "candidates", "lowering h", "accepted", "h(X̌) / h(X̂)", "outcome", "‖XXᵀ − M*‖_F at the end"}}
	for _, r := range rows {
		acc, ratio := "—", "—"
		if r.Accepted != "" {
			acc, ratio = r.Accepted, fmt.Sprintf("%.3f", r.Ratio)
		}
		if r.Run == nil {
			continue // documented: a row without a run is left out
		}
		outcome := r.Run.Outcome.String()
		if r.Run.Err != nil {
			outcome += ": " + r.Run.Err.Error()
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: r.Case}, {Text: r.Variant}, {Text: strconv.Itoa(r.Candidates)},
			{Text: strconv.Itoa(r.Lowering)}, {Text: acc}, {Text: ratio}, {Text: outcome, Mismatch: r.Run.Outcome != sod.Solved}, num("%.2g", r.Dist)})
	}
	return tab
}

// VariantCurvesChart runs every variant from the instance's X̂ with fixed-length
// GD phases of phase steps (step 0.1) around one escape round and draws h
// along each run, so the curves line up; a variant whose candidates were
// all refused continues at the same point, and one that failed is named so
// in the legend. ctx stops the runs early.
func VariantCurvesChart(ctx context.Context, in sod.Instance, variants []sod.Escaper, phase int) (widgets.Chart, error) {
	if phase < 1 || phase > experiments.MaxGridPoints {
		return nil, fmt.Errorf("%w: VariantCurvesChart: phase = %d, want [1, %d] (experiments.MaxGridPoints)", ErrBadFigure, phase, experiments.MaxGridPoints)
	}
	for i, v := range variants {
		if err := sod.ValidateEscaper(v); err != nil {
			return nil, fmt.Errorf("VariantCurvesChart: variant %d: %w", i, err)
		}
	}
	opts := sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: phase}}, MaxEscapes: 1, TargetH: 1e-300}
	x := make([]float64, 2*phase+2)
	for k := range x {
		x[k] = float64(k)
	}
	var series []widgets.Series
	for _, v := range variants {
		run, err := sod.RunEscape(ctx, in.P, in.XHat, v, opts)
		if err != nil {
			return nil, err
		}
		name := v.Name()
		if run.Err != nil {
			name += " (failed: " + run.Err.Error() + ")"
		}
		y := make([]float64, len(x))
		for k := range y {
			y[k] = run.Trace.H[min(k, len(run.Trace.H)-1)] // hold the last value if the run stopped early
		}
		series = append(series, widgets.Series{Name: name, Y: y})
	}
	return widgets.Curves{Title: in.Name + ": h with one escape round, per variant",
		XName: "trace entry (GD steps; the escape sits between the two phases)", YName: "h(X)", X: x, Series: series,
		EscapeAt: []int{phase + 1}, LogY: true}.Chart(widgets.Size("100%", "460px"))
}
