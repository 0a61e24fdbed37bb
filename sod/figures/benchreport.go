package figures

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/quote"
	"sodworkbench.org/workbench/widgets"
)

// BenchReport is the content of the escape benchmark's HTML report
// (WriteBenchReport): the suite's parameters (escapebench.Spec.Settings),
// its runs with their summaries and, optionally, its certified instances
// and dropped points (for the counts per family).
type BenchReport struct {
	Title    string                // page title; "Escape benchmark" if empty
	Settings []escapebench.Setting // the suite's parameters, shown in this order
	Runs     []*escapebench.TrialResult
	// Summaries are escapebench.Summarize(Runs), computed once by the
	// caller for all its outputs; nil: computed here.
	Summaries []escapebench.Summary
	Instances []escapebench.InstanceInfo
	Dropped   []escapebench.Dropped
	// Analyses are escapebench.Analyze(Runs, Instances, …), computed once
	// by the caller (escapebench.NewOutputs); nil: computed here with the
	// defaults.
	Analyses []escapebench.FamilyAnalysis
	// Env is the environment of the run (shown in a table if not zero).
	Env escapebench.Env
	// Shards are the environments of a merged run's shards
	// (escapebench.ShardPairs), in the same table.
	Shards []escapebench.Env
}

// benchCurveSize is the size of one convergence chart (three per row on a
// wide screen).
var benchCurveSize = widgets.Size("440px", "300px")

// WriteBenchReport writes the escape benchmark's report (package
// sod/escapebench) as one self-contained HTML page, ECharts inlined (no
// CDN, it opens from file:// without network): a header with the suite's
// parameters and the methods with their parameters, then per family the
// counts of certified and dropped points, the metrics table
// (BenchMetricsTable), what happened in the escape rounds
// (BenchRoundsTable), the runtime profiles, the medians of all methods on
// one chart (BenchMediansChart) and the median and inter-quartile band of
// every method (BenchCurvesCharts). All caller text (family and method names,
// parameters) is shown as text. The page holds CPU times and fresh chart
// ids, so unlike bench-results.json it is not byte-identical between runs.
func WriteBenchReport(w io.Writer, rep BenchReport) error {
	if w == nil {
		return fmt.Errorf("%w: WriteBenchReport: nil io.Writer", ErrBadFigure)
	}
	if err := checkBenchRuns("WriteBenchReport", rep.Runs); err != nil {
		return err
	}
	title := rep.Title
	if title == "" {
		title = "Escape benchmark"
	}
	ss := rep.Summaries
	if ss == nil {
		var err error
		if ss, err = escapebench.Summarize(rep.Runs); err != nil {
			return err
		}
	}
	as := rep.Analyses
	if as == nil {
		var err error
		if as, err = escapebench.Analyze(rep.Runs, rep.Instances, escapebench.AnalysisOptions{}); err != nil {
			return err
		}
	}
	rounds, err := escapebench.SummarizeRounds(rep.Runs)
	if err != nil {
		return err
	}
	p := &widgets.Page{Title: title, Head: benchReportStyle}
	p.AddHTML("<h1>" + quote.HTMLText(title) + "</h1>")
	p.AddHTML(`<p class="bench-note">Every method is run from certified spurious second-order points of each family; a run succeeds when it ends with ‖XXᵀ − M*‖<sub>F</sub> &lt; 0.02. Rates carry a 95 % Wilson interval over runs, or over instances (‡) for a method whose runs agree on every instance (all succeed or all fail: repeating them adds no information); since runs on one instance are not independent, the last column counts instances (escaped by at least one run / by every run / all) with the 95 % Wilson interval over instances. Gradient evaluations and CPU time to success are over successful runs. Every run records its cost in ∇h-equivalents (escapebench.CostWeights) at its first hit of each target of a ladder (distance to M* and h): aRT, COCO's average runtime, charges failed runs in full; the ECDF, performance and data profiles are drawn from these first hits, against the virtual best method. Each method is named with its judge: raw-h (the paper's rule: h of the candidate) or gd-probe (h after a gradient descent phase from it).</p>`)
	if len(rep.Settings) > 0 {
		st := widgets.Table{Caption: "Suite", Header: []string{"parameter", "value"}}
		for _, s := range rep.Settings {
			st.Rows = append(st.Rows, []widgets.Cell{{Text: s.Name}, {Text: s.Value}})
		}
		if err := addTable(p, st); err != nil {
			return err
		}
	}
	if rep.Env != (escapebench.Env{}) {
		et := widgets.Table{Caption: "Environment", Header: []string{"", ""}}
		for _, kv := range append(rep.Env.Pairs(), escapebench.ShardPairs(rep.Shards)...) {
			et.Rows = append(et.Rows, []widgets.Cell{{Text: kv[0]}, {Text: kv[1]}})
		}
		if err := addTable(p, et); err != nil {
			return err
		}
	}
	mt, err := BenchMethodsTable(rep.Runs)
	if err != nil {
		return err
	}
	if err := addTable(p, mt); err != nil {
		return err
	}
	for _, fam := range benchFamilies(ss) {
		p.AddHTML("<h2>Family " + quote.HTMLText(fam) + "</h2>")
		if len(rep.Instances) > 0 || len(rep.Dropped) > 0 {
			ni, nd := 0, 0
			for _, in := range rep.Instances {
				if in.Family == fam {
					ni++
				}
			}
			for _, d := range rep.Dropped {
				if d.Family == fam {
					nd++
				}
			}
			p.AddHTML(fmt.Sprintf(`<p class="bench-note">%d certified instances, %d generated points dropped (failed the certificate).</p>`, ni, nd))
			if note := benchPartialNote(ss, fam, ni); note != "" {
				p.AddHTML(`<p class="bench-note">` + quote.HTMLText(note) + `</p>`)
			}
			if err := addTable(p, benchInstancesTable(rep.Instances, rep.Dropped, fam)); err != nil {
				return err
			}
		}
		tab, err := BenchMetricsTable(ss, fam)
		if err != nil {
			return err
		}
		if err := addTable(p, tab); err != nil {
			return err
		}
		rt, err := BenchRoundsTable(rounds, fam)
		if err != nil {
			return err
		}
		if err := addTable(p, rt); err != nil {
			return err
		}
		for _, a := range as {
			if a.Family == fam {
				if err := addAnalysis(p, a, rep.Instances); err != nil {
					return err
				}
			}
		}
		cs, err := BenchCurvesCharts(ss, fam)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			p.AddHTML(`<p class="bench-note">No convergence trace recorded.</p>`)
			continue
		}
		mc, err := BenchMediansChart(ss, fam)
		if err != nil {
			return err
		}
		p.Add(mc)
		p.AddHTML(`<div class="bench-grid">`)
		for _, c := range cs {
			p.Add(c)
		}
		p.AddHTML(`</div>`)
	}
	return p.Write(w)
}

