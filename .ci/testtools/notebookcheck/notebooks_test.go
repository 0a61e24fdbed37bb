package notebookcheck

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sodworkbench.org/workbench/widgets"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

const installHint = `install them with scripts/install.sh (see README.md), or set SOD_REQUIRE_NOTEBOOKS=1 to make this a failure`

// requireToolchain skips the test when Jupyter/gonb are missing, or fails under
// SOD_REQUIRE_NOTEBOOKS=1 (as CI runs it).
func requireToolchain(t *testing.T) {
	t.Helper()
	if err := toolchain(); err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("cannot execute notebooks: %v (SOD_REQUIRE_NOTEBOOKS=1): run scripts/install.sh", err)
		}
		t.Skipf("cannot execute notebooks: %v; %s", err, installHint)
	}
}

func notebookPaths(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(notebookDir, "*.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		t.Fatalf("no notebooks found in %s", notebookDir)
	}
	abs := make([]string, len(paths))
	for i, p := range paths {
		abs[i], _ = filepath.Abs(p)
	}
	return abs
}

// TestNotebookSources checks every committed notebook without executing it: valid JSON, no
// outputs, every `go get` pinned, a gonb kernelspec, the exercise cell convention.
func TestNotebookSources(t *testing.T) {
	for _, p := range notebookPaths(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			nb, err := readNotebook(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, prob := range checkSource(nb) {
				t.Error(prob)
			}
			for _, prob := range checkExercises(filepath.Base(p), nb) {
				t.Error(prob)
			}
			var meta struct {
				Metadata struct {
					Kernelspec struct{ Name string } `json:"kernelspec"`
				} `json:"metadata"`
			}
			b, _ := os.ReadFile(p)
			if json.Unmarshal(b, &meta) != nil || meta.Metadata.Kernelspec.Name != "gonb" {
				t.Errorf("kernelspec is %q, want gonb", meta.Metadata.Kernelspec.Name)
			}
		})
	}
}

// TestNotebooks executes every notebooks/*.ipynb from scratch with nbconvert and the gonb
// kernel and fails on any cell error, failed shell line or empty notebook.
func TestNotebooks(t *testing.T) {
	requireToolchain(t)
	paths := notebookPaths(t)
	if re := os.Getenv("SOD_NOTEBOOK_RUN"); re != "" {
		match := regexp.MustCompile(re)
		var keep []string
		for _, p := range paths {
			if match.MatchString(filepath.Base(p)) {
				keep = append(keep, p)
			}
		}
		paths = keep
	}
	outDir := os.Getenv("SOD_NOTEBOOK_OUT")
	if outDir == "" {
		outDir = t.TempDir()
	} else if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	timeout := time.Duration(envInt("SOD_NOTEBOOK_TIMEOUT", 600)) * time.Second
	jobs := envInt("SOD_NOTEBOOK_JOBS", defaultJobs())
	t.Logf("executing %d notebooks, %d at a time, %v each at most; executed copies in %s", len(paths), jobs, timeout, outDir)
	start := time.Now()
	results := runAll(context.Background(), paths, outDir, timeout, jobs, func(r result) {
		status := "ok  "
		if r.failed() {
			status = "FAIL"
		}
		t.Logf("%s %-40s %6.1fs", status, r.Name, r.Duration.Seconds())
	})
	t.Logf("all notebooks: %.1fs", time.Since(start).Seconds())
	for _, r := range results {
		for _, p := range r.Problems {
			t.Errorf("%s: %s", r.Name, p)
		}
	}
	checkExportedCharts(t, outDir, results)
}

var chartLineRe = regexp.MustCompile(`(?m)^(ok  |FAIL) (\S+): (\d+) charts`)

// checkExportedCharts exports every cleanly executed notebook to HTML (as the book does) and
// loads the pages in headless Chromium without network (cmd/chartcheck of this module): every chart
// the notebook displayed must draw, with no script error. Skipped without Chromium, unless
// SOD_REQUIRE_BROWSER=1.
func checkExportedCharts(t *testing.T, outDir string, results []result) {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil && os.Getenv("SOD_CHROMIUM") == "" {
		if os.Getenv("SOD_REQUIRE_BROWSER") == "1" {
			t.Errorf("cannot check the exported HTML: chromium not found (SOD_REQUIRE_BROWSER=1): run scripts/install.sh --with-browser")
		} else {
			t.Logf("exported HTML not checked: chromium not found (scripts/install.sh --with-browser installs it)")
		}
		return
	}
	htmlDir := filepath.Join(outDir, "html")
	want := map[string]int{}
	var ipynbs []string
	for _, r := range results {
		if r.failed() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(outDir, r.Name))
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		html := filepath.Join(htmlDir, strings.TrimSuffix(r.Name, ".ipynb")+".html")
		want[html] = strings.Count(string(b), `class=\"sodw\"`)
		ipynbs = append(ipynbs, filepath.Join(outDir, r.Name))
	}
	if len(ipynbs) == 0 {
		return
	}
	start := time.Now()
	args := append([]string{"nbconvert", "--to", "html", "--output-dir", htmlDir}, ipynbs...)
	if out, err := exec.Command("jupyter", args...).CombinedOutput(); err != nil {
		t.Errorf("nbconvert --to html: %v\n%s", err, tail(string(out), 20))
		return
	}
	bin := filepath.Join(t.TempDir(), "chartcheck")
	if out, err := exec.Command("go", "build", "-o", bin, "sodworkbench.org/workbench/testtools/cmd/chartcheck").CombinedOutput(); err != nil {
		t.Errorf("building chartcheck: %v\n%s", err, out)
		return
	}
	pages := make([]string, 0, len(want))
	for p := range want {
		pages = append(pages, p)
	}
	sort.Strings(pages)
	out, err := exec.Command(bin, pages...).CombinedOutput()
	t.Logf("exported HTML checked in Chromium (%.1fs):\n%s", time.Since(start).Seconds(), strings.TrimSpace(string(out)))
	if err != nil {
		t.Errorf("chartcheck found problems in the exported HTML: %v", err)
	}
	seen := map[string]bool{}
	for _, m := range chartLineRe.FindAllStringSubmatch(string(out), -1) {
		seen[m[2]] = true
		if n, _ := strconv.Atoi(m[3]); n < want[m[2]] {
			t.Errorf("%s: %d charts drawn, the notebook displayed %d", filepath.Base(m[2]), n, want[m[2]])
		}
	}
	for _, p := range pages {
		if !seen[p] {
			t.Errorf("%s: not reported by chartcheck", filepath.Base(p))
		}
	}
}

