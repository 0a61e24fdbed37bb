// Package reproducecli is the command reproduce (sod/cmd/reproduce, whose
// doc lists its experiments, subcommands and flags) as a library: Main
// runs it on the process's arguments, Run on given ones. Both take your
// own escape methods, which join the benchmark's built-in ones in
// `reproduce bench` with every flag (-profile, -methods, -shard, -out, …,
// bench merge and the HTML report): a Go method needs no more than
//
//	package main
//
//	import (
//		"sodworkbench.org/workbench/sod"
//		"sodworkbench.org/workbench/sod/escapebench"
//		"sodworkbench.org/workbench/sod/reproducecli"
//	)
//
//	func main() {
//		reproducecli.Main(escapebench.EscaperMethod("mine", nil, func(escapebench.CertifiedInstance, uint64) sod.Escaper {
//			return &sod.NegGradLineSearch{} // your sod.Escaper
//		}))
//	}
//
// and `go run . bench -profile quick` runs it beside every built-in method
// (a method given to Main is in every profile's methods; name it in
// -methods to choose). Its name is given once, in the Method. An escaper
// with a table of settings (sod.Configurable, its entries made with
// sod.NewParam), given as escapebench.ConfigurableMethod("mine", cfg,
// seeded, nil), takes settings and grids like a built-in method:
// -method 'mine:scale=0.5,1,2' or -methods mine+scale-2.
package reproducecli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/experiments"
)

// An experiment is one of the paper's experiments, run by name
// (reproduce [flags] name...). Each lives in its own file and registers
// itself from init with registerExperiment.
type experiment struct {
	name  string // command-line name
	about string // what it reproduces, one line for -h
	order int    // position in "all" (ascending)
	seed  bool   // whether it reads -seed
	// setup defines the experiment's own flags on fs and returns the
	// function that, after parsing, checks the values and returns the run.
	// Every experiment's setup is called on every invocation, so that any
	// flag may appear anywhere on the line; prepare is called only for the
	// experiments named, all of them before any runs or any file is
	// created. Range errors should be usage errors (usagef).
	setup func(fs *flag.FlagSet, c *common) (prepare func() (runFunc, error))
}

// runFunc runs a prepared experiment.
type runFunc func(ctx context.Context) error

// A subcommand is a verb other than running experiments (for example
// `reproduce report`). It must be the first argument; run receives the
// arguments after its name, parses them with its own flag set (newFlagSet,
// parseInterleaved) and reports usage errors with usagef and -h as
// flag.ErrHelp (after printing its help to stdout).
type subcommand struct {
	name  string // command-line name
	usage string // usage line without "usage: reproduce ", e.g. "report [flags]"
	about string // one line for -h
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var (
	experimentsByName = map[string]*experiment{}
	subcommands       = map[string]*subcommand{}
)

// registerExperiment adds e to the experiments (called from init).
func registerExperiment(e *experiment) {
	if _, dup := experimentsByName[e.name]; dup || e.name == "all" || subcommands[e.name] != nil {
		panic("reproduce: experiment " + e.name + " registered twice")
	}
	experimentsByName[e.name] = e
}

// registerSubcommand adds s to the subcommands (called from init).
func registerSubcommand(s *subcommand) {
	if _, dup := subcommands[s.name]; dup || s.name == "all" || experimentsByName[s.name] != nil {
		panic("reproduce: subcommand " + s.name + " registered twice")
	}
	subcommands[s.name] = s
}

// experimentList returns the experiments in "all" order.
func experimentList() []*experiment {
	list := slices.Collect(maps.Values(experimentsByName))
	slices.SortFunc(list, func(a, b *experiment) int { return a.order - b.order })
	return list
}

// experimentNames returns the names of the experiments, in "all" order;
// seededOnly keeps those that read -seed.
func experimentNames(seededOnly bool) []string {
	var names []string
	for _, e := range experimentList() {
		if e.seed || !seededOnly {
			names = append(names, e.name)
		}
	}
	return names
}

func subcommandNames() []string { return slices.Sorted(maps.Keys(subcommands)) }

// A usageError is a mistake on the command line: main prints it with the
// usage line and exits 2.
type usageError struct {
	err   error
	usage string // the usage line to print ("" for the main one)
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usage error of the experiment runner.
func usagef(format string, a ...any) error {
	return &usageError{err: fmt.Errorf(format, a...)}
}

// usageLine is the main usage line, listing the experiments and subcommands.
func usageLine() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: reproduce [flags] experiment... (%s|all)", strings.Join(experimentNames(false), "|"))
	for _, n := range subcommandNames() {
		fmt.Fprintf(&b, "\n       reproduce %s", subcommands[n].usage)
	}
	return b.String()
}

// exitCode maps run's error to the process's exit status: 0 for success
// and -h, 2 for a usage error, 1 for any other failure.
func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// Main runs the command on os.Args with your methods (see the package
// doc) and exits: 0 on success and -h, 2 on a usage error, 1 on a failure.
func Main(methods ...escapebench.Method) {
	// The first Ctrl-C cancels ctx (the running experiment stops at its
	// next check and the command exits 1); a second one kills the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() { <-ctx.Done(); stop() }()
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr, methods...)
	stop()
	code := exitCode(err)
	if code != 0 {
		report(os.Stderr, err)
	}
	os.Exit(code)
}

