package widgets

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// Option adjusts how an interactive chart is presented: its size and a
// subtitle. What a chart shows — titles, axis names, log scales, the data —
// is a field of its input type and nowhere else, because the static figures
// of package widgets/plots draw the same input and take no options: e.g. a
// log y axis is Curves{LogY: true}, for Curves.Chart and plots.CurvesPlot
// alike.
type Option func(*config)

// config collects the options shared by the chart builders, and the axis
// settings each builder copies from its input.
type config struct {
	xName, yName string
	logX, logY   bool
	subtitle     string
	width        string
	height       string
}

func newConfig(options []Option) config {
	c := config{width: "100%", height: "420px"}
	for _, o := range options {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Subtitle sets a second title line.
func Subtitle(s string) Option { return func(c *config) { c.subtitle = s } }

// Size sets the CSS width and height of the chart, e.g. Size("100%", "420px")
// (the default) or Size("800px", "600px").
func Size(width, height string) Option {
	return func(c *config) { c.width, c.height = width, height }
}

// globalOpts returns the go-echarts options common to every chart: title,
// size, tooltip, legend, toolbox (save as PNG, restore).
func (c config) globalOpts(title string, skipped int) []charts.GlobalOpts {
	sub := c.subtitle
	if skipped > 0 {
		note := fmt.Sprintf("%d non-finite%s value(s) not drawn", skipped, map[bool]string{true: " or non-positive (log axis)", false: ""}[c.logX || c.logY])
		if sub != "" {
			sub += " · " + note
		} else {
			sub = note
		}
	}
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{Width: c.width, Height: c.height}),
		charts.WithTitleOpts(opts.Title{Title: title, Subtitle: sub, Left: "center"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom", Type: "scroll"}),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Right: "20px", Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Title: "save PNG", Type: "png"},
			Restore:     &opts.ToolBoxFeatureRestore{Show: opts.Bool(true), Title: "reset"},
		}}),
		charts.WithGridOpts(opts.Grid{Left: "70px", Right: "40px", Top: "70px", Bottom: "70px", ContainLabel: opts.Bool(true)}),
	}
}

// axisType returns "log" or "value".
func axisType(log bool) string {
	if log {
		return "log"
	}
	return "value"
}

// xyAxes returns the x and y axis options for numeric axes.
func (c config) xyAxes() []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithXAxisOpts(opts.XAxis{Type: axisType(c.logX), Name: c.xName, NameLocation: "middle", NameGap: 30,
			Scale: opts.Bool(true), SplitLine: &opts.SplitLine{Show: opts.Bool(true)}, AxisLabel: axisLabel(c.logX)}),
		charts.WithYAxisOpts(opts.YAxis{Type: axisType(c.logY), Name: c.yName, NameLocation: "middle", NameGap: 55,
			Scale: opts.Bool(true), SplitLine: &opts.SplitLine{Show: opts.Bool(true)}, AxisLabel: axisLabel(c.logY)}),
	}
}

// logLabelJS writes log-axis labels compactly: 0.001 … 10000 as they are,
// other powers of ten as 1e-9, 1e7.
const logLabelJS = `function (v) { return (v >= 1e-3 && v < 1e5) ? String(+v.toPrecision(6)) : v.toExponential(0).replace('e+', 'e'); }`

// logLabel is logLabelJS in Go, for the power of ten 10^e.
func logLabel(e int) string { return chartkit.LogLabel(e) }

// logNameGap returns the nameGap (in px) that keeps a vertical log axis's
// name clear of its tick labels at the powers of ten in [lo, hi]: the
// label margin (8 px) plus 7 px per character of the longest label (12 px
// sans-serif digits are about 6.7 px wide) plus 12 px for half the name's
// line, and at least 45 px.
func logNameGap(lo, hi float64) int {
	longest := 0
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		longest = max(longest, len(logLabel(e)))
	}
	return max(45, 8+7*longest+12)
}

// axisLabel returns the label options of a numeric axis.
func axisLabel(log bool) *opts.AxisLabel {
	if !log {
		return nil
	}
	return &opts.AxisLabel{Show: opts.Bool(true), Formatter: opts.FuncOpts(logLabelJS)}
}

// drawable is chartkit.Drawable: finite, and positive on a log axis.
func drawable(v float64, log bool) bool { return chartkit.Drawable(v, log) }

// checkName rejects empty names, which would make legends unusable.
func checkName(what, name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("widgets: %s has an empty name", what)
	}
	return nil
}
