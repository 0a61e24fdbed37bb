package staticfig

import (
	"fmt"

	"gonum.org/v1/plot"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/widgets/plots"
)

// BenchProfileFigures are the escape benchmark's ECDF, performance and
// data profiles of one family as static figures (save them as SVG or PDF
// with plots.Save): the same curves as figures.BenchProfileCharts
// (figures.BenchProfileCurves), drawn as steps on a [0, 1] axis, one
// colour and dash per method, the pooled targets under the title.
func BenchProfileFigures(a escapebench.FamilyAnalysis) ([]*plot.Plot, error) {
	cs, err := figures.BenchProfileCurves(a)
	if err != nil {
		return nil, err
	}
	var out []*plot.Plot
	for _, c := range cs {
		c.Title += fmt.Sprintf("\n(%d targets pooled)", len(a.Targets))
		p, err := plots.CurvesPlot(c)
		if err != nil {
			return nil, fmt.Errorf("BenchProfileFigures: %s: %w", a.Family, err)
		}
		out = append(out, p)
	}
	return out, nil
}
