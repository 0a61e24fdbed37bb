package staticfig

import (
	"fmt"

	"gonum.org/v1/plot"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/widgets/plots"
)

// CaseFigure draws the six panels of a case study (the paper's Figs. exp2,
// exp3) with gonum/plot in one figure, for slides and papers (plots.Save,
// plots.DisplayStatic): (a)–(c) on the first row, (d) the lifted
// objective, (e) the closed form's term norms and (f) the trajectory on
// the second. The panels hold the data of figures.CaseCurves,
// figures.CaseLifted and figures.CaseTrajectory (every every-th iteration;
// z the direction of the escape, as there).
func CaseFigure(r *experiments.CaseStudyResult, z []float64, every int) (*plots.Figure, error) {
	curves, err := figures.CaseCurves("", r, every)
	if err != nil {
		return nil, err
	}
	var row1 []*plot.Plot
	for k, c := range curves {
		c.Title = []string{"(a) objective h(X)", "(b) gradient norm ‖∇h(X)‖_F", "(c) ‖XXᵀ − M*‖_F"}[k]
		p, err := plots.CurvesPlot(c)
		if err != nil {
			return nil, err
		}
		row1 = append(row1, p)
	}
	lo, tn := figures.CaseLifted("", r)
	lo.Title = fmt.Sprintf("(d) lifted objective h^l (l = %d)", r.Lifted.L)
	pd, err := plots.LiftedObjectivePlot(lo)
	if err != nil {
		return nil, err
	}
	tn.Title, tn.Exact = "(e) term norms (closed form)", nil
	pe, err := plots.TermNormsFigure(tn)
	if err != nil {
		return nil, err
	}
	pf, err := plots.Trajectory3DPlot(figures.CaseTrajectory("(f) trajectory of x ∈ ℝ³", r, z, every))
	if err != nil {
		return nil, err
	}
	return &plots.Figure{Panels: [][]*plot.Plot{row1, {pd, pe.Panels[0][0], pf}}}, nil
}
