package widgetsbrowser

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/testtools/browsercheck"
	"sodworkbench.org/workbench/widgets"
)

// Log axes keep their ticks below 5e-11: ECharts 5.6 rounds log ticks to
// 10 decimals, so every tick under 1e-10 became 0 and lost its label (the
// distance to M* of notebook 05 reaching 1e-16, the term norms of notebook
// 06 down to 1e-30). The page's charts must have only positive ticks at
// powers of ten, down to the data.
func TestBrowserLogTicksTiny(t *testing.T) {
	assetsOrSkip(t)
	bctx := browser(t)
	c, err := widgets.Curves{Title: "tiny values", XName: "iteration", YName: "d", X: []float64{0, 1, 2, 3},
		Series: []widgets.Series{{Name: "d", Y: []float64{1, 1e-8, 1e-16, 1e-24}}}, LogY: true}.Chart()
	if err != nil {
		t.Fatal(err)
	}
	y := []float64{1e-28, 0.5}
	tn, err := widgets.TermNorms{T: []float64{1, 10}, ClosedForm: widgets.Terms{A: y, B: y, C: y}}.Chart()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := widgets.WritePage(&b, "log ticks", c, tn); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "logticks.html")
	writeFile(t, path, b.Bytes())
	tb := browsercheck.OpenTab(bctx)
	defer tb.Close()
	if err := chromedp.Do(tb.Ctx, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatal(err)
	}
	poll(t, tb.Ctx, "both charts", `(function () { var w = window.sodWidgets; if (!w || !w.finished) { return false; }
	  var n = 0; for (var k in w.charts) { if (!w.finished[k]) { return false; } n++; } return n === 2; })()`, 30*time.Second)
	ticks := run[[][]float64](t, tb.Ctx, `(function () { var w = window.sodWidgets, out = [];
	  for (var k in w.charts) { out.push(w.charts[k].getModel().getComponent('yAxis').axis.scale.getTicks().map(function (t) { return t.value; })); }
	  return out; })()`)
	for i, ts := range ticks {
		lowest := math.Inf(1)
		for _, v := range ts {
			if !(v > 0) {
				t.Errorf("chart %d: tick at %g on a log axis (ticks %v)", i, v, ts)
				continue
			}
			lowest = math.Min(lowest, v)
		}
		if !(lowest <= 1e-20) {
			t.Errorf("chart %d: lowest tick %g, want one at or below 1e-20 (ticks %v)", i, lowest, ts)
		}
		t.Logf("chart %d: ticks %v", i, ts)
	}
}
