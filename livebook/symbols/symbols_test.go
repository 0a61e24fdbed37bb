package symbols_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/livebook/internal/symgen/gen"
)

const notebooks = "../../notebooks"

// TestFreshPackages checks that packages.txt lists the packages the
// notebooks import now: after a package moves or a notebook imports a new
// one, run `go generate` in this folder.
func TestFreshPackages(t *testing.T) {
	want, err := gen.Packages(notebooks)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("packages.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			got = append(got, strings.Fields(l)[0])
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("packages.txt lists\n%s\nthe notebooks import\n%s\nrun `go generate` in livebook/symbols", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range want {
		if _, err := os.Stat("z_" + gen.FileName(p)); err != nil {
			t.Errorf("no symbols for %s: run `go generate` in livebook/symbols", p)
		}
	}
	files, _ := filepath.Glob("z_*.go")
	if len(files) != len(want) {
		t.Errorf("%d symbol files for %d packages: run `go generate` in livebook/symbols", len(files), len(want))
	}
}

// TestFreshSymbols regenerates every file and compares (a minute or two:
// the extractor type-checks the packages from source).
func TestFreshSymbols(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerating the symbols takes minutes")
	}
	pkgs, err := gen.Packages(notebooks)
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Extract(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what `go generate` writes now (%v): run it in livebook/symbols", name, err)
		}
	}
}
