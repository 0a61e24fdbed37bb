package widgets

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// Radial is an instance placed at distance R from the centre of the EFS
// zones chart (R in the same units as the radii r₁, r₂).
type Radial struct {
	Name string
	R    float64
}

// EFSZones is the paper's figure "r1_r2": concentric circles of radii r₁
// (definition r_1) and r₂ (definition r_2) that split the space around M*
// into three zones of single-step SOD escape under a Gaussian ensemble:
// inside r₁ escape is impossible, between r₁ and r₂ it happens with some
// probability P(EFS > 1), outside r₂ the paper claims it is guaranteed.
// Instances are drawn at their distance R (for example the strict-saddle
// quantity ‖X̂X̂ᵀ − M*‖²_F, REPRODUCTION.md F7), spread over angles.
type EFSZones struct {
	Title      string
	R1, R2     float64
	RadiusName string // what R measures; default "‖X̂X̂ᵀ − M*‖²_F"
	Instances  []Radial
}

// Frame checks z for the function fn (named in the errors) and returns what both renderings
// need: the name of R, the half-width ext of the square view (1.35 r₂, or
// more to show every drawable instance) and how many instances cannot be
// drawn (non-finite or negative R).
func (z EFSZones) Frame(fn string) (rname string, ext float64, skipped int, err error) {
	if !(z.R1 > 0 && z.R2 > z.R1 && !math.IsInf(z.R2, 0)) {
		return "", 0, 0, fmt.Errorf("widgets: %s: need 0 < r₁ < r₂ < ∞, got r₁ = %g, r₂ = %g", fn, z.R1, z.R2)
	}
	rname = z.RadiusName
	if rname == "" {
		rname = "‖X̂X̂ᵀ − M*‖²_F"
	}
	ext = 1.35 * z.R2
	for _, in := range z.Instances {
		if err := checkName(fn+" instance", in.Name); err != nil {
			return "", 0, 0, err
		}
		if !drawable(in.R, false) || in.R < 0 {
			skipped++
			continue
		}
		ext = math.Max(ext, 1.15*in.R)
	}
	return rname, ext, skipped, nil
}

// zoneRenderItem draws a disc of radius api.value(2) around the origin.
const zoneRenderItem = `function (params, api) {
  var c = api.coord([0, 0]);
  var r = api.size([api.value(2), 0])[0];
  return {type: 'circle', shape: {cx: c[0], cy: c[1], r: r},
    style: {fill: api.visual('color'), stroke: '#333', lineWidth: 1}};
}`

