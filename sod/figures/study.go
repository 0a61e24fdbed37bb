package figures

import (
	"fmt"
	"sort"
	"strconv"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// The success-rate study (Fig. numerical_study) has one path from result to
// chart: experiments.RunStudy gives the result; StudySuccessRates and StudyBundle
// turn it into widgets' data; widgets.SuccessRates.Chart and
// widgets.Bundle.Chart draw that data interactively, plots.SuccessRatesPlot
// and plots.BundlePlot draw the same data as static figures. The …Chart
// functions here are the first two steps followed by the interactive one.

// StudySuccessRates is panel (a) or (b) of the paper's Fig. numerical_study: the
// success counts of GD and GD + SOD (experiments.MethodGD, MethodGDSOD)
// against n for the cells with perturbation eps, sizes in increasing order.
// panel ("(a)", "(b)") goes into the title.
func StudySuccessRates(res *experiments.StudyResult, eps float64, panel string) (widgets.SuccessRates, error) {
	if res == nil {
		return widgets.SuccessRates{}, errNil("StudySuccessRates", "StudyResult")
	}
	var cells []experiments.StudyCell
	for _, c := range res.Cells {
		if c.Eps == eps {
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return widgets.SuccessRates{}, fmt.Errorf("%w: figures.StudySuccessRates: the study has no cell with ε = %g", ErrBadFigure, eps)
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].N < cells[j].N })
	s := widgets.SuccessRates{
		Title:     fmt.Sprintf("Fig. numerical_study %s: success rate, ε = %.2f", panel, eps),
		GroupName: "n",
		Methods:   []string{experiments.MethodGD, experiments.MethodGDSOD},
		Successes: [][]int{make([]int, len(cells)), make([]int, len(cells))},
		Trials:    len(cells[0].Trials),
	}
	for g, c := range cells {
		if len(c.Trials) != s.Trials {
			return widgets.SuccessRates{}, fmt.Errorf("%w: figures.StudySuccessRates: n = %d has %d trials, n = %d has %d (every size needs the same number)",
				ErrBadFigure, c.N, len(c.Trials), cells[0].N, s.Trials)
		}
		s.Groups = append(s.Groups, strconv.Itoa(c.N))
		s.Successes[0][g], s.Successes[1][g] = c.GDSuccesses, c.SODSuccesses
	}
	return s, nil
}

// SuccessRatesChart draws StudySuccessRates(res, eps, panel) interactively.
func SuccessRatesChart(res *experiments.StudyResult, eps float64, panel string) (widgets.Chart, error) {
	s, err := StudySuccessRates(res, eps, panel)
	if err != nil {
		return nil, err
	}
	return s.Chart(widgets.Size("100%", "340px"))
}

// StudyBundle is panel (c) or (d) of Fig. numerical_study: ‖XXᵀ − ZZᵀ‖_F
// along every trial of the (n, ε) cell for one method (experiments.MethodGD
// or MethodGDSOD), resampled onto points iterations from 0 to the longest
// run, with the success threshold 0.02 on a log axis. Each run is a step
// function of its recorded samples; a stopped run keeps its last value.
func StudyBundle(res *experiments.StudyResult, n int, eps float64, method string, points int, panel string) (widgets.Bundle, error) {
	if res == nil {
		return widgets.Bundle{}, errNil("StudyBundle", "StudyResult")
	}
	if method != experiments.MethodGD && method != experiments.MethodGDSOD {
		return widgets.Bundle{}, fmt.Errorf("%w: figures.StudyBundle: method %q (want %q or %q)",
			ErrBadFigure, method, experiments.MethodGD, experiments.MethodGDSOD)
	}
	if points < 2 {
		return widgets.Bundle{}, fmt.Errorf("%w: figures.StudyBundle: %d grid points (want ≥ 2)", ErrBadFigure, points)
	}
	c := res.Cell(n, eps)
	if c == nil {
		return widgets.Bundle{}, fmt.Errorf("%w: the study has no cell n = %d, ε = %g", ErrBadFigure, n, eps)
	}
	x, runs := resampleRuns(c, method, points)
	if len(runs) == 0 {
		return widgets.Bundle{}, fmt.Errorf("%w: figures.StudyBundle: no recorded trajectory of %s at n = %d, ε = %g", ErrBadFigure, method, n, eps)
	}
	return widgets.Bundle{
		Title: fmt.Sprintf("Fig. numerical_study %s: %s, n = %d, ε = %.2f, %d trials", panel, method, n, eps, len(runs)),
		XName: "iteration", YName: "‖XXᵀ − ZZᵀ‖_F", X: x,
		Groups: []widgets.RunGroup{{Name: method, Runs: runs}}, Threshold: 0.02, LogY: true,
	}, nil
}

// StudyBundleChart draws StudyBundle(res, n, eps, method, points, panel)
// interactively.
func StudyBundleChart(res *experiments.StudyResult, n int, eps float64, method string, points int, panel string) (widgets.Chart, error) {
	b, err := StudyBundle(res, n, eps, method, points, panel)
	if err != nil {
		return nil, err
	}
	return b.Chart(widgets.Size("100%", "340px"))
}

// resampleRuns puts the trajectories of method (checked by the caller) of
// every trial of c onto a grid of points iterations from 0 to the longest
// run; trials without a recorded trajectory are left out.
func resampleRuns(c *experiments.StudyCell, method string, points int) (x []float64, runs [][]float64) {
	pick := func(tr *experiments.StudyTrial) *experiments.Trajectory {
		if method == experiments.MethodGD {
			return &tr.GD
		}
		return &tr.SOD
	}
	last := 0
	for i := range c.Trials {
		if tj := pick(&c.Trials[i]); len(tj.Iter) > 0 {
			last = max(last, tj.Iter[len(tj.Iter)-1])
		}
	}
	x = make([]float64, points)
	for k := range x {
		x[k] = float64(last) * float64(k) / float64(points-1)
	}
	for i := range c.Trials {
		tj := pick(&c.Trials[i])
		if len(tj.Iter) == 0 {
			continue
		}
		run := make([]float64, points)
		j := 0
		for k, xv := range x {
			for j+1 < len(tj.Iter) && float64(tj.Iter[j+1]) <= xv {
				j++
			}
			run[k] = tj.Dist[j]
		}
		runs = append(runs, run)
	}
	return x, runs
}
