package live_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// nativeGo builds and runs programs with the go command, as GoNB does:
// each program is built once (go build, with the go command's shared
// build cache) in a folder inside this module (so that its imports
// resolve as the notebooks' do), at most two at a time.
type nativeGo struct {
	dir string
	sem chan struct{}
	mu  sync.Mutex
	n   int
}

func newNativeGo(t *testing.T) *nativeGo {
	t.Helper()
	mod, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// A dot folder: go ./... and the module's packages never see it.
	dir, err := os.MkdirTemp(mod, ".native-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return &nativeGo{dir: dir, sem: make(chan struct{}, 2)}
}

// nativeResult is what a native build and run gave.
type nativeResult struct {
	Built    bool
	BuildErr string
	Out      string // standard output and error, as they came
	Exit     int    // the exit code (-1: killed at the time limit)
	File     string // the program's source file
}

// unusedImport is the go command's error for an import the program does
// not use: GoNB removes such imports (goimports) before it builds.
var unusedImport = regexp.MustCompile(`(?m)^\S*main\.go:(\d+):\d+: "[^"]+" imported (?:as \S+ )?and not used$`)

// run builds src and runs it with a time limit.
func (g *nativeGo) run(ctx context.Context, src string) nativeResult {
	g.sem <- struct{}{}
	defer func() { <-g.sem }()
	g.mu.Lock()
	g.n++
	dir := filepath.Join(g.dir, fmt.Sprint(g.n))
	g.mu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nativeResult{BuildErr: err.Error()}
	}
	file := filepath.Join(dir, "main.go")
	res := nativeResult{File: file}
	for try := 0; ; try++ {
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			res.BuildErr = err.Error()
			return res
		}
		cmd := exec.CommandContext(ctx, "go", "build", "-o", "prog", "main.go")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err == nil {
			break
		}
		res.BuildErr = string(out)
		ms := unusedImport.FindAllStringSubmatch(string(out), -1)
		if len(ms) == 0 || try > 3 {
			return res
		}
		lines := strings.Split(src, "\n")
		for _, m := range ms {
			n, _ := strconv.Atoi(m[1])
			if n >= 1 && n <= len(lines) {
				lines[n-1] = ""
			}
		}
		src = strings.Join(lines, "\n")
	}
	res.Built, res.BuildErr = true, ""
	rctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(rctx, "./prog")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	res.Out = out.String()
	var ee *exec.ExitError
	switch {
	case rctx.Err() != nil:
		res.Exit = -1
	case errors.As(err, &ee):
		res.Exit = ee.ExitCode()
	case err != nil:
		res.Exit = -1
	}
	os.Remove(filepath.Join(dir, "prog"))
	return res
}

// timing is a wall-clock duration as time.Duration prints it ("1.2s",
// "350ms", "1m2.5s") or as seconds with a unit after a space ("0.3 s",
// 08's study cell): the only field of an output that is masked before the
// comparison.
var timing = regexp.MustCompile(`\b(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)? ?(?:ns|µs|us|ms|s)\b`)

// buildInfo is the build metadata the library's version line prints
// (sod.Version: "(build: v0.0.0-…, source: ..)"), which is the test
// binary's in the engine and the program's natively.
var buildInfo = regexp.MustCompile(`\(build: [^,)]*, source: [^)]*\)`)

