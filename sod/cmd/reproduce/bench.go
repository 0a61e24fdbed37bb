package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/escapebench"
)

// The bench subcommand: `reproduce bench [flags]` runs the escape
// benchmark (package sod/escapebench) — families of certified spurious
// points × escape methods × trials — and `reproduce bench merge -out DIR
// journal...` combines the journals of `-shard k/N` runs.
//
// Every finished run is appended at once to <out>/bench-journal.jsonl
// (bench-journal-k-of-N.jsonl with -shard), whose first line records the
// suite; running the same command again resumes: the runs in the journal
// are not redone. An unsharded run, and merge, then write
// bench-results.json and bench-results.csv (deterministic: the same bytes
// for one run, a resumed run and merged shards), bench-timings.csv (CPU
// and wall time per run) and bench-summary.json (metrics and curves per
// family and method) and bench-report.html (a self-contained offline page
// of the tables, certificates and convergence curves; like the timings, not
// byte-identical between runs) and bench-summary.md (the markdown summary:
// command, suite, instances, table and time; -results-md writes a copy,
// e.g. sod/escapebench/RESULTS.md), and print the summary table.
//
// -profile default (the default) is the README's benchmark, defaultBenchSpec;
// -profile quick a suite of a few seconds; the other flags amend either.

const benchUsage = "usage: reproduce bench [-profile default|quick] [-families list] [-methods list] [-trials k] [-per-cell k] [-seed s] [-workers w] [-shard k/N] [-out dir] [-results-md file] [-quiet] [suite flags]\n       reproduce bench merge [-out dir] [-results-md file] journal-file-or-folder..."

func init() {
	registerSubcommand(&subcommand{
		name:  "bench",
		usage: "bench [flags] | bench merge [-out dir] journal...",
		about: "the escape benchmark: every escape method on families of certified spurious points (success rates, cost, curves)",
		run:   runBench,
	})
}

// journalHeader is a journal's first line; journalEnd its last once the
// shard is complete.
type journalHeader struct {
	Bench  benchSpec `json:"bench"`
	ShardK int       `json:"shard_k"`
	ShardN int       `json:"shard_n"`
}
type journalEnd struct {
	Complete int `json:"complete"` // runs in the shard
}

var benchFamilyNames = []string{"paper", "pmc", "gaussian"}

// pmcStarts maps -pmc-start's words to escapebench.PMCStart.
var pmcStarts = map[string]escapebench.PMCStart{}

func init() {
	for _, s := range []escapebench.PMCStart{escapebench.StartSmallRandom, escapebench.StartOneFlip, escapebench.StartRandomSigns} {
		pmcStarts[s.String()] = s
	}
}

// nameList is a comma-separated list of names from allowed, none twice.
type nameList struct {
	p       *[]string
	allowed []string
}

func (f nameList) String() string {
	if f.p == nil {
		return ""
	}
	return strings.Join(*f.p, ",")
}

func (f nameList) Set(s string) error {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if !slices.Contains(f.allowed, e) {
			return fmt.Errorf("unknown name %q; want some of %s", e, strings.Join(f.allowed, ", "))
		}
		if slices.Contains(out, e) {
			return fmt.Errorf("%q listed twice", e)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return errors.New("empty list; want one or more comma-separated names")
	}
	*f.p = out
	return nil
}

// noDup wraps a list flag and refuses a value listed twice.
type noDup[T comparable] struct{ listFlag[T] }

