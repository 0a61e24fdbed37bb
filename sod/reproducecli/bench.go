package reproducecli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/sod/internal/host"
	"sodworkbench.org/workbench/sod/internal/strictio"
	"sodworkbench.org/workbench/widgets"
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
// -profile default (the default) is the README's benchmark,
// escapebench.DefaultSpec; -profile quick escapebench.QuickSpec, a suite of a
// few seconds; -profile large escapebench.LargeSpec (PMC up to n = 10⁵);
// the other flags amend any. -instances-only generates and certifies the
// suite's instances and runs no method (escapebench.GenerateInstances):
// it writes bench-instances.json and bench-instances.md
// (escapebench.WriteInstancesPage; -results-md copies it, e.g.
// sod/escapebench/RESULTS-large.md) and no journal, and takes no -shard. The journal, the suite, the
// outputs and the progress line are package escapebench's; this file only
// parses flags and wires them.

const benchUsage = "usage: reproduce bench [-profile default|quick|large] [-families list] [-methods list] [-trials k] [-per-cell k] [-seed s] [-workers w] [-shard k/N] [-out dir] [-results-md file] [-instances-only] [-quiet] [suite flags]\n       reproduce bench merge [-out dir] [-results-md file] journal-file-or-folder..."

func init() {
	registerSubcommand(&subcommand{
		name:  "bench",
		usage: "bench [flags] | bench merge [-out dir] journal...",
		about: "the escape benchmark: every escape method on families of certified spurious points (success rates, cost, curves)",
		run:   runBench,
	})
}

// nameList is a list flag of names from allowed.
func nameList(p *[]string, allowed []string) listFlag[string] {
	return listFlag[string]{p: p, parse: func(s string) (string, error) {
		if !slices.Contains(allowed, s) {
			return "", fmt.Errorf("unknown name; want some of %s", strings.Join(allowed, ", "))
		}
		return s, nil
	}}
}

// checkMethod accepts a method name escapebench.ResolveMethod knows and
// returns its canonical name ("sod-line-search+L-3" is
// "sod-line-search+l-3").
func checkMethod(s string) (string, error) {
	m, err := escapebench.ResolveMethod(s)
	return m.Name, err
}

// methodList is -methods: the listed methods, each checked and named
// canonically; a configuration listed twice (under any spellings) is a
// usage error naming both.
type methodList struct {
	p     *[]string
	check func(string) (string, error) // checkMethod if nil
}

func (l methodList) String() string {
	if l.p == nil {
		return ""
	}
	return strings.Join(*l.p, ",")
}

func (l methodList) Set(s string) error {
	var out []string
	given := map[string]string{}
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if len(out) == maxListLen {
			return fmt.Errorf("more than %d values", maxListLen)
		}
		check := l.check
		if check == nil {
			check = checkMethod
		}
		c, err := check(e)
		if err != nil {
			return err
		}
		if prev, dup := given[c]; dup {
			return fmt.Errorf("%q and %q are one configuration (%s): list it once", prev, e, c)
		}
		given[c] = e
		out = append(out, c)
	}
	*l.p = out
	return nil
}

// methodGrid is -method: it appends the methods of a grid
// (escapebench.ExpandMethodGrid), each checked and named canonically, and
// leaves out those already listed (one configuration is one method).
type methodGrid struct {
	p     *[]string
	check func(string) (string, error) // checkMethod if nil
}

