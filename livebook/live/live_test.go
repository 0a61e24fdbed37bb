package live_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"sodworkbench.org/workbench/livebook/cells"
	"sodworkbench.org/workbench/livebook/internal/symgen/gen"
	"sodworkbench.org/workbench/livebook/live"
)

// sourceDirs are the directories of cells.SourcePackages, found once.
var sourceDirs = func() map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Split(os.Getenv("LIVE_SOURCE_DIRS"), ";") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}()

// sources reads cells.SourcePackages from the module cache.
func sources(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, p := range cells.SourcePackages {
		dir := sourceDirs[p]
		if dir == "" {
			out, err := exec.Command("go", "list", "-f", "{{.Dir}}", p).Output()
			if err != nil {
				t.Fatalf("go list %s: %v", p, err)
			}
			dir = strings.TrimSpace(string(out))
			sourceDirs[p] = dir
			os.Setenv("LIVE_SOURCE_DIRS", os.Getenv("LIVE_SOURCE_DIRS")+p+"="+dir+";") // for the differential test's children
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fsys[p+"/"+filepath.Base(f)] = &fstest.MapFile{Data: b}
		}
	}
	return fsys
}

func TestNotebook(t *testing.T) {
	nb := os.Getenv("LIVE_NOTEBOOK")
	if nb == "" {
		t.Skip("set LIVE_NOTEBOOK to a notebook file")
	}
	// The page keeps the experiments' results for its session in its memory file system
	// (sod/internal/resultcache, GOOS=js); natively, a folder of the test's does.
	t.Setenv("SOD_RESULT_CACHE", t.TempDir())
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := gen.CodeCells(nb)
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range srcs {
		var out bytes.Buffer
		start := time.Now()
		res, err := k.Run(context.Background(), fmt.Sprintf("cell %d", i), src, &out, &out)
		t.Logf("---- cell %d (%v) shell=%d err=%v\n%s", i, time.Since(start).Round(time.Millisecond), len(res.Shell), err, out.String())
	}
}

// TestWorkarounds runs, in the interpreter, the programs yaegi v0.16.1
// gets wrong as written and the page rewrites (see cells.Rewriter), and
// GoNB's accumulation of declarations.
func TestWorkarounds(t *testing.T) {
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	const imports = "import (\n\t\"fmt\"\n\t\"github.com/janpfeifer/must\"\n\t\"sodworkbench.org/workbench/sod\"\n\t\"sodworkbench.org/workbench/sod/experiments\"\n)\n"
	tests := []struct{ name, src, want string }{
		{"generic of a multi-value call", "%%\ncp := must.M1(sod.AnalyzeCritical(sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.CriticalOptions{}))\nfmt.Println(cp.IsLocalMinimum(1e-9))", "true\n"},
		{"generic of a method's results", "%%\nin := sod.PaperInstances()[0]\ncp := must.M1(in.Critical(sod.CriticalOptions{}))\nfmt.Println(cp.GradNorm < 1e-6)", "true\n"},
		{"range over an integer", "%%\nn := 3\nfor i := range n {\n\tfmt.Print(i)\n}\nfor range 2 {\n\tfmt.Print(\"x\")\n}\nfor i := range []int{7, 8} {\n\tfmt.Print(i)\n}\nfmt.Println()", "012xx01\n"},
		{"parallel assignment to fields", "%%\ncfg := experiments.DefaultQNNScanConfig()\ncfg.QNN, cfg.Starts = experiments.PlateauQNNConfig(), 5\nfmt.Println(cfg.Starts)", "5\n"},
		{"parallel assignment of selectors", "%%\npmc := sod.PaperInstances()[1]\ncfg := experiments.DefaultAblationConfig()\ncfg.Problem, cfg.XHat, cfg.Ls = pmc.P, pmc.XHat, []int{3, 5}\nfmt.Println(cfg.Ls, cfg.Problem == pmc.P, cfg.XHat == pmc.XHat)", "[3 5] true true\n"},
		{"swap", "%%\nx := []int{1, 2}\nx[0], x[1] = x[1], x[0]\nfmt.Println(x)", "[2 1]\n"},
		{"clear", "%%\nm := map[int]int{1: 1}\nclear(m)\nfmt.Println(len(m))", "0\n"},
		{"declarations accumulate", "var x = 41", ""},
		{"and are used later", "%%\nfmt.Println(x + 1)", "42\n"},
		{"and replaced", "var x = 1", ""},
		{"by the later one", "%%\nfmt.Println(x + 1)", "2\n"},
	}
	for i, tt := range tests {
		var out bytes.Buffer
		_, err := k.Run(context.Background(), fmt.Sprintf("cell %d", i+1), imports+tt.src, &out, &out)
		if err != nil || out.String() != tt.want {
			t.Errorf("%s: printed %q (%v), want %q", tt.name, out.String(), err, tt.want)
		}
	}
}

