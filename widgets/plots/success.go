package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// SuccessRatesPlot is the static version of widgets.SuccessRates.Chart: grouped
// bars of the success rate in percent, labelled with the counts.
func SuccessRatesPlot(s widgets.SuccessRates) (*plot.Plot, error) {
	if err := s.Validate("SuccessRatesPlot"); err != nil {
		return nil, err
	}
	p := newPlot(s.Title, s.GroupName, chartkit.SuccessAxis(s.Trials), false, false)
	w := vg.Points(14)
	nm := len(s.Methods)
	for m, name := range s.Methods {
		vals := make(plotter.Values, len(s.Groups))
		var xys plotter.XYs
		var labels []string
		for g, k := range s.Successes[m] {
			vals[g] = 100 * float64(k) / float64(s.Trials)
			xys = append(xys, plotter.XY{X: float64(g), Y: vals[g]})
			labels = append(labels, chartkit.Count(k, s.Trials))
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		b.Color = hexColor(chartkit.Palette[m%len(chartkit.Palette)])
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(m)-float64(nm-1)/2) * (w + vg.Points(2))
		p.Add(b)
		p.Legend.Add(tx(name), b)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, err
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i].Font.Size = vg.Points(7)
			lb.TextStyle[i].XAlign = draw.XCenter
		}
		lb.Offset = vg.Point{X: b.Offset, Y: vg.Points(2)}
		p.Add(lb)
	}
	p.NominalX(s.Groups...)
	p.Y.Min, p.Y.Max = 0, 118
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}

// BundlePlot is the static version of widgets.Bundle.Chart.
func BundlePlot(b widgets.Bundle) (*plot.Plot, error) {
	if err := b.Validate("BundlePlot"); err != nil {
		return nil, err
	}
	p := newPlot(b.Title, b.XName, b.YName, false, b.LogY)
	skipped := 0
	var all [][]float64
	for k, g := range b.Groups {
		st := draw.LineStyle{Color: withAlpha(hexColor(chartkit.Palette[k%len(chartkit.Palette)]), 0.45), Width: vg.Points(0.7)}
		for r, y := range g.Runs {
			sk, err := addLine(p, chartkit.BundleName(g.Name, len(g.Runs)), b.X, y, false, b.LogY, st, r == 0)
			if err != nil {
				return nil, err
			}
			skipped += sk
			all = append(all, y)
		}
	}
	if _, _, ok := chartkit.FiniteRange(b.LogY, all...); !ok {
		return nil, fmt.Errorf("plots: BundlePlot %q: no drawable value", b.Title)
	}
	if chartkit.Drawable(b.Threshold, b.LogY) && b.Threshold != 0 {
		x0, x1, _ := chartkit.FiniteRange(false, b.X)
		if err := addHLine(p, b.Threshold, x0, x1, chartkit.Threshold(b.Threshold), "#c92a2a"); err != nil {
			return nil, err
		}
	}
	p.Title.Text = tx(skippedNote(b.Title, skipped, b.LogY))
	return p, nil
}
