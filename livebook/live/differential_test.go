package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"sodworkbench.org/workbench/livebook/internal/symgen/gen"
	"sodworkbench.org/workbench/livebook/live"
	"sodworkbench.org/workbench/livebook/symbols"
)

// The differential test runs the Go distribution's own test programs
// marked "// run" ($GOROOT/test, its ken/ and typeparam/ folders and every
// 10th of fixedbugs/; with -short a quarter of those) through the live
// book's engine (each program wrapped as a cell) and through bare yaegi
// given the same compiled symbols, and compares what each prints (standard
// output and error together, as Go's test runner does) with Go's: the
// program's .out file, or nothing. Each program runs in a child process
// (a crash of the interpreter ends only that run).
//
// A program ends in one of these outcomes:
//
//	same     it ran and printed what Go prints
//	refused  it did not compile (the engine names the construct)
//	panic    it ran and failed where Go does not
//	differs  it ran without error and printed something else (silent)
//
// The test fails on any silent difference of the engine, and when it
// refuses or fails a program bare yaegi runs as Go does
// (the rewrites must never lower yaegi's pass rate); it logs the figures
// and writes them to $LIVE_DIFF_REPORT if set. Set LIVE_DIFF=1 to run it
// (CI does, with -short).
func TestDifferential(t *testing.T) {
	if os.Getenv("LIVE_DIFF") == "" {
		t.Skip("set LIVE_DIFF=1 to run the differential test")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "test")
	sources(t) // finds the source packages once for the children
	type source struct {
		name string
		dir  string
		step int
	}
	step := 1
	if testing.Short() {
		step = 4
	}
	sources := []source{{"test", root, step}, {"ken", filepath.Join(root, "ken"), step}, {"typeparam", filepath.Join(root, "typeparam"), step}, {"fixedbugs", filepath.Join(root, "fixedbugs"), 10 * step}}
	counts := map[string]map[string]int{} // source -> "engine same" ... -> n
	refusals := map[string]int{}
	var failures []string
	for _, s := range sources {
		files, _ := filepath.Glob(filepath.Join(s.dir, "*.go"))
		sort.Strings(files)
		var progs []string
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err == nil && strings.HasPrefix(string(b), "// run\n") {
				progs = append(progs, f)
			}
		}
		counts[s.name] = map[string]int{}
		for i := 0; i < len(progs); i += s.step {
			f := progs[i]
			want := ""
			if b, err := os.ReadFile(strings.TrimSuffix(f, ".go") + ".out"); err == nil {
				want = string(b)
			}
			e := runChild(t, "engine", f)
			b := runChild(t, "bare", f)
			eo, bo := outcome(e, want), outcome(b, want)
			counts[s.name]["programs"]++
			counts[s.name]["engine "+eo]++
			counts[s.name]["bare "+bo]++
			if eo == "refused" {
				refusals[construct(e.Err)]++
			}
			rel, _ := filepath.Rel(root, f)
			switch {
			case eo == "differs":
				failures = append(failures, fmt.Sprintf("%s: a silent difference: the engine prints %q, Go %q (bare yaegi: %s)", rel, e.Out, want, bo))
			case eo != "same" && bo == "same":
				failures = append(failures, fmt.Sprintf("%s: the engine %s (%s) where bare yaegi prints Go's output", rel, eo, e.Err))
			}
		}
	}
	var rep strings.Builder
	fmt.Fprintf(&rep, "| source | programs | engine: same | refused | panic | differs | bare yaegi: same | refused | panic | differs |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range sources {
		c := counts[s.name]
		fmt.Fprintf(&rep, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", s.name, c["programs"],
			c["engine same"], c["engine refused"], c["engine panic"], c["engine differs"],
			c["bare same"], c["bare refused"], c["bare panic"], c["bare differs"])
	}
	fmt.Fprintf(&rep, "\nThe engine's refusals by construct:\n\n")
	var keys []string
	for k := range refusals {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return refusals[keys[i]] > refusals[keys[j]] || refusals[keys[i]] == refusals[keys[j]] && keys[i] < keys[j]
	})
	for _, k := range keys {
		fmt.Fprintf(&rep, "- %d × %s\n", refusals[k], k)
	}
	t.Log("\n" + rep.String())
	if p := os.Getenv("LIVE_DIFF_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(rep.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, f := range failures {
		t.Error(f)
	}
}

// childResult is what a child run reports.
type childResult struct {
	Out      string
	Err      string
	Compiled bool
	Panic    bool
}

func outcome(r childResult, want string) string {
	switch {
	case !r.Compiled:
		return "refused"
	case r.Err != "" || r.Panic:
		return "panic"
	case r.Out != want:
		return "differs"
	}
	return "same"
}

