package figures

import (
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// SuccessRatesChart draws panel (a) or (b) of the paper's Fig. numerical_study:
// the success rates of GD and GD + SOD against n for one ε, from
// experiments.RunStudy's result (StudyResult.SuccessCounts).
func SuccessRatesChart(res *experiments.StudyResult, eps float64, panel string) (widgets.Chart, error) {
	if res == nil {
		return nil, errNil("SuccessRatesChart", "StudyResult")
	}
	groups, methods, successes, trials := res.SuccessCounts(eps)
	return widgets.SuccessRates{
		Title:     fmt.Sprintf("Fig. numerical_study %s: success rate, ε = %.2f", panel, eps),
		GroupName: "n", Groups: groups, Methods: methods, Successes: successes, Trials: trials,
	}.Chart(widgets.Size("100%", "340px"))
}

// StudyBundleChart draws panel (c) or (d) of Fig. numerical_study:
// ‖XXᵀ − ZZᵀ‖_F along every trial of the (n, ε) cell for one method
// (experiments.MethodGD or MethodGDSOD), resampled onto points iterations
// (a stopped run keeps its last value), with the success threshold 0.02.
func StudyBundleChart(res *experiments.StudyResult, n int, eps float64, method string, points int, panel string) (widgets.Chart, error) {
	if res == nil {
		return nil, errNil("StudyBundleChart", "StudyResult")
	}
	c := res.Cell(n, eps)
	if c == nil {
		return nil, fmt.Errorf("figures: the study has no cell n = %d, ε = %g", n, eps)
	}
	x, runs, err := c.Runs(method, points)
	if err != nil {
		return nil, err
	}
	return widgets.Bundle{
		Title: fmt.Sprintf("Fig. numerical_study %s: %s, n = %d, ε = %.2f, %d trials", panel, method, n, eps, len(runs)),
		XName: "iteration", YName: "‖XXᵀ − ZZᵀ‖_F", X: x,
		Groups: []widgets.RunGroup{{Name: method, Runs: runs}}, Threshold: 0.02, LogY: true,
	}.Chart(widgets.Size("100%", "340px"))
}
