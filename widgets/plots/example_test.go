package plots_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/plots"
)

// Every chart of package widgets has a static gonum/plot twin for slides
// and papers: build it from the same data and save it as SVG, PNG or PDF.
func ExampleSave() {
	p, err := plots.CurvesPlot(widgets.Curves{Title: "h(X)", X: []float64{0, 1, 2}, LogY: true,
		Series: []widgets.Series{{Name: "GD", Y: []float64{1, 0.1, 0.01}}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "widgets")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"curves.svg", "curves.png"} {
		if err := plots.Save(p, filepath.Join(dir, name), 12*plots.Centimeter, 8*plots.Centimeter); err != nil {
			fmt.Println(err)
			return
		}
		st, _ := os.Stat(filepath.Join(dir, name))
		fmt.Println(name, st.Size() > 1000)
	}
	// Output:
	// curves.svg true
	// curves.png true
}

// The six panels of the paper's figures exp2 and exp3 as one static figure:
// panels from several …Plot functions are arranged in a Figure.
func ExampleFigure() {
	iter := []float64{0, 1, 2, 3, 4, 5}
	var errs []error
	curve := func(name string, y ...float64) *plot.Plot {
		p, err := plots.CurvesPlot(widgets.Curves{Title: name, XName: "iteration", X: iter, LogY: true,
			Series: []widgets.Series{{Name: name, Y: y}}, EscapeAt: []int{3}})
		errs = append(errs, err)
		return p
	}
	row1 := []*plot.Plot{curve("(a) h", 1, 0.5, 0.4, 0.4, 0.01, 1e-4), curve("(b) ‖∇h‖", 1, 0.1, 1e-3, 1e-5, 0.1, 1e-3),
		curve("(c) distance", 2, 1.5, 1.4, 1.4, 0.1, 1e-3)}
	if err := errors.Join(errs...); err != nil {
		fmt.Println(err)
		return
	}
	t := []float64{1, 10, 100, 1000}
	lifted, err := plots.LiftedObjectivePlot(widgets.LiftedObjective{Title: "(d)", T: t, ClosedForm: []float64{1, 0.9, 0.8, 2}, Reference: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	terms, err := plots.TermNormsFigure(widgets.TermNorms{Title: "(e)", T: t,
		ClosedForm: widgets.Terms{A: []float64{1, 1, 1, 1}, B: []float64{0.1, 0.2, 0.5, 2}, C: []float64{1e-4, 1e-3, 1e-2, 0.1}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	traj, err := plots.Trajectory3DPlot(widgets.Trajectory3D{Title: "(f)",
		Paths: []widgets.Path3D{{Name: "GD", X: []float64{0, 0.5, 1}, Y: []float64{0, 0.1, 0}, Z: []float64{-1, 0, 1}}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fig := &plots.Figure{Panels: [][]*plot.Plot{
		row1,
		{lifted, terms.Panels[0][0], traj},
	}}
	b, err := plots.Render(fig, 30*plots.Centimeter, 18*plots.Centimeter, "svg")
	fmt.Println(err, len(b) > 10000)
	// Output:
	// <nil> true
}

// The static twin of widgets.SuccessRates.Chart, from the same value, shown
// in a GoNB cell with DisplayStatic (the one entry point for static
// figures; outside a notebook it renders and shows nothing).
func ExampleSuccessRatesPlot() {
	s := widgets.SuccessRates{
		Title: "success rate, ε = 0.15", GroupName: "n",
		Groups: []string{"40", "50"}, Methods: []string{"GD", "GD+SOD"},
		Successes: [][]int{{12, 9}, {50, 49}}, Trials: 50,
	}
	p, err := plots.SuccessRatesPlot(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plots.DisplayStatic(p, 12*plots.Centimeter, 8*plots.Centimeter))
	fmt.Println(plots.DisplayStatic(p, 2*plots.MaxRenderSize, 8*plots.Centimeter) != nil)
	// Output:
	// <nil>
	// true
}
