package reproducecli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the tests run the real command (Main, with its exit
// status) by re-executing the test binary with REPRODUCE_TEST_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("REPRODUCE_TEST_MAIN") == "1" {
		Main()
		return
	}
	os.Exit(m.Run())
}

// runMain runs the command as a process in a fresh directory and returns
// its exit status, stdout, stderr and the directory.
func runMain(t *testing.T, args ...string) (code int, stdout, stderr, dir string) {
	t.Helper()
	dir = t.TempDir()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REPRODUCE_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String(), dir
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	// Flags before, between and after the experiment names.
	err := run(context.Background(), []string{"-out", dir, "-quiet", "-trials", "2", "-sizes", "10", "ablation", "-eps", "0.1", "-ls", "7", "study", "pmc", "-ts", "5000,2e6"}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, f := range []string{"ablation.json", "ablation_table.csv", "study.json", "study_summary.csv", "study_trials.csv", "study_trajectories.csv", "pmc.json", "pmc_curves.csv", "pmc_lifted.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".json") {
			var v map[string]any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		} else if rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll(); err != nil || len(rows) < 2 {
			t.Errorf("%s: %d rows, %v", f, len(rows), err)
		}
	}
	// The table as printed: l = 7, t = 5000 is the paper's β-type cell
	// (0.665 / 0.601) and t = 2e6 the γ-type one with descent.
	rows, _ := csv.NewReader(bytes.NewReader(must(os.ReadFile(filepath.Join(dir, "ablation_table.csv"))))).ReadAll()
	if len(rows) != 3 || rows[1][5] != "β" || rows[2][5] != "γ" || rows[2][12] != "true" {
		t.Errorf("ablation table %v", rows)
	}
	if !strings.Contains(out.String(), "n=10 ε=0.10") {
		t.Errorf("summary missing:\n%s", out.String())
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// runErrorCases are command lines that must be refused as usage errors
// before anything runs, each with a fragment the message must contain
// (the bad value and the accepted range, or the name at fault).
var runErrorCases = []struct {
	args []string
	want string
}{
	{nil, "no experiment given; want one or more of basic, pmc, realworld, ablation, qnn, study, or all"},
	{[]string{"bogus"}, `unknown experiment "bogus"; want one of basic, pmc`},
	{[]string{"basic", "bogus"}, `unknown experiment "bogus"`},
	{[]string{"-"}, `unknown experiment "-"`},
	{[]string{"--", "-quiet"}, `unknown experiment "-quiet"`},
	{[]string{"all", "basic"}, "cannot be combined"},
	{[]string{"basic", "basic"}, `experiment "basic" named twice`},
	{[]string{"-bogus", "basic"}, "flag provided but not defined: -bogus"},
	{[]string{"basic", "-bogus"}, "flag provided but not defined: -bogus"},
	{[]string{"study", "-trials"}, "flag needs an argument: -trials"},
	{[]string{"-format", "xml", "basic"}, `invalid value "xml" for flag -format: want one of json, csv, both`},
	{[]string{"-out", "", "basic"}, "-out is empty"},
	{[]string{"-seed", "-1", "basic"}, `invalid value "-1" for flag -seed: want an integer in [0, 18446744073709551615]`},
	{[]string{"-seed", "1", "pmc"}, "-seed applies to basic, qnn, study, none of which is being run"},
	{[]string{"-trials", "0", "study"}, `invalid value "0" for flag -trials: 0 is out of range: want an integer in [1, 1000000]`},
	{[]string{"-trials", "1.5", "study"}, `invalid value "1.5" for flag -trials: want an integer in [1, 1000000]`},
	{[]string{"-trials", "9223372036854775808", "study"}, `want an integer in [1, 1000000]`},
	{[]string{"-trials", "2", "basic"}, "-trials applies to study, which is not being run"},
	{[]string{"-sizes", "a,b", "study"}, `invalid value "a,b" for flag -sizes: "a": want an integer in [2, 10000000]`},
	{[]string{"-sizes", "1", "study"}, `"1": 1 is out of range: want an integer in [2, 10000000]`},
	{[]string{"-sizes", "", "study"}, "-sizes: empty list"},
	{[]string{"-sizes", ",", "study"}, "-sizes: empty list"},
	{[]string{"-sizes", "10,20,10", "study"}, "10 listed twice"},
	{[]string{"-eps", "0.1,0.10", "study"}, "0.1 listed twice"},
	{[]string{"-sizes", strings.Repeat("10,", 65), "study"}, "more than 64 values"},
	{[]string{"-eps", "0", "study"}, `"0": 0 is out of range: want a number in (0, 1]`},
	{[]string{"-eps", "nan", "study"}, `"nan": NaN is out of range: want a number in (0, 1]`},
	{[]string{"-eps", "inf", "study"}, `"inf": +Inf is out of range: want a number in (0, 1]`},
	{[]string{"-workers", "-1", "study"}, "-1 is out of range: want an integer in [0, 4096]"},
	{[]string{"-step", "-0.1", "study"}, "-0.1 is out of range: want a number in [0, 10]"},
	{[]string{"-step", "nan", "study"}, "NaN is out of range: want a number in [0, 10]"},
	{[]string{"-rank", "0", "study"}, "0 is out of range: want an integer in [1, 100]"},
	{[]string{"-rank", "11", "-sizes", "10", "study"}, "invalid value 11 for flag -rank: the search rank must lie in [1, n] for every n of -sizes (n = 10)"},
	{[]string{"-ls", "4", "ablation"}, `invalid value "4" for flag -ls: "4": 4 is even: want an odd integer in [3, 99]`},
	{[]string{"-ls", "1", "ablation"}, "1 is out of range: want an odd integer in [3, 99]"},
	{[]string{"-ls", "1001", "ablation"}, "1001 is out of range: want an odd integer in [3, 99]"},
	{[]string{"-ts", "nan", "ablation"}, `invalid value "nan" for flag -ts: "nan": want an integer in [1, 1000000000000000]`},
	{[]string{"-ts", "0", "ablation"}, "0 is out of range: want an integer in [1, 1000000000000000]"},
	{[]string{"-ts", "1e300", "ablation"}, "1e300 is out of range: want an integer in [1, 1000000000000000]"},
	{[]string{"-ts", "-inf", "ablation"}, `"-inf": want an integer in [1, 1000000000000000]`},
	{[]string{"-ts", "2.5", "ablation"}, `"2.5": want an integer in [1, 1000000000000000]`},
	{[]string{"-quiet=maybe", "basic"}, `invalid boolean value "maybe" for -quiet`},
}

// TestRunErrors: every bad command line is a *usageError (exit status 2)
// whose message names the fault, returned before the output directory is
// created or any experiment runs.
func TestRunErrors(t *testing.T) {
	for _, tc := range runErrorCases {
		out := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		args := append([]string{"-quiet", "-out", out}, tc.args...)
		if tc.args != nil && tc.args[0] == "-out" {
			args = tc.args
		}
		err := run(context.Background(), args, &stdout, &stderr)
		var ue *usageError
		if !errors.As(err, &ue) || exitCode(err) != 2 {
			t.Errorf("%q: err = %v, want a usage error (exit 2)", tc.args, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q lacks %q", tc.args, err, tc.want)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%q: the output directory was created before the error", tc.args)
		}
		if stdout.Len() > 0 || stderr.Len() > 0 {
			t.Errorf("%q: printed before refusing: %q %q", tc.args, stdout.String(), stderr.String())
		}
	}
}

// TestMainExitStatus runs the command as a process: usage errors exit 2
// with the usage line and create nothing in the working directory; -h
// anywhere prints the help and exits 0 without running anything.
func TestMainExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		code       int
		stdout     string // fragment of stdout
		stderr     string // fragment of stderr
		notStdout  string // must not be in stdout
		dirCreated bool
	}{
		{args: []string{"bogus"}, code: 2, stderr: "reproduce: unknown experiment \"bogus\""},
		{args: nil, code: 2, stderr: "usage: reproduce [flags] experiment..."},
		{args: []string{"-ts", "nan", "ablation"}, code: 2, stderr: `invalid value "nan" for flag -ts`},
		{args: []string{"study", "-h"}, code: 0, stdout: "usage: reproduce [flags] experiment...", notStdout: "done in"},
		{args: []string{"-h"}, code: 0, stdout: "-trials"},
		{args: []string{"basic", "--help", "bogus"}, code: 0, stdout: "Experiments (all runs every one"},
	} {
		code, stdout, stderr, dir := runMain(t, tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit status %d, want %d\n%s", tc.args, code, tc.code, stderr)
		}
		if !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%q: stdout %q, stderr %q; want %q, %q", tc.args, stdout, stderr, tc.stdout, tc.stderr)
		}
		if tc.notStdout != "" && strings.Contains(stdout, tc.notStdout) {
			t.Errorf("%q: stdout has %q:\n%s", tc.args, tc.notStdout, stdout)
		}
		if tc.code == 2 && !strings.Contains(stderr, "usage: reproduce") {
			t.Errorf("%q: no usage line on stderr:\n%s", tc.args, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "reproduce-out")); !os.IsNotExist(err) {
			t.Errorf("%q: ./reproduce-out was created", tc.args)
		}
	}
}

