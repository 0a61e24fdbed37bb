package book_test

import (
	"bytes"
	"encoding/json"
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
	if bytes.Count(once, []byte("</script>")) != 2 {
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
