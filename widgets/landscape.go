package widgets

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"github.com/go-echarts/go-echarts/v2/charts"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

func (l Landscape) validate(chart string) error {
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

// colourValues returns the values to colour by (log₁₀ if asked) with NaN
// for cells that cannot be coloured, and the number of such cells.
func (l Landscape) colourValues() ([][]float64, int) {
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
	if err := l.validate("Landscape.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(append([]Option{Size("640px", "560px")}, options...))
	if cfg.xName == "" && cfg.yName == "" {
		cfg.xName, cfg.yName = l.XName, l.YName
	}
	if cfg.logX || cfg.logY {
		return nil, fmt.Errorf("widgets: Landscape.Chart: log axes are not supported (use LogZ for the colours)")
	}
	vals, skipped := l.colourValues()
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
		zName = "log₁₀ value"
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
var pathColors = []string{"#ff4d4f", "#00e5ff", "#ff9f1c", "#f72585", "#adff2f", "#ffffff"}

var pointSymbols = []string{"pin", "diamond", "triangle", "rect", "circle", "roundRect"}

// gridColours adapts colour values to gonum's plotter.GridXYZ.
type gridColours struct {
	x, y []float64
	z    [][]float64
}

func (g gridColours) Dims() (c, r int)   { return len(g.x), len(g.y) }
func (g gridColours) Z(c, r int) float64 { return g.z[r][c] }
func (g gridColours) X(c int) float64    { return g.x[c] }
func (g gridColours) Y(r int) float64    { return g.y[r] }

// LandscapePlot is the static version of Landscape.Chart: a heat map with
// contour lines (when every cell can be coloured), the paths and the
// points.
func LandscapePlot(l Landscape) (*plot.Plot, error) {
	if err := l.validate("LandscapePlot"); err != nil {
		return nil, err
	}
	vals, skipped := l.colourValues()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range vals {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return nil, fmt.Errorf("widgets: LandscapePlot %q: no cell has a drawable value", l.Title)
	}
	if hi == lo {
		hi = lo + 1
	}
	g := gridColours{x: l.Grid.X, y: l.Grid.Y, z: vals}
	pal := rampPalette{stops: viridis, n: 64}
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
		sk, err := addLine(p, pth.Name, pth.X, pth.Y, false, false, lineStyle(pathColors[k%len(pathColors)], vg.Points(1.5), false), true)
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
		what = "log₁₀ value"
	}
	p.Title.Text = tx(skippedNote(fmt.Sprintf("%s\n(colour: %s from %.3g to %.3g)", l.Title, what, lo, hi), skipped, l.LogZ))
	return p, nil
}

// addPoints draws labelled points (non-finite ones are left out).
func addPoints(p *plot.Plot, pts []Point, labelColour color.Color) error {
	var xys plotter.XYs
	var labels []string
	for _, pt := range pts {
		if drawable(pt.X, false) && drawable(pt.Y, false) {
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
