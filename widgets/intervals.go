package widgets

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// Interval is an open interval (Lo, Hi) of TPGD steps t. Hi may be +Inf. An
// interval with Lo ≥ Hi or a NaN end is empty (∅).
type Interval struct {
	Lo, Hi float64
}

// Empty reports whether the interval contains no t.
func (iv Interval) Empty() bool {
	return math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) || iv.Lo >= iv.Hi
}

// String formats the interval like the paper's table, e.g. "(26948.72, 33974.73)".
func (iv Interval) String() string {
	if iv.Empty() {
		return "∅"
	}
	hi := fmt.Sprintf("%.2f", iv.Hi)
	if math.IsInf(iv.Hi, 1) {
		hi = "∞"
	}
	return fmt.Sprintf("(%.2f, %s)", iv.Lo, hi)
}

// WindowRow holds the escape windows U_β (β-type point defined) and U_γ
// (γ-type point defined) for one lifting order l (REPRODUCTION.md C6, eqs. u_beta and
// u_gamma of the paper).
type WindowRow struct {
	Label string // e.g. "l = 3"
	Beta  Interval
	Gamma Interval
}

// EscapeWindows draws U_β and U_γ on a t axis for several l: the paper's
// figure "ablation" (requirements on l and t) and the "interval"
// column of its ablation table. Marks are t values to highlight, e.g. the
// table's t ∈ {1000, 5000, 33500, 1e5, 5e5, 2e6}.
type EscapeWindows struct {
	Title string
	Rows  []WindowRow
	Marks []float64
}

// windowRenderItem draws [lo, hi, row, kind, open] as a bar on row `row`,
// above the row's centre for kind 0 (U_β) and below for kind 1 (U_γ), with
// an arrow head when the interval is unbounded (open = 1).
const windowRenderItem = `function (params, api) {
  var a = api.coord([api.value(0), api.value(2)]);
  var b = api.coord([api.value(1), api.value(2)]);
  var band = api.size([0, 1])[1];
  var h = band * 0.28;
  var y = api.value(3) === 0 ? a[1] - h - 2 : a[1] + 2;
  var children = [{type: 'rect', shape: {x: a[0], y: y, width: Math.max(b[0] - a[0], 2), height: h},
    style: {fill: api.visual('color'), opacity: 0.85}}];
  if (api.value(4) === 1) {
    children.push({type: 'polygon', shape: {points: [[b[0], y - 3], [b[0] + 10, y + h / 2], [b[0], y + h + 3]]},
      style: {fill: api.visual('color')}});
  }
  return {type: 'group', children: children};
}`

// Chart draws each row's U_β (above) and U_γ (below) as bars
// on a log t axis. An unbounded interval ends in an arrow at the right edge;
// an interval starting at 0 starts at the left edge; empty intervals are
// stated in the row's label ("U_β = ∅").
func (w EscapeWindows) Chart(options ...Option) (*charts.Line, error) {
	axMin, axMax, err := w.TAxis("EscapeWindows.Chart")
	if err != nil {
		return nil, err
	}
	cfg := newConfig(append([]Option{Size("100%", fmt.Sprintf("%dpx", 160+70*len(w.Rows)))}, options...))
	labels := make([]string, len(w.Rows))
	data := [2][][]any{}
	for i, r := range w.Rows {
		labels[i] = r.Label
		for k, iv := range []Interval{r.Beta, r.Gamma} {
			if iv.Empty() {
				labels[i] += chartkit.EmptyWindow[k]
				continue
			}
			a, b, open := math.Max(iv.Lo, axMin), iv.Hi, 0
			if math.IsInf(b, 1) || b > axMax {
				b, open = axMax, 1
			}
			data[k] = append(data[k], []any{a, b, i, k, open, iv.String()})
		}
	}
	var series []any
	for k, name := range chartkit.WindowNames {
		s := map[string]any{"name": name, "type": "custom", "renderItem": jsFunc(windowRenderItem),
			"data": data[k], "color": palette[[]int{0, 3}[k]],
			"encode":  map[string]any{"x": []int{0, 1}, "y": 2, "tooltip": 5},
			"tooltip": map[string]any{"trigger": "item"}}
		if k == 0 && len(w.Marks) > 0 {
			items := make([]map[string]any, 0, len(w.Marks))
			for _, t := range w.Marks {
				if drawable(t, true) {
					it := vLine(t, "t = "+compactNum(t))
					it["label"].(map[string]any)["position"] = "start"
					items = append(items, it)
				}
			}
			s["markLine"] = markLines("#868e96", items...)
		}
		series = append(series, s)
	}
	cfg.logX = true
	ch, p := newRect(w.Title, cfg, 0)
	p.series = series
	p.set["tooltip"] = map[string]any{"show": true, "trigger": "item"}
	p.set["xAxis"] = []any{map[string]any{"type": "log", "min": axMin, "max": axMax, "name": chartkit.TAxis,
		"nameLocation": "middle", "nameGap": 30, "splitLine": map[string]any{"show": true},
		"axisLabel": map[string]any{"formatter": jsFunc(logLabelJS)}}}
	p.set["yAxis"] = []any{map[string]any{"type": "category", "data": labels, "inverse": true,
		"axisTick": map[string]any{"show": false}, "splitLine": map[string]any{"show": true}}}
	return ch, nil
}

// TAxis checks the rows of w (at least one) for the function fn and returns the log t
// axis range: whole decades from below the smallest finite positive end or
// mark to a decade past the largest (so that "→ ∞" has room), at least two
// decades wide.
func (w EscapeWindows) TAxis(fn string) (axMin, axMax float64, err error) {
	if len(w.Rows) == 0 {
		return 0, 0, fmt.Errorf("widgets: %s %q: no rows", fn, w.Title)
	}
	var ends []float64
	for _, r := range w.Rows {
		if err := checkName(fn+" row", r.Label); err != nil {
			return 0, 0, err
		}
		for _, iv := range []Interval{r.Beta, r.Gamma} {
			if iv.Lo < 0 && !iv.Empty() {
				return 0, 0, fmt.Errorf("widgets: %s: row %q has an interval starting at t = %g < 0 (clip it at 0)", fn, r.Label, iv.Lo)
			}
			if !iv.Empty() {
				ends = append(ends, iv.Lo, iv.Hi)
			}
		}
	}
	ends = append(ends, w.Marks...)
	lo, hi, ok := finiteRange(true, ends)
	if !ok {
		lo, hi = 1, 10
	}
	axMin = math.Pow(10, math.Floor(math.Log10(lo)))
	axMax = math.Pow(10, math.Ceil(math.Log10(hi))+1)
	if axMax <= axMin*10 {
		axMax = axMin * 100
	}
	return axMin, axMax, nil
}

// compactNum formats t with a short exponent for large or small values
// (3 significant digits): 1000, 3.35e4, 2e6.
func compactNum(t float64) string {
	if t != 0 && (math.Abs(t) >= 1e4 || math.Abs(t) < 1e-3) {
		m := strconv.FormatFloat(t, 'e', 2, 64)
		mant, exp, _ := strings.Cut(m, "e")
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		exp = strings.TrimLeft(strings.TrimPrefix(exp, "+"), "0")
		if strings.HasPrefix(exp, "-") {
			exp = "-" + strings.TrimLeft(exp[1:], "0")
		}
		return mant + "e" + exp
	}
	return strconv.FormatFloat(t, 'f', -1, 64)
}
