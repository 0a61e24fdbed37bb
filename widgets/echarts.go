package widgets

import (
	"math"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// patch is a go-echarts ConfigurationVisitor that edits the final ECharts
// option, for the parts go-echarts has no typed option for (custom series
// with a renderItem, several grids, visual maps with a zero bound).
type patch struct {
	charts.BaseConfigurationVisitor
	series []any
	set    map[string]any
	axes   func(map[string]any) // optional last edit of the option
}

func newPatch() *patch { return &patch{set: map[string]any{}} }

// Visit appends the raw series and overrides the top-level keys.
func (p *patch) Visit(m map[string]any) {
	if len(p.series) > 0 {
		var all []any
		if ms, ok := m["series"].(charts.MultiSeries); ok {
			for _, s := range ms {
				all = append(all, s)
			}
		}
		m["series"] = append(all, p.series...)
	}
	for k, v := range p.set {
		m[k] = v
	}
	if p.axes != nil {
		p.axes(m)
	}
}

// setAxisRange fixes the range of the first x or y axis of an option.
func setAxisRange(m map[string]any, key string, lo, hi float64) {
	switch a := m[key].(type) {
	case []opts.XAxis:
		if len(a) > 0 {
			a[0].Min, a[0].Max = lo, hi
		}
	case []opts.YAxis:
		if len(a) > 0 {
			a[0].Min, a[0].Max = lo, hi
		}
	}
}

// roundLabels formats the axis labels of a numeric axis fixed to [lo, hi]
// with at most 4 significant digits, and hides an end label that would
// crowd one of ECharts' own ticks (axis ends set to cell edges, such as
// -1.515, are not round; valueEdgeLabels).
func roundLabels(m map[string]any, key string, lo, hi float64) {
	showMin, showMax := valueEdgeLabels(lo, hi)
	lab := &opts.AxisLabel{Show: opts.Bool(true), Formatter: opts.FuncOpts(`function (v) { return String(+v.toPrecision(4)); }`),
		ShowMinLabel: opts.Bool(showMin), ShowMaxLabel: opts.Bool(showMax)}
	switch a := m[key].(type) {
	case []opts.XAxis:
		if len(a) > 0 {
			a[0].AxisLabel = lab
		}
	case []opts.YAxis:
		if len(a) > 0 {
			a[0].AxisLabel = lab
		}
	}
}

// echartsNice is ECharts 5's numberUtil.nice(v, true): 1, 2, 3, 5 or 10
// times a power of ten.
func echartsNice(v float64) float64 {
	e := math.Floor(math.Log10(v))
	p := math.Pow(10, e)
	f := v / p
	var nf float64
	switch {
	case f < 1.5:
		nf = 1
	case f < 2.5:
		nf = 2
	case f < 4:
		nf = 3
	case f < 7:
		nf = 5
	default:
		nf = 10
	}
	return roundSig(nf * p)
}

// valueEdgeLabels says whether ECharts should label the ends of a value
// axis fixed to [lo, hi]. ECharts 5 (intervalScaleNiceTicks, splitNumber
// 5) labels the multiples of nice((hi−lo)/5) and adds both ends as ticks
// too; an end that is not itself a multiple and lies closer than 0.4
// interval to one gets a label crowding its neighbour's ("1.5" next to
// "1.545"), so it is hidden.
func valueEdgeLabels(lo, hi float64) (showMin, showMax bool) {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return true, true
	}
	iv := echartsNice((hi - lo) / 5)
	return edgeClear(lo, iv), edgeClear(hi, iv)
}

// edgeClear reports whether x is a multiple of iv or at least 0.4·iv away
// from every multiple.
func edgeClear(x, iv float64) bool {
	d := math.Abs(x - iv*math.Round(x/iv))
	return d <= 1e-9*iv || d >= 0.4*iv
}

// offAxisLine draws the axis line at the edge of the grid instead of
// through zero.
func offAxisLine(m map[string]any, key string) {
	line := &opts.AxisLine{OnZero: opts.Bool(false), Show: opts.Bool(true)}
	switch a := m[key].(type) {
	case []opts.XAxis:
		if len(a) > 0 {
			a[0].AxisLine = line
		}
	case []opts.YAxis:
		if len(a) > 0 {
			a[0].AxisLine = line
		}
	}
}

// jsFunc embeds a JavaScript function in an option. go-echarts strips
// newlines and JSON-escapes the text, so the code must use single quotes
// and no // comments (checked by the tests).
func jsFunc(js string) any { return opts.FuncOpts(js) }

// newRect returns an empty 2-D chart with the common options and a patch
// attached to it. Series are added as raw ECharts maps through the patch.
func newRect(title string, cfg config, skipped int) (*charts.Line, *patch) {
	c := charts.NewLine()
	c.SetGlobalOptions(cfg.globalOpts(title, skipped)...)
	c.SetGlobalOptions(cfg.xyAxes()...)
	p := newPatch()
	c.Accept(p)
	return c, p
}

