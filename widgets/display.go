package widgets

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	"github.com/go-echarts/go-echarts/v2/render"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// Chart is any go-echarts chart (*charts.Line, *charts.HeatMap,
// *charts.Scatter3D, ...): they all embed a render.Renderer and so can be
// rendered as an HTML snippet.
type Chart interface {
	RenderSnippet() render.ChartSnippet
}

// Display renders c as an HTML snippet (a <div> plus a script, never a full
// page) into the output of the current GoNB cell and waits with
// gonbui.Sync until the front end has received it, and returns any error:
// the form for programs. A notebook shows a chart with Show, which reports
// the error in the cell (the kinds of output and their entry points are
// listed in the package doc).
//
// ECharts (and ECharts-GL for 3-D charts) is inlined from the local npm
// assets, never loaded from a CDN, so the saved notebook and its nbconvert
// HTML export work offline. The library is inlined only in the first chart
// output of a cell (each GoNB cell runs as a new program), gzip-compressed
// unless CompressLibrary is false; the browser evaluates it only once per
// page. While it loads, an AMD define (require.js in Jupyter Notebook 6 and
// in nbconvert's HTML) is hidden so that ECharts registers itself as the
// global window.echarts.
//
// Each call gives the chart a fresh DOM id, so re-running a cell works.
// Outside a notebook (frontend.IsNotebook() is false) Display renders the chart,
// reporting any error, and shows nothing.
func Display(c Chart) error {
	return displayTo(notebookSink{}, c)
}

// sink abstracts the notebook so that the plumbing can be tested.
type sink interface {
	active() bool
	displayHTML(html string)
	displaySVG(svg string)
	sync()
}

type notebookSink struct{}

func (notebookSink) active() bool            { return frontend.IsNotebook() }
func (notebookSink) displayHTML(html string) { frontend.DisplayHTML(html) }
func (notebookSink) displaySVG(svg string)   { frontend.DisplaySVG(svg) }
func (notebookSink) sync()                   { frontend.Sync() }

// emitted records which libraries this process has already put into an
// output (a process is one cell execution under GoNB).
var emitted struct {
	sync.Mutex
	lib [numLibraries]bool
}

func displayTo(s sink, c Chart) error {
	frag, needGL, err := fragment(c)
	if err != nil {
		return err
	}
	if !s.active() {
		return nil
	}
	emitted.Lock()
	libs, err := librariesHTML(needGL, emitted.lib)
	if err != nil {
		emitted.Unlock()
		return err
	}
	emitted.lib[libECharts] = true
	if needGL {
		emitted.lib[libEChartsGL] = true
	}
	emitted.Unlock()
	s.displayHTML(libs + frag)
	s.sync()
	return nil
}

// HTML returns a self-contained HTML fragment for c: the library scripts
// (always included) followed by the chart's <div> and script. It is what
// Display sends for the first chart of a cell; use it to embed charts in
// other HTML.
func HTML(c Chart) (string, error) {
	frag, needGL, err := fragment(c)
	if err != nil {
		return "", err
	}
	libs, err := librariesHTML(needGL, [numLibraries]bool{})
	if err != nil {
		return "", err
	}
	return libs + frag, nil
}

// WritePage writes a standalone offline HTML page showing the charts one
// below the other, with the libraries inlined once.
func WritePage(w io.Writer, title string, cs ...Chart) error {
	p := Page{Title: title}
	for _, c := range cs {
		p.Add(c)
	}
	return p.Write(w)
}

// Page collects charts and HTML blocks for a standalone offline HTML page.
type Page struct {
	Title string
	Head  string // extra HTML for <head> (e.g. test scripts)
	items []pageItem
}

type pageItem struct {
	chart Chart
	html  string
}

// Add appends a chart to the page.
func (p *Page) Add(c Chart) {
	if p == nil {
		panic(fmt.Errorf("%w: Page.Add on a nil *Page (use &widgets.Page{})", ErrBadInput))
	}
	p.items = append(p.items, pageItem{chart: c})
}

