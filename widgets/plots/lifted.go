package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// LiftedObjectivePlot is the static version of widgets.LiftedObjective.Chart.
func LiftedObjectivePlot(o widgets.LiftedObjective) (*plot.Plot, error) {
	if err := o.Validate("LiftedObjectivePlot"); err != nil {
		return nil, err
	}
	p := newPlot(o.Title, chartkit.TAxis, chartkit.LiftedAxis, true, true)
	skipped, err := addLine(p, chartkit.ClosedForm+chartkit.LSuffix(o.L), o.T, o.ClosedForm, true, true, lineStyle(chartkit.Palette[0], vg.Points(1.5), false), true)
	if err != nil {
		return nil, err
	}
	if o.Exact != nil {
		sk, err := addLine(p, chartkit.ExactPGD+chartkit.LSuffix(o.L), o.T, o.Exact, true, true, lineStyle(chartkit.Palette[1], vg.Points(1.5), true), true)
		if err != nil {
			return nil, err
		}
		skipped += sk
	}
	if _, _, ok := chartkit.FiniteRange(true, o.ClosedForm, o.Exact); !ok {
		return nil, fmt.Errorf("plots: LiftedObjectivePlot %q: no drawable value", o.Title)
	}
	if chartkit.Drawable(o.Reference, true) {
		t0, t1, ok := chartkit.FiniteRange(true, o.T)
		if ok {
			if err := addHLine(p, o.Reference, t0, t1, chartkit.Reference(o.Reference), "#c92a2a"); err != nil {
				return nil, err
			}
		}
	}
	p.Title.Text = tx(skippedNote(o.Title, skipped, true))
	return p, nil
}

// TermNormsFigure is the static version of widgets.TermNorms.Chart: one panel, or two
// side by side with the same y range when Exact is given.
func TermNormsFigure(tn widgets.TermNorms) (*Figure, error) {
	if err := tn.Validate("TermNormsFigure"); err != nil {
		return nil, err
	}
	type panel struct {
		name  string
		terms widgets.Terms
	}
	panels := []panel{{chartkit.ClosedFormPanel, tn.ClosedForm}}
	if tn.Exact != nil {
		panels = append(panels, panel{chartkit.ExactPGD, *tn.Exact})
	}
	fig := &Figure{Panels: [][]*plot.Plot{{}}}
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, pn := range panels {
		title := pn.name
		if k == 0 && tn.Title != "" {
			title = tn.Title + ": " + pn.name
		}
		p := newPlot(title, chartkit.TAxis, chartkit.TermNormAxis, true, true)
		skipped := 0
		for j, y := range [][]float64{pn.terms.A, pn.terms.B, pn.terms.C} {
			sk, err := addLine(p, chartkit.TermNames[j], tn.T, y, true, true, lineStyle(chartkit.Palette[j], vg.Points(1.5), k == 1), true)
			if err != nil {
				return nil, err
			}
			skipped += sk
			if a, b, ok := chartkit.FiniteRange(true, y); ok {
				lo, hi = math.Min(lo, a), math.Max(hi, b)
			}
		}
		p.Title.Text = tx(skippedNote(title, skipped, true))
		fig.Panels[0] = append(fig.Panels[0], p)
	}
	if lo > hi {
		return nil, fmt.Errorf("plots: TermNormsFigure %q: no drawable value", tn.Title)
	}
	for _, p := range fig.Panels[0] {
		p.Y.Min, p.Y.Max = lo/2, hi*2
	}
	return fig, nil
}
