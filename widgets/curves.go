package widgets

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"

	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// Series is one named curve: Y[i] is drawn at the i-th x value of the
// chart that holds it.
type Series struct {
	Name string
	Y    []float64
}

// Curves are quantities tracked along an optimisation run: the loss h(X),
// the gradient norm ‖∇h(X)‖_F and the distance ‖XXᵀ − M*‖_F against the
// iteration in panels (a)–(c) of the paper's figures "exp2" (PMC case) and
// "exp3" (real-world case), the distance to M* of figure "basic_example"
// (left), and the QNN training losses of figure "quadratic_nn".
type Curves struct {
	Title        string
	XName, YName string    // axis names, e.g. "iteration", "h(X)"
	X            []float64 // shared x values (iterations)
	Series       []Series  // each with len(X) values
	// EscapeAt lists indices into X where an SOD escape was applied. Each is
	// drawn as a labelled vertical line, with a marker on every series.
	EscapeAt    []int
	EscapeLabel string // label of the escape lines (default "SOD escape")
	LogX        bool   // log₁₀ x axis
	LogY        bool   // log₁₀ y axis, as the paper uses for these curves
	// Step draws each series as a step function (Y[i] holds from X[i] to
	// X[i+1]), as ECDFs and profiles are.
	Step bool
	// Probability fixes the y axis to [0, 1] (shares, rates).
	Probability bool
	// Distinct gives each series its own colour, dash and marker
	// (chartkit.SeriesStyle: 16 colours) and a legend that lists every
	// series without scrolling, for charts that compare many methods.
	Distinct bool
}

// Validate checks c for the function chart (named in the errors): x
// values, named series of len(X) values, escape indices inside X.
func (c Curves) Validate(chart string) error {
	if len(c.X) == 0 {
		return fmt.Errorf("widgets: %s %q: no x values", chart, c.Title)
	}
	if len(c.Series) == 0 {
		return fmt.Errorf("widgets: %s %q: no series", chart, c.Title)
	}
	for _, s := range c.Series {
		if err := checkName(chart+" series", s.Name); err != nil {
			return err
		}
		if err := checkLen(chart, fmt.Sprintf("series %q", s.Name), len(s.Y), len(c.X)); err != nil {
			return err
		}
	}
	for _, i := range c.EscapeAt {
		if i < 0 || i >= len(c.X) {
			return fmt.Errorf("widgets: %s %q: escape index %d outside [0, %d)", chart, c.Title, i, len(c.X))
		}
	}
	return nil
}

// EscapeLegend is the label of the escape lines: EscapeLabel, or "SOD
// escape" when it is empty.
func (c Curves) EscapeLegend() string {
	if c.EscapeLabel == "" {
		return "SOD escape"
	}
	return c.EscapeLabel
}

// Chart draws c as a line chart, one line per series in the order of
// c.Series, on the log axes c.LogX and c.LogY, with the escapes marked.
func (c Curves) Chart(options ...Option) (*charts.Line, error) {
	if err := c.Validate("Curves.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(options)
	cfg.logX, cfg.logY, cfg.xName, cfg.yName = c.LogX, c.LogY, c.XName, c.YName
	skipped := 0
	var series []any
	for k, s := range c.Series {
		data, sk := xyData(c.X, s.Y, cfg.logX, cfg.logY)
		skipped += sk
		ls := lineSeries(s.Name, data, len(c.X) <= 60)
		ls["color"] = palette[k%len(palette)]
		if c.Distinct {
			st := chartkit.SeriesStyle(k)
			ls["color"], ls["symbol"], ls["showSymbol"] = st.Color, st.Marker, true
			ls["lineStyle"] = map[string]any{"type": st.Dash, "width": 2}
		}
		if c.Step {
			ls["step"] = "end"
		}
		if k == 0 && len(c.EscapeAt) > 0 {
			items := make([]map[string]any, len(c.EscapeAt))
			for j, i := range c.EscapeAt {
				items[j] = vLine(c.X[i], c.EscapeLegend())
			}
			ls["markLine"] = markLines("#2f9e44", items...)
		}
		series = append(series, ls)
		if len(c.EscapeAt) > 0 {
			var pts [][]any
			for _, i := range c.EscapeAt {
				if drawable(c.X[i], cfg.logX) && drawable(s.Y[i], cfg.logY) {
					pts = append(pts, []any{c.X[i], s.Y[i]})
				}
			}
			series = append(series, map[string]any{"name": s.Name, "type": "scatter", "data": pts,
				"symbol": "diamond", "symbolSize": 12, "color": palette[k%len(palette)], "z": 5,
				"tooltip": map[string]any{"show": true}})
		}
	}
	ch, p := newRect(c.Title, cfg, skipped)
	p.series = series
	if c.Distinct {
		// Every name visible: a plain legend (no scrolling) under the
		// plot, about four names a row, the plot's bottom margin made
		// room for it.
		rows := (len(c.Series) + 3) / 4
		p.set["legend"] = map[string]any{"show": true, "type": "plain", "bottom": 0, "left": "center", "itemGap": 12}
		p.set["grid"] = map[string]any{"left": "70px", "right": "40px", "top": "70px", "bottom": fmt.Sprintf("%dpx", 50+22*rows), "containLabel": true}
	}
	if c.Probability {
		p.axes = func(m map[string]any) { setAxisRange(m, "yAxis", 0, 1) }
	}
	return ch, nil
}
