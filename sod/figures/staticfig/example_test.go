package staticfig_test

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/sod/figures/staticfig"
	"sodworkbench.org/workbench/widgets/plots"
)

// The six panels of the real-world case study (Fig. exp3) in one static
// figure; plots.Save writes it as SVG, PNG or PDF.
func ExampleCaseFigure() {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.RealWorldCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fig, err := staticfig.CaseFigure(r, []float64{1, 0, 0}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(fig.Panels), "rows of", len(fig.Panels[0]), "panels")
	// Output:
	// 2 rows of 3 panels
}

// One value, two renderings: figures.StudySuccessRates turns the study's
// result into a widgets.SuccessRates once; its Chart method draws it for a
// notebook (shown with widgets.Display) and plots.SuccessRatesPlot draws the
// same value for a paper (written with plots.Save).
func Example_oneValueTwoRenderings() {
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{40}, []float64{0.15}, 2
	res, err := experiments.RunStudy(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := figures.StudySuccessRates(res, 0.15, "(a)")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = s.Chart()
	fmt.Println("interactive:", err)
	p, err := plots.SuccessRatesPlot(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("static:", p.Title.Text)
	// Output:
	// interactive: <nil>
	// static: Fig. numerical_study (a): success rate, ε = 0.15
}
