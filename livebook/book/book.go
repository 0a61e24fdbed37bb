// Package book turns the exported notebooks of scripts/book.sh into the
// live book: it writes the browser files into <book>/live/ and makes every
// notebook page load them, with the sources of its code cells.
package book

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"sodworkbench.org/workbench/livebook/cells"
	"sodworkbench.org/workbench/livebook/internal/symgen/gen"
	"sodworkbench.org/workbench/livebook/web"
)

// Dir is the folder of the live book's files inside the book.
const Dir = "live"

// Assets are the files WriteAssets copies besides the embedded web files.
type Assets struct {
	Wasm      string            // sodlive.wasm (cmd/sodlive built for js/wasm)
	WasmPlots string            // sodlive-plots.wasm (the same with -tags sodlive_plots)
	WasmExec  string            // $(go env GOROOT)/lib/wasm/wasm_exec.js
	ECharts   string            // node_modules with echarts/ and echarts-gl/ (widgets.AssetsDir)
	Sources   map[string]string // source packages: import path -> folder
}

// Manifest is live/manifest.json: what the page fetches besides its
// interpreter.
type Manifest struct {
	Sources []string `json:"sources"` // "<import path>/<file>.go" under live/src/
}

// The two interpreters (see gen.PlotsTag).
const (
	WasmFile      = "sodlive.wasm"
	WasmPlotsFile = "sodlive-plots.wasm"
)

// GzipSuffix ends the name of an interpreter's gzip-compressed copy, which
// the page fetches and unpacks itself (web/load.js): a static server that
// does not compress, such as python3 -m http.server, then sends about a
// fifth of the interpreter's size.
const GzipSuffix = ".gz"

