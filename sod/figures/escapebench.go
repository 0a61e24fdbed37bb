package figures

import (
	"fmt"
	"math"
	"sort"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

// BenchMediansChart compares the methods of one family of an escape
// benchmark on one chart: for each method the median over its runs of
// ‖XXᵀ − M*‖_F against gradient evaluations (escapebench.Curve.P50), log y,
// with the success threshold 0.02 (escapebench.DefaultMinDist). The
// methods' curves are put on one grid of gradient counts, each held at its
// last value after its end (as escapebench holds a run's), each with its
// own colour, dash and marker and the full legend (widgets.Curves.Distinct).
// The inter-quartile bands of single methods are BenchCurvesCharts. Methods without a trace
// are left out.
func BenchMediansChart(ss []escapebench.Summary, family string) (widgets.Chart, error) {
	var cells []escapebench.Summary
	var top float64
	for _, s := range ss {
		if s.Family == family && len(s.Curve.Grad) > 0 && len(s.Curve.P50) == len(s.Curve.Grad) {
			cells = append(cells, s)
			top = math.Max(top, s.Curve.Grad[len(s.Curve.Grad)-1])
		}
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("%w: BenchMediansChart: no convergence curve of family %q", ErrBadFigure, family)
	}
	x := make([]float64, 2*escapebench.CurvePoints)
	for k := range x {
		x[k] = top * float64(k) / float64(len(x)-1)
	}
	var series []widgets.Series
	for _, s := range cells {
		series = append(series, widgets.Series{Name: fmt.Sprintf("%s (%d runs)", s.Method, s.Trials), Y: heldAt(s.Curve.Grad, s.Curve.P50, x)})
	}
	return widgets.Curves{Title: family + ": median of ‖XXᵀ − M*‖_F over the runs of each method",
		XName: "∇h evaluations", YName: "‖XXᵀ − M*‖_F", X: x, Series: series, LogY: true, Distinct: true}.Chart(
		widgets.Size("100%", "460px"), widgets.Subtitle(fmt.Sprintf("success: below %g", escapebench.DefaultMinDist)))
}

// heldAt returns, at each x[k], the value v[i] of the last grid point
// grid[i] ≤ x[k] (grid ascending), v[0] before the first one: a curve held
// constant between its points and after its end.
func heldAt(grid, v, x []float64) []float64 {
	y := make([]float64, len(x))
	for k, g := range x {
		i := sort.Search(len(grid), func(i int) bool { return grid[i] > g }) - 1
		y[k] = v[max(i, 0)]
	}
	return y
}