// AddHTML appends an HTML block (e.g. Table.HTML) to the page.
func (p *Page) AddHTML(html string) {
	if p == nil {
		panic(fmt.Errorf("%w: Page.AddHTML on a nil *Page (use &widgets.Page{})", ErrBadInput))
	}
	p.items = append(p.items, pageItem{html: html})
}

// Write writes the page, with the libraries the charts need inlined once.
func (p *Page) Write(w io.Writer) error {
	if p == nil {
		return fmt.Errorf("%w: Page.Write on a nil *Page (use &widgets.Page{})", ErrBadInput)
	}
	if w == nil {
		return fmt.Errorf("%w: Page.Write: nil io.Writer", ErrBadInput)
	}
	var body strings.Builder
	needGL := false
	for _, it := range p.items {
		if it.chart == nil {
			body.WriteString(it.html)
			body.WriteString("\n")
			continue
		}
		frag, gl, err := fragment(it.chart)
		if err != nil {
			return err
		}
		needGL = needGL || gl
		body.WriteString(frag)
		body.WriteString("\n")
	}
	libs, err := librariesHTML(needGL, [numLibraries]bool{})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n%s</head>\n<body>\n%s\n%s</body>\n</html>\n",
		escapeHTML(p.Title), p.Head, libs, body.String())
	return err
}

// CompressLibrary selects how the libraries are inlined. When true (the
// default) they are inlined gzip-compressed and base64-encoded (0.45 MB for
// ECharts instead of 1.03 MB, 0.23 MB instead of 0.64 MB for ECharts-GL)
// and unpacked by the browser with DecompressionStream (Chrome/Edge 80,
// Firefox 113, Safari 16.4 or newer); when false they are inlined as plain
// JavaScript, which any browser runs. Set it at the start of a cell.
var CompressLibrary = true

// libraryLoaderTmpl wraps a UMD library so that it defines a browser
// global even when an AMD loader is present: define, exports, module and
// require are shadowed by undefined function parameters, and `this` is the
// window. The guard makes the browser evaluate it only once per page.
const libraryLoaderTmpl = `<script type="text/javascript">
if (!(%s)) { (function (define, exports, module, require) {
%s
}).call(window); }
</script>
`

// compressedLoaderTmpl unpacks a gzip-compressed, base64-encoded library
// and evaluates it with define, exports, module and require hidden, once
// per page: window.sodWidgets.loading[name] holds the promise of the first
// loader, later ones do nothing. ECharts-GL waits for ECharts. A failure is
// kept in window.sodWidgets.loadError for the charts to show.
const compressedLoaderTmpl = `<script type="text/javascript">
(function () {
  var w = window.sodWidgets = window.sodWidgets || {charts: {}, finished: {}};
  w.loading = w.loading || {};
  var name = %q, global = %q, after = %q;
  if (window[global] || w.loading[name]) { return; }
  var b64 = "%s";
  w.loading[name] = (w.loading[after] || Promise.resolve()).then(function () {
    if (typeof DecompressionStream === "undefined") {
      throw new Error("this browser has no DecompressionStream (needed to unpack " + name + "); use a recent browser or set widgets.CompressLibrary = false");
    }
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }).then(function (src) {
    (new Function("define", "exports", "module", "require", src)).call(window);
  }).catch(function (e) {
    w.loadError = (w.loadError ? w.loadError + "; " : "") + name + ": " + e;
    if (window.console) { console.error("widgets: loading " + name + " failed:", e); }
  });
})();
</script>
`

// librariesHTML returns the <script> elements for the libraries needed and
// not yet emitted.
func librariesHTML(needGL bool, already [numLibraries]bool) (string, error) {
	var b strings.Builder
	for _, l := range []library{libECharts, libEChartsGL} {
		if already[l] || (l == libEChartsGL && !needGL) {
			continue
		}
		name, global, after := "echarts", "echarts", ""
		if l == libEChartsGL {
			name, global, after = "echarts-gl", "echarts-gl", "echarts"
		}
		if CompressLibrary {
			packed, err := libraryCompressed(l)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, compressedLoaderTmpl, name, global, after, packed)
			continue
		}
		src, err := librarySource(l)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, libraryLoaderTmpl, fmt.Sprintf("window[%q]", global), src)
	}
	return b.String(), nil
}

