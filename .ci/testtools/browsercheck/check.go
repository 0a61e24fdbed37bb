// Package browsercheck loads pages with charts of the widgets package in
// headless Chromium without network access, and reports whether every
// chart drew (from the DOM, from ECharts' own state and from screenshots)
// and whether any script failed. It is used by the widgets browser tests
// and by the chartcheck command, which checks exported notebooks.
package browsercheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// FindChromium returns the Chromium binary: $SOD_CHROMIUM, or chromium,
// chromium-browser, google-chrome or google-chrome-stable on PATH.
func FindChromium() (string, error) {
	if p := os.Getenv("SOD_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("SOD_CHROMIUM=%q: %w", p, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found (install it with `scripts/install.sh --with-browser`, or set SOD_CHROMIUM)")
}

// Start starts headless Chromium at path without network access: every
// host name but 127.0.0.1 resolves to nothing and the proxy is an unused
// local port (loopback still works, for a local Jupyter server). Cancel
// the returned function to stop it.
func Start(path, userDataDir string, timeout time.Duration) (context.Context, context.CancelFunc, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(userDataDir),
		chromedp.WindowSize(1100, 900),
		chromedp.ProxyServer("http://127.0.0.1:9"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	cancel := func() { cancelT(); cancelC(); cancelA() }
	if err := chromedp.Do(ctx); err != nil { // start the browser now
		cancel()
		return nil, nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return ctx, cancel, nil
}

// ChartState is what the page reports for one chart <div>.
type ChartState struct {
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

// checkJS inspects every chart <div> written by the widgets package.
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

// readyJS is true when every chart has finished drawing.
const readyJS = `(function () {
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
  return true; })()`

// Report is the outcome of inspecting one page.
type Report struct {
	Charts   []ChartState
	Shots    map[string]image.Image // chart screenshots by id
	Messages []chromedp.ConsoleMessage
	Full     []byte // full-page PNG screenshot
	Waited   time.Duration
}

// Tab is a browser tab whose console messages are collected from its
// creation on.
type Tab struct {
	Ctx context.Context
	// ElementShots takes one screenshot per chart, scrolled into view, for
	// pages that scroll inside a container (Jupyter Notebook).
	ElementShots bool
	cancel       context.CancelFunc
	mu           sync.Mutex
	messages     []chromedp.ConsoleMessage
}

// OpenTab opens a new tab in the browser of bctx.
func OpenTab(bctx context.Context) *Tab {
	ctx, cancel := chromedp.NewContext(bctx)
	tb := &Tab{Ctx: ctx, cancel: cancel}
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

// Close closes the tab.
func (tb *Tab) Close() { tb.cancel() }

// Load opens url in a new tab, inspects it (see Inspect) and closes the
// tab.
func Load(bctx context.Context, url string, wait time.Duration) (Report, error) {
	tb := OpenTab(bctx)
	defer tb.Close()
	if err := chromedp.Do(tb.Ctx, chromedp.Navigate(url)); err != nil {
		return Report{}, fmt.Errorf("navigate %s: %w", url, err)
	}
	return tb.Inspect(wait)
}

// Inspect waits until every chart has finished drawing (or wait has
// passed), then collects the chart states, the console messages so far
// (exceptions, errors, blocked network requests) and screenshots.
func (tb *Tab) Inspect(wait time.Duration) (Report, error) {
	ctx := tb.Ctx
	var rep Report
	t0 := time.Now()
	_, _ = chromedp.Run(ctx, chromedp.Poll[bool](readyJS, chromedp.WithPollingTimeout(wait),
		chromedp.WithPollingInterval(100*time.Millisecond)))
	rep.Waited = time.Since(t0)
	// GL charts keep refining (progressive rendering); give them a moment.
	_ = chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond))
	states, err := chromedp.Run(ctx, chromedp.Evaluate[[]ChartState](checkJS))
	if err != nil {
		return rep, fmt.Errorf("evaluating the chart checks: %w", err)
	}
	rep.Charts = states
	// One full-page screenshot, cut into one image per chart.
	full, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return rep, fmt.Errorf("full-page screenshot: %w", err)
	}
	rep.Full = full
	img, err := png.Decode(bytes.NewReader(full))
	if err != nil {
		return rep, fmt.Errorf("decoding the screenshot: %w", err)
	}
	rep.Shots = map[string]image.Image{}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	for _, s := range states {
		if s.Width == 0 || s.Height == 0 || !ok {
			continue
		}
		r := image.Rect(s.Left, s.Top, s.Left+s.Width, s.Top+s.Height)
		if !tb.ElementShots && r.In(img.Bounds()) {
			rep.Shots[s.ID] = sub.SubImage(r)
			continue
		}
		// Not in the page screenshot (e.g. inside Jupyter's own scrolling
		// container): scroll it into view and cut it from the viewport.
		if im, err := tb.viewportShot(s.ID); err == nil {
			rep.Shots[s.ID] = im
		}
	}
	tb.mu.Lock()
	rep.Messages = append([]chromedp.ConsoleMessage(nil), tb.messages...)
	tb.mu.Unlock()
	return rep, nil
}

// viewportShot scrolls the element into view and cuts it from a viewport
// screenshot.
func (tb *Tab) viewportShot(id string) (image.Image, error) {
	vr, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(function () {
	  var el = document.getElementById(%q); el.scrollIntoView({block: 'center'});
	  var r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, id)))
	if err != nil || len(vr) != 4 {
		return nil, fmt.Errorf("scrolling to chart %s: %v", id, err)
	}
	_ = chromedp.Do(tb.Ctx, chromedp.Sleep(150*time.Millisecond))
	b, err := chromedp.Run(tb.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, err
	}
	vimg, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	cr := image.Rect(int(vr[0]), int(vr[1]), int(vr[0]+vr[2]), int(vr[1]+vr[3])).Intersect(vimg.Bounds())
	vs, ok := vimg.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok || cr.Empty() {
		return nil, fmt.Errorf("chart %s is not in the viewport", id)
	}
	return vs.SubImage(cr), nil
}