// addAnalysis adds one family's aRT table, runtime profiles, paired
// comparison, instance × method matrix and success against the β-line
// feature.
func addAnalysis(p *widgets.Page, a escapebench.FamilyAnalysis, insts []escapebench.InstanceInfo) error {
	at, err := BenchARTTable(a)
	if err != nil {
		return err
	}
	if err := addTable(p, at); err != nil {
		return err
	}
	pc, err := BenchProfileCharts(a)
	if err != nil {
		return err
	}
	p.AddHTML(`<div class="bench-grid">`)
	for _, c := range pc {
		p.Add(c)
	}
	p.AddHTML(`</div>`)
	if err := addTable(p, BenchPairedTable(a)); err != nil {
		return err
	}
	if len(insts) == 0 {
		return nil
	}
	mt, err := BenchMatrixTable(a, insts)
	if err != nil {
		return err
	}
	if err := addTable(p, mt); err != nil {
		return err
	}
	fc, ok, err := featureChart(a, insts, 0)
	if err != nil {
		return err
	}
	if ok {
		p.Add(fc)
	}
	return nil
}

const benchReportStyle = `<style>
body { font-family: system-ui, sans-serif; margin: 16px 24px; color: #212529; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ced4da; }
.bench-note { font-size: 13px; color: #495057; max-width: 60em; }
.bench-grid { display: flex; flex-wrap: wrap; gap: 0 12px; }
</style>
`

func addTable(p *widgets.Page, t widgets.Table) error {
	h, err := t.HTML()
	if err != nil {
		return err
	}
	p.AddHTML(h)
	return nil
}

// checkBenchRuns refuses nil runs (an error, not a panic).
func checkBenchRuns(fn string, rs []*escapebench.TrialResult) error {
	if len(rs) == 0 {
		return fmt.Errorf("%w: %s: no runs", ErrBadFigure, fn)
	}
	for i, r := range rs {
		if r == nil {
			return fmt.Errorf("%w: %s: run %d is nil", ErrBadFigure, fn, i)
		}
	}
	return nil
}