// xyData pairs x and y into ECharts [x, y] items; undrawable points become
// [x, null] (a gap). It returns the number of such points.
func xyData(x, y []float64, logX, logY bool) ([][]any, int) {
	data := make([][]any, len(x))
	skipped := 0
	for i := range x {
		switch {
		case !drawable(x[i], logX):
			data[i] = []any{nil, nil}
			skipped++
		case !drawable(y[i], logY):
			data[i] = []any{x[i], nil}
			skipped++
		default:
			data[i] = []any{x[i], y[i]}
		}
	}
	return data, skipped
}

// lineSeries is a raw ECharts line series.
func lineSeries(name string, data [][]any, showSymbol bool) map[string]any {
	return map[string]any{"name": name, "type": "line", "data": data, "showSymbol": showSymbol,
		"symbolSize": 5, "emphasis": map[string]any{"focus": "series"}}
}

// vLine returns a markLine item for a vertical line at x with a label.
func vLine(x float64, label string) map[string]any {
	return map[string]any{"xAxis": x, "name": label, "label": map[string]any{"formatter": label, "position": "end"}}
}

// hLine returns a markLine item for a horizontal line at y with a label.
func hLine(y float64, label string) map[string]any {
	return map[string]any{"yAxis": y, "name": label, "label": map[string]any{"formatter": label, "position": "insideEndTop"}}
}

// markLines wraps markLine items with a dashed style and no end symbols.
func markLines(color string, items ...map[string]any) map[string]any {
	data := make([]any, len(items))
	for i, it := range items {
		data[i] = it
	}
	return map[string]any{"symbol": []string{"none", "none"}, "silent": true, "data": data,
		"lineStyle": map[string]any{"type": "dashed", "color": color, "width": 1.5}}
}

// finiteRange is chartkit.FiniteRange.
func finiteRange(log bool, vs ...[]float64) (lo, hi float64, ok bool) {
	return chartkit.FiniteRange(log, vs...)
}

// axisRangeWith returns axis bounds that hold the data range [lo, hi] and
// the value v with a margin, so that a line drawn at v is never on or
// outside the edge: whole decades on a log axis (v stays at least a factor
// 2 inside), multiples of a 1-2-5 step on a linear one (v stays 5 % of the
// span inside). lo ≤ hi must be drawable, and v too.
func axisRangeWith(lo, hi, v float64, log bool) (float64, float64) {
	if log {
		a := math.Floor(math.Log10(math.Min(lo, v/2)))
		b := math.Ceil(math.Log10(math.Max(hi, v*2)))
		return math.Pow10(int(a)), math.Pow10(int(b))
	}
	span := math.Max(hi, v) - math.Min(lo, v)
	if span == 0 {
		span = math.Max(math.Abs(v), 1)
	}
	lo, hi = math.Min(lo, v-span/20), math.Max(hi, v+span/20)
	step := niceStep((hi - lo) / 5)
	return roundSig(math.Floor(lo/step) * step), roundSig(math.Ceil(hi/step) * step)
}

// roundSig rounds x to 12 significant digits (0.30000000000000004 → 0.3),
// so that axis ends print as short numbers.
func roundSig(x float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	if err != nil {
		return x
	}
	return r
}

// logEdgeLabels says whether ECharts should label the ends of a log axis
// fixed to [10^a, 10^b]. ECharts 5 (LogScale.calcNiceTicks, splitNumber 5)
// puts labelled ticks at the multiples of an interval of
// 10^⌊log₁₀(b−a)⌋ decades (ten times that when it would give more than
// about ten ticks) and adds both ends as ticks too; an end closer than 0.4
// interval to such a multiple gets a label that overlaps its neighbour's
// ("1000" over "1" on an axis from 1e-300 to 1000), so it is hidden.
func logEdgeLabels(a, b int) (showMin, showMax bool) {
	span := float64(b - a)
	if span <= 0 {
		return true, true
	}
	iv := math.Pow10(int(math.Floor(math.Log10(span))))
	if 5/span*iv <= 0.5 {
		iv *= 10
	}
	iv = math.Max(iv, 1)
	return edgeClear(float64(a), iv), edgeClear(float64(b), iv)
}

// niceStep returns the 1-2-5 multiple of a power of ten nearest above x > 0.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// checkLen is chartkit.CheckLen.
func checkLen(chart, what string, got, n int) error {
	return chartkit.CheckLen(chart, what, got, n)
}

// The colour cycles shared with the static figures (widgets/plots).
var (
	palette = chartkit.Palette
	viridis = chartkit.Viridis
)