// logTime is the date and time the log package puts before a line.
var logTime = regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d `)

// maskTimings replaces the durations, log times and build metadata of out
// and counts them.
func maskTimings(out string) (string, int) {
	n := 0
	for _, m := range []struct {
		re   *regexp.Regexp
		with string
	}{{timing, "<duration>"}, {buildInfo, "(build: <masked>)"}, {logTime, "<log time> "}} {
		out = m.re.ReplaceAllStringFunc(out, func(string) string { n++; return m.with })
	}
	return out, n
}

// nativePanic cuts Go's report of an uncaught panic (or a fatal error)
// from a native run's output.
func nativePanic(out string) (printed, report string) {
	for _, p := range []string{"panic: ", "fatal error: "} {
		if strings.HasPrefix(out, p) {
			return "", out
		}
		if i := strings.LastIndex(out, "\n"+p); i >= 0 {
			return out[:i+1], out[i+1:]
		}
	}
	return out, ""
}

// panicMessage is the value of Go's panic report ("panic: boom [recovered]
// …\n\ngoroutine 1 …" gives "boom"), or "" for a report without one.
func panicMessage(report string) string {
	line, _, _ := strings.Cut(report, "\n")
	for _, p := range []string{"panic: ", "fatal error: "} {
		if m, ok := strings.CutPrefix(line, p); ok {
			m, _, _ = strings.Cut(m, " [recovered]")
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// engineRun is what a run through the engine (or bare yaegi) gave.
type engineRun struct {
	Out      string
	Err      string
	Compiled bool
}

// versus compares a run with Go's: same, refused (it did not compile),
// panic (it failed where Go does not, or ran where Go fails) or differs
// (a silent difference). Both outputs are masked first; masked counts the
// durations masked in Go's output.
func versus(e engineRun, n nativeResult) (outcome string, masked int) {
	goOut, masked := maskTimings(n.Out)
	eOut, _ := maskTimings(e.Out)
	switch {
	case !e.Compiled:
		return "refused", masked
	case n.Exit != 0:
		printed, report := nativePanic(goOut)
		if e.Err == "" {
			return "differs", masked // Go fails, the engine says nothing
		}
		if eOut != printed {
			return "differs", masked
		}
		if msg := panicMessage(report); msg != "" && !strings.Contains(e.Err, msg) {
			return "panic", masked // both fail, not with the same panic
		}
		return "same", masked
	case e.Err != "":
		return "panic", masked
	case eOut != goOut:
		return "differs", masked
	}
	return "same", masked
}

// tally counts outcomes by corpus source, and the engine's refusals by
// construct.
type tally struct {
	mu       sync.Mutex
	order    []string
	counts   map[string]map[string]int
	refusals map[string]map[string]int
	notes    []string
}

func (ty *tally) add(source, key string) {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	if ty.counts == nil {
		ty.counts, ty.refusals = map[string]map[string]int{}, map[string]map[string]int{}
	}
	if ty.counts[source] == nil {
		ty.order = append(ty.order, source)
		ty.counts[source], ty.refusals[source] = map[string]int{}, map[string]int{}
	}
	ty.counts[source][key]++
}

func (ty *tally) refused(source, msg string) {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	ty.refusals[source][construct(msg)]++
}

// table writes the figures as Markdown.
func (ty *tally) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| source | programs | engine: same | refused | panic | differs | bare yaegi: same | refused | panic | differs |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range ty.order {
		c := ty.counts[s]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", s, c["programs"],
			c["engine same"], c["engine refused"], c["engine panic"], c["engine differs"],
			c["bare same"], c["bare refused"], c["bare panic"], c["bare differs"])
	}
	for _, s := range ty.order {
		rs := ty.refusals[s]
		if len(rs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nThe engine's refusals in %s, by construct:\n\n", s)
		var keys []string
		for k := range rs {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return rs[keys[i]] > rs[keys[j]] || rs[keys[i]] == rs[keys[j]] && keys[i] < keys[j]
		})
		for _, k := range keys {
			fmt.Fprintf(&b, "- %d × %s\n", rs[k], k)
		}
	}
	for _, n := range ty.notes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	return b.String()
}

// report collects the sections of $LIVE_DIFF_REPORT written by the tests
// of one run, in order.
var report struct {
	sync.Mutex
	sections []string
}

func writeReport(t *testing.T, title, text string) {
	t.Log("\n" + title + "\n\n" + text)
	p := os.Getenv("LIVE_DIFF_REPORT")
	if p == "" {
		return
	}
	report.Lock()
	defer report.Unlock()
	report.sections = append(report.sections, "## "+title+"\n\n"+text)
	doc := "# The live book's engine against native Go\n\nWritten by `go test ./live` with LIVE_DIFF=1 (TestDifferential, TestNotebooksNative).\n\n" + strings.Join(report.sections, "\n")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Error(err)
	}
}

// TestMaskTimings: the durations masked are those of a clock, in either
// format; numbers before other words are kept (a lone "s" after a number
// reads as seconds, so "5 s.t." is masked too).
func TestMaskTimings(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		n        int
	}{
		{"10 cells × 10 trials in 0.3 s\n", "10 cells × 10 trials in <duration>\n", 1},
		{"took 1.2s, then 350ms and 1m2.5s", "took <duration>, then <duration> and <duration>", 3},
		{"3 steps, 2 starts, 5 s.t. x", "3 steps, 2 starts, <duration>.t. x", 1},
		{"n = 20, r = 1", "n = 20, r = 1", 0},
	} {
		if got, n := maskTimings(tt.in); got != tt.want || n != tt.n {
			t.Errorf("maskTimings(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
		}
	}
}

// TestVersus: a run that fails where Go fails is the same only with Go's
// output before the panic and Go's panic value in the engine's error.
func TestVersus(t *testing.T) {
	goPanic := nativeResult{Exit: 2, Out: "a\npanic: boom [recovered]\n\ngoroutine 1 [running]:\nmain.main()\n"}
	for _, tt := range []struct {
		name string
		e    engineRun
		n    nativeResult
		want string
	}{
		{"same output", engineRun{Out: "x\n", Compiled: true}, nativeResult{Out: "x\n"}, "same"},
		{"other output", engineRun{Out: "y\n", Compiled: true}, nativeResult{Out: "x\n"}, "differs"},
		{"refused", engineRun{}, nativeResult{Out: "x\n"}, "refused"},
		{"fails where Go runs", engineRun{Out: "x\n", Err: "panic: e", Compiled: true}, nativeResult{Out: "x\n"}, "panic"},
		{"the same panic", engineRun{Out: "a\n", Err: "cell 1, line 2: panic: boom", Compiled: true}, goPanic, "same"},
		{"another panic", engineRun{Out: "a\n", Err: "cell 1, line 2: panic: context deadline exceeded", Compiled: true}, goPanic, "panic"},
		{"runs where Go fails", engineRun{Out: "a\n", Compiled: true}, goPanic, "differs"},
		{"other output before the panic", engineRun{Out: "b\n", Err: "panic: boom", Compiled: true}, goPanic, "differs"},
	} {
		if got, _ := versus(tt.e, tt.n); got != tt.want {
			t.Errorf("%s: versus = %q, want %q", tt.name, got, tt.want)
		}
	}
}
