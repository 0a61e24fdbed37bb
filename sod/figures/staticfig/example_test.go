package staticfig_test

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/figures/staticfig"
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