// construct names a refusal by its message without positions and values.
func construct(msg string) string {
	msg = strings.TrimSpace(msg)
	// Drop "cell, line 3: " and "12:5: " prefixes.
	for {
		i := strings.Index(msg, ": ")
		if i < 0 || i > 40 || !strings.ContainsAny(msg[:i], "0123456789") {
			break
		}
		msg = msg[i+2:]
	}
	switch {
	case strings.HasPrefix(msg, "package ") && strings.Contains(msg, "not built into"):
		return "a package the page's interpreter does not have"
	}
	if len(msg) > 90 {
		msg = msg[:90] + "…"
	}
	return msg
}

func runChild(t *testing.T, mode, file string) childResult {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestDifferentialChild$")
	cmd.Env = append(os.Environ(), "LIVE_DIFF_CHILD="+mode, "LIVE_DIFF_FILE="+file)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	_ = cmd.Run()
	var r childResult
	s := out.String()
	i := strings.Index(s, "LIVE_DIFF_RESULT ")
	if i < 0 {
		return childResult{Compiled: true, Panic: true, Err: "the interpreter crashed or timed out"}
	}
	line := s[i+len("LIVE_DIFF_RESULT "):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}

// TestDifferentialChild runs one program for TestDifferential.
func TestDifferentialChild(t *testing.T) {
	mode := os.Getenv("LIVE_DIFF_CHILD")
	if mode == "" {
		t.Skip("a child of TestDifferential")
	}
	b, err := os.ReadFile(os.Getenv("LIVE_DIFF_FILE"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	var r childResult
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	switch mode {
	case "engine":
		k, err := live.New(sources(t))
		if err != nil {
			t.Fatal(err)
		}
		// The program as a cell: without its package clause.
		cell := strings.Replace(src, "package main", "", 1)
		res, err := k.Run(ctx, "cell 1", cell, &out, &out)
		r.Compiled = res.Compiled
		if err != nil {
			r.Err = err.Error()
			r.Panic = errors.Is(err, live.ErrPanic)
		}
	case "bare":
		i := interp.New(interp.Options{Stdout: &out, Stderr: &out, GoPath: "."})
		if err := i.Use(symbols.Symbols); err != nil {
			t.Fatal(err)
		}
		p, err := func() (p *interp.Program, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("the interpreter failed: %v", r)
				}
			}()
			return i.Compile(src)
		}()
		if err != nil {
			r.Err = err.Error()
			break
		}
		r.Compiled = true
		err = func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = interp.Panic{Value: r}
				}
			}()
			_, err = i.ExecuteWithContext(ctx, p)
			return err
		}()
		if err != nil {
			r.Err = err.Error()
			var p interp.Panic
			r.Panic = errors.As(err, &p)
		}
	}
	r.Out = out.String()
	b, _ = json.Marshal(r)
	// Printed on the real standard output, which the parent reads.
	fmt.Fprintf(os.Stdout, "\nLIVE_DIFF_RESULT %s\n", b)
}

// TestNotebooksEngine runs every code cell of every notebook, in order, as
// the kernel runs them, through the engine, and checks that none is
// refused or fails except the cells known.json lists. (The cells' output
// is compared with the kernel's by the browser test.) It runs with
// LIVE_DIFF=1 and without -short.
func TestNotebooksEngine(t *testing.T) {
	if os.Getenv("LIVE_DIFF") == "" || testing.Short() {
		t.Skip("set LIVE_DIFF=1, without -short, to run every notebook natively")
	}
	var known map[string]map[string]string
	b, err := os.ReadFile("../known.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &known); err != nil {
		t.Fatal(err)
	}
	nbs, _ := filepath.Glob("../../notebooks/*.ipynb")
	total, ran := 0, 0
	for _, nb := range nbs {
		k, err := live.New(sources(t))
		if err != nil {
			t.Fatal(err)
		}
		srcs, err := gen.CodeCells(nb)
		if err != nil {
			t.Fatal(err)
		}
		after := "" // a listed cell failed: later cells may need its declarations
		for i, src := range srcs {
			total++
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			_, err := k.Run(ctx, fmt.Sprintf("cell %d", i+1), src, &out, &out)
			cancel()
			name := fmt.Sprintf("%s cell %d", filepath.Base(nb), i+1)
			switch {
			case err == nil:
				ran++
			case known[filepath.Base(nb)][fmt.Sprint(i+1)] != "":
				t.Logf("%s: %v (listed: %s)", name, err, known[filepath.Base(nb)][fmt.Sprint(i+1)])
				after = name
			case strings.Contains(err.Error(), "ECharts assets not found"):
				t.Logf("%s: %v (natively, the widgets need the ECharts assets installed)", name, err)
			case strings.Contains(err.Error(), "staticfig is not built into"):
				t.Logf("%s: %v (the page's plots build has it: -tags sodlive_plots)", name, err)
			case after != "":
				t.Logf("%s: %v (after %s, listed)", name, err, after)
			default:
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	t.Logf("%d notebooks, %d code cells, %d ran without error", len(nbs), total, ran)
}
