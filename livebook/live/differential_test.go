package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"sodworkbench.org/workbench/livebook/cells"
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
// refuses or fails a program bare yaegi runs as Go does (except a refusal
// byChance lists, reported apart)
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
	var failures, chance []string
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
			case eo != "same" && bo == "same" && eo == "refused" && byChance(e.Err) != "":
				chance = append(chance, fmt.Sprintf("%s (%s)", rel, byChance(e.Err)))
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
	if len(chance) > 0 {
		fmt.Fprintf(&rep, "\nRefused by the engine where bare yaegi's output is Go's by chance (a refusal of a construct yaegi answers wrongly elsewhere):\n\n")
		for _, c := range chance {
			fmt.Fprintf(&rep, "- %s\n", c)
		}
	}
	writeReport(t, "The Go distribution's test programs", rep.String())
	for _, f := range failures {
		t.Error(f)
	}
}

// byChance names why a refusal may meet a program bare yaegi happens to
// run as Go does ("" for any other refusal, which must not): yaegi
// compares interface values holding a declared type with methods by the
// identity of its box, so an interface compared with a copy of itself
// answers rightly and two equal values boxed apart answer false; and it
// gives a declared type without methods the underlying type's reflect
// type, so x.(string) is right for a string and wrong for a mystring.
func byChance(refusal string) string {
	switch {
	case strings.Contains(refusal, "comparing interface values that may hold a value of a type with methods"):
		return "yaegi compares such interface values by the identity of their box: equal only for copies of one interface value"
	case strings.Contains(refusal, "a type this program declares without methods, or its underlying type"):
		return "yaegi gives a declared type's values its underlying type: the assertion to the underlying type is right only when no value of the declared type meets it"
	}
	return ""
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
	return runChildTimeout(t, mode, file, 20*time.Second)
}