// A package the interpreter compiles from its own source and fails on
// (slices.DeleteFunc calls the builtin clear, which yaegi v0.16.1's copy
// of slices cannot) is reported at the cell's line that uses it, naming
// the package, not at a line of the package's source.
func TestSourcePackageErrorLine(t *testing.T) {
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	src := "import (\n\t\"fmt\"\n\t\"slices\"\n)\n%%\nx := []int{1, 2, 3}\nx = slices.DeleteFunc(x, func(v int) bool { return v == 2 })\nfmt.Println(x)"
	var out bytes.Buffer
	_, err = k.Run(context.Background(), "cell 3", src, &out, &out)
	if err == nil {
		if out.String() != "[1 3]\n" {
			t.Fatalf("printed %q without error, want [1 3]", out.String())
		}
		return // the interpreter compiles slices.DeleteFunc now: nothing to place
	}
	for _, want := range []string{"cell 3, line 7:", "package slices", "not available in the browser"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// A cell with no Go (blank, "!" and "%" lines only) runs no program, as
// GoNB does (its dispatcher skips the cell when only special lines are
// left), so package-level initialisers do not run again; a cell with Go,
// even a comment, runs the program and they do.
func TestCellWithoutGo(t *testing.T) {
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"an initialiser that prints", "import \"fmt\"\nvar x = func() int { fmt.Println(\"init\"); return 1 }()", "init\n"},
		{"shell lines", "!*cd \"$GONB_DIR\" && go run sodworkbench.org/workbench/sod/cmd/setup\n!echo hi", ""},
		{"magic lines and blanks", "%goflags -race\n\n  \n", ""},
		{"an empty body", "%%\n", ""},
		{"a comment is Go", "// a comment", "init\n"},
		{"an empty body with a statement", "%%\nfmt.Println(x)", "init\n1\n"},
	}
	for i, tt := range tests {
		var out bytes.Buffer
		res, err := k.Run(context.Background(), fmt.Sprintf("cell %d", i+1), tt.src, &out, &out)
		if err != nil || out.String() != tt.want || !res.Compiled {
			t.Errorf("%s: printed %q (%v, compiled %v), want %q, compiled", tt.name, out.String(), err, res.Compiled, tt.want)
		}
	}
}

// Warm keeps nothing in the session and changes no output: after it, a
// cell sees none of its imports, and a cell importing the same packages
// prints what it prints without the warm-up. A path the interpreter does
// not have is skipped.
func TestWarm(t *testing.T) {
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Warm([]string{"fmt", "slices", "github.com/janpfeifer/must", "sodworkbench.org/workbench/sod", "example.com/none"}); err != nil {
		t.Fatalf("Warm: %v", err)
	}
	tests := []struct{ name, src, want string }{
		{"no import kept", "%%\nfmt.Println(1)", ""},
		{"the same imports", "import (\n\t\"fmt\"\n\t\"github.com/janpfeifer/must\"\n\t\"sodworkbench.org/workbench/sod\"\n)\n%%\nfmt.Println(must.M1(sod.BasicExampleProblem().Validate() == nil, nil))", "true\n"},
	}
	for i, tt := range tests {
		var out bytes.Buffer
		_, err := k.Run(context.Background(), fmt.Sprintf("cell %d", i+1), tt.src, &out, &out)
		if tt.want == "" {
			if err == nil {
				t.Errorf("%s: ran (printed %q), want an error (fmt not imported)", tt.name, out.String())
			}
			continue
		}
		if err != nil || out.String() != tt.want {
			t.Errorf("%s: printed %q (%v), want %q", tt.name, out.String(), err, tt.want)
		}
	}
}
