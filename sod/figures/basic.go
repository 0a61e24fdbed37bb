package figures

import (
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// BasicDistances is the left panel of the paper's Fig. basic_example as a
// chart's input: ‖xxᵀ − M*‖_F against the iteration for GD, SGD and GD +
// SOD (log scale), on SGD's recording grid (every SGDEvery-th step), with
// the escape marked. Curves.Chart and plots.CurvesPlot draw it.
func BasicDistances(r *experiments.BasicFromStartResult) (widgets.Curves, error) {
	if r == nil || r.P == nil || r.GD == nil || r.SOD == nil {
		return widgets.Curves{}, errNil("BasicDistances", "BasicFromStartResult")
	}
	var it, dGD, dSGD, dSOD []float64
	escape := -1
	phase, n := r.Config.Phase, len(r.SOD.Trace.Dist)
	for k, iter := range r.SGDIter {
		it = append(it, float64(iter))
		dGD = append(dGD, r.GD.Trace.Dist[min(iter, len(r.GD.Trace.Dist)-1)])
		dSGD = append(dSGD, r.P.DistStar(r.SGDX[k]))
		// The GD + SOD trace has one entry per iteration and phase: the escape point starts phase 2.
		j := iter
		if iter > phase {
			j = iter + 1
		}
		dSOD = append(dSOD, r.SOD.Trace.Dist[min(j, n-1)])
		if escape < 0 && iter > phase {
			escape = k - 1
		}
	}
	c := widgets.Curves{Title: "Fig. basic_example (left): distance to M* vs iteration", XName: "iteration", YName: "‖xxᵀ − M*‖_F",
		X: it, Series: []widgets.Series{{Name: "GD", Y: dGD}, {Name: fmt.Sprintf("SGD (batch %d)", r.Config.SGDBatch), Y: dSGD}, {Name: "GD + SOD", Y: dSOD}},
		LogY: true}
	if escape >= 0 {
		c.EscapeAt = []int{escape}
	}
	return c, nil
}

// BasicDistancesChart draws BasicDistances(r) interactively.
func BasicDistancesChart(r *experiments.BasicFromStartResult) (widgets.Chart, error) {
	c, err := BasicDistances(r)
	if err != nil {
		return nil, err
	}
	return c.Chart()
}

// BasicTrajectories is the right panel of Fig. basic_example as a chart's
// input: log₁₀ h on [−1.5, 1.5]² (h + 10⁻⁶, so that the zeros at ±z can be
// drawn) with the three paths, ±z, ±x̂ and the escape point x̌ the GD + SOD
// run used. Landscape.Chart and plots.LandscapePlot draw it.
func BasicTrajectories(r *experiments.BasicFromStartResult) (widgets.Landscape, error) {
	if r == nil || r.P == nil || r.GD == nil || r.SOD == nil {
		return widgets.Landscape{}, errNil("BasicTrajectories", "BasicFromStartResult")
	}
	grid, err := HGrid(r.P, -1.5, 1.5, 101, 1e-6)
	if err != nil {
		return widgets.Landscape{}, err
	}
	pts := BasicPoints()
	for _, e := range r.SOD.Escapes {
		if e.Accepted >= 0 {
			xc := e.Candidates[e.Accepted].X
			pts = append(pts, widgets.Point{Name: "x̌", X: xc.At(0, 0), Y: xc.At(1, 0)})
		}
	}
	return widgets.Landscape{
		Title: "Fig. basic_example (right): log₁₀ h and trajectories", XName: "x₁", YName: "x₂", Grid: grid, LogZ: true,
		Paths: []widgets.Path{PathFromIterates("GD", r.GD.Trace.Iterates), PathFromIterates(fmt.Sprintf("SGD (batch %d)", r.Config.SGDBatch), r.SGDX),
			PathFromIterates("GD + SOD", r.SOD.Trace.Iterates)},
		Points: pts,
	}, nil
}

// BasicTrajectoriesChart draws BasicTrajectories(r) interactively.
func BasicTrajectoriesChart(r *experiments.BasicFromStartResult) (widgets.Chart, error) {
	l, err := BasicTrajectories(r)
	if err != nil {
		return nil, err
	}
	return l.Chart(widgets.Size("100%", "560px"))
}

// BasicStartsChart draws experiments.RunBasicExample's result: log₁₀ h (+ 10⁻⁶) on
// its grid with the GD, SGD and GD + SOD paths from every random start and
// the escape points used.
func BasicStartsChart(res *experiments.BasicExampleResult) (widgets.Chart, error) {
	if res == nil {
		return nil, errNil("BasicStartsChart", "BasicExampleResult")
	}
	g := widgets.Grid{X: res.GridX, Y: res.GridY, Z: make([][]float64, len(res.H))}
	for j, row := range res.H {
		g.Z[j] = make([]float64, len(row))
		for i, v := range row {
			g.Z[j][i] = v + 1e-6
		}
	}
	var paths []widgets.Path
	for _, p := range res.Paths {
		paths = append(paths, widgets.Path{Name: fmt.Sprintf("%s #%d", p.Method, p.Start), X: p.X, Y: p.Y})
	}
	pts := []widgets.Point{{Name: "z", X: res.Z[0], Y: res.Z[1]}, {Name: "x̂", X: res.XHat[0], Y: res.XHat[1]}, {Name: "−x̂", X: -res.XHat[0], Y: -res.XHat[1]}}
	for k, x := range res.XCheck {
		pts = append(pts, widgets.Point{Name: fmt.Sprintf("x̌ #%d", k), X: x[0], Y: x[1]})
	}
	return widgets.Landscape{Title: fmt.Sprintf("Basic example: %d random starts", len(res.Seeds)), XName: "x₁", YName: "x₂",
		Grid: g, LogZ: true, Paths: paths, Points: pts}.Chart(widgets.Size("100%", "560px"))
}
