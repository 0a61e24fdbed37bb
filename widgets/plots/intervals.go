package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// EscapeWindowsPlot is the static version of widgets.EscapeWindows.Chart: U_β
// (above) and U_γ (below) as bars per row on a log t axis; an unbounded
// interval ends in "→ ∞" at the right edge.
func EscapeWindowsPlot(w widgets.EscapeWindows) (*plot.Plot, error) {
	axMin, axMax, err := w.TAxis("EscapeWindowsPlot")
	if err != nil {
		return nil, err
	}
	p := newPlot(w.Title, chartkit.TAxis, "", true, false)
	p.X.Min, p.X.Max = axMin, axMax
	n := len(w.Rows)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	var ticks plot.ConstantTicks
	colours := []string{chartkit.Palette[0], chartkit.Palette[3]}
	legendDone := [2]bool{}
	for i, r := range w.Rows {
		y := float64(n - 1 - i) // first row on top
		label := r.Label
		for k, iv := range []widgets.Interval{r.Beta, r.Gamma} {
			if iv.Empty() {
				label += chartkit.EmptyWindow[k]
				continue
			}
			a, b, open := math.Max(iv.Lo, axMin), iv.Hi, false
			if math.IsInf(b, 1) || b > axMax {
				b, open = axMax, true
			}
			y0 := y + 0.05
			if k == 1 {
				y0 = y - 0.35
			}
			poly, err := plotter.NewPolygon(plotter.XYs{{X: a, Y: y0}, {X: b, Y: y0}, {X: b, Y: y0 + 0.3}, {X: a, Y: y0 + 0.3}})
			if err != nil {
				return nil, err
			}
			poly.Color = hexColor(colours[k])
			poly.LineStyle.Width = 0
			p.Add(poly)
			if !legendDone[k] {
				p.Legend.Add(chartkit.WindowNames[k], poly)
				legendDone[k] = true
			}
			if open {
				lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: b, Y: y0 + 0.15}}, Labels: []string{chartkit.Unbounded}})
				if err != nil {
					return nil, err
				}
				lb.Offset = vg.Point{X: -vg.Points(22), Y: -vg.Points(4)}
				p.Add(lb)
			}
		}
		ticks = append(ticks, plot.Tick{Value: y, Label: tx(label)})
	}
	p.Y.Tick.Marker = ticks
	for _, t := range w.Marks {
		if chartkit.Drawable(t, true) {
			if err := addVLine(p, t, -0.5, float64(n)-0.5, "", "#868e96"); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}
