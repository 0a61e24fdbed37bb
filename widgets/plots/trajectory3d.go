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

// Trajectory3DPlot is the static version of widgets.Trajectory3D.Chart: the paths
// and points seen from a fixed oblique view (azimuth 40°, elevation 25°),
// with the bounding box's three axes drawn from its lowest corner.
func Trajectory3DPlot(t widgets.Trajectory3D) (*plot.Plot, error) {
	if err := t.Validate("Trajectory3DPlot"); err != nil {
		return nil, err
	}
	names := t.AxisNames
	for i, d := range chartkit.Coordinates {
		if names[i] == "" {
			names[i] = d
		}
	}
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	grow := func(x, y, z float64) bool {
		if !(chartkit.Drawable(x, false) && chartkit.Drawable(y, false) && chartkit.Drawable(z, false)) {
			return false
		}
		for i, v := range []float64{x, y, z} {
			lo[i], hi[i] = math.Min(lo[i], v), math.Max(hi[i], v)
		}
		return true
	}
	skipped := 0
	for _, pth := range t.Paths {
		for i := range pth.X {
			if !grow(pth.X[i], pth.Y[i], pth.Z[i]) {
				skipped++
			}
		}
	}
	for _, pt := range t.Points {
		if !grow(pt.X, pt.Y, pt.Z) {
			skipped++
		}
	}
	if lo[0] > hi[0] {
		return nil, fmt.Errorf("plots: Trajectory3DPlot %q: no drawable point", t.Title)
	}
	p := newPlot(skippedNote(t.Title, skipped, false), "", "", false, false)
	p.X.Tick.Marker = plot.ConstantTicks{}
	p.Y.Tick.Marker = plot.ConstantTicks{}
	p.HideAxes()
	// The three axes of the bounding box, from its lowest corner.
	axisEnd := [3][3]float64{{hi[0], lo[1], lo[2]}, {lo[0], hi[1], lo[2]}, {lo[0], lo[1], hi[2]}}
	u0, v0 := project(lo[0], lo[1], lo[2])
	for i, e := range axisEnd {
		u1, v1 := project(e[0], e[1], e[2])
		l, err := plotter.NewLine(plotter.XYs{{X: u0, Y: v0}, {X: u1, Y: v1}})
		if err != nil {
			return nil, err
		}
		l.LineStyle = draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.8)}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: u1, Y: v1}},
			Labels: []string{tx(fmt.Sprintf(" %s ∈ [%.3g, %.3g]", names[i], lo[i], hi[i]))}})
		if err != nil {
			return nil, err
		}
		p.Add(l, lb)
	}
	for k, pth := range t.Paths {
		var u, v []float64
		for i := range pth.X {
			a, b := project(pth.X[i], pth.Y[i], pth.Z[i])
			u, v = append(u, a), append(v, b)
		}
		if _, err := addLine(p, pth.Name, u, v, false, false, lineStyle(chartkit.Palette[k%len(chartkit.Palette)], vg.Points(1.8), false), true); err != nil {
			return nil, err
		}
	}
	pts := make([]widgets.Point, 0, len(t.Points))
	for _, pt := range t.Points {
		a, b := project(pt.X, pt.Y, pt.Z)
		pts = append(pts, widgets.Point{Name: pt.Name, X: a, Y: b})
	}
	if err := addPoints(p, pts, color.Black); err != nil {
		return nil, err
	}
	return p, nil
}

// project maps a 3-D point to the plane of a fixed oblique view (azimuth
// 40°, elevation 25°).
func project(x, y, z float64) (float64, float64) {
	const az, el = 40 * math.Pi / 180, 25 * math.Pi / 180
	u := math.Cos(az)*x - math.Sin(az)*y
	v := math.Sin(el)*(math.Sin(az)*x+math.Cos(az)*y) + math.Cos(el)*z
	return u, v
}