func (g methodGrid) String() string { return "" }
func (g methodGrid) Set(s string) error {
	names, err := escapebench.ExpandMethodGrid(s)
	if err != nil {
		return err
	}
	check := g.check
	if check == nil {
		check = checkMethod
	}
	out := *g.p
	for _, n := range names {
		c, err := check(n)
		if err != nil {
			return err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	*g.p = out
	return nil
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return runBenchMerge(args[1:], stdout, stderr)
	}
	usage := func(err error) error { return &usageError{err: err, usage: benchUsage} }
	profile, err := profileArg(args)
	if err != nil {
		return usage(err)
	}
	spec, err := escapebench.ProfileSpec(profile)
	if err != nil {
		return usage(err)
	}
	user := methodsFrom(ctx) // Run's (Main's) methods
	addUserMethods(&spec, user)
	fs := newFlagSet("bench")
	var resultsMD string
	var pmcSizes, gaussN, gaussM, gaussR []int
	var pmcEps []float64
	c := &common{stdout: stdout, stderr: stderr}
	var workers int
	var sh shardFlag
	methodNames := escapebench.MethodNames()
	for _, m := range user {
		methodNames = append(methodNames, m.Name)
	}
	fs.StringVar(&c.out, "out", "bench-out", "output `dir`ectory")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	families := escapebench.FamilyNames()
	fs.Var(nameList(&spec.Families, families), "families", "`list` of families: "+strings.Join(families, ","))
	fs.Var(methodList{p: &spec.Methods, check: checkMethodIn(user)}, "methods", "`list` of methods: "+strings.Join(methodNames, ",")+", each optionally with +probe (judged after a GD probe) or +raw-h and +key-value settings (keys of the escaper's settings table, any case; named canonically, each configuration once)")
	fs.Var(methodOrExec{methodGrid{&spec.Methods, checkMethodIn(user)}, &spec.Exec}, "method", "add the methods of a `grid` base[+judge]:key=v1,v2;key2=…, each setting a method of its own, e.g. sod-line-search:l=3,5,7, or an external program exec:[NAME=]PROGRAM [ARG…] speaking sod/escapebench/PROTOCOL.md, e.g. 'exec:python3 sod/escapebench/clients/python/negcurv.py' (repeatable)")
	fs.Var(intFlag{p: &spec.Trials, min: 1, max: escapebench.MaxTrials}, "trials", fmt.Sprintf("`k` runs per (instance, method), in [1, %d]", escapebench.MaxTrials))
	fs.Var(intFlag{p: &spec.PerCell, min: 1, max: escapebench.MaxCellPoints}, "per-cell", fmt.Sprintf("`k` generated points per family cell, in [1, %d]", escapebench.MaxCellPoints))
	fs.Var(uint64Flag{p: &spec.Seed}, "seed", "master `seed` in [0, 2⁶⁴−1]")
	fs.Var(intFlag{p: &workers, min: 0, max: batch.MaxWorkers}, "workers", fmt.Sprintf("`w` parallel runs, in [0, %d] (0: all cores)", batch.MaxWorkers))
	fs.Var(&sh, "shard", fmt.Sprintf("run only slice `k/N` of the runs (0 ≤ k < N ≤ %d) into <out>/bench-journal-k-of-N.jsonl, for reproduce bench merge", batch.MaxShards))
	fs.String("profile", profile, "`suite`: default (the README's benchmark; its time is in sod/escapebench/RESULTS.md), quick (a few seconds) or large (PMC up to n = 10⁵: hours per core); the flags below amend it")
	fs.StringVar(&resultsMD, "results-md", "", "also write the markdown summary (bench-summary.md; with -instances-only bench-instances.md) to `file`, e.g. sod/escapebench/RESULTS.md")
	var instancesOnly bool
	fs.BoolVar(&instancesOnly, "instances-only", false, "generate and certify the families' instances only, run no method: write <out>/bench-instances.json and bench-instances.md (the families table and every certificate), no journal (e.g. -profile large -instances-only -results-md sod/escapebench/RESULTS-large.md)")
	fs.Var(listFlag[escapebench.PMCCell]{p: &spec.PMCCells, parse: escapebench.ParsePMCCell}, "pmc-cells", fmt.Sprintf("PMC `cells` n:ε[:points], n in [3, 10⁵], ε in (0, 1], points in [1, 1000] (default -per-cell); default %s", escapebench.CellList(spec.PMCCells)))
	fs.Var(intList(&pmcSizes, 3, escapebench.MaxPMCCellSize), "pmc-sizes", "PMC `list` of sizes n, each in [3, 10⁵]: with -pmc-eps, the cells n × ε (instead of -pmc-cells)")
	fs.Var(floatList(&pmcEps, 0, 1, true), "pmc-eps", "PMC `list` of perturbations ε, each in (0, 1]: with -pmc-sizes")
	fs.Var(intFlag{p: &spec.PMCIter, min: 0, max: 100_000_000}, "pmc-iter", "PMC: GD steps that find each point, in [0, 10⁸] (0: max(20000, 30n))")
	fs.Var(enumFlag{p: &spec.PMCStart, allowed: []string{"small-random", "one-flip", "random-signs"}}, "pmc-start", "PMC: GD `start` that finds each point: small-random (the success-rate study's; at n ≥ 80 it nearly always reaches M*), one-flip or random-signs")
	fs.Var(listFlag[escapebench.PMCCell]{p: &spec.PMCRankCells, parse: escapebench.ParsePMCCell}, "pmc-rank-cells", fmt.Sprintf("PMC of rank K ≥ 2 (family pmc-rank) `cells` n:ε[:points]:rK, K in [2, %d] with 6K − 3 ≤ n; default %s", escapebench.MaxPMCCellRank, escapebench.CellList(spec.PMCRankCells)))
	fs.Var(listFlag[escapebench.GaussianCell]{p: &spec.NoisyCells, parse: escapebench.ParseGaussianCell}, "noisy-cells", fmt.Sprintf("noisy Gaussian sensing (family gaussian-noisy) `cells` n:m:r, as -gauss-cells; default %s", escapebench.CellList(spec.NoisyCells)))
	fs.Var(floatFlag{p: &spec.NoiseSigma, min: 0, max: escapebench.MaxNoiseSigma, openMin: true}, "noise-sigma", fmt.Sprintf("noisy Gaussian sensing: noise `σ` of each measurement (e_i ~ N(0, σ²)), in (0, %g]", escapebench.MaxNoiseSigma))
	fs.Var(listFlag[escapebench.GaussianCell]{p: &spec.GaussCells, parse: escapebench.ParseGaussianCell}, "gauss-cells", fmt.Sprintf("Gaussian sensing `cells` n:m:r, n in [2, 200], m in [1, 10⁴], r in [1, min(n, 10)]; default %s", escapebench.CellList(spec.GaussCells)))
	fs.Var(intList(&gaussN, 2, escapebench.MaxGaussianCellSize), "gauss-n", "Gaussian sensing `list` of sizes n, each in [2, 200]: with -gauss-m and -gauss-r, the cells n × m × r (instead of -gauss-cells)")
	fs.Var(intList(&gaussM, 1, escapebench.MaxGaussianCellMeasurements), "gauss-m", "Gaussian sensing `list` of measurement counts m, each in [1, 10⁴]")
	fs.Var(intList(&gaussR, 1, escapebench.MaxGaussianCellRank), "gauss-r", "Gaussian sensing `list` of ranks r, each in [1, 10]")
	fs.Var(intFlag{p: &spec.GaussTries, min: 1, max: escapebench.MaxGaussianTries}, "gauss-tries", fmt.Sprintf("Gaussian sensing: draws per point until GD stalls away from M*, in [1, %d]", escapebench.MaxGaussianTries))
	fs.Var(intFlag{p: &spec.MaxIter, min: 1, max: 10_000_000}, "max-iter", "GD steps per phase, in [1, 10⁷]")
	fs.Var(intFlag{p: &spec.MaxEscapes, min: 1, max: 1000}, "max-escapes", "escape rounds per run, in [1, 1000]")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, benchUsage)
		fmt.Fprint(stdout, "\nRuns every method from every certified spurious point of the families, Trials times each;\nresults are appended per finished run to <out>/bench-journal*.jsonl, so rerunning resumes.\nA complete run (or merge) writes bench-results.json/.csv, bench-summary.json, bench-timings.csv\nbench-report.html, an offline page of the tables, profiles, certificates and curves, the profiles\nas SVG for papers (bench-profile-<family>-ecdf|perf|data.svg, bench-convergence-<family>.svg: median and\ninter-quartile band of each method), and bench-summary.md (copied to -results-md). -profile quick is a suite of a few seconds; the default\nsuite (every family up to PMC n = 10⁴, every method, 20 trials) takes minutes per core: the time of\nits last full run is in sod/escapebench/RESULTS.md; -profile large is PMC at n = 10⁵ and rank 3, 5 at n = 10³ (hours;\nits instances, certified by -instances-only, and their time are in sod/escapebench/RESULTS-large.md).\n\nFlags:\n")
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
	if instancesOnly && sh.set {
		return usage(errors.New("-instances-only runs no method, so it takes no -shard"))
	}
	suite, err := spec.Suite(user...)
	if err != nil {
		return usage(err)
	}
	if instancesOnly {
		return benchInstancesOnly(ctx, c, spec, suite, args, len(user) > 0, resultsMD)
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
	j, err := escapebench.ResumeJournal(path, escapebench.JournalHeader{Bench: spec, ShardK: shard.K, ShardN: shard.N})
	if err != nil {
		return err
	}
	defer j.Close()
	resumed := len(j.Runs()) > 0
	if resumed {
		fmt.Fprintf(stdout, "bench: resuming, %d runs already in %s\n", len(j.Runs()), path)
	}
	start := time.Now()
	opt := escapebench.RunOptions{Workers: workers, Shard: shard, Journal: j}
	if !c.quiet {
		var stop func()
		opt.Progress, stop = escapebench.ProgressLine(stderr, 40, time.Second)
		defer stop()
	}
	sr, err := escapebench.RunSuite(ctx, suite, opt)
	if err != nil {
		return err
	}
	if err := j.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "bench: %d runs in %.1f s (journal %s)\n", len(sr.Runs), time.Since(start).Seconds(), path)
	if err := writeInstances(c.out, spec, sr, stdout); err != nil {
		return err
	}
	if sh.set {
		fmt.Fprintf(stdout, "bench: shard %d/%d done; combine the shards with reproduce bench merge -out DIR %s\n", sh.k, sh.n, c.out)
		return nil
	}
	info := escapebench.PageInfo{Command: benchCommand(args, len(user) > 0), Workers: workers}
	if !resumed {
		info.Wall = time.Since(start)
		info.Load = host.LoadAverage()
	}
	if info.Workers == 0 {
		info.Workers = runtime.GOMAXPROCS(0)
	}
	return writeBench(c.out, spec, sr, stdout, stderr, info, resultsMD)
}