// TestRunQNNSeed: without -seed the QNN runs from DefaultQNNConfig's start
// (GD stalls at the spurious minimum, h ≈ 12.35); -seed 1 overrides it
// (GD then reaches the width-1 minimum, h ≈ 3.32, before it stagnates).
func TestRunQNNSeed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "(h = 12.3458)"},
		{[]string{"-seed", "1"}, "(h = 3.32"},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"-out", t.TempDir(), "-quiet", "-format", "json"}, tc.args...), "qnn")
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, errb.String())
		}
		if !strings.Contains(out.String(), "GD stagnates at step") || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: output lacks %q:\n%s", tc.args, tc.want, out.String())
		}
	}
}

// TestRunHelp: -h anywhere prints the help (usage line, experiments and
// every flag) on stdout and returns flag.ErrHelp, which main treats as
// success; the package doc lists every flag the help lists.
func TestRunHelp(t *testing.T) {
	doc := string(must(os.ReadFile("../cmd/reproduce/main.go"))) // the command's doc
	for _, args := range [][]string{{"-h"}, {"study", "-h"}, {"-trials", "2", "study", "-help"}} {
		var out, errb bytes.Buffer
		err := run(context.Background(), args, &out, &errb)
		if !errors.Is(err, flag.ErrHelp) || exitCode(err) != 0 {
			t.Errorf("%q: err = %v, want flag.ErrHelp", args, err)
		}
		help := out.String()
		for _, want := range append([]string{"usage: reproduce", "-out", "-format", "-seed", "-quiet"}, experimentNames(false)...) {
			if !strings.Contains(help, want) {
				t.Errorf("%q: help lacks %q:\n%s", args, want, help)
			}
		}
		if errb.Len() > 0 {
			t.Errorf("%q: help wrote to stderr: %s", args, errb.String())
		}
	}
	fs := newFlagSet("x")
	c := &common{}
	for _, e := range experimentList() {
		e.setup(fs, c)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(doc, "//\t-"+f.Name+" ") {
			t.Errorf("package doc does not list -%s", f.Name)
		}
	})
}