// chartScriptTmpl runs go-echarts' own chart script (init, setOption, event
// listeners, JS functions) inside a function once the libraries are
// present, registers the instance in window.sodWidgets.charts[id] (and
// sets window.sodWidgets.finished[id] once ECharts has finished drawing, for
// the browser tests), disposes of the instances whose <div> has left the
// page (a re-run cell, a redrawn Explore chart), resizes it with the window
// and, if the libraries never arrive, writes an
// explanation into the chart's <div> instead of leaving it blank.
//
// Before the first chart of a page it also patches ECharts 5's log scale
// once (see fixLogTicksJS).
const chartScriptTmpl = `<script type="text/javascript">
(function () {
  var id = %q, needGL = %t;
  var draw = function () {
` + fixLogTicksJS + `
%s
    var inst = goecharts_%s;
    var w = window.sodWidgets = window.sodWidgets || {charts: {}};
    w.finished = w.finished || {};
    for (var k in w.charts) {
      var old = w.charts[k];
      if (old && !document.body.contains(old.getDom())) { old.dispose(); delete w.charts[k]; }
    }
    w.charts[id] = inst;
    inst.on("finished", function () { w.finished[id] = true; });
    window.addEventListener("resize", function () { if (!inst.isDisposed()) { inst.resize(); } });
  };
  var tries = 0;
  var wait = function () {
    if (window.echarts && (!needGL || window["echarts-gl"])) { draw(); return; }
    var sw = window.sodWidgets;
    if (!(sw && sw.loadError) && ++tries < 200) { setTimeout(wait, 50); return; }
    var el = document.getElementById(id);
    if (el) { el.style.height = "auto"; el.textContent = "widgets: ECharts" + (needGL ? "-GL" : "") +
      " is not loaded on this page" + (sw && sw.loadError ? " (" + sw.loadError + ")" : "") +
      "; re-run the cell (the first chart of a cell carries the library)."; }
  };
  wait();
})();
</script>
`

// fixLogTicksJS makes the ticks of ECharts' log axes exact. ECharts 5.6
// rounds every log tick to 10 decimals (LogScale.getTicks calls
// numberUtil.round(10^e) with its default precision), so every tick below
// 5e-11 became 0: its label vanished or read "0e0" (a distance to M* that
// reaches 1e-16, a term norm that collapses to 1e-300). The patch, applied
// once per page to the log scale's prototype (found through a small
// off-page probe chart), computes 10^e without rounding. It is skipped,
// with a console warning, if ECharts' internals differ.
const fixLogTicksJS = `    (function () {
      var sw = window.sodWidgets = window.sodWidgets || {charts: {}};
      if (sw.logTicksFixed) { return; }
      sw.logTicksFixed = true;
      try {
        var probe = echarts.init(document.createElement('div'), null, {width: 20, height: 20});
        probe.setOption({animation: false, xAxis: {type: 'value'}, yAxis: {type: 'log'}, series: [{type: 'line', data: [[0, 1], [1, 10]]}]});
        var scale = probe.getModel().getComponent('yAxis').axis.scale;
        probe.dispose();
        var P = Object.getPrototypeOf(scale), I = scale._originalScale && Object.getPrototypeOf(scale._originalScale);
        if (!(I && typeof I.getTicks === 'function' && typeof scale.base === 'number' && scale._extent)) { throw new Error('unexpected ECharts log scale'); }
        P.getTicks = function (expand) {
          var base = this.base;
          return I.getTicks.call(this, expand).map(function (t) { return {value: Math.pow(base, t.value)}; });
        };
      } catch (e) {
        if (window.console) { console.warn('widgets: log-axis tick fix not applied:', e); }
      }
    })();`