// TestHarnessCatchesFailures runs deliberately broken notebooks and checks that the harness
// reports each failure with its cell number, so that a green notebook test means something.
func TestHarnessCatchesFailures(t *testing.T) {
	requireToolchain(t)
	path, _ := filepath.Abs(filepath.Join("testdata", "broken.ipynb"))
	r := execute(context.Background(), path, t.TempDir(), 300*time.Second)
	msg := strings.Join(r.Problems, "\n")
	t.Logf("harness report on testdata/broken.ipynb:\n%s", msg)
	for _, want := range []string{
		`cell 2 ("%%"): error`,                                // compile error
		`cell 3 ("!false"): a command failed (exit status 1)`, // failed shell line
		`cell 4 ("%%"): error: ERROR: exit status 2`,          // panic
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("harness report lacks %q", want)
		}
	}
	if strings.Contains(msg, "cell 1 ") {
		t.Errorf("the healthy cell 1 was reported as failed")
	}

	empty, _ := filepath.Abs(filepath.Join("testdata", "silent.ipynb"))
	r = execute(context.Background(), empty, t.TempDir(), 300*time.Second)
	if !strings.Contains(strings.Join(r.Problems, "\n"), "no output at all") {
		t.Errorf("a notebook without output was not reported: %v", r.Problems)
	}
}

func TestCheckSource(t *testing.T) {
	one := 1
	for _, tc := range []struct {
		name string
		cell cell
		want string // substring of the problem, "" for none
	}{
		{"clean", cell{CellType: "code", Source: raw(`fmt.Println(1)`)}, ""},
		{"outputs", cell{CellType: "code", Source: raw(`1`), Outputs: []output{{OutputType: "stream"}}}, "committed outputs"},
		{"count", cell{CellType: "code", Source: raw(`1`), ExecutionCount: &one}, "committed outputs"},
		{"unpinned", cell{CellType: "code", Source: raw("!*go get gonum.org/v1/gonum")}, "no pinned version"},
		{"latest", cell{CellType: "code", Source: raw("!*go get -u example.com/x@latest")}, "no pinned version"},
		{"pinned", cell{CellType: "code", Source: raw("!*go get gonum.org/v1/gonum@v0.17.0")}, ""},
		{"markdown mentions", cell{CellType: "markdown", Source: raw("run go get x")}, ""},
		{"explore untagged", cell{CellType: "code", Source: raw("%%\nwidgets.Explore(ctx, cs, f)")}, "tag the cell live-only"},
		{"explore tagged", cell{CellType: "code", Source: raw("%%\nwidgets.Explore(ctx, cs, f)"), Metadata: cellMetadata{Tags: []string{"x", LiveOnlyTag}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probs := checkSource(&notebook{Cells: []cell{tc.cell}})
			got := strings.Join(probs, "\n")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("checkSource = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckExecuted(t *testing.T) {
	stream := func(s string) output { return output{OutputType: "stream", Name: "stderr", Text: raw(s)} }
	for _, tc := range []struct {
		name    string
		outputs []output
		want    string
	}{
		{"fine", []output{stream("hello\n")}, ""},
		{"shell", []output{stream("ls: x: No such file\nexit status 2\n")}, "a command failed (exit status 2)"},
		{"zero", []output{stream("exit status 0\n")}, ""},
		{"figure", []output{stream("x\n" + widgets.ShowErrorPrefix + "n = -1\n")}, widgets.ShowErrorPrefix + "n = -1"},
		{"error", []output{{OutputType: "error", Ename: "ERROR", Evalue: "boom"}}, "error: ERROR: boom"},
		{"empty", nil, "no output at all"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(checkExecuted(&notebook{Cells: []cell{{CellType: "code", Source: raw("x"), Outputs: tc.outputs}}}), "\n")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("checkExecuted = %q, want %q", got, tc.want)
			}
		})
	}
}

func raw(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
