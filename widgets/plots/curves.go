package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// CurvesPlot is the static (gonum/plot) version of widgets.Curves.Chart, for SVG,
// PNG or PDF export with Save.
func CurvesPlot(c widgets.Curves) (*plot.Plot, error) {
	if err := c.Validate("CurvesPlot"); err != nil {
		return nil, err
	}
	p := newPlot(c.Title, c.XName, c.YName, c.LogX, c.LogY)
	skipped := 0
	ys := make([][]float64, len(c.Series))
	for k, s := range c.Series {
		ys[k] = s.Y
		sk, err := addLine(p, s.Name, c.X, s.Y, c.LogX, c.LogY, lineStyle(chartkit.Palette[k%len(chartkit.Palette)], vg.Points(1.5), false), true)
		if err != nil {
			return nil, err
		}
		skipped += sk
	}
	lo, hi, ok := chartkit.FiniteRange(c.LogY, ys...)
	if !ok {
		return nil, fmt.Errorf("plots: CurvesPlot %q: no drawable value", c.Title)
	}
	for _, i := range c.EscapeAt {
		if !chartkit.Drawable(c.X[i], c.LogX) {
			continue
		}
		// Labelled at the bottom end: the legend sits at the top right.
		if err := addVLine(p, c.X[i], hi, lo, c.EscapeLegend(), "#2f9e44"); err != nil {
			return nil, err
		}
	}
	p.Title.Text = tx(skippedNote(c.Title, skipped, c.LogX || c.LogY))
	return p, nil
}
