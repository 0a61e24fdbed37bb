package figures

import (
	"fmt"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// QNNLosses is panel (a) or (b) of the paper's Fig. quadratic_nn as a
// chart's input: the training loss h(W) of each curve against the
// iteration (log scale), on a shared grid of every 10th iteration (each
// curve holds its last recorded value), with a line where GD first
// stagnates (stall ≥ 0). Curves.Chart and plots.CurvesPlot draw it.
func QNNLosses(title string, curves []experiments.LossCurve, stall int) (widgets.Curves, error) {
	last := 0
	for _, c := range curves {
		if len(c.Iter) == 0 {
			return widgets.Curves{}, fmt.Errorf("%w: QNNLosses: curve %q is empty", ErrBadFigure, c.Name)
		}
		last = max(last, c.Iter[len(c.Iter)-1])
	}
	var grid []float64
	stallIdx := -1
	for it := 0; it <= last; it += 10 {
		if stallIdx < 0 && stall >= 0 && it >= stall {
			stallIdx = len(grid)
		}
		grid = append(grid, float64(it))
	}
	cv := widgets.Curves{Title: title, XName: "iteration", YName: "training loss h(W)", X: grid, LogY: true, EscapeLabel: "GD stagnates"}
	if stallIdx >= 0 {
		cv.EscapeAt = []int{stallIdx}
	}
	for _, c := range curves {
		y := make([]float64, len(grid))
		k := 0
		for i, x := range grid {
			for k+1 < len(c.Iter) && float64(c.Iter[k+1]) <= x {
				k++
			}
			y[i] = c.H[k]
		}
		cv.Series = append(cv.Series, widgets.Series{Name: c.Name, Y: y})
	}
	return cv, nil
}

// QNNLossesChart draws QNNLosses(title, curves, stall) interactively.
func QNNLossesChart(title string, curves []experiments.LossCurve, stall int) (widgets.Chart, error) {
	cv, err := QNNLosses(title, curves, stall)
	if err != nil {
		return nil, err
	}
	return cv.Chart(widgets.Size("100%", "420px"))
}

// QNNSummaryTable tabulates every curve of a QNN result (panel (a), then panel
// (b)): the final loss, the training accuracy, the outcome and each escape
// round (h before → the best candidate, and whether it lowered h).
// A nil result gives an empty table.
func QNNSummaryTable(res *experiments.QNNResult) widgets.Table {
	if res == nil {
		return widgets.Table{} // documented: an empty table
	}
	tab := widgets.Table{Caption: fmt.Sprintf("Quadratic network: GD stagnates first at iteration %d, h = %.6f", res.StallIter, res.StallH),
		Header: []string{"method", "final h", "accuracy", "outcome", "escapes: h before → best candidate (lowers h?)"}}
	for _, c := range append(append([]experiments.LossCurve{}, res.Optimizers...), res.Searches...) {
		var esc []string
		for _, e := range c.Escapes {
			if e.Error != "" {
				esc = append(esc, fmt.Sprintf("it %d: escape failed: %s", e.Iter, e.Error))
				continue
			}
			esc = append(esc, fmt.Sprintf("it %d: %.4f → %s %.4f (%v)", e.Iter, e.HHat, e.Label, e.HCheck, e.Descent))
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: c.Name}, num("%.6f", c.FinalH), {Text: fmt.Sprintf("%.0f%%", 100*c.Accuracy)},
			{Text: c.Outcome}, {Text: strings.Join(esc, "; ")}})
	}
	return tab
}

// QNNScanTable tabulates where GD ends from each start of a QNNScan: steps,
// convergence, h, λ_n, the smallest Hessian eigenvalue outside the rotation
// directions, whether it is a (spurious) local minimum, highlighted when
// spurious, and the floors of h on the two SOD lines.
// A nil result gives an empty table.
func QNNScanTable(caption string, sc *experiments.QNNScanResult) widgets.Table {
	if sc == nil {
		return widgets.Table{Caption: caption} // documented: an empty table
	}
	tab := widgets.Table{Caption: caption, Header: []string{"seed", "GD steps", "converged", "h at the end", "λ_n",
		"smallest Hessian eig. (no rotations)", "local min", "spurious", "min h on β line", "min h on γ line"}}
	for _, m := range sc.Minima {
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: strconv.FormatUint(m.Seed, 10)}, {Text: strconv.Itoa(m.Iter)},
			{Text: strconv.FormatBool(m.Converged)}, num("%.5f", m.H), num("%.3g", m.LambdaN), num("%.3g", m.HessFree),
			{Text: strconv.FormatBool(m.LocalMin)}, {Text: strconv.FormatBool(m.Spurious), Mismatch: m.Spurious},
			num("%.4g", m.BetaBest), num("%.4g", m.GammaBest)})
	}
	tab.Notes = []string{fmt.Sprintf("lowest h: %.5f; %d spurious end points, at %d of which some SOD point lowers h", sc.BestH, sc.Spurious, sc.SODLowers)}
	return tab
}
