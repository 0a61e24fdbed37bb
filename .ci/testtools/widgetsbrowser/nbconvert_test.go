package widgetsbrowser

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sodworkbench.org/workbench/testtools/browsercheck"
	"sodworkbench.org/workbench/widgets"
)

// cellOutputs emulates what widgets.Display sends within one GoNB cell (one
// process): the first chart that needs a library carries it, later charts of
// the same cell do not. widgets.HTML gives each chart with every library it
// needs (each one <script> element, before the chart's <div class="sodw">);
// a library already sent in this cell is left out.
type cellOutputs struct {
	sent    map[string]bool
	outputs []string
}

func (c *cellOutputs) chart(t *testing.T, ch widgets.Chart) {
	t.Helper()
	h, err := widgets.HTML(ch)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(h, `<div class="sodw"`)
	if i < 0 {
		t.Fatalf("widgets.HTML: no chart <div class=\"sodw\"> in %.200q", h)
	}
	var out strings.Builder
	for _, lib := range strings.SplitAfter(h[:i], "</script>\n") {
		if lib == "" || c.sent[lib] {
			continue
		}
		if c.sent == nil {
			c.sent = map[string]bool{}
		}
		c.sent[lib] = true
		out.WriteString(lib)
	}
	c.outputs = append(c.outputs, out.String()+h[i:])
}

// galleryNotebook writes a notebook whose code cells hold, as outputs, what
// Display sends for the gallery charts: each cell is one process, so the
// first chart of each cell carries the library, as in GoNB.
func galleryNotebook(t *testing.T, path string) (charts int) {
	t.Helper()
	items, err := widgets.Gallery(1)
	if err != nil {
		t.Fatal(err)
	}
	// Three cells: the GL chart sits in the middle one.
	groups := [][]widgets.GalleryItem{items[:2], items[2:5], items[5:]}
	type output struct {
		OutputType string            `json:"output_type"`
		Data       map[string]string `json:"data"`
		Metadata   map[string]any    `json:"metadata"`
	}
	type cell struct {
		CellType       string         `json:"cell_type"`
		ExecutionCount *int           `json:"execution_count,omitempty"`
		Metadata       map[string]any `json:"metadata"`
		Source         string         `json:"source"`
		Outputs        []output       `json:"outputs,omitempty"`
	}
	cells := []cell{{CellType: "markdown", Metadata: map[string]any{}, Source: "# widgets gallery (outputs as GoNB writes them)"}}
	for k, g := range groups {
		var s cellOutputs // a new cell is a new process
		var src []string
		for _, it := range g {
			if it.Chart == nil {
				s.outputs = append(s.outputs, it.HTML)
				src = append(src, "widgets.DisplayTable(...)")
				continue
			}
			s.chart(t, it.Chart)
			charts++
			src = append(src, "widgets.Display("+it.Name+")")
		}
		n := k + 1
		c := cell{CellType: "code", ExecutionCount: &n, Metadata: map[string]any{}, Source: strings.Join(src, "\n")}
		for _, h := range s.outputs {
			c.Outputs = append(c.Outputs, output{OutputType: "display_data", Data: map[string]string{"text/html": h}, Metadata: map[string]any{}})
		}
		cells = append(cells, c)
	}
	nb := map[string]any{"cells": cells, "nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]string{"name": "gonb", "display_name": "Go (gonb)", "language": "go"},
			"language_info": map[string]string{"name": "go"}}}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, b)
	return charts
}

var nbconvertAllowed = browsercheck.NbconvertAllowed

// TestBrowserNbconvertExport exports a notebook holding every chart to HTML
// with nbconvert (lab template), with require.js from a local file (as
// when the exported page is read online) and from its default CDN address
// (unreachable here: no AMD loader), and checks in Chromium that every
// chart drew.
func TestBrowserNbconvertExport(t *testing.T) {
	assetsOrSkip(t)
	if _, err := exec.LookPath("jupyter"); err != nil {
		needTool(t, "browser test: jupyter not found (install Jupyter with `scripts/install.sh --system`)")
	}
	ctx := browser(t)
	dir := t.TempDir()
	nbPath := filepath.Join(dir, "gallery.ipynb")
	n := galleryNotebook(t, nbPath)
	st, _ := os.Stat(nbPath)
	t.Logf("notebook with %d charts in 3 cells: %.1f MB", n, float64(st.Size())/1e6)

	variants := []struct{ name, requireURL string }{{name: "cdn-require (offline)"}}
	if rj := requireJS(); rj != "" {
		variants = append(variants, struct{ name, requireURL string }{"local-require", "file://" + rj})
	}
	out := artefactDir(t)
	for i, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			base := []string{"nbconvert", "--to", "html", "--output-dir", dir, "--output", "export" + string(rune('a'+i))}
			if v.requireURL != "" {
				base = append(base, "--HTMLExporter.require_js_url="+v.requireURL)
			}
			cmd := exec.Command("jupyter", append(base, nbPath)...)
			cmd.Env = append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("jupyter nbconvert: %v\n%s", err, b)
			}
			html := filepath.Join(dir, "export"+string(rune('a'+i))+".html")
			rep := loadPage(t, ctx, "file://"+html, 15*time.Second)
			for _, p := range rep.ChartProblems(n) {
				t.Error(p)
			}
			for _, e := range rep.Errors(nbconvertAllowed) {
				t.Errorf("page error: %s", e)
			}
			if v.requireURL != "" {
				if b, err := os.ReadFile(html); err == nil {
					keep := filepath.Join(out, "gallery-nbconvert.html")
					writeFile(t, keep, b)
					t.Logf("exported HTML: %s", keep)
				}
			}
		})
	}
}
