package widgetsbrowser

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/testtools/browsercheck"
	"sodworkbench.org/workbench/widgets"
)

// injectionPayloads are markup attacks (the widgets package's static
// injection test uses the same list): each sets window.__pwned if a widget
// ever lets it run.
var injectionPayloads = []string{
	`</script><script>window.__pwned=1</script>`,
	`"><img src=x onerror="window.__pwned=1">`,
	`<!--`,
	`__f__window.__pwned=1__f__`,
	`' onmouseover='window.__pwned=1' x='`,
	`</SCRIPT ><!--<script>window.__pwned=1//`,
}

// pageFacts is what injectionFactsJS reports about a page.
type pageFacts struct {
	Pwned    bool   `json:"pwned"`
	Imgs     int    `json:"imgs"`
	Scripts  int    `json:"scripts"`
	Elements int    `json:"elements"`
	Title    string `json:"title"`
	Caption  string `json:"caption"`
	Tooltips int    `json:"tooltips"`
}

// injectionFactsJS shows a tooltip of every series of every chart (ECharts
// writes tooltips as HTML), then reports whether any payload ran, how many
// img and script elements the page has, and the page title and table
// caption as the browser reads them.
const injectionFactsJS = `(function () {
  var w = window.sodWidgets || {charts: {}}, tips = 0;
  for (var k in w.charts) {
    var inst = w.charts[k], n = inst.getModel().getSeries().length;
    for (var s = 0; s < n; s++) {
      try { inst.dispatchAction({type: 'showTip', seriesIndex: s, dataIndex: 0}); tips++; } catch (e) {}
    }
    document.querySelectorAll('img').forEach(function (el) {
      el.dispatchEvent(new Event('error')); el.dispatchEvent(new MouseEvent('mouseover'));
    });
  }
  document.querySelectorAll('*').forEach(function (el) { el.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); });
  var cap = document.querySelector('table caption');
  return {pwned: window.__pwned !== undefined, imgs: document.querySelectorAll('img').length,
    scripts: document.querySelectorAll('script').length, elements: document.querySelectorAll('*').length,
    title: document.title, caption: cap ? cap.textContent : '', tooltips: tips};
})()`

// TestBrowserInjection loads the gallery (every chart and table type) with
// each payload in every text field, and the page title, in Chromium, shows
// a tooltip of every series and fires mouseover on every element, and
// checks that no payload ran (window.__pwned stays undefined), that the page
// has exactly the elements of the plain-text gallery (no injected img or
// script), that the title and caption read as the payload text, and that
// every chart still draws. A control page holding the payload unescaped
// must set window.__pwned: it shows the check can see a script that runs.
func TestBrowserInjection(t *testing.T) {
	assetsOrSkip(t)
	bctx := browser(t)
	dir := t.TempDir()
	write := func(name, text string) (string, int) {
		items, err := widgets.GalleryWithText(1, text)
		if err != nil {
			t.Fatalf("GalleryWithText(%q): %v", text, err)
		}
		p := &widgets.Page{Title: text}
		n := 0
		for _, it := range items {
			if it.Chart != nil {
				p.Add(it.Chart)
				n++
			} else {
				p.AddHTML(it.HTML)
			}
		}
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".html")
		writeFile(t, path, b.Bytes())
		return path, n
	}
	facts := func(t *testing.T, path string, charts int) (pageFacts, []string) {
		tb := browsercheck.OpenTab(bctx)
		defer tb.Close()
		if err := chromedp.Do(tb.Ctx, chromedp.Navigate("file://"+path)); err != nil {
			t.Fatal(err)
		}
		rep, err := tb.Inspect(20 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		probs := append(rep.ChartProblems(charts), rep.Errors(nil)...)
		f := run[pageFacts](t, tb.Ctx, injectionFactsJS)
		_ = chromedp.Do(tb.Ctx, chromedp.Sleep(300*time.Millisecond))
		f.Pwned = f.Pwned || run[bool](t, tb.Ctx, `window.__pwned !== undefined`)
		return f, probs
	}

	basePath, n := write("plain", "plain text")
	base, probs := facts(t, basePath, n)
	for _, p := range probs {
		t.Errorf("plain gallery: %s", p)
	}
	if base.Pwned || base.Imgs != 0 || base.Tooltips < n {
		t.Fatalf("plain gallery: %+v (want no __pwned, no img, a tooltip per series)", base)
	}

	control := filepath.Join(dir, "control.html")
	writeFile(t, control, []byte(`<!DOCTYPE html><html><head><title>control</title></head><body><div class="sodw"></div>`+
		fmt.Sprintf(`<script>var o = {"text": "%s"};</script>`, injectionPayloads[0])+`</body></html>`))
	if f, _ := facts(t, control, -1); !f.Pwned {
		t.Fatal("control page with an unescaped payload did not set window.__pwned: the check cannot see a script that runs")
	}

	for k, payload := range injectionPayloads {
		t.Run(fmt.Sprintf("payload%d", k), func(t *testing.T) {
			path, n := write(fmt.Sprintf("payload%d", k), payload)
			f, probs := facts(t, path, n)
			for _, p := range probs {
				t.Errorf("%q: %s", payload, p)
			}
			if f.Pwned {
				t.Errorf("%q: window.__pwned is set: injected script ran", payload)
			}
			if f.Imgs != 0 || f.Scripts != base.Scripts || f.Elements != base.Elements {
				t.Errorf("%q: page has %d img, %d script, %d elements; plain gallery %d, %d, %d", payload,
					f.Imgs, f.Scripts, f.Elements, base.Imgs, base.Scripts, base.Elements)
			}
			if f.Title != payload || f.Caption != payload {
				t.Errorf("%q: title reads %q, caption %q; want the payload as text", payload, f.Title, f.Caption)
			}
			if !t.Failed() {
				t.Logf("%q: %d charts drew, %d tooltips shown, nothing ran", payload, n, f.Tooltips)
			}
		})
	}
}