// Chart draws the zones as nested discs (green outside r₂, amber
// between r₁ and r₂, red inside r₁) on equal axes, and each instance as a
// labelled point at its distance. It needs 0 < r₁ < r₂.
func (z EFSZones) Chart(options ...Option) (*charts.Line, error) {
	rname, ext, skipped, err := z.Frame("EFSZones.Chart")
	if err != nil {
		return nil, err
	}
	cfg := newConfig(append([]Option{Size("760px", "520px")}, options...))
	zones := []struct {
		name, color string
		r           float64
	}{
		{chartkit.ZoneFar(z.R2), "#b2f2bb", ext * 1.5},
		{chartkit.ZoneBand, "#ffe066", z.R2},
		{chartkit.ZoneNear(z.R1), "#ffa8a8", z.R1},
	}
	var series []any
	for _, zn := range zones {
		series = append(series, map[string]any{"name": zn.name, "type": "custom", "renderItem": jsFunc(zoneRenderItem),
			"data": [][]float64{{0, 0, zn.r}}, "color": zn.color, "silent": true, "clip": true, "z": 1,
			"encode": map[string]any{"x": 0, "y": 1}})
	}
	var pts [][]any
	n := 0
	for _, in := range z.Instances {
		if !drawable(in.R, false) || in.R < 0 {
			continue
		}
		th := math.Pi/4 + 2*math.Pi*float64(n)/float64(max(len(z.Instances), 1))
		pts = append(pts, []any{in.R * math.Cos(th), in.R * math.Sin(th), in.Name, fmt.Sprintf("%s: R = %.4g", in.Name, in.R)})
		n++
	}
	series = append(series, map[string]any{"name": "instances", "type": "scatter", "data": pts, "z": 5,
		"symbolSize": 11, "color": "#1c3d5a", "encode": map[string]any{"x": 0, "y": 1, "tooltip": 3},
		"label": map[string]any{"show": true, "formatter": jsFunc(`function (p) { return p.value[2]; }`), "position": "right"}})
	ch, p := newRect(z.Title, cfg, skipped)
	p.series = series
	p.set["tooltip"] = map[string]any{"show": true, "trigger": "item"}
	// A square plot area (circles stay round) as tall as the chart allows,
	// with the legend to its right.
	side := 330
	var h int
	if _, err := fmt.Sscanf(cfg.height, "%dpx", &h); err == nil {
		side = max(h-140, 120)
	}
	p.set["grid"] = []any{map[string]any{"left": 70, "top": 60, "width": side, "height": side}}
	p.set["legend"] = map[string]any{"show": true, "orient": "vertical", "left": 70 + side + 30, "top": 80,
		"data": []string{zones[0].name, zones[1].name, zones[2].name}}
	axis := func(name string) []any {
		return []any{map[string]any{"type": "value", "min": -ext, "max": ext, "name": name, "nameLocation": "middle",
			"nameGap": 28, "axisLabel": map[string]any{"formatter": jsFunc(`function (v) { return Math.abs(v).toPrecision(2); }`)}}}
	}
	p.set["xAxis"], p.set["yAxis"] = axis(chartkit.RadialAxis(rname)), axis("")
	return ch, nil
}

// ProbabilityCurve compares a probability bound with a Monte Carlo
// estimate as a function of one parameter, for the Paley–Zygmund bound
// on P(EFS > 1) of the paper's probabilistic escape analysis. StdErr, if
// not nil, gives the Monte Carlo standard errors (drawn as a ±2 SE band).
// R1 and R2, if finite and positive, are drawn as vertical lines.
//
// Bound and MonteCarlo are probabilities: each value must lie in [0, 1] or
// be NaN (a gap, where the value is undefined); StdErr values must be ≥ 0
// or NaN, and Samples ≥ 0 (0: not shown). Validate, and so
// ProbabilityCurve.Chart and plots.ProbabilityPlot, refuse anything else
// with an error wrapping ErrBadInput that names the series, the index and
// the value.
type ProbabilityCurve struct {
	Title      string
	XName      string
	X          []float64
	Bound      []float64
	BoundName  string // default "Paley–Zygmund bound"
	MonteCarlo []float64
	StdErr     []float64 // optional
	Samples    int       // Monte Carlo samples per point, shown in the legend
	R1, R2     float64
}

// check validates the probabilities, standard errors and sample count.
func (pc *ProbabilityCurve) check(fn string) error {
	for _, v := range []struct {
		n string
		y []float64
	}{{"Bound", pc.Bound}, {"MonteCarlo", pc.MonteCarlo}} {
		for i, p := range v.y {
			if !math.IsNaN(p) && !(p >= 0 && p <= 1) {
				return fmt.Errorf("%w: %s %q: %s[%d] = %v is not a probability, want [0, 1] (or NaN for a gap)", ErrBadInput, fn, pc.Title, v.n, i, p)
			}
		}
	}
	for i, s := range pc.StdErr {
		if !math.IsNaN(s) && !(s >= 0 && !math.IsInf(s, 0)) {
			return fmt.Errorf("%w: %s %q: StdErr[%d] = %v, want finite and ≥ 0 (or NaN)", ErrBadInput, fn, pc.Title, i, s)
		}
	}
	if pc.Samples < 0 {
		return fmt.Errorf("%w: %s %q: Samples = %d, want ≥ 0 (0: not shown)", ErrBadInput, fn, pc.Title, pc.Samples)
	}
	return nil
}

