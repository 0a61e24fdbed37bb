package figures_test

import (
	"errors"
	"reflect"
	"testing"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/widgets"
)

// studyByHand is a StudyResult written out by hand: two sizes at ε = 0.1
// (given in decreasing n, to check the sorting), one at ε = 0.15, two
// trials per cell, with short trajectories whose step functions are easy
// to resample in one's head.
func studyByHand() *experiments.StudyResult {
	tj := func(iter []int, dist []float64) experiments.Trajectory {
		return experiments.Trajectory{Iter: iter, Dist: dist}
	}
	trials := []experiments.StudyTrial{
		{GD: tj([]int{0, 4}, []float64{1, 0.5}), SOD: tj([]int{0, 2, 8}, []float64{1, 0.1, 0.01})},
		{GD: tj([]int{0, 8}, []float64{2, 0.3}), SOD: tj([]int{0, 4}, []float64{2, 0.001})},
	}
	return &experiments.StudyResult{Cells: []experiments.StudyCell{
		{N: 16, Eps: 0.1, GDSuccesses: 0, SODSuccesses: 2, Trials: trials},
		{N: 10, Eps: 0.1, GDSuccesses: 1, SODSuccesses: 2, Trials: trials},
		{N: 10, Eps: 0.15, GDSuccesses: 2, SODSuccesses: 2, Trials: trials},
	}}
}

func TestStudySuccessRates(t *testing.T) {
	s, err := figures.StudySuccessRates(studyByHand(), 0.1, "(b)")
	if err != nil {
		t.Fatal(err)
	}
	want := widgets.SuccessRates{
		Title: "Fig. numerical_study (b): success rate, ε = 0.10", GroupName: "n",
		Groups: []string{"10", "16"}, Methods: []string{"GD", "GD+SOD"},
		Successes: [][]int{{1, 0}, {2, 2}}, Trials: 2,
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("SuccessRates = %+v\nwant %+v", s, want)
	}
}

func TestStudyBundle(t *testing.T) {
	for _, tc := range []struct {
		method string
		runs   [][]float64 // on the grid 0, 2, 4, 6, 8 (the longest run ends at 8)
	}{
		{experiments.MethodGD, [][]float64{{1, 1, 0.5, 0.5, 0.5}, {2, 2, 2, 2, 0.3}}},
		{experiments.MethodGDSOD, [][]float64{{1, 0.1, 0.1, 0.1, 0.01}, {2, 2, 0.001, 0.001, 0.001}}},
	} {
		b, err := figures.StudyBundle(studyByHand(), 10, 0.1, tc.method, 5, "(c)")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(b.X, []float64{0, 2, 4, 6, 8}) || len(b.Groups) != 1 || !reflect.DeepEqual(b.Groups[0].Runs, tc.runs) {
			t.Errorf("%s: x %v runs %v, want runs %v", tc.method, b.X, b.Groups, tc.runs)
		}
		if b.Groups[0].Name != tc.method || b.Threshold != 0.02 || !b.LogY {
			t.Errorf("%s: group %q threshold %g logY %v", tc.method, b.Groups[0].Name, b.Threshold, b.LogY)
		}
	}
}

func TestStudyBadInput(t *testing.T) {
	res := studyByHand()
	for name, f := range map[string]func() error{
		"nil result":    func() error { _, err := figures.StudySuccessRates(nil, 0.1, ""); return err },
		"no such ε":     func() error { _, err := figures.StudySuccessRates(res, 0.2, ""); return err },
		"nil result 2":  func() error { _, err := figures.StudyBundle(nil, 10, 0.1, experiments.MethodGD, 5, ""); return err },
		"method":        func() error { _, err := figures.StudyBundle(res, 10, 0.1, "Adam", 5, ""); return err },
		"one point":     func() error { _, err := figures.StudyBundle(res, 10, 0.1, experiments.MethodGD, 1, ""); return err },
		"no such cell":  func() error { _, err := figures.StudyBundle(res, 12, 0.1, experiments.MethodGD, 5, ""); return err },
		"chart, no ε":   func() error { _, err := figures.SuccessRatesChart(res, 0.2, ""); return err },
		"chart, method": func() error { _, err := figures.StudyBundleChart(res, 10, 0.1, "", 5, ""); return err },
	} {
		if err := f(); !errors.Is(err, figures.ErrBadFigure) {
			t.Errorf("%s: err = %v, want figures.ErrBadFigure", name, err)
		}
	}
}

// Each figure's data function refuses a nil result with figures.ErrBadFigure,
// and so does the chart function drawn from it.
func TestFigureDataNilResult(t *testing.T) {
	for name, f := range map[string]func() error{
		"PZCurve":              func() error { _, err := figures.PZCurve(nil); return err },
		"PZCurveChart":         func() error { _, err := figures.PZCurveChart(nil); return err },
		"AblationWindows":      func() error { _, err := figures.AblationWindows("t", nil, nil); return err },
		"AblationWindowsChart": func() error { _, err := figures.AblationWindowsChart("t", nil, nil); return err },
		"Simulation":           func() error { _, _, err := figures.Simulation("t", nil, 3); return err },
		"SimulationCharts":     func() error { _, _, err := figures.SimulationCharts("t", nil, 3); return err },
		"BasicDistances":       func() error { _, err := figures.BasicDistances(nil); return err },
		"BasicDistancesChart":  func() error { _, err := figures.BasicDistancesChart(nil); return err },
		"BasicTrajectories":    func() error { _, err := figures.BasicTrajectories(nil); return err },
		"QNNLosses":            func() error { _, err := figures.QNNLosses("t", []experiments.LossCurve{{Name: "GD"}}, -1); return err },
		"QNNLossesChart": func() error {
			_, err := figures.QNNLossesChart("t", []experiments.LossCurve{{Name: "GD"}}, -1)
			return err
		},
		"QuadraticInequality": func() error { _, err := figures.QuadraticInequality("t", nil, nil, 0, 1); return err },
	} {
		want := figures.ErrBadFigure
		if name == "QuadraticInequality" {
			want = sod.ErrBadParameter // sod refuses the nil problem
		}
		if err := f(); !errors.Is(err, want) {
			t.Errorf("%s(nil): err = %v, want %v", name, err, want)
		}
	}
}