func (f noDup[T]) Set(s string) error {
	if err := f.listFlag.Set(s); err != nil {
		return err
	}
	for i, v := range *f.p {
		if slices.Contains((*f.p)[:i], v) {
			return fmt.Errorf("%v listed twice", v)
		}
	}
	return nil
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return runBenchMerge(args[1:], stdout)
	}
	usage := func(err error) error { return &usageError{err: err, usage: benchUsage} }
	profile, err := profileArg(args)
	if err != nil {
		return usage(err)
	}
	spec := defaultBenchSpec()
	if profile == "quick" {
		spec = quickBenchSpec()
	}
	fs := newFlagSet("bench")
	var resultsMD string
	var pmcSizes, gaussN, gaussM, gaussR []int
	var pmcEps []float64
	c := &common{stdout: stdout, stderr: stderr}
	var workers int
	var sh shardFlag
	var methodNames []string
	for _, m := range escapebench.BuiltinMethods() {
		methodNames = append(methodNames, m.Name)
	}
	fs.StringVar(&c.out, "out", "bench-out", "output `dir`ectory")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	fs.Var(nameList{&spec.Families, benchFamilyNames}, "families", "`list` of families: "+strings.Join(benchFamilyNames, ","))
	fs.Var(nameList{&spec.Methods, methodNames}, "methods", "`list` of methods: "+strings.Join(methodNames, ","))
	fs.Var(intFlag{p: &spec.Trials, min: 1, max: escapebench.MaxTrials}, "trials", fmt.Sprintf("`k` runs per (instance, method), in [1, %d]", escapebench.MaxTrials))
	fs.Var(intFlag{p: &spec.PerCell, min: 1, max: 1000}, "per-cell", "`k` generated points per family cell, in [1, 1000]")
	fs.Var(uint64Flag{p: &spec.Seed}, "seed", "master `seed` in [0, 2⁶⁴−1]")
	fs.Var(intFlag{p: &workers, min: 0, max: 4096}, "workers", "`w` parallel runs, in [0, 4096] (0: all cores)")
	fs.Var(&sh, "shard", fmt.Sprintf("run only slice `k/N` of the runs (0 ≤ k < N ≤ %d) into <out>/bench-journal-k-of-N.jsonl, for reproduce bench merge", batch.MaxShards))
	fs.String("profile", profile, "`suite`: default (the README's benchmark; its time is in sod/escapebench/RESULTS.md) or quick (a few seconds); the flags below amend it")
	fs.StringVar(&resultsMD, "results-md", "", "also write the markdown summary (bench-summary.md) to `file`, e.g. sod/escapebench/RESULTS.md")
	fs.Var(listFlag[escapebench.PMCCell]{p: &spec.PMCCells, parse: parsePMCCell}, "pmc-cells", fmt.Sprintf("PMC `cells` n:ε[:points], n in [3, 10⁵], ε in (0, 1], points in [1, 1000] (default -per-cell); default %s", cellsString(spec.PMCCells)))
	fs.Var(noDup[int]{intList(&pmcSizes, 3, benchPMCMaxN)}, "pmc-sizes", "PMC `list` of sizes n, each in [3, 10⁵]: with -pmc-eps, the cells n × ε (instead of -pmc-cells)")
	fs.Var(noDup[float64]{floatList(&pmcEps, 0, 1, true)}, "pmc-eps", "PMC `list` of perturbations ε, each in (0, 1]: with -pmc-sizes")
	fs.Var(intFlag{p: &spec.PMCIter, min: 0, max: 100_000_000}, "pmc-iter", "PMC: GD steps that find each point, in [0, 10⁸] (0: max(20000, 30n))")
	fs.Var(enumFlag{p: &spec.PMCStart, allowed: []string{"small-random", "one-flip", "random-signs"}}, "pmc-start", "PMC: GD `start` that finds each point: small-random (the success-rate study's; at n ≥ 80 it nearly always reaches M*), one-flip or random-signs")
	fs.Var(listFlag[escapebench.GaussianCell]{p: &spec.GaussCells, parse: parseGaussCell}, "gauss-cells", fmt.Sprintf("Gaussian sensing `cells` n:m:r, n in [2, 200], m in [1, 10⁴], r in [1, min(n, 10)]; default %s", cellsString(spec.GaussCells)))
	fs.Var(noDup[int]{intList(&gaussN, 2, benchGaussMaxN)}, "gauss-n", "Gaussian sensing `list` of sizes n, each in [2, 200]: with -gauss-m and -gauss-r, the cells n × m × r (instead of -gauss-cells)")
	fs.Var(noDup[int]{intList(&gaussM, 1, benchGaussMaxM)}, "gauss-m", "Gaussian sensing `list` of measurement counts m, each in [1, 10⁴]")
	fs.Var(noDup[int]{intList(&gaussR, 1, benchGaussMaxR)}, "gauss-r", "Gaussian sensing `list` of ranks r, each in [1, 10]")
	fs.Var(intFlag{p: &spec.GaussTries, min: 1, max: escapebench.MaxGaussianTries}, "gauss-tries", fmt.Sprintf("Gaussian sensing: draws per point until GD stalls away from M*, in [1, %d]", escapebench.MaxGaussianTries))
	fs.Var(intFlag{p: &spec.MaxIter, min: 1, max: 10_000_000}, "max-iter", "GD steps per phase, in [1, 10⁷]")
	fs.Var(intFlag{p: &spec.MaxEscapes, min: 1, max: 1000}, "max-escapes", "escape rounds per run, in [1, 1000]")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, benchUsage)
		fmt.Fprintln(stdout, "\nRuns every method from every certified spurious point of the families, Trials times each;")
		fmt.Fprintln(stdout, "results are appended per finished run to <out>/bench-journal*.jsonl, so rerunning resumes.")
		fmt.Fprintln(stdout, "A complete run (or merge) writes bench-results.json/.csv, bench-summary.json, bench-timings.csv")
		fmt.Fprintln(stdout, "bench-report.html, an offline page of the tables, certificates and convergence curves, and")
		fmt.Fprintln(stdout, "bench-summary.md (copied to -results-md). -profile quick is a suite of a few seconds; the default")
		fmt.Fprintln(stdout, "suite (every family up to PMC n = 10⁴, every method, 20 trials) takes minutes per core: the time of")
		fmt.Fprintln(stdout, "its last full run is on the last line of sod/escapebench/RESULTS.md.")
		fmt.Fprintln(stdout, "\nFlags:")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return err
	}
	if err != nil {
		return usage(err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := productCells(&spec, set, pmcSizes, pmcEps, gaussN, gaussM, gaussR); err != nil {
		return usage(err)
	}
	if len(pos) > 0 {
		return usage(fmt.Errorf("unexpected argument %q (reproduce bench takes flags only; merge must come first)", pos[0]))
	}
	if c.out == "" {
		return usage(errors.New("-out is empty; want a directory name"))
	}
	if err := checkResultsMD(resultsMD); err != nil {
		return usage(err)
	}
	suite := spec.suite(workers)
	if err := suite.Validate(); err != nil {
		return usage(err)
	}
	shard := batch.Shard{K: sh.k, N: sh.n}
	name := "bench-journal.jsonl"
	if sh.set {
		name = fmt.Sprintf("bench-journal-%d-of-%d.jsonl", sh.k, sh.n)
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(c.out, name)
	head := journalHeader{Bench: spec, ShardK: shard.K, ShardN: shard.N}
	var done []*escapebench.TrialResult
	if _, err := os.Stat(path); err == nil {
		j, err := readBenchJournal(path)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(j.head, head) {
			return fmt.Errorf("%s belongs to another suite or shard (%+v); use another -out or the same flags", path, j.head)
		}
		done = j.runs
		if err := truncateToLastLine(path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "bench: resuming, %d runs already in %s\n", len(done), path)
	} else {
		hb, _ := json.Marshal(head)
		if err := os.WriteFile(path, append(hb, '\n'), 0o644); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	start := time.Now()
	var prog batch.ProgressFunc
	if !c.quiet {
		var stop func()
		prog, stop = benchProgress(stderr, 40, time.Second)
		defer stop()
	}
	sr, err := escapebench.RunSuite(ctx, suite, shard, done, f, prog)
	if err != nil {
		return err
	}
	rs := sr.Runs
	eb, _ := json.Marshal(journalEnd{Complete: len(rs)})
	if _, err := f.Write(append(eb, '\n')); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "bench: %d runs in %.1f s (journal %s)\n", len(rs), time.Since(start).Seconds(), path)
	if err := writeInstances(c.out, sr, stdout); err != nil {
		return err
	}
	if sh.set {
		fmt.Fprintf(stdout, "bench: shard %d/%d done; combine the shards with reproduce bench merge -out DIR %s\n", sh.k, sh.n, c.out)
		return nil
	}
	info := benchRunInfo{args: append([]string{"bench"}, args...), workers: suite.Workers, resultsMD: resultsMD}
	if len(done) == 0 {
		info.wall = time.Since(start)
	}
	if info.workers == 0 {
		info.workers = runtime.GOMAXPROCS(0)
	}
	return writeBench(c.out, spec, rs, stdout, info)
}

// truncateToLastLine cuts a line left partial by an interrupted write, so
// that the records appended next start on a line of their own.
func truncateToLastLine(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		return os.Truncate(path, int64(i+1))
	}
	return nil
}

// benchJournal is a parsed journal file.
type benchJournal struct {
	head     journalHeader
	runs     []*escapebench.TrialResult
	complete int // −1 if the shard did not finish
}

func readBenchJournal(path string) (*benchJournal, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	first, rest, ok := bytes.Cut(b, []byte("\n"))
	j := &benchJournal{complete: -1}
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.DisallowUnknownFields()
	if !ok || dec.Decode(&j.head) != nil || j.head.Bench.Trials == 0 {
		return nil, fmt.Errorf("%s is not a bench journal (no suite header on its first line)", path)
	}
	var recs bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(rest))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var end journalEnd
		if line := sc.Bytes(); bytes.HasPrefix(line, []byte(`{"complete":`)) && json.Unmarshal(line, &end) == nil {
			j.complete = end.Complete
			continue
		}
		recs.Write(sc.Bytes())
		recs.WriteByte('\n')
	}
	if len(rest) > 0 && rest[len(rest)-1] != '\n' {
		// An interrupted write: drop the partial last line.
		b := recs.Bytes()
		if i := bytes.LastIndexByte(b[:len(b)-1], '\n'); i >= 0 {
			recs.Truncate(i + 1)
		} else {
			recs.Reset()
		}
	}
	j.runs, err = escapebench.ReadJournal(&recs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return j, nil
}