// TestParseInterleaved: flags anywhere, "--" ends them.
func TestParseInterleaved(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  string
		n    int
	}{
		{[]string{"a", "-n", "2", "b"}, "a b", 2},
		{[]string{"-n", "3", "a", "b"}, "a b", 3},
		{[]string{"a", "b", "-n=4"}, "a b", 4},
		{[]string{"a", "--", "-n", "5"}, "a -n 5", 1},
		{[]string{"--"}, "", 1},
	} {
		fs := newFlagSet("x")
		n := fs.Int("n", 1, "")
		pos, err := parseInterleaved(fs, tc.args)
		if err != nil || strings.Join(pos, " ") != tc.pos || *n != tc.n {
			t.Errorf("%q: %q, n = %d, %v; want %q, n = %d", tc.args, pos, *n, err, tc.pos, tc.n)
		}
	}
}

// TestSubcommand: a registered subcommand is dispatched when it comes
// first, with its own arguments; elsewhere on the line it is refused; the
// usage line and the help list it.
func TestSubcommand(t *testing.T) {
	var got []string
	registerSubcommand(&subcommand{name: "echo-test", usage: "echo-test [-x] args", about: "test subcommand",
		run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			fs := newFlagSet("echo-test")
			x := fs.Bool("x", false, "")
			pos, err := parseInterleaved(fs, args)
			if err != nil {
				return &usageError{err: err, usage: "usage: reproduce echo-test [-x] args"}
			}
			got = append(pos, fmt.Sprint(*x))
			return nil
		}})
	defer delete(subcommands, "echo-test")
	if err := run(context.Background(), []string{"echo-test", "a", "-x", "b"}, io.Discard, io.Discard); err != nil || strings.Join(got, " ") != "a b true" {
		t.Errorf("dispatch: %q, %v", got, err)
	}
	err := run(context.Background(), []string{"echo-test", "-y"}, io.Discard, io.Discard)
	var b bytes.Buffer
	report(&b, err)
	if exitCode(err) != 2 || !strings.Contains(b.String(), "usage: reproduce echo-test [-x] args") {
		t.Errorf("subcommand usage error: exit %d, %q", exitCode(err), b.String())
	}
	err = run(context.Background(), []string{"-quiet", "echo-test"}, io.Discard, io.Discard)
	if exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), `"echo-test" is a subcommand: it must come first`) {
		t.Errorf("subcommand not first: %v", err)
	}
	var help bytes.Buffer
	run(context.Background(), []string{"-h"}, &help, io.Discard)
	if !strings.Contains(help.String(), "       reproduce echo-test [-x] args") || !strings.Contains(help.String(), "echo-test  test subcommand") {
		t.Errorf("help does not list the subcommand:\n%s", help.String())
	}
}

// TestRunCanceled: every experiment honours the command's context (what
// Ctrl-C cancels): a canceled run ends with an error wrapping
// context.Canceled (exit status 1), not with the whole experiment.
func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range experimentNames(false) {
		args := []string{"-quiet", "-out", t.TempDir(), name}
		if name == "study" {
			args = append(args, "-sizes", "10", "-trials", "1")
		}
		err := run(ctx, args, io.Discard, io.Discard)
		if !errors.Is(err, context.Canceled) || exitCode(err) != 1 {
			t.Errorf("%s: err = %v (exit %d), want context.Canceled (exit 1)", name, err, exitCode(err))
		}
	}
}
