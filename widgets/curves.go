package widgets

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
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
	LogY        bool   // log₁₀ y axis, as the paper uses for these curves
}

func (c Curves) validate(chart string) error {
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

func (c Curves) escapeLabel() string {
	if c.EscapeLabel == "" {
		return "SOD escape"
	}
	return c.EscapeLabel
}

// Chart draws c as a line chart, with a log y axis when c.LogY (or
// the LogY option) is set and the escapes marked.
func (c Curves) Chart(options ...Option) (*charts.Line, error) {
	if err := c.validate("Curves.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(options)
	cfg.logY = cfg.logY || c.LogY
	if cfg.xName == "" && cfg.yName == "" {
		cfg.xName, cfg.yName = c.XName, c.YName
	}
	skipped := 0
	var series []any
	for k, s := range c.Series {
		data, sk := xyData(c.X, s.Y, cfg.logX, cfg.logY)
		skipped += sk
		ls := lineSeries(s.Name, data, len(c.X) <= 60)
		ls["color"] = palette[k%len(palette)]
		if k == 0 && len(c.EscapeAt) > 0 {
			items := make([]map[string]any, len(c.EscapeAt))
			for j, i := range c.EscapeAt {
				items[j] = vLine(c.X[i], c.escapeLabel())
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
	return ch, nil
}

// CurvesPlot is the static (gonum/plot) version of Curves.Chart, for SVG,
// PNG or PDF export with Save.
func CurvesPlot(c Curves) (*plot.Plot, error) {
	if err := c.validate("CurvesPlot"); err != nil {
		return nil, err
	}
	p := newPlot(c.Title, c.XName, c.YName, false, c.LogY)
	skipped := 0
	ys := make([][]float64, len(c.Series))
	for k, s := range c.Series {
		ys[k] = s.Y
		sk, err := addLine(p, s.Name, c.X, s.Y, false, c.LogY, lineStyle(palette[k%len(palette)], vg.Points(1.5), false), true)
		if err != nil {
			return nil, err
		}
		skipped += sk
	}
	lo, hi, ok := finiteRange(c.LogY, ys...)
	if !ok {
		return nil, fmt.Errorf("widgets: CurvesPlot %q: no drawable value", c.Title)
	}
	for _, i := range c.EscapeAt {
		// Labelled at the bottom end: the legend sits at the top right.
		if err := addVLine(p, c.X[i], hi, lo, c.escapeLabel(), "#2f9e44"); err != nil {
			return nil, err
		}
	}
	p.Title.Text = tx(skippedNote(c.Title, skipped, c.LogY))
	return p, nil
}