// report prints err, and for a usage error the usage line and a pointer to -h.
func report(w io.Writer, err error) {
	fmt.Fprintln(w, "reproduce:", err)
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.usage != "" {
			fmt.Fprintln(w, ue.usage)
		} else {
			fmt.Fprintln(w, usageLine())
		}
		fmt.Fprintln(w, "Run 'reproduce -h' for the experiments, subcommands and flags.")
	}
}

// newFlagSet returns a flag set that prints nothing itself: parse errors
// come back as errors (wrap them with usagef) and -h as flag.ErrHelp.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseInterleaved parses args with fs, letting flags appear before,
// between and after the positional arguments, which it returns in order.
// "--" ends the flags: everything after it is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// common holds the flags every experiment shares.
type common struct {
	out     string
	format  experiments.FileFormat
	seed    uint64
	seedSet bool // -seed given explicitly
	quiet   bool
	stdout  io.Writer
	stderr  io.Writer
}

// outputFlags defines -out and -format, which the experiments and merge
// share.
func (c *common) outputFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.out, "out", "reproduce-out", "output `dir`ectory")
	fs.TextVar(&c.format, "format", experiments.FormatJSONAndCSV, "output `format`: json, csv or both")
}

// write writes <out>/<name>.json (v) and <out>/<name>_<table>.csv (each
// table) as -format asks.
func (c *common) write(name string, v any, tables []experiments.CSVTable) error {
	return experiments.WriteResultFiles(c.out, name, c.format, v, tables)
}

// Run is the command without its process, with your methods (see the
// package doc): it returns an error for which ExitCode gives the exit
// status.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, methods ...escapebench.Method) error {
	return run(withMethods(ctx, methods), args, stdout, stderr)
}

// ExitCode is the exit status of Run's error: 0 for success and -h, 2
// for a usage error, 1 for any other failure.
func ExitCode(err error) int { return exitCode(err) }

// run is the command without its process: it returns a *usageError for a
// usage error, flag.ErrHelp after printing the help for -h, and any other
// error from the experiments. Nothing is written to disk unless the whole
// line is valid.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if s := subcommands[args[0]]; s != nil {
			return s.run(ctx, args[1:], stdout, stderr)
		}
	}
	p, err := plan(args, stdout, stderr)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p.c.out, 0o755); err != nil {
		return err
	}
	for i, r := range p.runs {
		start := time.Now()
		if err := r(ctx); err != nil {
			return fmt.Errorf("%s: %w", p.names[i], err)
		}
		fmt.Fprintf(stdout, "%s: done in %.2f s, data in %s\n", p.names[i], time.Since(start).Seconds(), p.c.out)
	}
	return nil
}

