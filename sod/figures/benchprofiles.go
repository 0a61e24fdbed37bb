package figures

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

// profilePoints is the number of x values at which the step curves of
// BenchProfileCharts are sampled (log-spaced).
const profilePoints = 80

// BenchProfileCharts draws one family's runtime profiles
// (escapebench.FamilyAnalysis): the ECDF of the runtime to target over
// (instance, trial, target) triples against the budget in ∇h-equivalents
// (COCO's runtime distribution), the Dolan–Moré performance profile
// against the ratio τ to the best method and the Moré–Wild data profile
// against the budget in GD phases, with the virtual best method. Each
// step curve is sampled at profilePoints log-spaced x values; a family
// whose curves are all empty (no run reached any target) gives no chart.
func BenchProfileCharts(a escapebench.FamilyAnalysis) ([]widgets.Chart, error) {
	cs, err := BenchProfileCurves(a)
	if err != nil {
		return nil, err
	}
	var out []widgets.Chart
	for _, c := range cs {
		ch, err := c.Chart(benchProfileSize, widgets.Subtitle(pooledTargets(a.Targets)))
		if err != nil {
			return nil, fmt.Errorf("BenchProfileCharts: %s: %w", a.Family, err)
		}
		out = append(out, ch)
	}
	return out, nil
}

// BenchProfileCurves are the curves of BenchProfileCharts, for a static
// figure of the same charts (plots.CurvesPlot; staticfig.BenchProfileFigures).
func BenchProfileCurves(a escapebench.FamilyAnalysis) ([]widgets.Curves, error) {
	var out []widgets.Curves
	for _, p := range []struct {
		title, x, y string
		curves      []escapebench.Curve2D
	}{
		{"runtime to target (ECDF)", "budget (∇h-equivalents)", "share of (instance, trial, target)", a.ECDF},
		{"performance profile (Dolan–Moré)", "τ: aRT / best aRT", "share of (instance, target)", a.Perf},
		{"data profile (Moré–Wild)", "budget (GD phases)", "share of (instance, target)", a.Data},
	} {
		c, ok, err := stepCurves(a.Family+": "+p.title, p.x, p.y, p.curves)
		if err != nil {
			return nil, fmt.Errorf("BenchProfileCurves: %s: %w", a.Family, err)
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// stepCurves samples step curves (Y[i] from X[i] on, 0 before the
// first) on a shared log-spaced x grid and draws them with a log x axis.
func stepCurves(title, xName, yName string, cs []escapebench.Curve2D) (widgets.Curves, bool, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cs {
		if len(c.X) != len(c.Y) {
			return widgets.Curves{}, false, fmt.Errorf("%w: curve %q has %d x and %d y values", ErrBadFigure, c.Method, len(c.X), len(c.Y))
		}
		for _, x := range c.X {
			if x > 0 && !math.IsInf(x, 0) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return widgets.Curves{}, false, nil
	}
	if hi <= lo {
		hi = 10 * lo
	}
	lo /= 1.5
	hi *= 1.5
	xs := make([]float64, profilePoints)
	for i := range xs {
		xs[i] = lo * math.Pow(hi/lo, float64(i)/float64(profilePoints-1))
	}
	var series []widgets.Series
	for _, c := range cs {
		y := make([]float64, len(xs))
		j := 0
		for i, x := range xs {
			for j < len(c.X) && c.X[j] <= x {
				j++
			}
			if j > 0 {
				y[i] = c.Y[j-1]
			}
		}
		series = append(series, widgets.Series{Name: c.Method, Y: y})
	}
	c := widgets.Curves{Title: title, XName: xName, YName: yName, X: xs, Series: series, LogX: true, Step: true, Probability: true, Distinct: true}
	return c, true, c.Validate("BenchProfileCurves")
}

// pooledTargets says which targets a profile pools, for its subtitle.
func pooledTargets(ts []escapebench.Target) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return fmt.Sprintf("pooled over %d targets: %s", len(ts), strings.Join(names, "; "))
}

// benchProfileSize is the size of one profile chart.
var benchProfileSize = widgets.Size("600px", "480px")

// BenchARTTable lists one family's aRT of every method to every target
// of the ladder, in ∇h-equivalents ("∞" where no run reached it), with
// the measured CPU time of the method's runs beside.
func BenchARTTable(a escapebench.FamilyAnalysis) (widgets.Table, error) {
	if len(a.ART) != len(a.Methods) || len(a.CPU) != len(a.Methods) {
		return widgets.Table{}, fmt.Errorf("%w: BenchARTTable: %s: %d aRT rows, %d CPU totals for %d methods", ErrBadFigure, a.Family, len(a.ART), len(a.CPU), len(a.Methods))
	}
	tab := widgets.Table{Caption: "Family " + a.Family + ": aRT to each target (∇h-equivalents; failed runs charged in full)", Header: []string{"method"}}
	for _, t := range a.Targets {
		tab.Header = append(tab.Header, t.String())
	}
	tab.Header = append(tab.Header, "CPU of the runs (measured)")
	for mi, m := range a.Methods {
		row := []widgets.Cell{{Text: m}}
		if len(a.ART[mi]) != len(a.Targets) {
			return widgets.Table{}, fmt.Errorf("%w: BenchARTTable: %s/%s: %d aRT values for %d targets", ErrBadFigure, a.Family, m, len(a.ART[mi]), len(a.Targets))
		}
		for _, v := range a.ART[mi] {
			s := "∞"
			if !math.IsInf(float64(v), 1) {
				s = benchNum("%.4g", float64(v))
			}
			row = append(row, widgets.Cell{Text: s})
		}
		c := a.CPU[mi]
		row = append(row, widgets.Cell{Text: fmt.Sprintf("%s (%d of %d runs)", benchSeconds(c.Seconds), c.Runs, c.All)})
		tab.Rows = append(tab.Rows, row)
	}
	return tab, nil
}

// BenchPairedTable lists one family's paired comparisons (McNemar's exact
// test of each method against the one that solves most problems; a
// problem is an instance up to the problem's symmetry,
// escapebench.SymmetryClasses).
func BenchPairedTable(a escapebench.FamilyAnalysis) widgets.Table {
	tab := widgets.Table{Caption: "Family " + a.Family + ": paired comparison with the method that solves most problems (McNemar, exact)",
		Header: []string{"method", "best", "problems", "solved by best only", "by method only", "p"}}
	for _, p := range a.Paired {
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: p.Method}, {Text: p.Best}, {Text: fmt.Sprint(p.Instances)},
			{Text: fmt.Sprint(p.OnlyBest)}, {Text: fmt.Sprint(p.OnlyMethod)}, {Text: fmt.Sprintf("%.2g", p.P)}})
	}
	tab.Notes = []string{"A problem is solved by a method when at least half of its runs on it succeed. Instances equal up to the problem's symmetry (the sign of X̂ and, for PMC, permutations that keep Ω and M*) are one problem, their runs pooled" +
		fmt.Sprintf(" (%d instances, %d distinct problems).", len(a.Instances), a.Distinct)}
	return tab
}

