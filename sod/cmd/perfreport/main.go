// Command perfreport runs the benchmarks of packages sod and sod/experiments
// and writes a Markdown performance report: the cost of each operation, how it
// grows with the problem size n (the ratio between consecutive sizes and the
// exponent k of a fitted n^k), and the ratios between the paths that compute
// the same thing (the structured PMC path against the dense one, a parallel
// study cell against a serial one).
//
// Usage:
//
//	go run ./sod/cmd/perfreport [-benchtime d] [-count k] [-o file]
//	go run ./sod/cmd/perfreport -in file [-o file]
//
// Without -in it runs, from the module's root,
//
//	go test -run '^$' -bench <selection> -benchtime d -count k -timeout 60m <package>
//
// for each package and selection listed in the report (selected, below), with
// its standard error passed through; with -in it reads saved `go test -bench`
// output instead ("-" is standard input). The report ends with the raw
// benchmark output it was made from, so `perfreport -in sod/PERFORMANCE.md`
// renders the same report again (the package's test checks that the committed
// report is exactly that).
//
// Flags:
//
//	-benchtime d   go test's -benchtime, a duration (e.g. 200ms, at most 1m)
//	               or an iteration count (e.g. 10x, at most 10⁶x); default 200ms
//	-count k       runs of each benchmark, in [1, 20] (default 1); the report
//	               takes the median of the runs
//	-in file       read `go test -bench` output from file ("-": stdin)
//	-o file        write the report to file (default: standard output)
//
// Times are the benchmarks' CPU time per operation (cpu-ns/op, from
// getrusage) where they report it, else wall time (ns/op): on a machine
// shared with other work CPU time is the steadier measure. Timings of one
// machine are not another's; the ratios and the growth with n are what the
// report is for.
//
// Regenerate the committed report with
//
//	go run ./sod/cmd/perfreport -o sod/PERFORMANCE.md
//
// or, after a change to the report's layout only, render it again from the
// numbers it carries:
//
//	go run ./sod/cmd/perfreport -in sod/PERFORMANCE.md -o sod/PERFORMANCE.md
//
// A usage error (an unknown flag, a value out of range) prints the usage
// line and exits with status 2; a failure of the benchmarks exits 1.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/internal/host"
	"sodworkbench.org/workbench/sod/internal/strictio"
)

// selection is one `go test -bench` run of the report: a package and a
// benchmark pattern (go test's -bench syntax, one regexp per level of
// sub-benchmark names).
type selection struct {
	pkg, bench string
}

// selected are the benchmarks the report runs. BenchmarkStudyFull (minutes)
// is left out.
var selected = []selection{
	{"./sod", "^(BenchmarkStream|BenchmarkMulAdd|BenchmarkGradPMC|BenchmarkHessVecPMC|BenchmarkGradPMCGeneric|BenchmarkGradGaussian|BenchmarkGradientDescentPMC|BenchmarkGDDecaying|BenchmarkAnalyzeCritical|BenchmarkEscapeRound)$"},
	{"./sod/experiments", "^(BenchmarkPMCGradSod|BenchmarkPMCGradFused|BenchmarkGD1000PMC80|BenchmarkStudyCell|BenchmarkAblation|BenchmarkCaseStudyPMC)$"},
}

const usage = "usage: perfreport [-benchtime d] [-count k] [-in file] [-o file]"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are the command's validated flags.
type options struct {
	benchtime string
	count     int
	in, out   string
}

// maxInput bounds the -in file (go test -bench output of a few runs is
// kilobytes).
const maxInput = 256 << 20