// WriteAssets writes <book>/live/: the web files, the interpreters (each
// also gzip-compressed, GzipSuffix), Go's wasm_exec.js, ECharts and
// ECharts-GL, the source packages, manifest.json and SizesFile.
func WriteAssets(bookDir string, a Assets) error {
	dir := filepath.Join(bookDir, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := fs.WalkDir(web.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := web.Files.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, p), b, 0o644)
	}); err != nil {
		return err
	}
	copies := map[string]string{
		WasmFile:            a.Wasm,
		WasmPlotsFile:       a.WasmPlots,
		"wasm_exec.js":      a.WasmExec,
		"echarts.min.js":    filepath.Join(a.ECharts, "echarts", "dist", "echarts.min.js"),
		"echarts-gl.min.js": filepath.Join(a.ECharts, "echarts-gl", "dist", "echarts-gl.min.js"),
	}
	for name, from := range copies {
		if err := copyFile(from, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	for _, name := range []string{WasmFile, WasmPlotsFile} {
		if err := gzipFile(filepath.Join(dir, name), filepath.Join(dir, name+GzipSuffix)); err != nil {
			return err
		}
	}
	var man Manifest
	for path, folder := range a.Sources {
		files, err := filepath.Glob(filepath.Join(folder, "*.go"))
		if err != nil {
			return err
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			rel := path + "/" + filepath.Base(f)
			if err := os.MkdirAll(filepath.Join(dir, "src", filepath.FromSlash(path)), 0o755); err != nil {
				return err
			}
			if err := copyFile(f, filepath.Join(dir, "src", filepath.FromSlash(rel))); err != nil {
				return err
			}
			man.Sources = append(man.Sources, rel)
		}
	}
	b, err := json.MarshalIndent(man, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		return err
	}
	return writeSizes(dir, man)
}

// gzipFile writes from's content gzip-compressed (-9) to to.
func gzipFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(to, z.Bytes(), 0o644)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// PageData is what a page carries: its interpreter and its code cells.
type PageData struct {
	Wasm  string     `json:"wasm"`
	Cells []CellData `json:"cells"`
}

// Imports are the import paths of the page's cells, each once, in the
// order the cells import them: the worker warms the interpreter up with
// them while the page is still loading (web/load.js, data-warm).
func (d PageData) Imports() []string {
	var paths []string
	for i, c := range d.Cells {
		parsed, err := cells.Parse(fmt.Sprintf("cell %d", i+1), c.Src)
		if err != nil {
			continue
		}
		for _, im := range parsed.Imports {
			if !slices.Contains(paths, im.Path) {
				paths = append(paths, im.Path)
			}
		}
	}
	return paths
}

// CellData is what a page carries for each code cell.
type CellData struct {
	Src   string `json:"src"`
	Known string `json:"known,omitempty"` // why it cannot run in the browser
	// LiveOnly marks a cell the exported page lacks (tagged live-only: it
	// waits for the reader, e.g. widgets.Explore); the page shows it
	// before its Before-th cell (counting every exported cell; -1: at the
	// end), and runs it only when asked, never in "run all".
	LiveOnly bool `json:"liveOnly,omitempty"`
	Before   int  `json:"before,omitempty"`
}

// Inject returns the page with the live book's stylesheet, the page's data
// and the runtime script added.
func Inject(page []byte, data PageData) ([]byte, error) {
	page = strip(page)
	// The export's scripts from the exporting machine's disk (require.js
	// from file:///…) load nowhere else.
	page = fileScript.ReplaceAll(page, nil)
	b, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	page = later(dedupeLibraries(page))
	if strings.Contains(strings.ToLower(web.Loader), "</script") {
		return nil, fmt.Errorf("web/load.js holds \"</script\", which would end its inlined element")
	}
	// json.Marshal escapes <, > and & so "</script>" cannot end the element.
	head := fmt.Sprintf(`<link rel="stylesheet" href="%s/live.css">`+"\n", html.EscapeString(Dir))
	body := fmt.Sprintf(`<script type="application/json" id="sodlive-cells">%s</script>`+"\n"+
		`<script src="%s/live.js"></script>`+"\n", b, html.EscapeString(Dir))
	out, ok := insertBefore(page, "</head>", head)
	if !ok {
		return nil, fmt.Errorf("the page has no </head>")
	}
	if data.Wasm != "" {
		// The loader goes first in the head, before the export's styles
		// and its (blocking) MathJax script, so that the interpreter's
		// download, its compilation and the worker start at once.
		loader := fmt.Sprintf(`<script id="sodlive-load" data-wasm="%s" data-warm="%s">`+"\n%s</script>\n",
			html.EscapeString(Dir+"/"+data.Wasm), html.EscapeString(strings.Join(data.Imports(), " ")), web.Loader)
		out = insertHeadStart(out, loader)
	}
	if out, ok = insertBefore(out, "</body>", body); !ok {
		return nil, fmt.Errorf("the page has no </body>")
	}
	return out, nil
}

// LiveOnlyTag is the tag of the cells the exported book leaves out
// (widgets.LiveOnlyTag).
const LiveOnlyTag = "live-only"

// Data returns a page's data from its notebook's cells: every code cell,
// those the export left out (LiveOnlyTag) placed among the exported ones;
// known maps a code cell's number (1-based) to why it cannot run in the
// browser.
func Data(cells []gen.Cell, wasm string, known map[int]string) PageData {
	d := PageData{Wasm: wasm}
	kept := 0 // exported cells so far
	var pending []int
	for _, c := range cells {
		live := slices.Contains(c.Tags, LiveOnlyTag)
		if live {
			if c.Type == "code" {
				pending = append(pending, len(d.Cells))
				d.Cells = append(d.Cells, CellData{Src: c.Src, LiveOnly: true})
			}
			continue
		}
		for _, p := range pending {
			d.Cells[p].Before = kept
		}
		pending = nil
		kept++
		if c.Type == "code" {
			d.Cells = append(d.Cells, CellData{Src: c.Src})
		}
	}
	for _, p := range pending {
		d.Cells[p].Before = -1
	}
	for i := range d.Cells {
		d.Cells[i].Known = known[i+1]
	}
	return d
}

// injected finds what Inject adds, so that a page is made live again
// (with the current cells and interpreter) rather than twice.
var injected = regexp.MustCompile(`<link rel="stylesheet" href="` + Dir + `/live.css">\n|` +
	`(?s)<script id="sodlive-load"[^>]*>.*?</script>\n|` +
	`<script type="application/json" id="sodlive-cells">[^<]*</script>\n<script src="` + Dir + `/live.js"></script>\n`)

// fileScript is a script element loading a file of the exporting machine.
var fileScript = regexp.MustCompile(`<script[^>]*\ssrc="file://[^"]*"[^>]*>\s*</script>\n?`)

func strip(page []byte) []byte { return injected.ReplaceAll(page, nil) }

// headStart is where the head's content starts: after <head> and, if it
// comes first, the <meta charset> element (which must stay within the
// page's first 1024 bytes).
var headStart = regexp.MustCompile(`(?i)<head[^>]*>\s*(?:<meta\s+charset[^>]*>\n?)?`)

// insertHeadStart inserts text at headStart (the page's start if it has
// no <head>).
func insertHeadStart(page []byte, text string) []byte {
	at := 0
	if loc := headStart.FindIndex(page); loc != nil {
		at = loc[1]
	}
	out := make([]byte, 0, len(page)+len(text))
	out = append(out, page[:at]...)
	out = append(out, text...)
	return append(out, page[at:]...)
}

func insertBefore(page []byte, tag, text string) ([]byte, bool) {
	i := bytes.LastIndex(page, []byte(tag))
	if i < 0 {
		return nil, false
	}
	out := make([]byte, 0, len(page)+len(text))
	out = append(out, page[:i]...)
	out = append(out, text...)
	return append(out, page[i:]...), true
}

// Pages makes every exported notebook page of the book live: for each
// notebook nbDir/NAME.ipynb with a page <book>/NAME.html. known maps a
// notebook's file name to its cells that cannot run (see Data); the pages
// of notebooks importing one of plots get WasmPlotsFile.
func Pages(bookDir, nbDir string, known map[string]map[int]string, plots []string) ([]string, error) {
	nbs, err := filepath.Glob(filepath.Join(nbDir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	var done []string
	for _, nb := range nbs {
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		page := filepath.Join(bookDir, name+".html")
		b, err := os.ReadFile(page)
		if err != nil {
			continue // a notebook the book left out, or whose export failed
		}
		all, err := gen.Cells(nb)
		if err != nil {
			return nil, err
		}
		wasm := WasmFile
		for i, c := range all {
			if c.Type != "code" {
				continue
			}
			pc, err := cells.Parse(fmt.Sprintf("cell %d", i+1), c.Src)
			if err != nil {
				continue
			}
			for _, im := range pc.Imports {
				if slices.Contains(plots, im.Path) {
					wasm = WasmPlotsFile
				}
			}
		}
		data := Data(all, wasm, known[name+".ipynb"])
		if len(data.Cells) == 0 {
			continue
		}
		out, err := Inject(b, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", page, err)
		}
		if err := os.WriteFile(page, out, 0o644); err != nil {
			return nil, err
		}
		done = append(done, name)
	}
	return done, nil
}