// instancesFile lists the suite's certified instances and dropped points
// (the same for every shard).
const instancesFile = "bench-instances.json"

// benchInstances is the content of instancesFile.
type benchInstances struct {
	Instances []escapebench.InstanceInfo `json:"instances"`
	Dropped   []escapebench.Dropped      `json:"dropped"`
}

// readBenchInstances reads <out>/bench-instances.json; nil, nil if there is
// none (a merge of shard folders that lack it).
func readBenchInstances(out string) (*benchInstances, error) {
	path := filepath.Join(out, instancesFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var in benchInstances
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &in, nil
}

func writeInstances(out string, sr *escapebench.SuiteRun, stdout io.Writer) error {
	b, err := json.MarshalIndent(benchInstances{sr.Instances, sr.Dropped}, "", " ")
	if err != nil {
		return err
	}
	counts := map[string][2]int{}
	var fams []string
	for _, in := range sr.Instances {
		if _, ok := counts[in.Family]; !ok {
			fams = append(fams, in.Family)
		}
		c := counts[in.Family]
		c[0]++
		counts[in.Family] = c
	}
	for _, d := range sr.Dropped {
		if _, ok := counts[d.Family]; !ok {
			fams = append(fams, d.Family)
		}
		c := counts[d.Family]
		c[1]++
		counts[d.Family] = c
	}
	for _, f := range fams {
		fmt.Fprintf(stdout, "bench: family %s: %d certified instances, %d points dropped\n", f, counts[f][0], counts[f][1])
	}
	return os.WriteFile(filepath.Join(out, instancesFile), append(b, '\n'), 0o644)
}

// writeBench writes the outputs of a complete suite and prints its table.
func writeBench(out string, spec benchSpec, rs []*escapebench.TrialResult, stdout io.Writer, info benchRunInfo) error {
	rs, err := escapebench.Canonical(rs)
	if err != nil {
		return err
	}
	ss := escapebench.Summarize(rs)
	for _, w := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"bench-results.json", func(w io.Writer) error { return escapebench.WriteResultsJSON(w, rs) }},
		{"bench-results.csv", func(w io.Writer) error { return escapebench.WriteResultsCSV(w, rs) }},
		{"bench-timings.csv", func(w io.Writer) error { return escapebench.WriteTimingsCSV(w, rs) }},
		{"bench-summary.json", func(w io.Writer) error { return escapebench.WriteSummaryJSON(w, ss) }},
	} {
		var b bytes.Buffer
		if err := w.write(&b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, w.name), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	inst, err := readBenchInstances(out)
	if err != nil {
		return err
	}
	if err := writeBenchReport(out, spec, rs, inst); err != nil {
		return err
	}
	if err := writeBenchMarkdown(out, spec, ss, rs, inst, info); err != nil {
		return err
	}
	if err := escapebench.WriteSummaryTable(stdout, ss); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "bench: data in %s\n", out)
	return nil
}

