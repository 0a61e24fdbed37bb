package widgets

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
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

// Validate checks t for the function caller (named in the errors):
// something to draw, named paths and points, equal lengths.
func (t Trajectory3D) Validate(caller string) error {
	if len(t.Paths) == 0 && len(t.Points) == 0 {
		return fmt.Errorf("widgets: %s %q: nothing to draw", caller, t.Title)
	}
	for _, p := range t.Paths {
		if err := checkName(caller+" path", p.Name); err != nil {
			return err
		}
		if len(p.X) == 0 || len(p.Y) != len(p.X) || len(p.Z) != len(p.X) {
			return fmt.Errorf("widgets: %s: path %q has %d, %d, %d coordinates", caller, p.Name, len(p.X), len(p.Y), len(p.Z))
		}
	}
	for _, p := range t.Points {
		if err := checkName(caller+" point", p.Name); err != nil {
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
	if err := t.Validate("Trajectory3D.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(append([]Option{Size("100%", "520px")}, options...))
	names := t.AxisNames
	for i, d := range chartkit.Coordinates {
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
