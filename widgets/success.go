package widgets

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// SuccessRates are the success counts of several methods over groups of
// trials: panels (a) and (b) of the paper's figure "numerical_study" (PMC,
// n ∈ {40, …, 80}, ε ∈ {0.15, 0.10}, 50 trials each, success iff
// ‖XXᵀ − M*‖_F < 0.02, GD vs GD+SOD). Successes[m][g] is the number of
// successful trials of method m in group g, out of Trials.
type SuccessRates struct {
	Title     string
	GroupName string   // e.g. "n"
	Groups    []string // e.g. "40", "50", …
	Methods   []string // e.g. "GD", "GD + SOD"
	Successes [][]int
	Trials    int
}

// Validate checks s for the function caller (named in the errors): a
// positive number of trials, groups and methods, one row of successes in
// [0, Trials] per method and group.
func (s SuccessRates) Validate(caller string) error {
	if s.Trials <= 0 {
		return fmt.Errorf("widgets: %s %q: Trials = %d, want > 0", caller, s.Title, s.Trials)
	}
	if len(s.Groups) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("widgets: %s %q: no groups or no methods", caller, s.Title)
	}
	if len(s.Successes) != len(s.Methods) {
		return fmt.Errorf("widgets: %s %q: %d rows of successes for %d methods", caller, s.Title, len(s.Successes), len(s.Methods))
	}
	for m, row := range s.Successes {
		if err := checkName(caller+" method", s.Methods[m]); err != nil {
			return err
		}
		if len(row) != len(s.Groups) {
			return fmt.Errorf("widgets: %s: method %q has %d counts for %d groups", caller, s.Methods[m], len(row), len(s.Groups))
		}
		for g, k := range row {
			if k < 0 || k > s.Trials {
				return fmt.Errorf("widgets: %s: method %q, group %q: %d successes out of %d trials", caller, s.Methods[m], s.Groups[g], k, s.Trials)
			}
		}
	}
	return nil
}

// Chart draws grouped bars of the success rate in percent,
// each labelled with its count ("37/50").
func (s SuccessRates) Chart(options ...Option) (*charts.Bar, error) {
	if err := s.Validate("SuccessRates.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(options)
	bar := charts.NewBar()
	p := newPatch()
	bar.Accept(p)
	bar.SetGlobalOptions(cfg.globalOpts(s.Title, 0)...)
	var series []any
	for m, name := range s.Methods {
		data := make([]any, len(s.Groups))
		for g, k := range s.Successes[m] {
			data[g] = map[string]any{"value": 100 * float64(k) / float64(s.Trials),
				"label": map[string]any{"show": true, "position": "top", "formatter": chartkit.Count(k, s.Trials)}}
		}
		series = append(series, map[string]any{"name": name, "type": "bar", "data": data, "color": palette[m%len(palette)],
			"barGap": "10%"})
	}
	p.series = series
	p.set["tooltip"] = map[string]any{"show": true, "trigger": "axis", "valueFormatter": jsFunc(`function (v) { return v.toFixed(0) + ' %'; }`)}
	p.set["xAxis"] = []any{map[string]any{"type": "category", "data": s.Groups, "name": s.GroupName, "nameLocation": "middle", "nameGap": 30}}
	p.set["yAxis"] = []any{map[string]any{"type": "value", "min": 0, "max": 100, "name": chartkit.SuccessAxis(s.Trials),
		"nameLocation": "middle", "nameGap": 45}}
	return bar, nil
}

// RunGroup is the set of runs of one method (e.g. the 50 trials of GD).
type RunGroup struct {
	Name string
	Runs [][]float64 // each of len(X) values
}

// Bundle is panels (c) and (d) of the paper's figure "numerical_study": the
// trajectories of ‖XXᵀ − ZZᵀ‖_F of every trial, one thin line per run and
// one colour per method, with the success threshold (0.02 in the paper) as
// a horizontal line.
type Bundle struct {
	Title        string
	XName, YName string
	X            []float64
	Groups       []RunGroup
	Threshold    float64 // success threshold; 0 or NaN for none
	LogY         bool
}

// Validate checks b for the function caller (named in the errors): x
// values and groups, each named, with at least one run of len(X) values.
func (b Bundle) Validate(caller string) error {
	if len(b.X) == 0 || len(b.Groups) == 0 {
		return fmt.Errorf("widgets: %s %q: no x values or no groups", caller, b.Title)
	}
	for _, g := range b.Groups {
		if err := checkName(caller+" group", g.Name); err != nil {
			return err
		}
		if len(g.Runs) == 0 {
			return fmt.Errorf("widgets: %s: group %q has no runs", caller, g.Name)
		}
		for r, y := range g.Runs {
			if err := checkLen(caller, fmt.Sprintf("group %q run %d", g.Name, r), len(y), len(b.X)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Chart draws the runs as translucent lines without symbols; the
// legend toggles a whole method at once.
func (b Bundle) Chart(options ...Option) (*charts.Line, error) {
	if err := b.Validate("Bundle.Chart"); err != nil {
		return nil, err
	}
	cfg := newConfig(options)
	cfg.logY, cfg.xName, cfg.yName = b.LogY, b.XName, b.YName
	var series []any
	skipped := 0
	for k, g := range b.Groups {
		for r, y := range g.Runs {
			data, sk := xyData(b.X, y, cfg.logX, cfg.logY)
			skipped += sk
			s := lineSeries(bundleName(g), data, false)
			s["color"] = palette[k%len(palette)]
			s["lineStyle"] = map[string]any{"width": 1, "opacity": 0.45}
			s["emphasis"] = map[string]any{"disabled": true}
			s["animation"] = false
			if k == 0 && r == 0 && drawable(b.Threshold, cfg.logY) && b.Threshold != 0 {
				s["markLine"] = markLines("#c92a2a", hLine(b.Threshold, chartkit.Threshold(b.Threshold)))
			}
			series = append(series, s)
		}
	}
	ch, p := newRect(b.Title, cfg, skipped)
	p.series = series
	if drawable(b.Threshold, cfg.logY) && b.Threshold != 0 {
		// A markLine does not widen the axis: fix the y range so that it
		// holds the runs and the threshold (e.g. runs that all stay near 1
		// with the threshold 0.02 below them).
		var all [][]float64
		for _, g := range b.Groups {
			all = append(all, g.Runs...)
		}
		if lo, hi, ok := finiteRange(cfg.logY, all...); ok {
			lo, hi = axisRangeWith(lo, hi, b.Threshold, cfg.logY)
			p.axes = func(m map[string]any) {
				setAxisRange(m, "yAxis", lo, hi)
				if cfg.logY {
					// Hide an end label that would crowd one of ECharts' own ticks.
					if a, ok := m["yAxis"].([]opts.YAxis); ok && len(a) > 0 && a[0].AxisLabel != nil {
						showMin, showMax := logEdgeLabels(int(math.Round(math.Log10(lo))), int(math.Round(math.Log10(hi))))
						a[0].AxisLabel.ShowMinLabel, a[0].AxisLabel.ShowMaxLabel = opts.Bool(showMin), opts.Bool(showMax)
					}
				}
			}
		}
	}
	p.set["tooltip"] = map[string]any{"show": false}
	names := make([]string, len(b.Groups))
	for i, g := range b.Groups {
		names[i] = bundleName(g)
	}
	p.set["legend"] = map[string]any{"show": true, "bottom": 0, "data": names}
	return ch, nil
}

// bundleName is the legend name of a group of runs.
func bundleName(g RunGroup) string { return chartkit.BundleName(g.Name, len(g.Runs)) }
