package book_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"sodworkbench.org/workbench/livebook/book"
	"sodworkbench.org/workbench/livebook/internal/symgen/gen"
)

// TestInject checks that a page is made live once, with sources that
// cannot end their <script> element, and again with new data.
func TestInject(t *testing.T) {
	page := []byte("<html><head><title>x</title></head><body><p>cells</p></body></html>")
	srcs := []book.CellData{{Src: "%%\nfmt.Println(\"</script><script>alert(1)</script>\")"}, {Src: "var x = 1", Known: "a reason"}}
	once, err := book.Inject(page, book.PageData{Wasm: book.WasmFile, Cells: srcs})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(once, []byte("</script>")) != bytes.Count(once, []byte("<script")) {
		t.Errorf("a source ended its <script> element:\n%s", once)
	}
	twice, err := book.Inject(once, book.PageData{Wasm: book.WasmPlotsFile, Cells: srcs[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(twice, []byte(`id="sodlive-cells"`)); n != 1 || bytes.Count(twice, []byte("live.css")) != 1 {
		t.Errorf("injected %d times:\n%s", n, twice)
	}
	m := regexp.MustCompile(`id="sodlive-cells">([^<]*)</script>`).FindSubmatch(twice)
	var data book.PageData
	if m == nil || json.Unmarshal(m[1], &data) != nil || data.Wasm != book.WasmPlotsFile || len(data.Cells) != 1 || data.Cells[0].Src != srcs[0].Src {
		t.Errorf("page data %s", m)
	}
}

// TestData checks where the cells the export leaves out go.
func TestData(t *testing.T) {
	live := []string{book.LiveOnlyTag}
	cells := []gen.Cell{
		{Type: "markdown", Src: "# title"},
		{Type: "code", Src: "a"},
		{Type: "markdown", Src: "## explore"},
		{Type: "code", Src: "explore", Tags: live},
		{Type: "markdown", Src: "after"},
		{Type: "code", Src: "b"},
		{Type: "code", Src: "last", Tags: live},
	}
	got := book.Data(cells, book.WasmFile, map[int]string{2: "why"})
	want := []book.CellData{{Src: "a"}, {Src: "explore", LiveOnly: true, Before: 3, Known: "why"}, {Src: "b"}, {Src: "last", LiveOnly: true, Before: -1}}
	if !reflect.DeepEqual(got.Cells, want) {
		t.Errorf("Data:\n got %+v\nwant %+v", got.Cells, want)
	}
}

func TestInjectDropsFileScripts(t *testing.T) {
	page := []byte("<html><head>\n<script src=\"file:///usr/share/javascript/requirejs/require.min.js\"></script>\n<script src=\"ok.js\"></script></head><body></body></html>")
	out, err := book.Inject(page, book.PageData{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("file://")) || !bytes.Contains(out, []byte(`src="ok.js"`)) {
		t.Errorf("Inject kept a file:// script or dropped another:\n%s", out)
	}
}

// TestInjectKeepsOneLibraryCopy checks that a page whose cells each
// carried the chart libraries keeps the first loader of each, whatever
// the loader's form, and that the interpreter's loader is inlined once.
func TestInjectKeepsOneLibraryCopy(t *testing.T) {
	compressed := func(name string) string {
		return "<script type=\"text/javascript\">\n(function () {\n  var w = window.sodWidgets = window.sodWidgets || {charts: {}, finished: {}};\n" +
			"  w.loading = w.loading || {};\n  var name = \"" + name + "\", global = \"" + name + "\", after = \"\";\n  for (var i = 0; i < 3; i++) {}\n})();\n</script>\n"
	}
	plain := func(name string) string {
		return "<script type=\"text/javascript\">\nif (!(window[\"" + name + "\"])) { (function (define, exports, module, require) {\nvar x = 1 < 2;\n}).call(window); }\n</script>\n"
	}
	chart := "<div class=\"sodw\"></div><script type=\"text/javascript\">draw();</script>\n"
	for _, tc := range []struct {
		name string
		body string
		want map[string]int
	}{
		{"compressed", compressed("echarts") + chart + compressed("echarts") + compressed("echarts-gl") + chart + compressed("echarts") + compressed("echarts-gl"), map[string]int{"echarts": 1, "echarts-gl": 1}},
		{"plain", plain("echarts") + chart + plain("echarts") + chart, map[string]int{"echarts": 1}},
		{"mixed", compressed("echarts") + plain("echarts") + chart, map[string]int{"echarts": 1}},
		{"none", chart, map[string]int{}},
	} {
		page := []byte("<html><head></head><body>" + tc.body + "</body></html>")
		before := bytes.Count(page, []byte("draw();"))
		out, err := book.Inject(page, book.PageData{Wasm: book.WasmFile})
		if err != nil {
			t.Fatal(err)
		}
		if got := book.LibraryCopies(out); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: library copies after Inject %v, want %v", tc.name, got, tc.want)
		}
		if bytes.Count(out, []byte("draw();")) != before {
			t.Errorf("%s: Inject removed a chart's script:\n%s", tc.name, out)
		}
		again, err := book.Inject(out, book.PageData{Wasm: book.WasmPlotsFile})
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(again, []byte(`id="sodlive-load"`)); n != 1 || !bytes.Contains(again, []byte(`data-wasm="live/`+book.WasmPlotsFile+`"`)) {
			t.Errorf("%s: the interpreter's loader is inlined %d times, or not for the new interpreter:\n%s", tc.name, n, again)
		}
	}
}

// TestWriteAssetsCompressesInterpreters checks that each interpreter gets
// a gzip-compressed copy that unpacks to it.
func TestWriteAssetsCompressesInterpreters(t *testing.T) {
	dir, in := t.TempDir(), t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(in, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	wasm := bytes.Repeat([]byte("\x00asm interpreter "), 1000)
	plots := bytes.Repeat([]byte("\x00asm plots "), 1000)
	a := book.Assets{
		Wasm: write("a.wasm", wasm), WasmPlots: write("b.wasm", plots), WasmExec: write("wasm_exec.js", []byte("//")),
		ECharts: in, Sources: map[string]string{},
	}
	write("echarts/dist/echarts.min.js", []byte("//"))
	write("echarts-gl/dist/echarts-gl.min.js", []byte("//"))
	if err := book.WriteAssets(dir, a); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{book.WasmFile: wasm, book.WasmPlotsFile: plots} {
		f, err := os.Open(filepath.Join(dir, book.Dir, name+book.GzipSuffix))
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s%s: %v", name, book.GzipSuffix, err)
		}
		got, err := io.ReadAll(z)
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s%s unpacks to %d bytes (%v), want the %d of %s", name, book.GzipSuffix, len(got), err, len(want), name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, book.Dir, book.SizesFile)); err != nil {
		t.Error(err)
	}
}

// TestLoaderFirstInHead checks that the interpreter's loader is the
// head's first element (after a leading <meta charset>, which must stay
// in the page's first 1024 bytes), before the export's styles and its
// blocking MathJax script, and that the runtime script ends the body.
func TestLoaderFirstInHead(t *testing.T) {
	for _, tc := range []struct{ name, head, before string }{
		{"meta charset", "<head><meta charset=\"utf-8\" />\n<title>x</title><style>p{}</style><script src=\"mathjax/MathJax.js\"> </script>", "<head><meta charset=\"utf-8\" />\n"},
		{"no meta", "<head>\n<style>p{}</style><script src=\"mathjax/MathJax.js\"> </script>", "<head>\n"},
		{"attributes", "<HEAD lang=\"en\"><style>p{}</style>", "<HEAD lang=\"en\">"},
	} {
		page := []byte("<!DOCTYPE html>\n<html>\n" + tc.head + "</head><body><p>x</p></body></html>")
		out, err := book.Inject(page, book.PageData{Wasm: book.WasmFile})
		if err != nil {
			t.Fatal(err)
		}
		want := "<!DOCTYPE html>\n<html>\n" + tc.before + `<script id="sodlive-load"`
		if !bytes.HasPrefix(out, []byte(want)) {
			t.Errorf("%s: the page starts %q, want %q", tc.name, out[:min(len(out), len(want)+20)], want)
		}
		if !bytes.HasSuffix(out, []byte("<script src=\"live/live.js\"></script>\n</body></html>")) {
			t.Errorf("%s: the runtime script does not end the body:\n%s", tc.name, out)
		}
		again, err := book.Inject(out, book.PageData{Wasm: book.WasmFile})
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: injecting again changed the page (%v)", tc.name, err)
		}
	}
}

// TestPageImports checks the import paths the loader gives the worker to
// warm up with (data-warm): each once, in the cells' order, whatever the
// cells' shell lines, bodies and parse errors.
func TestPageImports(t *testing.T) {
	d := book.PageData{Wasm: book.WasmFile, Cells: []book.CellData{
		{Src: "!*cd \"$GONB_DIR\" && go run sodworkbench.org/workbench/sod/cmd/setup"},
		{Src: "import (\n\t\"fmt\"\n\t\"github.com/janpfeifer/must\"\n)"},
		{Src: "import \"fmt\"\nimport m \"math\"\n%%\nfmt.Println(m.Pi)"},
		{Src: "func broken( {"},
	}}
	want := []string{"fmt", "github.com/janpfeifer/must", "math"}
	if got := d.Imports(); !reflect.DeepEqual(got, want) {
		t.Errorf("Imports() = %q, want %q", got, want)
	}
	out, err := book.Inject([]byte("<html><head></head><body></body></html>"), d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`data-warm="fmt github.com/janpfeifer/must math"`)) {
		t.Errorf("the loader has no data-warm with the imports:\n%.300s", out)
	}
}
