package widgetsbrowser

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sodworkbench.org/workbench/testtools/browsercheck"
	"sodworkbench.org/workbench/widgets"
)

// repoRoot is the workbench repository, three folders up
// (.ci/testtools/widgetsbrowser). The artefacts are kept inside the
// workbench's module: a notebook there finds the module (its go.mod) by
// walking up.
const repoRoot = "../../.."

// needTool skips the test (or fails it under SOD_REQUIRE_BROWSER=1) with
// a message saying what is missing and how to install it.
func needTool(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("SOD_REQUIRE_BROWSER") == "1" {
		t.Fatalf("%s (SOD_REQUIRE_BROWSER=1)", msg)
	}
	t.Skipf("%s; set SOD_REQUIRE_BROWSER=1 to make this a failure", msg)
}

func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() && os.Getenv("SOD_REQUIRE_BROWSER") != "1" {
		t.Skip("browser test skipped in -short mode")
	}
	p, err := browsercheck.FindChromium()
	if err != nil {
		if os.Getenv("SOD_CHROMIUM") != "" {
			t.Fatal(err)
		}
		needTool(t, "browser test: %v", err)
	}
	return p
}

func assetsOrSkip(t *testing.T) {
	t.Helper()
	if _, err := widgets.AssetsDir(); err != nil {
		needTool(t, "browser test: %v", err)
	}
}

// artefactDir is where screenshots and exported HTML are kept.
func artefactDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot, "widgets", "testdata", "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// browser starts headless Chromium without network access (loopback only).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	ctx, cancel, err := browsercheck.Start(path, t.TempDir(), 4*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return ctx
}

// loadPage opens url in a new tab and inspects it.
func loadPage(t *testing.T, bctx context.Context, url string, wait time.Duration) browsercheck.Report {
	t.Helper()
	t0 := time.Now()
	rep, err := browsercheck.Load(bctx, url, wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %s in %v (charts finished after %v)", filepath.Base(url), time.Since(t0).Round(time.Millisecond), rep.Waited.Round(time.Millisecond))
	return rep
}

func galleryPage(t *testing.T, head string) (*widgets.Page, int) {
	t.Helper()
	items, err := widgets.Gallery(1)
	if err != nil {
		t.Fatal(err)
	}
	p := &widgets.Page{Title: "widgets gallery", Head: head}
	n := 0
	for _, it := range items {
		if it.Chart != nil {
			p.Add(it.Chart)
			n++
		} else {
			p.AddHTML(it.HTML)
		}
	}
	return p, n
}

// requireJS returns a local copy of require.js (Debian's libjs-requirejs or
// the one shipped with Jupyter Notebook), or "" if there is none.
func requireJS() string {
	for _, p := range []string{
		"/usr/share/javascript/requirejs/require.min.js",
		"/usr/lib/python3/dist-packages/notebook/static/components/requirejs/require.js",
	} {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			return p
		}
	}
	return ""
}

// fakeAMD is a minimal AMD loader: a define that records its calls and does
// nothing else, as require.js does for an anonymous module it cannot map.
const fakeAMD = `<script>window.amdCalls = 0; window.define = function () { window.amdCalls++; }; window.define.amd = {};</script>`

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserGalleryPage loads the gallery (every chart of the package) as a
// standalone page in Chromium without network, plain and under an AMD
// loader, and checks that every chart drew and no script failed. A control
// page, where the library is inlined without hiding define, must fail the
// same checks: it shows that the checks can see a chart that did not draw.
func TestBrowserGalleryPage(t *testing.T) {
	assetsOrSkip(t)
	ctx := browser(t)
	out := artefactDir(t)
	dir := t.TempDir()

	type variant struct {
		name       string
		head       string
		compressed bool
		breakLib   bool // inline the library without hiding define (control)
		wantDrawn  bool
	}
	variants := []variant{
		{name: "plain", compressed: true, wantDrawn: true},
		{name: "plain-uncompressed", wantDrawn: true},
		{name: "fake-amd", head: fakeAMD, compressed: true, wantDrawn: true},
		{name: "control-unshielded-fake-amd", head: fakeAMD, compressed: true, breakLib: true, wantDrawn: false},
		{name: "control-unshielded-fake-amd-uncompressed", head: fakeAMD, breakLib: true, wantDrawn: false},
	}
	if rj := requireJS(); rj != "" {
		src, err := os.ReadFile(rj)
		if err != nil {
			t.Fatal(err)
		}
		variants = append(variants,
			variant{name: "requirejs", head: "<script>" + string(src) + "</script>", compressed: true, wantDrawn: true},
			variant{name: "requirejs-uncompressed", head: "<script>" + string(src) + "</script>", wantDrawn: true})
	} else {
		t.Log("no local require.js found: the require.js variants are not run (the fake-AMD ones are)")
		variants = append(variants, variant{name: "fake-amd-uncompressed", head: fakeAMD, wantDrawn: true})
	}
	// Write every page first (CompressLibrary is a package variable), then
	// load them in parallel tabs.
	paths := make([]string, len(variants))
	n := 0
	defer func(c bool) { widgets.CompressLibrary = c }(widgets.CompressLibrary)
	for k, v := range variants {
		widgets.CompressLibrary = v.compressed
		p, nc := galleryPage(t, v.head)
		n = nc
		var buf bytes.Buffer
		if err := p.Write(&buf); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		if v.breakLib {
			html = strings.ReplaceAll(html, "(function (define, exports, module, require) {", "(function () {")
			html = strings.ReplaceAll(html, `new Function("define", "exports", "module", "require", src)`, `new Function(src)`)
		}
		paths[k] = filepath.Join(dir, v.name+".html")
		writeFile(t, paths[k], []byte(html))
	}
	for k, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			wait := 15 * time.Second
			if !v.wantDrawn {
				wait = 3 * time.Second
			}
			rep := loadPage(t, ctx, "file://"+paths[k], wait)
			probs := rep.ChartProblems(n)
			errs := rep.Errors(nil)
			if !v.wantDrawn {
				if len(probs) < n {
					t.Fatalf("control page: only %d of %d charts reported as not drawn; the checks cannot see a missing library", len(probs), n)
				}
				return
			}
			for _, p := range probs {
				t.Error(p)
			}
			for _, e := range errs {
				t.Errorf("page error: %s", e)
			}
			if v.name == "plain" && len(rep.Full) > 0 {
				shot := filepath.Join(out, "gallery.png")
				writeFile(t, shot, rep.Full)
				t.Logf("screenshot of the gallery: %s", shot)
			}
			t.Logf("%s: %d charts checked, %d console messages", v.name, len(rep.Charts), len(rep.Messages))
		})
	}
}