// benchCommand is the command a page says wrote it: go run of this
// command, or the user's own main (Main) when it has methods of its own.
func benchCommand(args []string, userMain bool) []string {
	if userMain {
		return append([]string{filepath.Base(os.Args[0]), "bench"}, args...)
	}
	return append([]string{"go", "run", "./sod/cmd/reproduce", "bench"}, args...)
}

// benchInstancesOnly is reproduce bench -instances-only: it generates and
// certifies the suite's instances (escapebench.GenerateInstances), printing
// each family with the time since the start, and writes
// <out>/bench-instances.json and bench-instances.md (copied to resultsMD).
func benchInstancesOnly(ctx context.Context, c *common, spec escapebench.Spec, suite escapebench.Suite, args []string, userMain bool, resultsMD string) error {
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	prog := func(p batch.Progress) {
		if !c.quiet {
			fmt.Fprintf(c.stderr, "bench: %s (%d of %d families done) at %s\n", p.Label, p.Done, p.Total, time.Since(start).Round(time.Second))
		}
	}
	sr, err := escapebench.GenerateInstances(ctx, suite, prog)
	if err != nil {
		return err
	}
	info := escapebench.PageInfo{Command: benchCommand(args, userMain), Workers: 1, Wall: time.Since(start), Load: host.LoadAverage(), Env: escapebench.CurrentEnv()}
	fmt.Fprintf(c.stdout, "bench: instances generated and certified in %.1f s\n", info.Wall.Seconds())
	if err := writeInstances(c.out, spec, sr, c.stdout); err != nil {
		return err
	}
	page := func(w io.Writer) error { return escapebench.WriteInstancesPage(w, spec, sr, info) }
	if err := writeFile(filepath.Join(c.out, escapebench.InstancesPageFile), page); err != nil {
		return err
	}
	if resultsMD != "" {
		if err := writeFile(resultsMD, page); err != nil {
			return fmt.Errorf("%s: %w", resultsMD, err)
		}
	}
	fmt.Fprintf(c.stdout, "bench: data in %s (no method run: -instances-only)\n", c.out)
	return nil
}