// benchFamilies lists the families of ss in order of appearance.
func benchFamilies(ss []escapebench.Summary) []string {
	var fams []string
	for _, s := range ss {
		if !slices.Contains(fams, s.Family) {
			fams = append(fams, s.Family)
		}
	}
	return fams
}

// BenchMethodsTable lists the methods of the runs with their judge
// (escapebench.JudgingRule), their parameters (as recorded with every run, "k=v"
// sorted by key) and how many runs each has.
func BenchMethodsTable(rs []*escapebench.TrialResult) (widgets.Table, error) {
	if err := checkBenchRuns("BenchMethodsTable", rs); err != nil {
		return widgets.Table{}, err
	}
	tab := widgets.Table{Caption: "Methods", Header: []string{"method", "judge", "parameters", "runs"}}
	var order []string
	params := map[string]map[string]string{}
	judge := map[string]escapebench.JudgingRule{}
	runs := map[string]int{}
	for _, r := range rs {
		if _, ok := params[r.Method]; !ok {
			order = append(order, r.Method)
			params[r.Method] = r.Params
			judge[r.Method] = r.Judge
		}
		runs[r.Method]++
	}
	for _, m := range order {
		var kv []string
		for k, v := range params[m] {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		ps := strings.Join(kv, ", ")
		if ps == "" {
			ps = "—"
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: m}, {Text: judge[m].String()}, {Text: ps}, {Text: fmt.Sprint(runs[m])}})
	}
	return tab, nil
}

// BenchMetricsTable is the metrics table of one family of an escape
// benchmark (escapebench.Summarize): per method the successes k/n, the
// success rate with its 95 % Wilson interval, the median and 90th
// percentile of gradient evaluations and of CPU time to success, and the
// share of escape rounds whose accepted point lowered h, and the
// per-instance view (instances escaped by at least one run / by every run /
// all, with the 95 % Wilson interval over instances; see
// escapebench.Summary). "—" marks a value without data (no success, no
// round).
func BenchMetricsTable(ss []escapebench.Summary, family string) (widgets.Table, error) {
	tab := widgets.Table{Caption: "Family " + family + ": success and cost per method",
		Header: []string{"method", "success k/n", "rate [95 % Wilson]", "∇h evals to success: median", "p90", "CPU to success: median", "p90", "rounds lowering h",
			"instances escaped / by every run / all [95 % Wilson]"}}
	for _, s := range ss {
		if s.Family != family {
			continue
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{
			{Text: s.Method},
			{Text: fmt.Sprintf("%d/%d", s.Successes, s.Trials)},
			{Text: fmt.Sprintf("%.0f %% [%.0f, %.0f]%s", 100*s.Rate, 100*s.RateLo, 100*s.RateHi, map[bool]string{true: "‡"}[s.RunsAgree])},
			{Text: benchNum("%.0f", float64(s.GradMedian))},
			{Text: benchNum("%.0f", float64(s.GradP90))},
			{Text: benchSeconds(float64(s.CPUMedian))},
			{Text: benchSeconds(float64(s.CPUP90))},
			{Text: benchShare(s)},
			{Text: fmt.Sprintf("%d / %d / %d [%.0f, %.0f] %%", s.Escaped, s.Always, s.Instances, 100*s.InstLo, 100*s.InstHi)},
		})
	}
	if len(tab.Rows) == 0 {
		return widgets.Table{}, fmt.Errorf("%w: BenchMetricsTable: no summary of family %q", ErrBadFigure, family)
	}
	return tab, nil
}

func benchNum(format string, v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return fmt.Sprintf(format, v)
}

func benchSeconds(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return "—"
	}
	if v < 1 {
		return fmt.Sprintf("%.3g ms", 1000*v)
	}
	return fmt.Sprintf("%.3g s", v)
}

func benchShare(s escapebench.Summary) string {
	v := float64(s.LoweredShare)
	if s.Rounds == 0 || math.IsNaN(v) {
		return "— (no round)"
	}
	return fmt.Sprintf("%.0f %% of %d", 100*v, s.Rounds)
}

// BenchCurvesCharts draws the convergence of every method of one family
// (BenchBandCurves): one small chart per method on its own gradient axis.
// Methods without a trace are left out.
func BenchCurvesCharts(ss []escapebench.Summary, family string) ([]widgets.Chart, error) {
	cs, err := BenchBandCurves(ss, family)
	if err != nil {
		return nil, err
	}
	out := make([]widgets.Chart, 0, len(cs))
	for _, c := range cs {
		ch, err := c.Curves.Chart(benchCurveSize, widgets.Subtitle(fmt.Sprintf("%s · %d runs", family, c.Runs)))
		if err != nil {
			return nil, fmt.Errorf("BenchCurvesCharts: %s/%s: %w", family, c.Title, err)
		}
		out = append(out, ch)
	}
	return out, nil
}