// BenchMatrixTable is one family's instance × method matrix: per instance
// its Features (escapebench.Features) and the success rate of every
// method on it ("—": not run), so that success can be read against the
// features.
func BenchMatrixTable(a escapebench.FamilyAnalysis, insts []escapebench.InstanceInfo) (widgets.Table, error) {
	if len(a.Matrix) != len(a.Instances) {
		return widgets.Table{}, fmt.Errorf("%w: BenchMatrixTable: %s: %d matrix rows for %d instances", ErrBadFigure, a.Family, len(a.Matrix), len(a.Instances))
	}
	feat := map[string]escapebench.Features{}
	for _, in := range insts {
		if in.Family == a.Family {
			feat[in.Name] = in.Features
		}
	}
	tab := widgets.Table{Caption: "Family " + a.Family + ": instances × methods (success rate) beside the instance features",
		Header: slices.Concat([]string{"instance"}, escapebench.FeatureNames, a.Methods)}
	for i, name := range a.Instances {
		row := []widgets.Cell{{Text: name}}
		f, ok := feat[name]
		for _, v := range f.Values() {
			if !ok {
				v = math.NaN()
			}
			row = append(row, widgets.Cell{Text: benchNum("%.3g", v)})
		}
		for _, v := range a.Matrix[i] {
			row = append(row, widgets.Cell{Text: benchNum("%.2f", float64(v))})
		}
		tab.Rows = append(tab.Rows, row)
	}
	tab.Notes = []string{"Features: " + escapebench.FeaturesNote}
	return tab, nil
}

// BenchFeatureChart draws the success rate of every method on each
// instance of one family against an instance feature (index k of
// escapebench.FeatureNames), the instances in increasing order of the
// feature (those where it is not positive or not known left out: the x
// axis is logarithmic). No instance left is an error wrapping
// ErrBadFigure.
func BenchFeatureChart(a escapebench.FamilyAnalysis, insts []escapebench.InstanceInfo, k int) (widgets.Chart, error) {
	c, ok, err := featureChart(a, insts, k)
	if err == nil && !ok {
		err = fmt.Errorf("%w: BenchFeatureChart: no instance of family %q with a positive %s and a row of success rates", ErrBadFigure, a.Family, escapebench.FeatureNames[k])
	}
	return c, err
}

// featureChart is BenchFeatureChart, ok false when no instance is left.
func featureChart(a escapebench.FamilyAnalysis, insts []escapebench.InstanceInfo, k int) (widgets.Chart, bool, error) {
	if k < 0 || k >= len(escapebench.FeatureNames) {
		return nil, false, fmt.Errorf("%w: BenchFeatureChart: feature %d, want 0…%d", ErrBadFigure, k, len(escapebench.FeatureNames)-1)
	}
	type pt struct {
		x float64
		i int
	}
	var pts []pt
	for i, name := range a.Instances {
		for _, in := range insts {
			if in.Family == a.Family && in.Name == name {
				if x := in.Features.Values()[k]; x > 0 && !math.IsInf(x, 0) {
					pts = append(pts, pt{x, i})
				}
			}
		}
	}
	if len(pts) == 0 || len(a.Matrix) != len(a.Instances) {
		return nil, false, nil
	}
	slices.SortStableFunc(pts, func(p, q pt) int {
		if p.x < q.x {
			return -1
		}
		if p.x > q.x {
			return 1
		}
		return 0
	})
	xs := make([]float64, len(pts))
	for j, p := range pts {
		xs[j] = p.x
	}
	var series []widgets.Series
	for mi, m := range a.Methods {
		y := make([]float64, len(pts))
		for j, p := range pts {
			y[j] = float64(a.Matrix[p.i][mi])
		}
		series = append(series, widgets.Series{Name: m, Y: y})
	}
	ch, err := widgets.Curves{Title: a.Family + ": success rate per instance against " + escapebench.FeatureNames[k], XName: escapebench.FeatureNames[k], YName: "success rate",
		X: xs, Series: series, LogX: true, Probability: true, Distinct: true}.Chart(benchProfileSize)
	return ch, err == nil, err
}
