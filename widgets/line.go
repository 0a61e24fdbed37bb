package widgets

import (
	"fmt"
	"sort"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// LineChart returns a line chart of several series y = series[name] against
// the shared x values, one line per map entry, in the lexical order of the
// names. Every series must have len(x) values.
//
// Values that cannot be drawn (NaN, ±Inf, and values ≤ 0 on a log axis)
// become gaps in the line, and their number is stated in the subtitle, so
// that a diverged run is visible rather than silently dropped.
//
// Display the result with Display.
func LineChart(title string, x []float64, series map[string][]float64, options ...Option) (*charts.Line, error) {
	if len(x) == 0 {
		return nil, fmt.Errorf("widgets: LineChart %q: no x values", title)
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("widgets: LineChart %q: no series", title)
	}
	names := make([]string, 0, len(series))
	for name, y := range series {
		if err := checkName("LineChart series", name); err != nil {
			return nil, err
		}
		if len(y) != len(x) {
			return nil, fmt.Errorf("widgets: LineChart %q: series %q has %d values, x has %d", title, name, len(y), len(x))
		}
		names = append(names, name)
	}
	sort.Strings(names)
	cfg := newConfig(options)

	line := charts.NewLine()
	skipped := 0
	for _, name := range names {
		y := series[name]
		data := make([]opts.LineData, len(x))
		for i := range x {
			v, ok := cfg.point(x[i], y[i])
			if !ok {
				skipped++
			}
			data[i] = opts.LineData{Value: v}
		}
		line.AddSeries(name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(x) <= 60)}))
	}
	line.SetGlobalOptions(cfg.globalOpts(title, skipped)...)
	line.SetGlobalOptions(cfg.xyAxes()...)
	return line, nil
}
