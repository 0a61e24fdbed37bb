package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// CurvesPlot is the static (gonum/plot) version of widgets.Curves.Chart, for SVG,
// PNG or PDF export with Save: the same Step, Probability and Distinct
// styles (colours and dashes of chartkit.SeriesStyle).
func CurvesPlot(c widgets.Curves) (*plot.Plot, error) {
	if err := c.Validate("CurvesPlot"); err != nil {
		return nil, err
	}
	p := newPlot(c.Title, c.XName, c.YName, c.LogX, c.LogY)
	skipped := 0
	ys := make([][]float64, len(c.Series))
	for k, s := range c.Series {
		ys[k] = s.Y
		style := lineStyle(chartkit.Palette[k%len(chartkit.Palette)], vg.Points(1.5), false)
		if c.Distinct {
			st := chartkit.SeriesStyle(k)
			style = lineStyle(st.Color, vg.Points(1.5), false)
			style.Dashes = staticDashes[st.Dash]
		}
		x, y := c.X, s.Y
		if c.Step {
			x, y = stepXY(x, y)
		}
		sk, err := addLine(p, s.Name, x, y, c.LogX, c.LogY, style, true)
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
	if c.Probability {
		p.Y.Min, p.Y.Max = 0, 1
	}
	p.Title.Text = tx(skippedNote(c.Title, skipped, c.LogX || c.LogY))
	return p, nil
}

// staticDashes are chartkit.Dashes as gonum/plot dash patterns.
var staticDashes = map[string][]vg.Length{"solid": nil, "dashed": {vg.Points(6), vg.Points(3)}, "dotted": {vg.Points(1.5), vg.Points(2.5)}}

// stepXY returns the points of the step function that holds y[i] from
// x[i] to x[i+1].
func stepXY(x, y []float64) ([]float64, []float64) {
	sx, sy := make([]float64, 0, 2*len(x)), make([]float64, 0, 2*len(y))
	for i := range x {
		if i > 0 {
			sx, sy = append(sx, x[i]), append(sy, y[i-1])
		}
		sx, sy = append(sx, x[i]), append(sy, y[i])
	}
	return sx, sy
}