// Ink returns the fraction of pixels that are not (nearly) white and the
// number of distinct colours (quantised to 4 bits per channel).
func Ink(img image.Image) (frac float64, colours int) {
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

// ChartProblems lists why charts of the report did not draw. With
// wantCharts ≥ 0 the number of charts must match too.
func (rep Report) ChartProblems(wantCharts int) []string {
	var probs []string
	if wantCharts >= 0 && len(rep.Charts) != wantCharts {
		probs = append(probs, fmt.Sprintf("found %d chart <div>s, want %d", len(rep.Charts), wantCharts))
	}
	for _, s := range rep.Charts {
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
		if img, ok := rep.Shots[s.ID]; ok {
			if f, c := Ink(img); f < 0.01 || c < 6 {
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

// NbconvertAllowed are URL parts of the requests nbconvert's HTML template
// makes on its own (require.js, MathJax and fonts from CDNs); the browser
// has no network, so they fail. None of them is ours.
var NbconvertAllowed = []string{"cdnjs.cloudflare.com", "cdn.jsdelivr.net", "unpkg.com", "fonts.googleapis.com", "mathjax", "MathJax"}

// LiveNotebookAllowed are URL parts of the requests the live Jupyter
// Notebook 6 page makes on its own: its main.js ("HARDCODED WIDGETS HACK")
// always tries to load the ipywidgets nbextension
// widgets/notebook/js/extension.js, which we do not install (GoNB widgets do
// not use it), so the server answers 404 and Chromium refuses the HTML reply
// as a script. None of them is ours.
var LiveNotebookAllowed = []string{"/nbextensions/widgets/notebook/js/extension.js"}

// Allow is a console message that is not a failure of the page under test,
// with a short name and the reason. A message matches when its URL contains
// URL and its text contains Text (an empty field matches anything; at least
// one must be set).
type Allow struct {
	URL, Text string
	Name, Why string
}

func (a Allow) matches(m chromedp.ConsoleMessage) bool {
	return (a.URL != "" || a.Text != "") && strings.Contains(m.URL, a.URL) && strings.Contains(m.Text, a.Text)
}

// Errors returns the console messages that indicate a failure: exceptions
// and console errors (which include failed network requests), except those
// whose URL or text contains one of allowed.
func (rep Report) Errors(allowed []string) []string {
	var as []Allow
	for _, a := range allowed {
		if a != "" {
			as = append(as, Allow{URL: a}, Allow{Text: a})
		}
	}
	return rep.ErrorsExcept(as)
}

// Allowed counts, for each entry of allowed, the exceptions and console
// errors it let through.
func (rep Report) Allowed(allowed []Allow) []int {
	n := make([]int, len(allowed))
	for _, m := range rep.Messages {
		if m.Type != chromedp.ConsoleException && m.Type != chromedp.ConsoleError {
			continue
		}
		for i, a := range allowed {
			if a.matches(m) {
				n[i]++
				break
			}
		}
	}
	return n
}

// ErrorsExcept is Errors with allowed messages matched by [Allow]: by URL
// and text together.
func (rep Report) ErrorsExcept(allowed []Allow) []string {
	var errs []string
	for _, m := range rep.Messages {
		if m.Type != chromedp.ConsoleException && m.Type != chromedp.ConsoleError {
			continue
		}
		ok := false
		for _, a := range allowed {
			if a.matches(m) {
				ok = true
			}
		}
		if !ok {
			errs = append(errs, fmt.Sprintf("%s (%s:%d)%s", m.String(), m.URL, m.Line, stack(m)))
		}
	}
	return errs
}

// stack gives the first frames of a message's stack trace, " at f (url:line:col) < ...", or "".
func stack(m chromedp.ConsoleMessage) string {
	if m.Stack == nil || len(m.Stack.CallFrames) == 0 {
		return ""
	}
	var b strings.Builder
	for i, f := range m.Stack.CallFrames {
		if i == 4 {
			b.WriteString(" < ...")
			break
		}
		if i == 0 {
			b.WriteString(" at ")
		} else {
			b.WriteString(" < ")
		}
		name := f.FunctionName
		if name == "" {
			name = "(anonymous)"
		}
		fmt.Fprintf(&b, "%s (%s:%d:%d)", name, f.URL, f.LineNumber, f.ColumnNumber)
	}
	return b.String()
}
