package widgets

// Browser tests: every chart of the gallery must draw in headless Chromium
// with the network disabled, in a standalone page (with and without an AMD
// loader), in nbconvert's HTML export of a notebook, and in a notebook
// executed by the gonb kernel.
//
// Environment:
//
//	SOD_REQUIRE_BROWSER=1  fail (instead of skip) when Chromium, Jupyter or gonb is missing
//	SOD_CHROMIUM=path      the Chromium/Chrome binary (default: chromium, chromium-browser, google-chrome on PATH)
//	SOD_BROWSER_OUT=dir    where to keep the screenshot and HTML artefacts (default widgets/testdata/out, git-ignored)
//
// They take about a minute and a half on two cores (the two tests with the
// gonb kernel most of it); `go test -short` skips them unless
// SOD_REQUIRE_BROWSER=1.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

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
	if p := os.Getenv("SOD_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("SOD_CHROMIUM=%q: %v", p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	needTool(t, "browser test: no Chromium found (install it with `docker/install.sh --with-browser`, or set SOD_CHROMIUM)")
	return ""
}

func assetsOrSkip(t *testing.T) {
	t.Helper()
	if _, err := AssetsDir(); err != nil {
		needTool(t, "browser test: %v", err)
	}
}

// artefactDir is where screenshots and exported HTML are kept.
func artefactDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SOD_BROWSER_OUT")
	if dir == "" {
		dir = filepath.Join("testdata", "out")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// browser starts headless Chromium without network access: every host
// name resolves to nothing and the proxy is an unused local port.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
		chromedp.ProxyServer("http://127.0.0.1:9"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil { // start the browser now
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// chartState is what checkJS reports for one chart <div>.
type chartState struct {
	ID         string `json:"id"`
	Registered bool   `json:"registered"`
	Finished   bool   `json:"finished"`
	Canvases   int    `json:"canvases"`
	SVGs       int    `json:"svgs"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	Series     int    `json:"series"`
	EmptySer   int    `json:"emptySeries"`
	Elements   int    `json:"elements"`
	GL         bool   `json:"gl"`
	Left       int    `json:"left"` // page coordinates of the <div>
	Top        int    `json:"top"`
	Text       string `json:"text"`
}

// checkJS inspects every chart <div> written by this package.
const checkJS = `(function () {
  var w = window.sodWidgets || {charts: {}, finished: {}};
  var out = [];
  document.querySelectorAll('div.sodw div.item').forEach(function (el) {
    var s = {id: el.id, registered: !!w.charts[el.id], finished: !!(w.finished && w.finished[el.id]),
      canvases: el.querySelectorAll('canvas').length, svgs: el.querySelectorAll('svg').length,
      width: el.clientWidth, height: el.clientHeight, series: 0, emptySeries: 0, elements: 0, gl: false,
      text: (el.textContent || '').slice(0, 300)};
    var r = el.getBoundingClientRect();
    s.left = Math.round(r.left + window.scrollX); s.top = Math.round(r.top + window.scrollY);
    var inst = w.charts[el.id];
    if (inst) {
      var series = inst.getModel().getSeries();
      s.series = series.length;
      series.forEach(function (m) {
        if (m.subType.indexOf('3D') >= 0) { s.gl = true; }
        if (!m.getData() || m.getData().count() === 0) { s.emptySeries++; }
      });
      s.elements = inst.getZr().storage.getDisplayList().length;
    }
    out.push(s);
  });
  return out;
})()`

// pageReport is the outcome of loading one page.
type pageReport struct {
	charts   []chartState
	shots    map[string]image.Image // element screenshots by chart id
	messages []chromedp.ConsoleMessage
	full     []byte // full-page PNG screenshot
}

// tab is a browser tab whose console messages are collected from its
// creation on.
type tab struct {
	ctx context.Context
	// elementShots takes one screenshot per chart, scrolled into view,
	// for pages that scroll inside a container (Jupyter Notebook).
	elementShots bool
	mu           sync.Mutex
	messages     []chromedp.ConsoleMessage
}

// openTab opens a new tab; it is closed at the end of the test.
func openTab(t *testing.T, bctx context.Context) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	tb := &tab{ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.messages = append(tb.messages, m)
			tb.mu.Unlock()
		}
	}()
	return tb
}

// loadPage opens url in a new tab and inspects it (see inspect).
func loadPage(t *testing.T, bctx context.Context, url string, wait time.Duration) pageReport {
	t.Helper()
	tb := openTab(t, bctx)
	t0 := time.Now()
	defer func() { t.Logf("loadPage %s: %v", filepath.Base(url), time.Since(t0)) }()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
	return tb.inspect(t, wait)
}

// inspect waits until every chart has finished drawing (or wait has
// passed) and collects the chart states, the console messages so far
// (exceptions, errors, blocked network requests) and screenshots.
func (tb *tab) inspect(t *testing.T, wait time.Duration) pageReport {
	t.Helper()
	ctx := tb.ctx
	var rep pageReport
	t0 := time.Now()
	_, _ = chromedp.Run(ctx, chromedp.Poll[bool](`(function () {
	  var els = document.querySelectorAll('div.sodw div.item');
	  var w = window.sodWidgets;
	  if (!w || !w.finished || els.length === 0) { return false; }
	  for (var i = 0; i < els.length; i++) {
	    var id = els[i].id, inst = w.charts[id];
	    if (w.finished[id]) { continue; }
	    /* "finished" can fire before the listener is attached when nothing animates */
	    if (inst && inst.getZr().animation.isFinished() && inst.getZr().storage.getDisplayList().length > 0) { continue; }
	    return false;
	  }
	  return true; })()`, chromedp.WithPollingTimeout(wait), chromedp.WithPollingInterval(100*time.Millisecond)))
	t.Logf("waited %v for the charts", time.Since(t0).Round(time.Millisecond))
	// GL charts keep refining (progressive rendering); give them a moment.
	_ = chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond))
	states, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartState](checkJS))
	if err != nil {
		t.Fatalf("evaluating the chart checks: %v", err)
	}
	rep.charts = states
	// One full-page screenshot, cut into one image per chart.
	full, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("full-page screenshot: %v", err)
	}
	rep.full = full
	img, err := png.Decode(bytes.NewReader(full))
	if err != nil {
		t.Fatalf("decoding the screenshot: %v", err)
	}
	rep.shots = map[string]image.Image{}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	for _, s := range states {
		if s.Width == 0 || s.Height == 0 || !ok {
			continue
		}
		r := image.Rect(s.Left, s.Top, s.Left+s.Width, s.Top+s.Height)
		if !tb.elementShots && r.In(img.Bounds()) {
			rep.shots[s.ID] = sub.SubImage(r)
			continue
		}
		// Not in the page screenshot (e.g. inside Jupyter's own scrolling
		// container): scroll it into view and cut it from the viewport.
		vr, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(function () {
		  var el = document.getElementById(%q); el.scrollIntoView({block: 'center'});
		  var r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, s.ID)))
		if err != nil || len(vr) != 4 {
			t.Errorf("scrolling to chart %s: %v", s.ID, err)
			continue
		}
		_ = chromedp.Do(ctx, chromedp.Sleep(150*time.Millisecond))
		b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Errorf("screenshot of chart %s: %v", s.ID, err)
			continue
		}
		vimg, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("decoding the screenshot of chart %s: %v", s.ID, err)
			continue
		}
		cr := image.Rect(int(vr[0]), int(vr[1]), int(vr[0]+vr[2]), int(vr[1]+vr[3])).Intersect(vimg.Bounds())
		if vs, ok := vimg.(interface {
			SubImage(image.Rectangle) image.Image
		}); ok && !cr.Empty() {
			rep.shots[s.ID] = vs.SubImage(cr)
		}
	}
	tb.mu.Lock()
	rep.messages = append([]chromedp.ConsoleMessage(nil), tb.messages...)
	tb.mu.Unlock()
	return rep
}

// ink returns the fraction of pixels that are not (nearly) white and the
// number of distinct colours (quantised to 4 bits per channel).
func ink(img image.Image) (frac float64, colours int) {
	b := img.Bounds()
	seen := map[uint32]bool{}
	n, inked := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			n++
			if r < 235 || g < 235 || bl < 235 {
				inked++
			}
			seen[(r>>4)<<8|(g>>4)<<4|bl>>4] = true
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(inked) / float64(n), len(seen)
}

// chartProblems lists why each chart of the report did not draw.
func chartProblems(rep pageReport, wantCharts int) []string {
	var probs []string
	if len(rep.charts) != wantCharts {
		probs = append(probs, fmt.Sprintf("found %d chart <div>s, want %d", len(rep.charts), wantCharts))
	}
	for _, s := range rep.charts {
		var p []string
		if !s.Registered {
			p = append(p, "never initialised (ECharts not loaded?)")
		}
		if s.Canvases+s.SVGs == 0 {
			p = append(p, "no canvas or SVG")
		}
		if s.Width == 0 || s.Height == 0 {
			p = append(p, fmt.Sprintf("size %d×%d", s.Width, s.Height))
		}
		if s.Registered && (s.Series == 0 || s.EmptySer > 0) {
			p = append(p, fmt.Sprintf("%d series, %d of them empty", s.Series, s.EmptySer))
		}
		if s.Registered && !s.GL && s.Elements <= s.Series {
			p = append(p, fmt.Sprintf("only %d graphic elements drawn", s.Elements))
		}
		if img, ok := rep.shots[s.ID]; ok {
			if f, c := ink(img); f < 0.01 || c < 6 {
				p = append(p, fmt.Sprintf("looks blank: %.2f%% inked pixels, %d colours", 100*f, c))
			}
		} else {
			p = append(p, "no screenshot")
		}
		if len(p) > 0 {
			probs = append(probs, fmt.Sprintf("chart %s: %s (text %q)", s.ID, strings.Join(p, "; "), s.Text))
		}
	}
	return probs
}

// pageErrors returns the console messages that indicate a failure:
// exceptions, console errors, and network requests (there must be none to
// our assets; allowed lists URL substrings of requests a page template
// makes on its own, such as nbconvert's CDN links, which are blocked).
func pageErrors(rep pageReport, allowed []string) []string {
	var errs []string
	for _, m := range rep.messages {
		if m.Type != chromedp.ConsoleException && m.Type != chromedp.ConsoleError {
			continue
		}
		ok := false
		for _, a := range allowed {
			if a != "" && (strings.Contains(m.URL, a) || strings.Contains(m.Text, a)) {
				ok = true
			}
		}
		if !ok {
			errs = append(errs, fmt.Sprintf("%s (%s:%d)", m.String(), m.URL, m.Line))
		}
	}
	return errs
}

func galleryPage(t *testing.T, head string) (*Page, int) {
	t.Helper()
	items, err := Gallery(1)
	if err != nil {
		t.Fatal(err)
	}
	p := &Page{Title: "widgets gallery", Head: head}
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
		{name: "fake-amd-uncompressed", head: fakeAMD, wantDrawn: true},
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
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			defer func(c bool) { CompressLibrary = c }(CompressLibrary)
			CompressLibrary = v.compressed
			p, n := galleryPage(t, v.head)
			var buf bytes.Buffer
			if err := p.Write(&buf); err != nil {
				t.Fatal(err)
			}
			html := buf.String()
			if v.breakLib {
				html = strings.ReplaceAll(html, "(function (define, exports, module, require) {", "(function () {")
				html = strings.ReplaceAll(html, `new Function("define", "exports", "module", "require", src)`, `new Function(src)`)
			}
			path := filepath.Join(dir, v.name+".html")
			writeFile(t, path, []byte(html))
			wait := 10 * time.Second
			if !v.wantDrawn {
				wait = 3 * time.Second
			}
			rep := loadPage(t, ctx, "file://"+path, wait)
			probs := chartProblems(rep, n)
			errs := pageErrors(rep, nil)
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
			if v.name == "plain" && len(rep.full) > 0 {
				shot := filepath.Join(out, "gallery.png")
				writeFile(t, shot, rep.full)
				t.Logf("screenshot of the gallery: %s", shot)
			}
			t.Logf("%s: %d charts checked, %d console messages", v.name, len(rep.charts), len(rep.messages))

		})
	}
}
