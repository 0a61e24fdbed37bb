package widgets

import (
	"fmt"
	"image/color"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Path3D is a trajectory in ℝ³, e.g. the iterates x ∈ ℝ³ of GD (+SOD) on
// a problem with n = 3, r = 1.
type Path3D struct {
	Name    string
	X, Y, Z []float64
}

// Point3D is a labelled point in ℝ³ (±z, x̂, x̌).
type Point3D struct {
	Name    string
	X, Y, Z float64
}

// Trajectory3D is panel (f) of the paper's figures "exp2" and "exp3": the
// optimisation path for n = 3 in three dimensions.
type Trajectory3D struct {
	Title     string
	AxisNames [3]string // default x₁, x₂, x₃
	Paths     []Path3D
	Points    []Point3D
}

func (t Trajectory3D) validate() error {
	if len(t.Paths) == 0 && len(t.Points) == 0 {
		return fmt.Errorf("widgets: Trajectory3D.Chart %q: nothing to draw", t.Title)
	}
	for _, p := range t.Paths {
		if err := checkName("Trajectory3D.Chart path", p.Name); err != nil {
			return err
		}
		if len(p.X) == 0 || len(p.Y) != len(p.X) || len(p.Z) != len(p.X) {
			return fmt.Errorf("widgets: Trajectory3D.Chart: path %q has %d, %d, %d coordinates", p.Name, len(p.X), len(p.Y), len(p.Z))
		}
	}
	for _, p := range t.Points {
		if err := checkName("Trajectory3D.Chart point", p.Name); err != nil {
			return err
		}
	}
	return nil
}

// Chart draws the paths as 3-D lines (with their start and end
// points marked) and the labelled points, with ECharts-GL (which Display
// then inlines). The view can be rotated with the mouse. Points with a
// non-finite coordinate are left out and counted in the subtitle.
func (t Trajectory3D) Chart(options ...Option) (*charts.Line3D, error) {
	if err := t.validate(); err != nil {
		return nil, err
	}
	cfg := newConfig(append([]Option{Size("100%", "520px")}, options...))
	names := t.AxisNames
	for i, d := range []string{"x₁", "x₂", "x₃"} {
		if names[i] == "" {
			names[i] = d
		}
	}
	ch := charts.NewLine3D()
	p := newPatch()
	ch.Accept(p)
	skipped := 0
	ok3 := func(x, y, z float64) bool {
		return drawable(x, false) && drawable(y, false) && drawable(z, false)
	}
	var series []any
	for k, pth := range t.Paths {
		var data [][]float64
		for i := range pth.X {
			if !ok3(pth.X[i], pth.Y[i], pth.Z[i]) {
				skipped++
				continue
			}
			data = append(data, []float64{pth.X[i], pth.Y[i], pth.Z[i]})
		}
		col := palette[k%len(palette)]
		series = append(series, map[string]any{"name": pth.Name, "type": "line3D", "data": data,
			"lineStyle": map[string]any{"width": 3, "color": col}})
		if len(data) > 0 {
			ends := [][]float64{data[0], data[len(data)-1]}
			series = append(series, map[string]any{"name": pth.Name, "type": "scatter3D", "data": ends,
				"symbolSize": 8, "itemStyle": map[string]any{"color": col}})
		}
	}
	for k, pt := range t.Points {
		if !ok3(pt.X, pt.Y, pt.Z) {
			skipped++
			continue
		}
		series = append(series, map[string]any{"name": pt.Name, "type": "scatter3D",
			"data": [][]float64{{pt.X, pt.Y, pt.Z}}, "symbol": pointSymbols[k%len(pointSymbols)], "symbolSize": 14,
			"itemStyle": map[string]any{"color": "#222"},
			"label": map[string]any{"show": true, "formatter": pt.Name, "position": "right",
				"textStyle": map[string]any{"fontSize": 14, "color": "#000", "backgroundColor": "rgba(255,255,255,0.7)"}}})
	}
	ch.SetGlobalOptions(cfg.globalOpts(t.Title, skipped)...)
	ch.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithXAxis3DOpts(opts.XAxis3D{Name: names[0], Type: "value"}),
		charts.WithYAxis3DOpts(opts.YAxis3D{Name: names[1], Type: "value"}),
		charts.WithZAxis3DOpts(opts.ZAxis3D{Name: names[2], Type: "value"}),
		charts.WithGrid3DOpts(opts.Grid3D{BoxWidth: 100, BoxHeight: 100, BoxDepth: 100}),
	)
	p.series = series
	return ch, nil
}

// project maps a 3-D point to the plane of a fixed oblique view (azimuth
// 40°, elevation 25°).
func project(x, y, z float64) (float64, float64) {
	const az, el = 40 * math.Pi / 180, 25 * math.Pi / 180
	u := math.Cos(az)*x - math.Sin(az)*y
	v := math.Sin(el)*(math.Sin(az)*x+math.Cos(az)*y) + math.Cos(el)*z
	return u, v
}

// Trajectory3DPlot is the static version of Trajectory3D.Chart: the paths
// and points seen from a fixed oblique view (azimuth 40°, elevation 25°),
// with the bounding box's three axes drawn from its lowest corner.
func Trajectory3DPlot(t Trajectory3D) (*plot.Plot, error) {
	if err := t.validate(); err != nil {
		return nil, err
	}
	names := t.AxisNames
	for i, d := range []string{"x₁", "x₂", "x₃"} {
		if names[i] == "" {
			names[i] = d
		}
	}
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	grow := func(x, y, z float64) bool {
		if !(drawable(x, false) && drawable(y, false) && drawable(z, false)) {
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
		return nil, fmt.Errorf("widgets: Trajectory3DPlot %q: no drawable point", t.Title)
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
		if _, err := addLine(p, pth.Name, u, v, false, false, lineStyle(palette[k%len(palette)], vg.Points(1.8), false), true); err != nil {
			return nil, err
		}
	}
	pts := make([]Point, 0, len(t.Points))
	for _, pt := range t.Points {
		a, b := project(pt.X, pt.Y, pt.Z)
		pts = append(pts, Point{Name: pt.Name, X: a, Y: b})
	}
	if err := addPoints(p, pts, color.Black); err != nil {
		return nil, err
	}
	return p, nil
}
