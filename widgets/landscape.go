package widgets

import (
	"fmt"
	"math"
	"sort"

	"github.com/go-echarts/go-echarts/v2/charts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// Grid holds samples of a function of two variables on a rectilinear grid:
// Z[j][i] is the value at (X[i], Y[j]). X and Y must be strictly increasing.
type Grid struct {
	X, Y []float64
	Z    [][]float64
}

func (g Grid) validate(chart string) error {
	if len(g.X) < 2 || len(g.Y) < 2 {
		return fmt.Errorf("widgets: %s: grid needs at least 2×2 points, got %d×%d", chart, len(g.X), len(g.Y))
	}
	for _, v := range [][]float64{g.X, g.Y} {
		for i := range v {
			if math.IsNaN(v[i]) || math.IsInf(v[i], 0) || (i > 0 && !(v[i] > v[i-1])) {
				return fmt.Errorf("widgets: %s: grid coordinates must be finite and strictly increasing", chart)
			}
		}
	}
	if len(g.Z) != len(g.Y) {
		return fmt.Errorf("widgets: %s: grid has %d rows of Z, want len(Y) = %d", chart, len(g.Z), len(g.Y))
	}
	for j, row := range g.Z {
		if len(row) != len(g.X) {
			return fmt.Errorf("widgets: %s: grid row %d has %d values, want len(X) = %d", chart, j, len(row), len(g.X))
		}
	}
	return nil
}

// cellEdges returns the boundaries of the cells centred on v (midpoints,
// extended by half a step at both ends).
func cellEdges(v []float64) []float64 {
	e := make([]float64, len(v)+1)
	for i := 1; i < len(v); i++ {
		e[i] = (v[i-1] + v[i]) / 2
	}
	e[0] = v[0] - (v[1]-v[0])/2
	e[len(v)] = v[len(v)-1] + (v[len(v)-1]-v[len(v)-2])/2
	return e
}

// Path is a trajectory in the plane, e.g. the iterates of GD, SGD or
// GD+SOD on a 2-D problem.
type Path struct {
	Name string
	X, Y []float64
}

// Point is a labelled point in the plane (M*'s factors ±z, a spurious
// minimum x̂, an escape point x̌).
type Point struct {
	Name string
	X, Y float64
}

// Landscape is the loss landscape of a 2-D problem with trajectories on
// top: the right panel of the paper's figure "basic_example" (log-scaled
// contour map of h with the GD, SGD and GD+SOD paths).
type Landscape struct {
	Title        string
	XName, YName string
	Grid         Grid
	LogZ         bool // colour by log₁₀ of the value, as the paper does
	Paths        []Path
	Points       []Point
}

// Validate checks l for the function chart (named in the errors): its
// grid, named paths with as many x as y values, named points.
func (l Landscape) Validate(chart string) error {
	if err := l.Grid.validate(chart); err != nil {
		return err
	}
	for _, p := range l.Paths {
		if err := checkName(chart+" path", p.Name); err != nil {
			return err
		}
		if len(p.X) == 0 || len(p.X) != len(p.Y) {
			return fmt.Errorf("widgets: %s: path %q has %d x and %d y values", chart, p.Name, len(p.X), len(p.Y))
		}
	}
	for _, p := range l.Points {
		if err := checkName(chart+" point", p.Name); err != nil {
			return err
		}
	}
	return nil
}

// ColourValues returns the values to colour by (log₁₀ if asked) with NaN
// for cells that cannot be coloured, and the number of such cells.
func (l Landscape) ColourValues() ([][]float64, int) {
	skipped := 0
	out := make([][]float64, len(l.Grid.Z))
	for j, row := range l.Grid.Z {
		out[j] = make([]float64, len(row))
		for i, z := range row {
			v := z
			if l.LogZ {
				v = math.Log10(z)
			}
			if !drawable(z, l.LogZ) {
				v = math.NaN()
				skipped++
			}
			out[j][i] = v
		}
	}
	return out, skipped
}

// heatmapRenderItem draws one grid cell [x0, x1, y0, y1, value] as a
// rectangle coloured by the visual map.
const heatmapRenderItem = `function (params, api) {
  var p0 = api.coord([api.value(0), api.value(2)]);
  var p1 = api.coord([api.value(1), api.value(3)]);
  return {type: 'rect', shape: {x: Math.min(p0[0], p1[0]), y: Math.min(p0[1], p1[1]),
    width: Math.abs(p1[0] - p0[0]) + 0.6, height: Math.abs(p1[1] - p0[1]) + 0.6},
    style: {fill: api.visual('color')}};
}`

// Chart draws the landscape as a heatmap (a custom series of
// rectangles on numeric axes, so that trajectories can be drawn on top in
// the same coordinates), with the paths as lines and the points as
// labelled markers. Cells whose value cannot be coloured (non-finite, or
// ≤ 0 with LogZ) are left blank and counted in the subtitle.
func (l Landscape) Chart(options ...Option) (*charts.Line, error) {
	if err := l.Validate("Landscape.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(append([]Option{Size("640px", "560px")}, options...))
	cfg.xName, cfg.yName = l.XName, l.YName
	vals, skipped := l.ColourValues()
	ex, ey := cellEdges(l.Grid.X), cellEdges(l.Grid.Y)
	var cells [][]any
	lo, hi := math.Inf(1), math.Inf(-1)
	for j := range vals {
		for i, v := range vals[j] {
			if math.IsNaN(v) {
				continue
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			cells = append(cells, []any{ex[i], ex[i+1], ey[j], ey[j+1], v})
		}
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("widgets: Landscape.Chart %q: no cell has a drawable value", l.Title)
	}
	if hi == lo {
		hi = lo + 1
	}
	series := []any{map[string]any{
		"name": "landscape", "type": "custom", "renderItem": jsFunc(heatmapRenderItem),
		"data": cells, "encode": map[string]any{"x": []int{0, 1}, "y": []int{2, 3}, "tooltip": 4},
		"z": 1, "tooltip": map[string]any{"trigger": "item"}, "progressive": 0, "animation": false,
	}}
	pathSkipped := 0
	for k, pth := range l.Paths {
		data, sk := xyData(pth.X, pth.Y, false, false)
		pathSkipped += sk
		s := lineSeries(pth.Name, data, len(pth.X) <= 80)
		s["color"] = pathColors[k%len(pathColors)]
		s["z"] = 3
		s["lineStyle"] = map[string]any{"width": 2}
		series = append(series, s)
	}
	names := make([]string, 0, len(l.Points))
	byName := map[string][][]any{}
	for _, pt := range l.Points {
		if !drawable(pt.X, false) || !drawable(pt.Y, false) {
			pathSkipped++
			continue
		}
		if _, ok := byName[pt.Name]; !ok {
			names = append(names, pt.Name)
		}
		byName[pt.Name] = append(byName[pt.Name], []any{pt.X, pt.Y})
	}
	sort.Strings(names)
	for k, n := range names {
		series = append(series, map[string]any{"name": n, "type": "scatter", "data": byName[n], "z": 4,
			"symbol": pointSymbols[k%len(pointSymbols)], "symbolSize": 14, "color": "#ffffff",
			"itemStyle": map[string]any{"borderColor": "#000", "borderWidth": 1.5},
			"label": map[string]any{"show": true, "formatter": n, "position": "right", "color": "#fff",
				"textBorderColor": "#000", "textBorderWidth": 2}})
	}
	zName := "value"
	if l.LogZ {
		zName = chartkit.LogValue
	}
	ch, p := newRect(l.Title, cfg, skipped+pathSkipped)
	p.series = series
	p.set["visualMap"] = []any{map[string]any{
		"type": "continuous", "seriesIndex": 0, "dimension": 4, "min": lo, "max": hi, "calculable": true,
		"orient": "vertical", "right": 0, "top": "middle", "text": []string{zName, ""},
		"precision": 2, "inRange": map[string]any{"color": viridis}}}
	p.set["tooltip"] = map[string]any{"show": true, "trigger": "item"}
	legend := []string{}
	for _, pth := range l.Paths {
		legend = append(legend, pth.Name)
	}
	p.set["legend"] = map[string]any{"show": true, "bottom": 0, "type": "scroll", "data": append(legend, names...)}
	p.set["grid"] = []any{map[string]any{"left": 70, "right": 110, "top": 70, "bottom": 80, "containLabel": true}}
	p.axes = func(m map[string]any) {
		for _, k := range []string{"xAxis", "yAxis"} {
			e := ex
			if k == "yAxis" {
				e = ey
			}
			setAxisRange(m, k, e[0], e[len(e)-1])
			offAxisLine(m, k)
			roundLabels(m, k, e[0], e[len(e)-1])
		}
	}
	return ch, nil
}

// pathColors are high-contrast colours for trajectories drawn over the
// viridis landscape.
var pathColors = chartkit.PathColors

var pointSymbols = []string{"pin", "diamond", "triangle", "rect", "circle", "roundRect"}