// A runPlan is a checked experiment line: the experiments to run, in
// order, prepared with their flags.
type runPlan struct {
	c     *common
	names []string
	runs  []runFunc
}

// plan parses and checks an experiment line (not a subcommand's): every
// flag, value and name, with no side effect but the help printed for -h.
func plan(args []string, stdout, stderr io.Writer) (*runPlan, error) {
	fs := newFlagSet("reproduce")
	c := &common{stdout: stdout, stderr: stderr, seed: 1}
	commonFlags := map[string]bool{}
	c.outputFlags(fs)
	fs.Var(uint64Flag{p: &c.seed}, "seed", "master `seed` in [0, 2⁶⁴−1] (the QNN's start seed only when given)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	fs.VisitAll(func(f *flag.Flag) { commonFlags[f.Name] = true })
	prepares := map[string]func() (runFunc, error){}
	owner := map[string]string{} // flag name → the experiment that defined it
	for _, e := range experimentList() {
		prepares[e.name] = e.setup(fs, c)
		fs.VisitAll(func(f *flag.Flag) {
			if _, ok := owner[f.Name]; !ok && !commonFlags[f.Name] {
				owner[f.Name] = e.name
			}
		})
	}
	names, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printHelp(stdout, fs)
		return nil, err
	}
	if err != nil {
		return nil, &usageError{err: err}
	}
	fs.Visit(func(f *flag.Flag) { c.seedSet = c.seedSet || f.Name == "seed" })
	if c.out == "" {
		return nil, usagef("-out is empty; want a directory name")
	}
	if len(names) == 0 {
		return nil, usagef("no experiment given; want one or more of %s, or all", strings.Join(experimentNames(false), ", "))
	}
	if slices.Contains(names, "all") {
		if len(names) > 1 {
			return nil, usagef("all runs every experiment and cannot be combined with others (got %s)", strings.Join(names, " "))
		}
		names = experimentNames(false)
	}
	var runs []runFunc
	for i, name := range names {
		prepare := prepares[name]
		switch {
		case subcommands[name] != nil:
			return nil, usagef("%q is a subcommand: it must come first (reproduce %s)", name, subcommands[name].usage)
		case prepare == nil:
			return nil, usagef("unknown experiment %q; want one of %s, or all", name, strings.Join(experimentNames(false), ", "))
		case slices.Contains(names[:i], name):
			return nil, usagef("experiment %q named twice", name)
		}
		r, err := prepare()
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	var unused []string
	fs.Visit(func(f *flag.Flag) {
		if e := owner[f.Name]; e != "" && !slices.Contains(names, e) {
			unused = append(unused, fmt.Sprintf("-%s applies to %s, which is not being run", f.Name, e))
		}
	})
	if c.seedSet && !slices.ContainsFunc(names, func(n string) bool { return experimentsByName[n].seed }) {
		unused = append(unused, "-seed applies to "+strings.Join(experimentNames(true), ", ")+", none of which is being run")
	}
	if len(unused) > 0 {
		return nil, usagef("%s", strings.Join(unused, "; "))
	}
	return &runPlan{c: c, names: names, runs: runs}, nil
}

// printHelp prints the full help: the usage line, the experiments, the
// subcommands and the flags with their ranges and defaults.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, usageLine())
	fmt.Fprintln(w, "\nExperiments (all runs every one, in this order); each writes <out>/<name>.json and <out>/<name>_*.csv:")
	for _, e := range experimentList() {
		fmt.Fprintf(w, "  %-10s %s\n", e.name, e.about)
	}
	if len(subcommands) > 0 {
		fmt.Fprintln(w, "\nSubcommands (first on the line; reproduce <subcommand> -h for their flags):")
		for _, n := range subcommandNames() {
			fmt.Fprintf(w, "  %-10s %s\n", n, subcommands[n].about)
		}
	}
	fmt.Fprintln(w, "\nFlags (anywhere on the line; \"--\" ends them):")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

func (c *common) progress() batch.ProgressFunc {
	if c.quiet {
		return nil
	}
	return batch.TextProgress(c.stderr, 40)
}