// The files of reproduce bench besides the journals and the JSON and CSV
// of escapebench's writers.
const (
	instancesFile    = "bench-instances.json"      // escapebench.WriteInstancesJSON: the same for every shard
	benchReportFile  = "bench-report.html"         // figures.WriteBenchReport: holds CPU times and fresh chart ids
	benchSummaryFile = escapebench.SummaryPageFile // -results-md writes a copy
)

// writeInstances writes <out>/bench-instances.json and prints the counts
// per family.
func writeInstances(out string, spec escapebench.Spec, sr *escapebench.SuiteRun, stdout io.Writer) error {
	for _, f := range spec.Families {
		certified, dropped := sr.Counts(f)
		fmt.Fprintf(stdout, "bench: family %s: %d certified instances, %d points dropped\n", f, certified, dropped)
	}
	return writeFile(filepath.Join(out, instancesFile), func(w io.Writer) error { return escapebench.WriteInstancesJSON(w, escapebench.CurrentEnv(), sr) })
}

// writeFile writes what write writes to path, nothing if it fails.
func writeFile(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// writeBench writes the outputs of a complete suite from what sr holds in
// memory (runs in canonical order, summarised once) and prints its table.
// An output that cannot be written does not stop the others: the HTML
// report without the ECharts assets (widgets.ErrAssetsMissing) is skipped
// with a note on stderr saying why and how to install them, and any other
// failure is returned after every other file is written.
func writeBench(out string, spec escapebench.Spec, sr *escapebench.SuiteRun, stdout, stderr io.Writer, info escapebench.PageInfo, resultsMD string) error {
	r, err := escapebench.NewOutputs(spec, sr, info)
	if err != nil {
		return err
	}
	rep := figures.BenchReport{Title: "Escape benchmark", Settings: spec.Settings(), Runs: sr.Runs, Summaries: r.Summaries, Analyses: r.Analyses, Instances: sr.Instances, Dropped: sr.Dropped, Env: r.Info.Env, Shards: r.Info.Shards}
	files := append(r.Files(), escapebench.OutputFile{Name: benchReportFile, Write: func(w io.Writer) error { return figures.WriteBenchReport(w, rep) }})
	files = append(files, profileFigureFiles(r.Analyses)...) // the profiles as SVG for papers
	files = append(files, bandFigureFiles(r.Summaries)...)   // and the convergence bands
	var skipped []string
	var failed []error
	for _, f := range files {
		err := writeFile(filepath.Join(out, f.Name), f.Write)
		switch {
		case f.Name == benchReportFile && errors.Is(err, widgets.ErrAssetsMissing):
			fmt.Fprintf(stderr, "bench: skipped %s, the other files are written: %v\n", f.Name, err)
			skipped = append(skipped, f.Name)
		case err != nil:
			failed = append(failed, fmt.Errorf("%s: %w", f.Name, err))
		}
		if f.Name == escapebench.SummaryPageFile && resultsMD != "" {
			if err := writeFile(resultsMD, f.Write); err != nil {
				failed = append(failed, fmt.Errorf("%s: %w", resultsMD, err))
			}
		}
	}
	if err := escapebench.WriteSummaryTable(stdout, r.Summaries); err != nil {
		failed = append(failed, err)
	}
	note := ""
	if len(skipped) > 0 {
		note = fmt.Sprintf(" (skipped %s: ECharts assets not installed, see above)", strings.Join(skipped, ", "))
	}
	fmt.Fprintf(stdout, "bench: data in %s%s\n", out, note)
	return errors.Join(failed...)
}

const benchMergeUsage = "usage: reproduce bench merge [-out dir] [-results-md file] journal-file-or-folder..."

// runBenchMerge combines the journals of the N shards of one suite.
func runBenchMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench merge")
	out := "bench-out"
	fs.StringVar(&out, "out", "bench-out", "output `dir`ectory")
	var resultsMD string
	fs.StringVar(&resultsMD, "results-md", "", "also write the markdown summary (bench-summary.md) to `file`")
	paths, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, benchMergeUsage)
		fmt.Fprintln(stdout, "\nCombines the journals of reproduce bench -shard k/N (files, or folders holding")
		fmt.Fprintln(stdout, "bench-journal*.jsonl) into the outputs of the unsharded run, byte for byte; the journal of")
		fmt.Fprintln(stdout, "an unsharded run (bench-journal.jsonl) is its one shard, so this makes the report of any run.")
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
		return usage(errors.New("no journal given; want the files (or folders) written by reproduce bench, with or without -shard k/N"))
	}
	files, err := shardFiles(paths, "journal", "bench-journal*.jsonl")
	if err != nil {
		return usage(err)
	}
	var js []*escapebench.Journal
	for _, f := range files {
		j, err := escapebench.ReadJournal(f)
		if err != nil {
			return err
		}
		js = append(js, j)
	}
	rs, err := escapebench.MergeJournals(js)
	if err != nil {
		return err
	}
	// The instances file of the shards (all alike), if next to the first:
	// read and checked (a FIFO or a device there is refused unopened)
	// before anything is written, then copied as it is.
	sr := &escapebench.SuiteRun{Runs: rs}
	instPath := filepath.Join(filepath.Dir(files[0]), instancesFile)
	var instBytes []byte
	if _, err := os.Lstat(instPath); err == nil {
		if instBytes, err = strictio.ReadRegular(instPath, escapebench.MaxInstancesBytes); err != nil {
			return err
		}
		in, err := escapebench.ReadInstancesJSON(bytes.NewReader(instBytes))
		if err == nil {
			err = in.CheckRuns(rs)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", instPath, err)
		}
		sr.Instances, sr.Dropped = in.Instances, in.Dropped
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if instBytes != nil && filepath.Clean(filepath.Dir(files[0])) != filepath.Clean(out) {
		if err := os.WriteFile(filepath.Join(out, instancesFile), instBytes, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "bench merge: %d shards\n", len(files))
	info := escapebench.PageInfo{Command: append([]string{"go", "run", "./sod/cmd/reproduce", "bench", "merge"}, args...), Shards: escapebench.ShardEnvs(js)}
	return writeBench(out, js[0].Header.Bench, sr, stdout, stderr, info, resultsMD)
}

// checkResultsMD refuses a -results-md whose folder does not exist, or
// that names something other than a regular file (a folder; a FIFO, whose
// write would block after the suite), before any work, not after a long
// suite.
func checkResultsMD(path string) error {
	if path == "" {
		return nil
	}
	if err := strictio.CheckRegular(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("-results-md %q: %v; want a file name", path, err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-results-md %q: folder %q does not exist", path, filepath.Dir(path))
	}
	return nil
}