// BandCurves is the convergence band of one method (BenchBandCurves) and
// the number of runs it is over.
type BandCurves struct {
	widgets.Curves
	Runs int
}

// BenchBandCurves are the convergence bands of every method of one
// family (escapebench.Curve): the median and the inter-quartile band
// (25 % and 75 % quantiles) over runs of ‖XXᵀ − M*‖_F, the success
// measure, against ∇h evaluations, log y, titled by the method: the
// curves of BenchCurvesCharts and of the static figure
// (staticfig.BenchBandFigure). Methods without a trace are left out; no
// summary of the family is an error wrapping ErrBadFigure.
func BenchBandCurves(ss []escapebench.Summary, family string) ([]BandCurves, error) {
	var out []BandCurves
	found := false
	for _, s := range ss {
		if s.Family != family {
			continue
		}
		found = true
		c := s.Curve
		if len(c.Grad) == 0 {
			continue
		}
		if len(c.P25) != len(c.Grad) || len(c.P50) != len(c.Grad) || len(c.P75) != len(c.Grad) {
			return nil, fmt.Errorf("%w: BenchBandCurves: %s/%s: curve lengths %d, %d, %d for %d gradient counts",
				ErrBadFigure, family, s.Method, len(c.P25), len(c.P50), len(c.P75), len(c.Grad))
		}
		cv := widgets.Curves{Title: s.Method, XName: "∇h evaluations", YName: "‖XXᵀ − M*‖_F", X: c.Grad,
			Series: []widgets.Series{{Name: "25 %", Y: c.P25}, {Name: "75 %", Y: c.P75}, {Name: "median", Y: c.P50}}, // the median drawn last, on top
			LogY:   true, Distinct: true}
		if err := cv.Validate("BenchBandCurves"); err != nil {
			return nil, err
		}
		out = append(out, BandCurves{Curves: cv, Runs: s.Trials})
	}
	if !found {
		return nil, fmt.Errorf("%w: BenchBandCurves: no summary of family %q", ErrBadFigure, family)
	}
	return out, nil
}

// benchInstancesTable lists the certified instances of one family with
// their certificates (‖∇h‖_F, λ_min(∇²h), h, ‖X̂X̂ᵀ − M*‖_F, kind) and the
// dropped points with the reason.
func benchInstancesTable(ins []escapebench.InstanceInfo, dropped []escapebench.Dropped, family string) widgets.Table {
	tab := widgets.Table{Caption: "Family " + family + ": instances and their certificates",
		Header: []string{"instance", "n×r", "‖∇h‖_F", "λ_min(∇²h)", "h", "‖X̂X̂ᵀ − M*‖_F", "kind"}}
	g := func(v float64) string { return fmt.Sprintf("%.3g", v) }
	for _, in := range ins {
		if in.Family != family {
			continue
		}
		kind := in.Cert.Kind.String()
		if in.Cert.Lanczos {
			kind += " (λ_min by Lanczos)"
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: in.Name}, {Text: fmt.Sprintf("%d×%d", in.N, in.R)}, {Text: g(in.Cert.GradNorm)},
			{Text: g(in.Cert.MinHessEig)}, {Text: g(in.Cert.H)}, {Text: g(in.Cert.Dist)}, {Text: kind}})
	}
	for _, d := range dropped {
		if d.Family == family {
			tab.Rows = append(tab.Rows, []widgets.Cell{{Text: d.Name}, {Text: "dropped"}, {Text: d.Reason}, {}, {}, {}, {Text: "—"}})
		}
	}
	return tab
}

// benchPartialNote names the methods of family fam that ran on fewer than
// its ni certified instances: a method the suite does not schedule on some
// instances (escapebench.Method.MaxN, e.g. the dense-only ones above
// sod.MaxDenseSize), whose rates are over the instances it ran on.
func benchPartialNote(ss []escapebench.Summary, fam string, ni int) string {
	var parts []string
	for _, s := range ss {
		if s.Family == fam && s.Instances < ni {
			parts = append(parts, fmt.Sprintf("%s on %d", s.Method, s.Instances))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("Not every method ran on all %d instances (the suite leaves out instances beyond a method's size limit, e.g. dense n×n arrays above n = %d); its rates are over the instances it ran on: %s.", ni, sod.MaxDenseSize, strings.Join(parts, ", "))
}
