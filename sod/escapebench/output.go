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

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/quote"
)

// checkWriter refuses a nil writer before anything is computed.
func checkWriter(fn string, w io.Writer) error {
	if w == nil {
		return fmt.Errorf("%w: %s: nil io.Writer", sod.ErrBadParameter, fn)
	}
	return nil
}

// WriteResultsJSON writes runs (in canonical order, as SuiteRun.Runs,
// MergeJournals and Canonical give them; other orders are refused, see
// checkCanonical) as an indented JSON array. It holds no timing, so the
// same suite and seed give the same bytes whatever the workers, sharding
// or interruptions.
func WriteResultsJSON(w io.Writer, rs []*TrialResult) error {
	if err := checkWriter("WriteResultsJSON", w); err != nil {
		return err
	}
	if err := checkCanonical("WriteResultsJSON", rs); err != nil {
		return err
	}
	if rs == nil {
		rs = []*TrialResult{}
	}
	b, err := json.MarshalIndent(rs, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// resultsHeader is the CSV header of WriteResultsCSV.
var resultsHeader = []string{"family", "instance", "method", "params", "trial", "seed", "outcome", "success", "h", "dist", "rounds", "lowered", "h_evals", "grad_evals", "hess_vecs", "eigen_solves"}

// WriteResultsCSV writes one CSV row per run (in canonical order, as
// WriteResultsJSON; no timing). params is "k=v;k=v" sorted by key. Text
// fields (names, params) are written through quote.CSV.
func WriteResultsCSV(w io.Writer, rs []*TrialResult) error {
	if err := checkWriter("WriteResultsCSV", w); err != nil {
		return err
	}
	if err := checkCanonical("WriteResultsCSV", rs); err != nil {
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
		row := []string{quote.CSV(r.Family), quote.CSV(r.Instance), quote.CSV(r.Method), quote.CSV(strings.Join(ps, ";")), strconv.Itoa(r.Trial), strconv.FormatUint(r.Seed, 10),
			r.Outcome.String(), strconv.FormatBool(r.Success), fmtFloat(float64(r.H)), fmtFloat(float64(r.Dist)), strconv.Itoa(r.Rounds), strconv.Itoa(r.Lowered),
			strconv.FormatInt(r.Cost.H, 10), strconv.FormatInt(r.Cost.Grad, 10), strconv.FormatInt(r.Cost.HessVec, 10), strconv.FormatInt(r.Cost.Eigen, 10)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTimingsCSV writes the CPU and wall time of each run (in canonical
// order, as WriteResultsJSON), the one output that differs between runs.
// Names are written through quote.CSV.
func WriteTimingsCSV(w io.Writer, rs []*TrialResult) error {
	if err := checkWriter("WriteTimingsCSV", w); err != nil {
		return err
	}
	if err := checkCanonical("WriteTimingsCSV", rs); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"family", "instance", "method", "trial", "cpu_s", "wall_s"})
	for _, r := range rs {
		cw.Write([]string{quote.CSV(r.Family), quote.CSV(r.Instance), quote.CSV(r.Method), strconv.Itoa(r.Trial), fmtFloat(r.Cost.CPU.Seconds()), fmtFloat(r.Cost.Wall.Seconds())})
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
			return fmt.Errorf("%w: %s: run %d is nil", sod.ErrBadParameter, writer, i)
		}
		if i > 0 && !canonicalLess(rs[i-1], r) {
			return fmt.Errorf("%w: %s: runs %d and %d (%s / %s / %s / trial %d) are not in canonical order; pass the runs through Canonical", sod.ErrBadParameter, writer, i-1, i, r.Family, r.Instance, r.Method, r.Trial)
		}
	}
	return nil
}

// InstancesFile is the JSON of WriteInstancesJSON: a suite's certified
// instances and dropped points (bench-instances.json).
type InstancesFile struct {
	Instances []InstanceInfo `json:"instances"`
	Dropped   []Dropped      `json:"dropped"`
}

// WriteInstancesJSON writes sr's certified instances and dropped points
// as indented JSON (an InstancesFile), the same for every shard of a suite.
func WriteInstancesJSON(w io.Writer, sr *SuiteRun) error {
	if err := checkWriter("WriteInstancesJSON", w); err != nil {
		return err
	}
	if sr == nil {
		return fmt.Errorf("%w: WriteInstancesJSON: nil *SuiteRun", sod.ErrBadParameter)
	}
	b, err := json.MarshalIndent(InstancesFile{sr.Instances, sr.Dropped}, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadInstancesJSON reads what WriteInstancesJSON wrote.
func ReadInstancesJSON(r io.Reader) (*InstancesFile, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: ReadInstancesJSON: nil io.Reader", sod.ErrBadParameter)
	}
	var in InstancesFile
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return nil, fmt.Errorf("escapebench: not an instances file: %w", err)
	}
	return &in, nil
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

// WriteSummaryJSON writes the summaries (with curves) as indented JSON.
// It contains CPU times, so unlike the results it differs between runs.
func WriteSummaryJSON(w io.Writer, ss []Summary) error {
	if err := checkWriter("WriteSummaryJSON", w); err != nil {
		return err
	}
	b, err := json.MarshalIndent(ss, "", " ")
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