// Validate checks pc for the function chart (named in the errors): x
// values, Bound, MonteCarlo (and StdErr if given) of len(X) values,
// probabilities in [0, 1], standard errors ≥ 0, Samples ≥ 0.
func (pc ProbabilityCurve) Validate(chart string) error {
	if len(pc.X) == 0 {
		return fmt.Errorf("widgets: %s %q: no x values", chart, pc.Title)
	}
	for _, v := range []struct {
		n string
		y []float64
	}{{"Bound", pc.Bound}, {"MonteCarlo", pc.MonteCarlo}} {
		if err := checkLen(chart, v.n, len(v.y), len(pc.X)); err != nil {
			return err
		}
	}
	if pc.StdErr != nil {
		if err := checkLen(chart, "StdErr", len(pc.StdErr), len(pc.X)); err != nil {
			return err
		}
	}
	if err := pc.check(chart); err != nil {
		return err
	}
	return nil
}

// SeriesNames returns the legend names of the bound (BoundName, by default
// "Paley–Zygmund bound") and of the Monte Carlo estimate (with the sample
// count when Samples > 0).
func (pc ProbabilityCurve) SeriesNames() (bound, monteCarlo string) {
	bound = pc.BoundName
	if bound == "" {
		bound = "Paley–Zygmund bound"
	}
	monteCarlo = "Monte Carlo"
	if pc.Samples > 0 {
		monteCarlo = fmt.Sprintf("Monte Carlo (%d samples)", pc.Samples)
	}
	return bound, monteCarlo
}

// Chart draws the bound (dashed), the Monte Carlo estimate
// (solid, with markers) and its ±2 SE band on a [0, 1] probability axis.
func (pc ProbabilityCurve) Chart(options ...Option) (*charts.Line, error) {
	if err := pc.Validate("ProbabilityCurve.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(options)
	cfg.xName, cfg.yName = pc.XName, chartkit.ProbabilityAxis
	bname, mname := pc.SeriesNames()
	bd, s1 := xyData(pc.X, pc.Bound, cfg.logX, false)
	md, s2 := xyData(pc.X, pc.MonteCarlo, cfg.logX, false)
	b := lineSeries(bname, bd, false)
	b["lineStyle"] = map[string]any{"type": "dashed", "width": 2}
	b["color"] = palette[3]
	m := lineSeries(mname, md, true)
	m["color"] = palette[0]
	var marks []map[string]any
	for _, r := range []struct {
		v float64
		n string
	}{{pc.R1, chartkit.RadiusNames[0]}, {pc.R2, chartkit.RadiusNames[1]}} {
		if drawable(r.v, cfg.logX) && r.v > 0 {
			marks = append(marks, vLine(r.v, r.n))
		}
	}
	if len(marks) > 0 {
		m["markLine"] = markLines("#495057", marks...)
	}
	series := []any{b, m}
	if pc.StdErr != nil {
		lo, hi := make([]float64, len(pc.X)), make([]float64, len(pc.X))
		for i := range pc.X {
			lo[i] = math.Max(0, pc.MonteCarlo[i]-2*pc.StdErr[i])
			hi[i] = math.Min(1, pc.MonteCarlo[i]+2*pc.StdErr[i])
		}
		for _, y := range [][]float64{lo, hi} {
			d, _ := xyData(pc.X, y, cfg.logX, false)
			s := lineSeries(mname, d, false)
			s["color"] = palette[0]
			s["lineStyle"] = map[string]any{"type": "dotted", "width": 1}
			s["tooltip"] = map[string]any{"show": false}
			series = append(series, s)
		}
	}
	ch, p := newRect(pc.Title, cfg, s1+s2)
	p.series = series
	p.axes = func(m map[string]any) { setAxisRange(m, "yAxis", 0, 1) }
	return ch, nil
}