// fragment renders c with a fresh id into its <div> and script (without
// the libraries) and reports whether it needs ECharts-GL.
func fragment(c Chart) (html string, needGL bool, err error) {
	if c == nil || (reflect.ValueOf(c).Kind() == reflect.Pointer && reflect.ValueOf(c).IsNil()) {
		return "", false, errors.New("widgets: nil chart")
	}
	id := "sodw_" + freshID()
	if err := setChartID(c, id); err != nil {
		return "", false, err
	}
	needGL = usesGL(c)
	snip, err := renderSnippet(c)
	if err != nil {
		return "", false, err
	}
	if o := strings.TrimSpace(snip.Option); o == "" || o == "null" || o == ";" {
		// go-echarts ignores JSON encoding errors and leaves the option empty.
		return "", false, fmt.Errorf("widgets: the chart's option could not be encoded to JSON (NaN or ±Inf in its data?)")
	}
	if !strings.Contains(snip.Element, id) || !strings.Contains(snip.Script, "goecharts_"+id) {
		return "", false, fmt.Errorf("widgets: go-echarts snippet does not use the chart id %q", id)
	}
	// Bootstrap, which Jupyter Notebook 6 uses, gives class "container" a
	// fixed width and padding: go-echarts' wrapper must not use it.
	elem := strings.Replace(snip.Element, `<div class="container">`, `<div class="sodw-container">`, 1)
	body, err := scriptBody(snip.Script)
	if err != nil {
		return "", false, err
	}
	src, ok := c.(optionSource)
	if !ok {
		return "", false, fmt.Errorf("widgets: %T does not expose its ECharts option (not a go-echarts chart)", c)
	}
	if body, err = safeOptionScript(src, body); err != nil {
		return "", false, err
	}
	if m := scriptSpecial.FindString(body); m != "" {
		return "", false, fmt.Errorf("widgets: the chart's script contains %q outside the escaped option (an event handler or JS function?)", m)
	}
	return `<div class="sodw" style="margin:4px 0 18px 0;">` + elem + "\n" +
		fmt.Sprintf(chartScriptTmpl, id, needGL, body, id) + "</div>", needGL, nil
}

// renderSnippet calls c.RenderSnippet, turning go-echarts' template panics
// into errors.
func renderSnippet(c Chart) (snip render.ChartSnippet, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("widgets: go-echarts failed to render the chart: %v", r)
		}
	}()
	return c.RenderSnippet(), nil
}

// scriptBody strips the <script> element around go-echarts' chart script.
func scriptBody(s string) (string, error) {
	s = strings.TrimSpace(s)
	open := strings.Index(s, ">")
	end := strings.LastIndex(s, "</script>")
	if !strings.HasPrefix(s, "<script") || open < 0 || end < open {
		return "", fmt.Errorf("widgets: unexpected go-echarts script snippet %.60q", s)
	}
	return s[open+1 : end], nil
}

// freshID returns a random identifier for a DOM id. It is not a numerical
// random number (so it takes no seed): it only has to differ between cell
// executions, which are separate processes.
func freshID() string {
	return strings.ToLower(rand.Text())
}

// setChartID sets the ChartID field that every go-echarts chart has through
// its embedded opts.Initialization.
func setChartID(c Chart, id string) error {
	f, ok := chartField(c, "ChartID")
	if !ok || f.Kind() != reflect.String || !f.CanSet() {
		return fmt.Errorf("widgets: %T is not a go-echarts chart (no settable ChartID)", c)
	}
	f.SetString(id)
	return nil
}

// usesGL reports whether c is a 3-D chart: go-echarts adds
// "echarts-gl.min.js" to the JSAssets of those.
func usesGL(c Chart) bool {
	f, ok := chartField(c, "JSAssets")
	if !ok {
		return false
	}
	vals := f.FieldByName("Values")
	if !vals.IsValid() || vals.Kind() != reflect.Slice {
		return false
	}
	for i := 0; i < vals.Len(); i++ {
		if v := vals.Index(i); v.Kind() == reflect.String && strings.HasSuffix(v.String(), "echarts-gl.min.js") {
			return true
		}
	}
	return false
}

func chartField(c Chart, name string) (reflect.Value, bool) {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	f := v.Elem().FieldByName(name)
	return f, f.IsValid()
}