// runChildTimeout runs a child with a time limit for the program.
func runChildTimeout(t *testing.T, mode, file string, limit time.Duration) childResult {
	ctx, cancel := context.WithTimeout(context.Background(), limit+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestDifferentialChild$")
	cmd.Env = append(os.Environ(), "LIVE_DIFF_CHILD="+mode, "LIVE_DIFF_FILE="+file, "LIVE_DIFF_LIMIT="+limit.String())
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
	limit, err := time.ParseDuration(os.Getenv("LIVE_DIFF_LIMIT"))
	if err != nil {
		limit = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
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

// TestNotebooksNative runs every code cell of every notebook, in order,
// as the kernel runs them, through the engine and as GoNB does natively
// (the declarations of the cells run so far and the cell's body, built
// with go build; see nativeGo), and through bare yaegi given the same
// program; then the generated edits of the cells (see variants), each
// just before its cell. It compares what each prints (standard output and
// error, with wall-clock durations masked and counted) and whether it
// fails. It fails on a silent difference, on an edit the engine refuses
// or fails where bare yaegi prints Go's output, and on a notebook cell
// refused or failing that known.json does not list (or that needs the
// static figures, which only the page's plots build has). The edits are a fixed
// sample (sampleEdits: 4 kinds of edit per notebook, one edit of each where
// the kind applies: 36 for the 12 notebooks). With -short it runs notebook 00 and its edits
// only.
func TestNotebooksNative(t *testing.T) {
	if os.Getenv("LIVE_DIFF") == "" {
		t.Skip("set LIVE_DIFF=1 to compare the notebooks' cells with native Go")
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
	if testing.Short() {
		nbs = nbs[:1]
	}
	sources(t)
	native := newNativeGo(t)
	var ty tally
	masked := map[string]int{}
	seq, nbIndex := 0, 0
	for _, nb := range nbs {
		k, err := live.New(sources(t))
		if err != nil {
			t.Fatal(err)
		}
		var sess cells.Session
		srcs, err := gen.CodeCells(nb)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(nb)
		listedBefore := ""
		keep := sampleEdits(srcs, seq, nbIndex)
		nbIndex++
		// Progress: the figures of the notebooks before this one.
		if p := os.Getenv("LIVE_DIFF_REPORT"); p != "" && nbIndex > 1 {
			os.WriteFile(p+".partial", []byte(fmt.Sprintf("the %d notebooks before %s\n\n", nbIndex-1, base)+ty.table()), 0o644)
		}
		t.Logf("%s: %d code cells, %d edits", base, len(srcs), len(keep))
		for i, src := range srcs {
			name := fmt.Sprintf("cell %d", i+1)
			where := fmt.Sprintf("%s cell %d", base, i+1)
			seq++
			// run compares one source of this cell; commit keeps its
			// declarations natively.
			run := func(source, what, src string, commit bool) (eo string, e engineRun) {
				c, err := cells.Parse(name, src)
				var n nativeResult
				var prog *cells.Program
				if err == nil {
					prog, err = sess.Program(name, c, nil)
				}
				done := make(chan struct{})
				go func() {
					defer close(done)
					if err == nil {
						n = native.run(context.Background(), prog.Src)
					}
				}()
				var res live.Result
				var rerr error
				printed := captureOutput(func(w io.Writer) {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
					res, rerr = k.Run(ctx, name, src, w, w)
					cancel()
				})
				<-done
				e = engineRun{Out: printed, Compiled: res.Compiled}
				if rerr != nil {
					e.Err = rerr.Error()
				}
				ty.add(source, "programs")
				if !n.Built {
					// Go refuses it: so must the engine.
					ty.add(source, "go refuses")
					if e.Compiled {
						ty.add(source, "engine differs")
						t.Errorf("%s (%s): Go refuses it (%s), the engine runs it", where, what, firstLine(n.BuildErr))
						return "differs", e
					}
					ty.add(source, "engine refused")
					return "refused", e
				}
				if commit {
					sess.Commit(name, c)
				}
				eo, m := versus(e, n)
				masked[source] += m
				br := runChildTimeout(t, "bare", n.File, 60*time.Second)
				bo, _ := versus(engineRun{Out: br.Out, Err: br.Err, Compiled: br.Compiled}, n)
				ty.add(source, "engine "+eo)
				ty.add(source, "bare "+bo)
				if eo == "refused" {
					ty.refused(source, e.Err)
				}
				switch {
				case eo == "differs":
					t.Errorf("%s (%s): a silent difference: the engine prints %q (%s), Go %q (exit %d)", where, what, e.Out, e.Err, n.Out, n.Exit)
				case eo != "same" && bo == "same" && !commit:
					t.Errorf("%s (%s): the engine %s (%s) where bare yaegi prints Go's output", where, what, eo, e.Err)
				}
				return eo, e
			}
			for _, v := range keep[i] {
				run("generated edits", v.kind, v.src, false)
			}
			eo, e := run("notebook cells", "as written", src, true)
			if eo == "same" {
				continue
			}
			switch {
			case known[base][fmt.Sprint(i+1)] != "":
				t.Logf("%s: %s: %s (listed: %s)", where, eo, e.Err, known[base][fmt.Sprint(i+1)])
				listedBefore = where
			case eo == "refused" && strings.Contains(e.Err, "staticfig is not built into"):
				t.Logf("%s: %s (the page's plots build has it: -tags sodlive_plots)", where, e.Err)
				listedBefore = where
			case listedBefore != "" && eo != "differs":
				t.Logf("%s: %s: %s (after %s, listed)", where, eo, e.Err, listedBefore)
			case eo != "differs":
				t.Errorf("%s: the engine %s: %s", where, eo, e.Err)
			}
		}
	}
	ty.notes = append(ty.notes, fmt.Sprintf("Notebooks: %d.", len(nbs)))
	ty.notes = append(ty.notes, fmt.Sprintf("Fields masked before comparing (wall-clock durations in time.Duration's format, e.g. \"took 1.2s\"; the log package's date and time; the build metadata of the library's version line): %d in the notebook cells' output, %d in the edits'.", masked["notebook cells"], masked["generated edits"]))
	ty.notes = append(ty.notes, "Go refuses (does not build): "+fmt.Sprint(ty.counts["notebook cells"]["go refuses"])+" notebook cells, "+fmt.Sprint(ty.counts["generated edits"]["go refuses"])+" edits (counted as the engine's refusals; none may run in the engine).")
	writeReport(t, "Notebook cells and their generated edits", ty.table())
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// captureOutput runs f with the process's standard output and error and
// f's writer all one pipe, and returns what came through it in order: the
// compiled packages the cells call print on the process's os.Stdout and
// os.Stderr (in the page, the cell's output), the interpreted code on f's
// writer.
func captureOutput(f func(w io.Writer)) string {
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	log.SetOutput(w)
	var b bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&b, r)
		close(done)
	}()
	func() {
		defer func() {
			os.Stdout, os.Stderr = oldOut, oldErr
			log.SetOutput(oldErr)
			w.Close()
		}()
		f(w)
	}()
	<-done
	r.Close()
	return b.String()
}

// editKinds are the kinds of variants, in the order sampleEdits turns
// through them.
var editKinds = []string{"numeric literals changed", "statements split over lines", "parallel assignment", "parallel assignment as an if init",
	"parallel assignment as a switch init", "parallel assignment as a for post", "a variable named", "a function named"}

// sampleEdits picks the edits the test runs for the nb-th notebook (its
// code cells srcs, the first numbered after seq): 4 kinds, turning
// through editKinds from notebook to notebook; of each kind, the edit of
// the cell at an index turning with the notebook. It returns them by cell.
func sampleEdits(srcs []string, seq, nb int) map[int][]variant {
	byKind := map[string][][2]int{} // kind -> (cell, variant index)
	all := make([][]variant, len(srcs))
	for i, src := range srcs {
		all[i] = variants(src, seq+i+1)
		for j, v := range all[i] {
			k := v.kind
			for _, p := range []string{"a variable named", "a function named"} {
				if strings.HasPrefix(k, p) {
					k = p
				}
			}
			byKind[k] = append(byKind[k], [2]int{i, j})
		}
	}
	out := map[int][]variant{}
	for j := range 4 {
		k := editKinds[(2*nb+j)%len(editKinds)]
		if c := byKind[k]; len(c) > 0 {
			at := c[(nb*7)%len(c)]
			out[at[0]] = append(out[at[0]], all[at[0]][at[1]])
		}
	}
	return out
}
