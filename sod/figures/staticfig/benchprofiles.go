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

// BenchBandFigure is the convergence of every method of one family as one
// static figure (save it as SVG or PDF with plots.Save): a panel per
// method, titled by it and its number of runs, cols to a row, each the
// median and inter-quartile band of ‖XXᵀ − M*‖_F against ∇h evaluations
// (figures.BenchBandCurves). No method with a trace is an error wrapping
// ErrBadStaticFigure.
func BenchBandFigure(ss []escapebench.Summary, family string, cols int) (*plots.Figure, error) {
	if cols < 1 {
		return nil, fmt.Errorf("%w: BenchBandFigure: %d columns, want at least 1", ErrBadStaticFigure, cols)
	}
	cs, err := figures.BenchBandCurves(ss, family)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%w: BenchBandFigure: no method of family %q has a convergence trace", ErrBadStaticFigure, family)
	}
	fig := &plots.Figure{}
	for k, c := range cs {
		c.Title = fmt.Sprintf("%s (%d runs)", c.Title, c.Runs)
		p, err := plots.CurvesPlot(c.Curves)
		if err != nil {
			return nil, fmt.Errorf("BenchBandFigure: %s: %w", family, err)
		}
		if k%cols == 0 {
			fig.Panels = append(fig.Panels, nil)
		}
		fig.Panels[len(fig.Panels)-1] = append(fig.Panels[len(fig.Panels)-1], p)
	}
	return fig, nil
}