// benchtimeRE is go test's -benchtime syntax: a duration or Nx.
var benchtimeRE = regexp.MustCompile(`^([0-9]+)x$`)

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("perfreport", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run reports the error once
	fs.StringVar(&o.benchtime, "benchtime", "200ms", "go test -benchtime: a duration (at most 1m) or Nx (N in [1, 10⁶])")
	fs.IntVar(&o.count, "count", 1, "runs of each benchmark, in [1, 20]; the report takes their median")
	fs.StringVar(&o.in, "in", "", "read go test -bench output from `file` (\"-\": standard input) instead of running the benchmarks")
	fs.StringVar(&o.out, "o", "", "write the report to this file (default: standard output)")
	fs.Usage = func() {} // run prints the usage line once, after the error
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, usage)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
		}
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: perfreport takes flags only", fs.Arg(0))
	}
	if m := benchtimeRE.FindStringSubmatch(o.benchtime); m != nil {
		if n, err := strconv.Atoi(m[1]); err != nil || n < 1 || n > 1_000_000 {
			return o, fmt.Errorf("-benchtime %q: the iteration count must be in [1, 1000000]", o.benchtime)
		}
	} else if d, err := time.ParseDuration(o.benchtime); err != nil || d <= 0 || d > time.Minute {
		return o, fmt.Errorf("-benchtime %q: want a duration in (0, 1m] such as 200ms, or an iteration count such as 10x", o.benchtime)
	}
	if o.count < 1 || o.count > 20 {
		return o, fmt.Errorf("-count %d: must be in [1, 20]", o.count)
	}
	// Files are checked before any work: -in must be a regular file (a
	// FIFO would block the read, a directory fail it), and -o, if it
	// exists, too (a FIFO would block the report's write after the
	// benchmarks ran).
	if o.in != "" && o.in != "-" {
		if err := strictio.CheckRegular(o.in); err != nil {
			return o, fmt.Errorf("-in %q: %v; want a file of go test -bench output", o.in, err)
		}
	}
	if o.out != "" {
		if err := strictio.CheckRegular(o.out); err != nil && !errors.Is(err, os.ErrNotExist) {
			return o, fmt.Errorf("-o %q: %v; want a file name", o.out, err)
		}
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "perfreport:", err)
		fmt.Fprintln(stderr, usage)
		return 2
	}
	var raw []byte
	switch o.in {
	case "":
		raw, err = runBenchmarks(ctx, o, stderr)
	case "-":
		raw, err = io.ReadAll(stdin)
	default:
		raw, err = strictio.ReadRegular(o.in, maxInput)
	}
	if err != nil {
		fmt.Fprintln(stderr, "perfreport:", err)
		return 1
	}
	res, err := parseBench(raw)
	if err != nil {
		fmt.Fprintln(stderr, "perfreport:", err)
		return 1
	}
	var buf bytes.Buffer
	render(&buf, res)
	if o.out == "" {
		_, err = stdout.Write(buf.Bytes())
	} else {
		err = os.WriteFile(o.out, buf.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "perfreport:", err)
		return 1
	}
	return 0
}

// runBenchmarks runs the selected benchmarks and returns their output, each
// run preceded by a "$ go test ..." line naming it.
func runBenchmarks(ctx context.Context, o options, stderr io.Writer) ([]byte, error) {
	var all bytes.Buffer
	for _, s := range selected {
		args := []string{"test", "-run", "^$", "-bench", s.bench, "-benchtime", o.benchtime, "-count", strconv.Itoa(o.count), "-timeout", "60m", s.pkg}
		fmt.Fprintf(stderr, "perfreport: go %s\n", strings.Join(args, " "))
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Stderr = stderr
		out, err := cmd.Output()
		if err != nil {
			os.Stderr.Write(out)
			return nil, fmt.Errorf("go test %s: %w", s.pkg, err)
		}
		fmt.Fprintf(&all, "%s go %s\n", commandPrefix, shellJoin(args))
		if l := host.LoadAverage(); l != "" {
			fmt.Fprintf(&all, "%s %s\n", loadPrefix, l)
		}
		all.Write(out)
	}
	return all.Bytes(), nil
}

// shellJoin quotes the arguments that need it for a POSIX shell.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$^|()*?[]{}<>&;!#~`") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
