// Package gen lists the packages whose symbols the live book's interpreter
// needs and writes them with yaegi's extractor.
package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/traefik/yaegi/extract"

	"sodworkbench.org/workbench/livebook/cells"
)

// Always are packages given symbols whatever the notebooks import: fmt
// (the interpreter redirects its output), log (the source of must uses
// it), io/fs (os.Stat's result type, for the type arguments the page
// writes), go-echarts' charts (the result type of every widgets …Chart
// method: must.M1(c.Chart()) needs it named as a type argument) and a few a
// reader is likely to add to a cell.
var Always = []string{"errors", "fmt", "github.com/go-echarts/go-echarts/v2/charts", "io/fs", "log", "math", "sort", "strconv", "strings", "time"}

// Packages returns the sorted import paths used by the code cells of the
// notebooks in dir, with Always, without cells.SourcePackages.
func Packages(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no notebooks (*.ipynb) in %s", dir)
	}
	seen := map[string]bool{}
	for _, p := range Always {
		seen[p] = true
	}
	for _, f := range files {
		srcs, err := CodeCells(f)
		if err != nil {
			return nil, err
		}
		for i, src := range srcs {
			c, err := cells.Parse(fmt.Sprintf("%s cell %d", filepath.Base(f), i), src)
			if err != nil {
				continue // a cell that does not parse imports nothing
			}
			for _, im := range c.Imports {
				seen[im.Path] = true
			}
		}
	}
	for _, p := range cells.SourcePackages {
		delete(seen, p)
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// CodeCells returns the sources of the code cells of a notebook.
func CodeCells(file string) ([]string, error) {
	all, err := Cells(file)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range all {
		if c.Type == "code" {
			out = append(out, c.Src)
		}
	}
	return out, nil
}

// Cell is one cell of a notebook file.
type Cell struct {
	Type string // "code", "markdown" or "raw"
	Src  string
	Tags []string
}

// Cells returns the cells of a notebook.
func Cells(file string) ([]Cell, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
			Metadata struct {
				Tags []string `json:"tags"`
			} `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var out []Cell
	for _, c := range nb.Cells {
		var lines []string
		if err := json.Unmarshal(c.Source, &lines); err != nil {
			var s string
			if err := json.Unmarshal(c.Source, &s); err != nil {
				return nil, fmt.Errorf("%s: a cell's source: %v", file, err)
			}
			lines = []string{s}
		}
		out = append(out, Cell{Type: c.CellType, Src: strings.Join(lines, ""), Tags: c.Metadata.Tags})
	}
	return out, nil
}

// PlotsTag is the build tag of the symbols of the packages that link
// gonum.org/v1/plot (widgets/plots and the static figures): with their
// fonts they make a third of the interpreter, so the live book builds two
// interpreters, and only the pages of notebooks that import one of these
// packages load the larger (built with -tags sodlive_plots).
const PlotsTag = "sodlive_plots"

// plotPrefix marks the packages that need PlotsTag.
const plotPrefix = "gonum.org/v1/plot"

// Plots returns the packages of pkgs that link gonum.org/v1/plot.
func Plots(pkgs []string) ([]string, error) {
	var out []string
	for _, p := range pkgs {
		b, err := exec.Command("go", "list", "-deps", p).Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps %s: %v", p, err)
		}
		for _, d := range strings.Fields(string(b)) {
			if strings.HasPrefix(d, plotPrefix) {
				out = append(out, p)
				break
			}
		}
	}
	return out, nil
}

// FileName is the name of the symbols file of an import path.
func FileName(path string) string {
	return strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(path) + ".go"
}

// Generate writes the symbols of Packages(nbdir) into the folder out (one
// file per package, named by FileName, and packages.txt), and removes symbol files of packages no longer listed.
func Generate(nbdir, out string) error {
	pkgs, err := Packages(nbdir)
	if err != nil {
		return err
	}
	files, err := Extract(pkgs)
	if err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(out, "z_*.go"))
	for _, f := range old {
		if _, ok := files[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Extract returns the generated files by name: z_<path>.go per package
// and packages.txt.
func Extract(pkgs []string) (map[string][]byte, error) {
	ext := extract.Extractor{Dest: "symbols"}
	files := map[string][]byte{}
	plots, err := Plots(pkgs)
	if err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		var buf bytes.Buffer
		if _, err := ext.Extract(p, "", &buf); err != nil {
			return nil, fmt.Errorf("extracting %s: %v", p, err)
		}
		b := buf.Bytes()
		// The extractor pins stdlib files to the Go release it ran with
		// (a go1.N build tag); the wasm is built by the same toolchain.
		b = stripBuildTags(b)
		if slices.Contains(plots, p) {
			b = append([]byte("//go:build "+PlotsTag+"\n\n"), b...)
		}
		f, err := format.Source(b)
		if err != nil {
			return nil, fmt.Errorf("formatting the symbols of %s: %v", p, err)
		}
		files["z_"+FileName(p)] = f
	}
	var list strings.Builder
	list.WriteString("# Generated by `go generate` (internal/symgen): the packages with compiled symbols;\n# \"plots\" marks those built only with -tags " + PlotsTag + ".\n")
	for _, p := range pkgs {
		list.WriteString(p)
		if slices.Contains(plots, p) {
			list.WriteString(" plots")
		}
		list.WriteString("\n")
	}
	files["packages.txt"] = []byte(list.String())
	return files, nil
}

func stripBuildTags(b []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("//go:build")) || bytes.HasPrefix(l, []byte("// +build")) {
			continue
		}
		out = append(out, l)
	}
	return bytes.Join(out, []byte("\n"))
}