const benchMergeUsage = "usage: reproduce bench merge [-out dir] [-results-md file] journal-file-or-folder..."

// runBenchMerge combines the journals of the N shards of one suite.
func runBenchMerge(args []string, stdout io.Writer) error {
	fs := newFlagSet("bench merge")
	out := "bench-out"
	fs.StringVar(&out, "out", "bench-out", "output `dir`ectory")
	var resultsMD string
	fs.StringVar(&resultsMD, "results-md", "", "also write the markdown summary (bench-summary.md) to `file`")
	paths, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, benchMergeUsage)
		fmt.Fprintln(stdout, "\nCombines the journals of reproduce bench -shard k/N (files, or folders holding")
		fmt.Fprintln(stdout, "bench-journal-*-of-*.jsonl) into the outputs of the unsharded run, byte for byte.")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return err
	}
	usage := func(err error) error { return &usageError{err: err, usage: benchMergeUsage} }
	if err != nil {
		return usage(err)
	}
	if out == "" {
		return usage(errors.New("-out is empty; want a directory name"))
	}
	if err := checkResultsMD(resultsMD); err != nil {
		return usage(err)
	}
	if len(paths) == 0 {
		return usage(errors.New("no journal given; want the files (or folders) written by reproduce bench -shard k/N"))
	}
	files, err := shardFiles(paths, "journal", "bench-journal-*-of-*.jsonl")
	if err != nil {
		return usage(err)
	}
	var all []*escapebench.TrialResult
	var spec *journalHeader
	seen := map[int]string{}
	for _, f := range files {
		j, err := readBenchJournal(f)
		if err != nil {
			return err
		}
		switch {
		case spec == nil:
			h := j.head
			spec = &h
		case !reflect.DeepEqual(spec.Bench, j.head.Bench) || spec.ShardN != j.head.ShardN:
			return fmt.Errorf("%s belongs to another suite or sharding than %s", f, files[0])
		}
		if j.head.ShardN < 1 {
			return fmt.Errorf("%s is the journal of an unsharded run, not a shard", f)
		}
		if prev, ok := seen[j.head.ShardK]; ok {
			return fmt.Errorf("shard %d/%d given twice (%s and %s)", j.head.ShardK, j.head.ShardN, prev, f)
		}
		seen[j.head.ShardK] = f
		if j.complete < 0 || j.complete != len(dedupe(j.runs)) {
			return fmt.Errorf("%s: shard %d/%d is not complete (rerun its command to resume it)", f, j.head.ShardK, j.head.ShardN)
		}
		all = append(all, j.runs...)
	}
	for k := range spec.ShardN {
		if _, ok := seen[k]; !ok {
			return fmt.Errorf("shard %d/%d is missing", k, spec.ShardN)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	// The instances file of the shards (all alike), if next to the first.
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(files[0]), instancesFile)); err == nil && filepath.Clean(filepath.Dir(files[0])) != filepath.Clean(out) {
		if err := os.WriteFile(filepath.Join(out, instancesFile), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "bench merge: %d shards\n", len(files))
	return writeBench(out, spec.Bench, all, stdout, benchRunInfo{args: append([]string{"bench", "merge"}, args...), resultsMD: resultsMD})
}

func dedupe(rs []*escapebench.TrialResult) []*escapebench.TrialResult {
	c, err := escapebench.Canonical(rs)
	if err != nil {
		return rs
	}
	return c
}
