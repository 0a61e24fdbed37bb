package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// gridColours adapts colour values to gonum's plotter.GridXYZ.
type gridColours struct {
	x, y []float64
	z    [][]float64
}

func (g gridColours) Dims() (c, r int) { return len(g.x), len(g.y) }

func (g gridColours) Z(c, r int) float64 { return g.z[r][c] }

func (g gridColours) X(c int) float64 { return g.x[c] }

func (g gridColours) Y(r int) float64 { return g.y[r] }

// LandscapePlot is the static version of widgets.Landscape.Chart: a heat map with
// contour lines (when every cell can be coloured), the paths and the
// points.
func LandscapePlot(l widgets.Landscape) (*plot.Plot, error) {
	if err := l.Validate("LandscapePlot"); err != nil {
		return nil, err
	}
	vals, skipped := l.ColourValues()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range vals {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return nil, fmt.Errorf("plots: LandscapePlot %q: no cell has a drawable value", l.Title)
	}
	if hi == lo {
		hi = lo + 1
	}
	g := gridColours{x: l.Grid.X, y: l.Grid.Y, z: vals}
	pal := rampPalette{stops: chartkit.Viridis, n: 64}
	p := newPlot(l.Title, l.XName, l.YName, false, false)
	hm := plotter.NewHeatMap(g, pal)
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.Transparent
	p.Add(hm)
	if skipped == 0 {
		levels := make([]float64, 12)
		for i := range levels {
			levels[i] = lo + (hi-lo)*float64(i+1)/float64(len(levels)+1)
		}
		ct := plotter.NewContour(g, levels, rampPalette{stops: []string{"#ffffff", "#dddddd"}, n: 2})
		ct.LineStyles = []draw.LineStyle{{Color: color.NRGBA{R: 255, G: 255, B: 255, A: 110}, Width: vg.Points(0.5)}}
		p.Add(ct)
	}
	for k, pth := range l.Paths {
		sk, err := addLine(p, pth.Name, pth.X, pth.Y, false, false, lineStyle(chartkit.PathColors[k%len(chartkit.PathColors)], vg.Points(1.5), false), true)
		if err != nil {
			return nil, err
		}
		skipped += sk
	}
	if err := addPoints(p, l.Points, color.White); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = l.Grid.X[0], l.Grid.X[len(l.Grid.X)-1]
	p.Y.Min, p.Y.Max = l.Grid.Y[0], l.Grid.Y[len(l.Grid.Y)-1]
	what := "value"
	if l.LogZ {
		what = chartkit.LogValue
	}
	p.Title.Text = tx(skippedNote(fmt.Sprintf("%s\n(colour: %s from %.3g to %.3g)", l.Title, what, lo, hi), skipped, l.LogZ))
	return p, nil
}

// addPoints draws labelled points (non-finite ones are left out).
func addPoints(p *plot.Plot, pts []widgets.Point, labelColour color.Color) error {
	var xys plotter.XYs
	var labels []string
	for _, pt := range pts {
		if chartkit.Drawable(pt.X, false) && chartkit.Drawable(pt.Y, false) {
			xys = append(xys, plotter.XY{X: pt.X, Y: pt.Y})
			labels = append(labels, " "+tx(pt.Name))
		}
	}
	if len(xys) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: color.White, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	ring, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Color = labelColour
	}
	p.Add(sc, ring, lb)
	return nil
}
