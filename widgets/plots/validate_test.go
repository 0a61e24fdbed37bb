package plots_test

import (
	"strings"
	"testing"

	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/plots"
)

// The interactive chart and the static figure of one input refuse the same
// bad input with the same check (the input type's Validate), so their
// errors name the same fault.
func TestChartAndPlotRefuseTheSameInput(t *testing.T) {
	x := []float64{1, 10, 100}
	three := []float64{1, 2, 3}
	tests := []struct {
		name        string
		chart, plot func() error
		fault       string
	}{
		{"bundle without runs",
			func() error {
				_, err := widgets.Bundle{X: x, Groups: []widgets.RunGroup{{Name: "GD"}}}.Chart()
				return err
			},
			func() error {
				_, err := plots.BundlePlot(widgets.Bundle{X: x, Groups: []widgets.RunGroup{{Name: "GD"}}})
				return err
			},
			`group "GD" has no runs`},
		{"bundle run too short",
			func() error {
				_, err := widgets.Bundle{X: x, Groups: []widgets.RunGroup{{Name: "GD", Runs: [][]float64{{1}}}}}.Chart()
				return err
			},
			func() error {
				_, err := plots.BundlePlot(widgets.Bundle{X: x, Groups: []widgets.RunGroup{{Name: "GD", Runs: [][]float64{{1}}}}})
				return err
			},
			`group "GD" run 0 has 1 values, want 3`},
		{"bundle group without name",
			func() error {
				_, err := widgets.Bundle{X: x, Groups: []widgets.RunGroup{{Runs: [][]float64{three}}}}.Chart()
				return err
			},
			func() error {
				_, err := plots.BundlePlot(widgets.Bundle{X: x, Groups: []widgets.RunGroup{{Runs: [][]float64{three}}}})
				return err
			},
			"empty name"},
		{"lifted objective, exact too short",
			func() error {
				_, err := widgets.LiftedObjective{T: x, ClosedForm: three, Exact: three[:2]}.Chart()
				return err
			},
			func() error {
				_, err := plots.LiftedObjectivePlot(widgets.LiftedObjective{T: x, ClosedForm: three, Exact: three[:2]})
				return err
			},
			"Exact has 2 values, want 3"},
		{"term norms, c-term too short",
			func() error {
				_, err := widgets.TermNorms{T: x, ClosedForm: widgets.Terms{A: three, B: three, C: three[:1]}}.Chart()
				return err
			},
			func() error {
				_, err := plots.TermNormsFigure(widgets.TermNorms{T: x, ClosedForm: widgets.Terms{A: three, B: three, C: three[:1]}})
				return err
			},
			"(c-term) has 1 values, want 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for which, f := range map[string]func() error{"chart": tc.chart, "plot": tc.plot} {
				if err := f(); err == nil || !strings.Contains(err.Error(), tc.fault) {
					t.Errorf("%s: err = %v, want one naming %q", which, err, tc.fault)
				}
			}
		})
	}
}
