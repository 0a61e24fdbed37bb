package escapebench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"sodworkbench.org/workbench/sod/quote"
)

// checkWriter refuses a nil writer before anything is computed.
func checkWriter(fn string, w io.Writer) error {
	if w == nil {
		return fmt.Errorf("%w: %s: nil io.Writer", ErrBadBench, fn)
	}
	return nil
}

// ResultsFile is the JSON of WriteResultsJSON (bench-results.json): the
// environment that wrote it and the runs.
type ResultsFile struct {
	Env  Env            `json:"env"`
	Runs []*TrialResult `json:"runs"`
}

// WriteResultsJSON writes runs (in canonical order, as SuiteRun.Runs,
// MergeJournals and Canonical give them; other orders are refused, see
// checkCanonical) as indented JSON, a ResultsFile. It holds no timing, so
// the same suite and seed give the same bytes whatever the workers,
// sharding or interruptions (with the same Env: one build, one day).
func WriteResultsJSON(w io.Writer, env Env, rs []*TrialResult) error {
	if err := checkWriter("WriteResultsJSON", w); err != nil {
		return err
	}
	if err := checkCanonical("WriteResultsJSON", rs); err != nil {
		return err
	}
	if rs == nil {
		rs = []*TrialResult{}
	}
	b, err := json.MarshalIndent(ResultsFile{env, rs}, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// resultsHeader is the CSV header of WriteResultsCSV.
var resultsHeader = []string{"family", "instance", "method", "judge", "params", "trial", "seed", "outcome", "success", "h", "dist", "rounds", "lowered", "h_evals", "grad_evals", "hess_vecs", "eigen_solves", "first_hits"}

// writeEnvComments writes env as "# key: value" lines (read the CSV files
// with comment character '#'), keys and values through quote.Line so that
// a line break in a value (a CPU model, a revision) cannot start a row.
func writeEnvComments(w io.Writer, env Env, shards []Env) error {
	for _, kv := range append(env.Pairs(), ShardPairs(shards)...) {
		if _, err := fmt.Fprintf(w, "# %s: %s\n", quote.Line(kv[0]), quote.Line(kv[1])); err != nil {
			return err
		}
	}
	return nil
}

// hitsText writes a run's first hits as "target:h,grad,hess_vec,eigen"
// joined by ";" (the oracle counts at the hit, Hit).
func hitsText(hs []Hit) string {
	var parts []string
	for _, h := range hs {
		parts = append(parts, fmt.Sprintf("%d:%d,%d,%d,%d", h.Target, h.H, h.Grad, h.HessVec, h.Eigen))
	}
	return strings.Join(parts, ";")
}

// WriteResultsCSV writes env (writeEnvComments) and one CSV row per run
// (in canonical order, as WriteResultsJSON; no timing). params is
// "k=v;k=v" sorted by key; first_hits is
// "target:h,grad,hess_vec,eigen;…", the oracle counts at the run's first
// hit of each target it reached. Text fields (names, params) are written
// through quote.CSV.
func WriteResultsCSV(w io.Writer, env Env, rs []*TrialResult) error {
	if err := checkWriter("WriteResultsCSV", w); err != nil {
		return err
	}
	if err := checkCanonical("WriteResultsCSV", rs); err != nil {
		return err
	}
	if err := writeEnvComments(w, env, nil); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(resultsHeader); err != nil {
		return err
	}
	for _, r := range rs {
		keys := make([]string, 0, len(r.Params))
		for k := range r.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		ps := make([]string, len(keys))
		for i, k := range keys {
			ps[i] = k + "=" + r.Params[k]
		}
		row := []string{quote.CSV(r.Family), quote.CSV(r.Instance), quote.CSV(r.Method), r.Judge.String(), quote.CSV(strings.Join(ps, ";")), strconv.Itoa(r.Trial), strconv.FormatUint(r.Seed, 10),
			r.Outcome.String(), strconv.FormatBool(r.Success), fmtFloat(float64(r.H)), fmtFloat(float64(r.Dist)), strconv.Itoa(r.Rounds), strconv.Itoa(r.Lowered),
			strconv.FormatInt(r.Cost.H, 10), strconv.FormatInt(r.Cost.Grad, 10), strconv.FormatInt(r.Cost.HessVec, 10), strconv.FormatInt(r.Cost.Eigen, 10), hitsText(r.Hits)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTimingsCSV writes env (writeEnvComments) and the CPU and wall time
// of each run (in canonical order, as WriteResultsJSON), the one output
// that differs between runs; a CPU time that was not measured is empty.
// Names are written through quote.CSV.
func WriteTimingsCSV(w io.Writer, env Env, rs []*TrialResult) error {
	return writeTimingsCSV(w, env, nil, rs)
}

// writeTimingsCSV is WriteTimingsCSV with the environments of the shards
// the times were measured on (Outputs of a merge).
func writeTimingsCSV(w io.Writer, env Env, shards []Env, rs []*TrialResult) error {
	if err := checkWriter("WriteTimingsCSV", w); err != nil {
		return err
	}
	if err := checkCanonical("WriteTimingsCSV", rs); err != nil {
		return err
	}
	if err := writeEnvComments(w, env, shards); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"family", "instance", "method", "trial", "cpu_s", "wall_s"})
	for _, r := range rs {
		cpu := ""
		if r.Cost.CPU >= 0 {
			cpu = fmtFloat(r.Cost.CPU.Seconds())
		}
		cw.Write([]string{quote.CSV(r.Family), quote.CSV(r.Instance), quote.CSV(r.Method), strconv.Itoa(r.Trial), cpu, fmtFloat(r.Cost.Wall.Seconds())})
	}
	cw.Flush()
	return cw.Error()
}

// checkCanonical refuses runs that are not in canonical order (a nil run,
// a run listed twice, or keys out of order): the writers do not sort, so
// that runs are put in order once, by RunSuite, MergeJournals or
// Canonical.
func checkCanonical(writer string, rs []*TrialResult) error {
	for i, r := range rs {
		if r == nil {
			return fmt.Errorf("%w: %s: run %d is nil", ErrBadBench, writer, i)
		}
		if i > 0 && !canonicalLess(rs[i-1], r) {
			return fmt.Errorf("%w: %s: runs %d and %d (%s / %s / %s / trial %d) are not in canonical order; pass the runs through Canonical", ErrBadBench, writer, i-1, i, r.Family, r.Instance, r.Method, r.Trial)
		}
	}
	return nil
}

func fmtFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// WriteSummaryTable writes the metrics of each (family, method) as an
// aligned text table: success rate with its 95 % Wilson interval, median
// and 90th percentile of gradient evaluations and of CPU time to success,
// and the share of escape rounds whose accepted point lowered h.
func WriteSummaryTable(w io.Writer, ss []Summary) error {
	if err := checkWriter("WriteSummaryTable", w); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\tmethod\tsuccess\t95% interval\tgrad evals (median, p90)\tCPU ms (median, p90)\tlowered h")
	dash := func(v OptFloat, f string) string {
		if math.IsNaN(float64(v)) {
			return "–"
		}
		return fmt.Sprintf(f, float64(v))
	}
	for _, s := range ss {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d = %.2f\t[%.2f, %.2f]\t%s, %s\t%s, %s\t%s\n", s.Family, s.Method, s.Successes, s.Trials, s.Rate, s.RateLo, s.RateHi,
			dash(s.GradMedian, "%.0f"), dash(s.GradP90, "%.0f"), dash(s.CPUMedian*1000, "%.3g"), dash(s.CPUP90*1000, "%.3g"), dash(s.LoweredShare, "%.2f"))
	}
	return tw.Flush()
}

// SummaryFile is the JSON of WriteSummaryJSON (bench-summary.json): the
// environment that wrote it and, for merged shards, each shard's (Shards[k]
// ran shard k; the CPU times were measured there).
type SummaryFile struct {
	Env       Env              `json:"env"`
	Shards    []Env            `json:"shards,omitempty"`
	Weights   CostWeights      `json:"cost_weights"`
	Summaries []Summary        `json:"summaries"`
	Families  []FamilyAnalysis `json:"families"`
}

// WriteSummaryJSON writes env, the summaries (with curves) and the
// families' analyses (Analyze, with the cost weights it used) as indented
// JSON, a SummaryFile. It contains CPU times, so unlike the results it
// differs between runs.
func WriteSummaryJSON(w io.Writer, env Env, ss []Summary, as []FamilyAnalysis, weights CostWeights) error {
	return writeSummaryJSON(w, SummaryFile{Env: env, Weights: weights, Summaries: ss, Families: as})
}

func writeSummaryJSON(w io.Writer, f SummaryFile) error {
	if err := checkWriter("WriteSummaryJSON", w); err != nil {
		return err
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteSummaryMarkdown writes the metrics of each (family, method) as a
// GitHub-flavoured markdown table: runs, the success rate over runs with
// its 95 % Wilson interval, the instances escaped at least once (and by
// every run) out of the instances with the 95 % Wilson interval over
// instances (Summary explains the two views), and the medians of gradient
// evaluations and CPU time to success ("–" without a success). Caller
// text (family and method names) is escaped by quote.Markdown.
func WriteSummaryMarkdown(w io.Writer, ss []Summary) error {
	if err := checkWriter("WriteSummaryMarkdown", w); err != nil {
		return err
	}
	dash := func(v OptFloat, f string) string {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return "–"
		}
		return fmt.Sprintf(f, float64(v))
	}
	cpu := func(v OptFloat) string {
		switch x := float64(v); {
		case math.IsNaN(x) || math.IsInf(x, 0):
			return "–"
		case x < 1:
			return fmt.Sprintf("%.3g ms", 1000*x)
		default:
			return fmt.Sprintf("%.3g s", x)
		}
	}
	var b strings.Builder
	b.WriteString("| family | method | runs | success (runs) [95 % Wilson] | instances escaped / all runs escaped / instances [95 % Wilson] | median ∇h evals to success | median CPU to success |\n")
	b.WriteString("|---|---|---:|---|---|---:|---:|\n")
	for _, s := range ss {
		fmt.Fprintf(&b, "| %s | %s | %d | %d = %.0f %% [%.0f, %.0f] | %d / %d / %d [%.0f, %.0f] %% | %s | %s |\n",
			quote.Markdown(s.Family), quote.Markdown(s.Method), s.Trials, s.Successes, 100*s.Rate, 100*s.RateLo, 100*s.RateHi,
			s.Escaped, s.Always, s.Instances, 100*s.InstLo, 100*s.InstHi, dash(s.GradMedian, "%.0f"), cpu(s.CPUMedian))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Outputs is a complete suite's results as every output shows them, each
// computed once: the summaries (Summarize), the families' analyses
// (Analyze with DefaultCostWeights) and the environment.
type Outputs struct {
	Spec      Spec
	Run       *SuiteRun
	Summaries []Summary
	Analyses  []FamilyAnalysis
	Info      PageInfo // Info.Env is the environment of every file
}

// NewOutputs summarises and analyses sr, a complete run of spec; info.Env
// is filled with CurrentEnv if empty.
func NewOutputs(spec Spec, sr *SuiteRun, info PageInfo) (*Outputs, error) {
	if sr == nil {
		return nil, fmt.Errorf("%w: NewOutputs: nil *SuiteRun", ErrBadBench)
	}
	as, err := Analyze(sr.Runs, sr.Instances, AnalysisOptions{MaxIter: spec.MaxIter})
	if err != nil {
		return nil, err
	}
	if info.Env == (Env{}) {
		info.Env = CurrentEnv()
	}
	ss, err := Summarize(sr.Runs)
	if err != nil {
		return nil, err
	}
	return &Outputs{Spec: spec, Run: sr, Summaries: ss, Analyses: as, Info: info}, nil
}

// OutputFile is one file of an Outputs: its name and its writer.
type OutputFile struct {
	Name  string
	Write func(io.Writer) error
}

// SummaryPageFile is the name of the markdown page (WriteSummaryPage).
const SummaryPageFile = "bench-summary.md"

// Files lists r's files: bench-results.json and .csv (deterministic:
// the same bytes for a merge as for the unsharded run),
// bench-timings.csv, bench-summary.json (summaries and analyses) and
// SummaryPageFile; the last three carry the shards' environments
// (Info.Shards) beside Info.Env.
// Each writer refuses a nil or empty Outputs (not made by NewOutputs) with
// an error.
func (r *Outputs) Files() []OutputFile {
	with := func(write func(w io.Writer) error) func(io.Writer) error {
		return func(w io.Writer) error {
			if r == nil || r.Run == nil {
				return fmt.Errorf("%w: an Outputs without a run (use NewOutputs)", ErrBadBench)
			}
			return write(w)
		}
	}
	return []OutputFile{
		{"bench-results.json", with(func(w io.Writer) error { return WriteResultsJSON(w, r.Info.Env, r.Run.Runs) })},
		{"bench-results.csv", with(func(w io.Writer) error { return WriteResultsCSV(w, r.Info.Env, r.Run.Runs) })},
		{"bench-timings.csv", with(func(w io.Writer) error { return writeTimingsCSV(w, r.Info.Env, r.Info.Shards, r.Run.Runs) })},
		{"bench-summary.json", with(func(w io.Writer) error {
			return writeSummaryJSON(w, SummaryFile{Env: r.Info.Env, Shards: r.Info.Shards, Weights: DefaultCostWeights, Summaries: r.Summaries, Families: r.Analyses})
		})},
		{SummaryPageFile, with(func(w io.Writer) error {
			return WriteSummaryPage(w, r.Spec, r.Run, r.Summaries, r.Analyses, r.Info)
		})},
	}
}

// MethodNames lists the names of BuiltinMethods.
func MethodNames() []string {
	var out []string
	for _, m := range BuiltinMethods() {
		out = append(out, m.Name)
	}
	return out
}

// Counts returns the numbers of certified instances and of dropped
// points of family f (0 and 0 for a nil SuiteRun, which holds none).
func (sr *SuiteRun) Counts(f string) (certified, dropped int) {
	if sr == nil {
		return 0, 0
	}
	for _, in := range sr.Instances {
		if in.Family == f {
			certified++
		}
	}
	for _, d := range sr.Dropped {
		if d.Family == f {
			dropped++
		}
	}
	return certified, dropped
}
