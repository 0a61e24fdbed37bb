package widgets

import (
	"fmt"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// LiftedObjective is the lifted objective h^l(w̃(t)) along TPGD against the
// number of steps t: panel (d) of the paper's figures "exp2" and "exp3",
// and panel (a) of figure "simulation". ClosedForm is the value at the
// paper's closed-form coefficients (Lemma "Closed-Form Coefficient
// Dynamics"); Exact, if not nil, is exact projected gradient descent inside
// S = span{a, b, c} (REPRODUCTION.md C7, F10), drawn next to it so the two can be
// compared. Reference, if finite, is h^l(ŵ) at the spurious minimum, drawn
// as a horizontal line: the paper's practical criterion asks for values
// below it.
type LiftedObjective struct {
	Title      string
	T          []float64
	ClosedForm []float64
	Exact      []float64 // optional
	Reference  float64   // h^l(ŵ); NaN for none
	L          int       // the lifting order l, shown in the legend (0 to omit)
}

// Validate checks o for the function caller (named in the errors): t
// values, and ClosedForm (and Exact, when given) with one value per t.
func (o LiftedObjective) Validate(caller string) error {
	if len(o.T) == 0 {
		return fmt.Errorf("widgets: %s %q: no t values", caller, o.Title)
	}
	if err := checkLen(caller, "ClosedForm", len(o.ClosedForm), len(o.T)); err != nil {
		return err
	}
	if o.Exact != nil {
		return checkLen(caller, "Exact", len(o.Exact), len(o.T))
	}
	return nil
}

// Chart draws the lifted objective against t on log–log
// axes. Values that cannot be drawn
// (≤ 0 or non-finite, e.g. the float64 overflow of h^l for l = 3 at
// t = 2·10⁶ noted in REPRODUCTION.md F11) are gaps counted in the subtitle.
func (o LiftedObjective) Chart(options ...Option) (*charts.Line, error) {
	if err := o.Validate("LiftedObjective.Chart"); err != nil {
		return nil, err
	}
	series := []Series{{Name: chartkit.ClosedForm + lSuffix(o.L), Y: o.ClosedForm}}
	if o.Exact != nil {
		series = append(series, Series{Name: chartkit.ExactPGD + lSuffix(o.L), Y: o.Exact})
	}
	cfg := newConfig(options)
	cfg.logX, cfg.logY, cfg.xName, cfg.yName = true, true, chartkit.TAxis, chartkit.LiftedAxis
	var list []any
	skipped := 0
	for k, s := range series {
		data, sk := xyData(o.T, s.Y, cfg.logX, cfg.logY)
		skipped += sk
		ls := lineSeries(s.Name, data, len(o.T) <= 60)
		ls["color"] = palette[k%len(palette)]
		if k == 1 {
			ls["lineStyle"] = map[string]any{"type": "dashed", "width": 2}
		}
		if k == 0 && drawable(o.Reference, cfg.logY) {
			ls["markLine"] = markLines("#c92a2a", hLine(o.Reference, chartkit.Reference(o.Reference)))
		}
		list = append(list, ls)
	}
	ch, p := newRect(o.Title, cfg, skipped)
	p.series = list
	return ch, nil
}

// lSuffix is chartkit.LSuffix.
func lSuffix(l int) string { return chartkit.LSuffix(l) }

// Terms are the Frobenius norms of the three terms of w̃(t) = α̃a + β̃b + γ̃c
// against t: ‖α̃ a‖ = ‖X̂‖_F^l, ‖β̃ b‖ = |β̃(t)| and ‖γ̃ c‖ = |γ̃(t)| ‖EX̂‖_F^l
// (REPRODUCTION.md C6).
type Terms struct {
	A, B, C []float64
}

// TermNorms is panel (e) of the paper's figures "exp2" and "exp3" and panel
// (b) of figure "simulation": the a-, b- and c-term norms against t, from
// the closed form and, if Exact is not nil, from exact PGD in S, side by
// side on the same axes.
type TermNorms struct {
	Title      string
	T          []float64
	ClosedForm Terms
	Exact      *Terms // optional
}

// Validate checks tn for the function caller (named in the errors): t
// values, and each term of ClosedForm (and of Exact, when given) with one
// value per t.
func (tn TermNorms) Validate(caller string) error {
	if len(tn.T) == 0 {
		return fmt.Errorf("widgets: %s %q: no t values", caller, tn.Title)
	}
	check := func(panel string, t Terms) error {
		for j, y := range [][]float64{t.A, t.B, t.C} {
			if err := checkLen(caller, panel+" "+chartkit.TermNames[j], len(y), len(tn.T)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := check(chartkit.ClosedFormPanel, tn.ClosedForm); err != nil {
		return err
	}
	if tn.Exact != nil {
		return check(chartkit.ExactPGD, *tn.Exact)
	}
	return nil
}

// Chart draws the term norms on log–log axes: one panel for the
// closed form and, when Exact is given, a second panel to its right with
// the same y range, so the dominance of the b- or c-term can be compared.
func (tn TermNorms) Chart(options ...Option) (*charts.Line, error) {
	if err := tn.Validate("TermNorms.Chart"); err != nil {
		return nil, err
	}
	panels := []struct {
		name  string
		terms Terms
	}{{chartkit.ClosedFormPanel, tn.ClosedForm}}
	if tn.Exact != nil {
		panels = append(panels, struct {
			name  string
			terms Terms
		}{chartkit.ExactPGD, *tn.Exact})
	}
	cfg := newConfig(options)
	cfg.logX, cfg.logY = true, true
	var list []any
	skipped := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, pn := range panels {
		for j, y := range [][]float64{pn.terms.A, pn.terms.B, pn.terms.C} {
			data, sk := xyData(tn.T, y, true, true)
			skipped += sk
			if a, b, ok := finiteRange(true, y); ok {
				lo, hi = math.Min(lo, a), math.Max(hi, b)
			}
			ls := lineSeries(chartkit.TermNames[j], data, len(tn.T) <= 60)
			ls["color"] = palette[j]
			ls["xAxisIndex"], ls["yAxisIndex"] = k, k
			if k == 1 {
				ls["lineStyle"] = map[string]any{"type": "dashed", "width": 2}
			}
			list = append(list, ls)
		}
	}
	ch, p := newRect(tn.Title, cfg, skipped)
	p.series = list
	if len(panels) == 2 {
		p.set["grid"] = []any{
			map[string]any{"left": "7%", "width": "38%", "top": 80, "bottom": 80, "containLabel": true},
			map[string]any{"left": "55%", "width": "38%", "top": 80, "bottom": 80, "containLabel": true},
		}
	}
	var xs, ys []any
	for k, pn := range panels {
		xs = append(xs, map[string]any{"type": "log", "gridIndex": k, "name": "t  (" + pn.name + ")",
			"nameLocation": "middle", "nameGap": 30, "splitLine": map[string]any{"show": true},
			"axisLabel": map[string]any{"formatter": jsFunc(logLabelJS)}})
		y := map[string]any{"type": "log", "gridIndex": k, "name": chartkit.TermNormAxis, "nameLocation": "middle",
			"nameGap": 45, "splitLine": map[string]any{"show": true}, "axisLabel": map[string]any{"formatter": jsFunc(logLabelJS)}}
		if lo <= hi {
			// Values below 1e-300 (an exact-PGD term collapsing to subnormal
			// numbers) are clipped at the axis end: 10^-324 is 0 in float64,
			// which a log axis cannot start at.
			ea, eb := max(int(math.Floor(math.Log10(lo))), -300), min(int(math.Ceil(math.Log10(hi))), 300)
			if eb <= ea {
				eb = ea + 1
			}
			a, b := math.Pow10(ea), math.Pow10(eb)
			y["min"], y["max"] = a, b
			// The name stands clear of the longest tick label (e.g. "0.001", "1e-12").
			y["nameGap"] = logNameGap(a, b)
			showMin, showMax := logEdgeLabels(ea, eb)
			y["axisLabel"] = map[string]any{"formatter": jsFunc(logLabelJS), "showMinLabel": showMin, "showMaxLabel": showMax}
		}
		ys = append(ys, y)
	}
	p.set["xAxis"], p.set["yAxis"] = xs, ys
	p.set["legend"] = map[string]any{"show": true, "bottom": 0, "data": chartkit.TermNames[:]}
	return ch, nil
}
