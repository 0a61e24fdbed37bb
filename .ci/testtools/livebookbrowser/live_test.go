// Package livebookbrowser tests the live book (livebook) in headless
// Chromium: from a local static server, with every other network request
// refused, each notebook page opened with ?run=all must run its code cells
// in the page's Go interpreter, end with data-run-state "done", print what
// the gonb kernel printed (the executed notebook in the book's ipynb/), draw
// every chart, and rerun an edited cell. Environment:
//
//	SOD_LIVEBOOK=DIR          the live book (built by scripts/book.sh); unset: the test is skipped
//	SOD_LIVEBOOK_NOTEBOOKS=RE the notebooks to run (default ^0[01]-, CI's quick profile; "." for all)
//	SOD_REQUIRE_BROWSER=1     fail instead of skip when Chromium or the book is missing
//
// It writes DIR/LIVE-REPORT.md: per notebook, the time to the first
// output, the median and slowest cell, and every cell that failed or whose
// output differs, with the reason.
package livebookbrowser

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sodworkbench.org/workbench/testtools/browsercheck"
)

func need(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("SOD_REQUIRE_BROWSER") == "1" {
		t.Fatalf("%s (SOD_REQUIRE_BROWSER=1)", msg)
	}
	t.Skipf("%s; set SOD_REQUIRE_BROWSER=1 to make this a failure", msg)
}

// cellStat is window.sodLiveStats.cells[i].
type cellStat struct {
	Cell    int     `json:"cell"`
	MS      float64 `json:"ms"`
	OK      bool    `json:"ok"`
	Error   string  `json:"error"`
	Text    string  `json:"text"`
	Outputs int     `json:"outputs"`
	Known   string  `json:"known"`
	Live    bool    `json:"liveOnly"`
}

type pageStats struct {
	FirstOutput float64     `json:"firstOutput"`
	Ready       float64     `json:"ready"`
	Cells       []*cellStat `json:"cells"`
}

// kernelOutputs returns, per code cell of an executed notebook, the text
// the kernel printed and how many HTML outputs with a chart it showed.
func kernelOutputs(t *testing.T, file string) (texts []string, charts []int) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type    string `json:"cell_type"`
			Outputs []struct {
				Type string          `json:"output_type"`
				Text json.RawMessage `json:"text"`
				Data map[string]any  `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var text strings.Builder
		n := 0
		for _, o := range c.Outputs {
			switch o.Type {
			case "stream":
				var lines []string
				if json.Unmarshal(o.Text, &lines) != nil {
					var s string
					_ = json.Unmarshal(o.Text, &s)
					lines = []string{s}
				}
				text.WriteString(strings.Join(lines, ""))
			case "display_data":
				if h, ok := o.Data["text/html"]; ok && strings.Contains(fmt.Sprint(h), `class="sodw"`) {
					n++
				}
			}
		}
		texts = append(texts, text.String())
		charts = append(charts, n)
	}
	return texts, charts
}

// comparable drops what differs between two correct runs: GoNB's panic
// traces and "exit status" lines, timings, and the module's folder.
var volatile = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d `), // log timestamps
	regexp.MustCompile(`\d+(\.\d+)?\s?(ns|µs|ms|s)\b`),         // durations
	regexp.MustCompile(`(?m)^workbench module: .*$`),           // the set-up cell
	regexp.MustCompile(`(?m)^offline ECharts assets: .*$`),     // a folder on the kernel's machine
	regexp.MustCompile(`\(build: [^)]*\)`),                     // version stamp
	regexp.MustCompile(`(/tmp/[\w.-]*?)\d{6,}`),                // os.MkdirTemp's random names
	regexp.MustCompile(`(?m)^(exit status \d+|panic: .*|goroutine .*|\s+/.*\.go:\d+.*)$`),
}

func comparable(s string) string {
	for _, re := range volatile {
		s = re.ReplaceAllString(s, "")
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t"); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func TestLiveBook(t *testing.T) {
	dir := os.Getenv("SOD_LIVEBOOK")
	if dir == "" {
		t.Skip("set SOD_LIVEBOOK to a live book built by scripts/book.sh (scripts/test.sh builds one for notebooks 00 and 01)")
	}
	if _, err := os.Stat(filepath.Join(dir, "live", "sodlive.wasm")); err != nil {
		need(t, "no live book in %s (build it with scripts/book.sh)", dir)
	}
	if testing.Short() && os.Getenv("SOD_REQUIRE_BROWSER") != "1" {
		t.Skip("browser test skipped in -short mode")
	}
	chromium, err := browsercheck.FindChromium()
	if err != nil {
		need(t, "%v", err)
	}
	match := os.Getenv("SOD_LIVEBOOK_NOTEBOOKS")
	if match == "" {
		match = "^0[01]-"
	}
	re, err := regexp.Compile(match)
	if err != nil {
		t.Fatalf("SOD_LIVEBOOK_NOTEBOOKS=%q: %v", match, err)
	}
	nbs, _ := filepath.Glob(filepath.Join(dir, "ipynb", "[0-9]*.ipynb"))
	var names []string
	for _, nb := range nbs {
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		if _, err := os.Stat(filepath.Join(dir, name+".html")); err == nil && re.MatchString(name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		t.Fatalf("no notebook page in %s matches %q", dir, match)
	}

	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()

	bctx, cancel, err := browsercheck.Start(chromium, t.TempDir(), time.Duration(len(names))*15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()

	var report strings.Builder
	report.WriteString("# The live book: cells run in the browser\n\n")
	report.WriteString("Generated by the live book's browser test (.ci/testtools/livebookbrowser) in headless Chromium.\n\n")
	report.WriteString("Download: what the page fetched (page, interpreter, scripts, MathJax), each file gzip-compressed (-9). " +
		"Interpreter ready: from opening the page until the Go interpreter can run a cell. First output: until a cell first printed or drew.\n\n")
	report.WriteString("| notebook | cells | ran as the kernel | download | interpreter ready | first output | median cell | slowest cell | charts |\n|---|---|---|---|---|---|---|---|---|\n")
	var listed []string
	total, failedTotal := 0, 0
	var all []float64
	for i, name := range names {
		tb := browsercheck.OpenTab(bctx)
		url := srv.URL + "/" + name + ".html?run=all"
		err := chromedp.Do(tb.Ctx, chromedp.Navigate(url))
		var state string
		if err == nil {
			state, err = chromedp.Run(tb.Ctx, chromedp.Poll[string](
				`document.body.getAttribute("data-run-state") && document.body.getAttribute("data-run-state") !== "running" ? document.body.getAttribute("data-run-state") : null`,
				chromedp.WithPollingTimeout(14*time.Minute), chromedp.WithPollingInterval(500*time.Millisecond)))
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			tb.Close()
			continue
		}
		st, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[pageStats](`window.sodLiveStats`))
		if err != nil {
			t.Errorf("%s: reading the stats: %v", name, err)
		}
		texts, charts := kernelOutputs(t, filepath.Join(dir, "ipynb", name+".ipynb"))
		// The kernel's notebook has no live-only cells; "run all" skips them.
		st.Cells = slices.DeleteFunc(st.Cells, func(c *cellStat) bool { return c == nil || c.Live })
		if len(st.Cells) != len(texts) {
			t.Errorf("%s: %d cells ran, the notebook has %d", name, len(st.Cells), len(texts))
		}
		wantCharts, ran := 0, 0
		var ms []float64
		for k, c := range st.Cells {
			if c == nil {
				continue
			}
			total++
			ms = append(ms, c.MS)
			all = append(all, c.MS)
			reason := ""
			switch {
			case !c.OK:
				reason = "fails: " + firstLine(c.Error)
			case k < len(texts) && comparable(c.Text) != comparable(texts[k]):
				reason = "output differs from the kernel's:\n\n```\n" + diff(comparable(texts[k]), comparable(c.Text)) + "\n```"
			case k < len(charts) && c.Outputs < charts[k]:
				reason = fmt.Sprintf("shows %d of the kernel's %d charts", c.Outputs, charts[k])
			default:
				ran++
			}
			if k < len(charts) {
				wantCharts += charts[k]
			}
			if reason != "" {
				failedTotal++
				listed = append(listed, fmt.Sprintf("- %s, cell %d: %s", name, c.Cell, reason))
				if c.Known == "" {
					t.Errorf("%s cell %d %s", name, c.Cell, reason)
				}
			}
		}
		rep, err := tb.Inspect(30 * time.Second)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		drawn := 0
		for _, c := range rep.Charts {
			if c.Registered && c.Elements > 0 {
				drawn++
			}
		}
		for _, p := range rep.ChartProblems(len(rep.Charts)) {
			t.Errorf("%s: %s", name, p)
		}
		if state != "done" {
			t.Errorf("%s: data-run-state = %q", name, state)
		}
		// An edited cell reruns (the first notebook only): print from a new cell body.
		if i == 0 {
			out, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`(async function () {
				var n = window.sodLiveBook.count - 1;
				var st = await window.sodLiveBook.run(n, "%%\nfmt.Println(\"edited\", 6*7)");
				return st.ok ? st.text : "error: " + st.error; })()`, chromedp.EvalAwaitPromise))
			if err != nil || strings.TrimSpace(out) != "edited 42" {
				t.Errorf("%s: an edited cell printed %q (%v), want \"edited 42\"", name, out, err)
			}
		}
		size, err := download(tb, srv.URL, dir, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if size > downloadBudget {
			t.Errorf("%s: the page downloads %.1f MB gzip-compressed, over the budget of %.0f MB", name, float64(size)/1e6, float64(downloadBudget)/1e6)
		}
		if p := explore(tb); p != "" && p != "redrawn" {
			t.Errorf("%s: %s", name, p)
		} else if p == "redrawn" {
			t.Logf("%s: the explorer's chart was redrawn when a slider moved", name)
		}
		tb.Close()
		slices.Sort(ms)
		fmt.Fprintf(&report, "| %s | %d | %d | %.1f MB | %.1f s | %.1f s | %.2f s | %.1f s | %d/%d |\n", name, len(st.Cells), ran,
			float64(size)/1e6, st.Ready/1000, st.FirstOutput/1000, median(ms)/1000, last(ms)/1000, drawn, wantCharts)
		t.Logf("%s: %s; first output %.1f s (interpreter ready %.1f s), median cell %.2f s, slowest %.1f s, %d charts drawn",
			name, state, st.FirstOutput/1000, st.Ready/1000, median(ms)/1000, last(ms)/1000, drawn)
	}
	slices.Sort(all)
	fmt.Fprintf(&report, "\nAll: %d cells, median %.2f s, slowest %.1f s; %d listed (%.1f %%).\n\n## Cells listed\n\n", total, median(all)/1000, last(all)/1000, failedTotal, 100*float64(failedTotal)/float64(max(total, 1)))
	if len(listed) == 0 {
		report.WriteString("None.\n")
	}
	report.WriteString(strings.Join(listed, "\n") + "\n")
	if err := os.WriteFile(filepath.Join(dir, "LIVE-REPORT.md"), []byte(report.String()), 0o644); err != nil {
		t.Error(err)
	}
	t.Log("\n" + report.String())
	if total > 0 && float64(failedTotal) > 0.05*float64(total) {
		t.Errorf("%d of %d cells listed (more than 5 %%)", failedTotal, total)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return x[len(x)/2]
}

func last(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return x[len(x)-1]
}

// diff shows the first differing line of the kernel's output (-) and the
// page's (+).
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d\n- %s\n+ %s", i+1, a, b)
		}
	}
	return ""
}

// explore runs the page's first live-only cell with controls (Explore), if
// any, moves its first slider and checks that the chart is redrawn; it
// returns a problem, "redrawn", or "" for a page without such a cell.
func explore(tb *browsercheck.Tab) string {
	const start = `(function () {
	  var cells = document.querySelectorAll(".sodlive-liveonly");
	  if (!cells.length) { return -1; }
	  var all = Array.prototype.slice.call(document.querySelectorAll(".jp-Cell.jp-CodeCell"));
	  var i = all.indexOf(cells[0]);
	  window.sodLiveBook.run(i);
	  window.sodLiveExplore = cells[0];
	  return i; })()`
	i, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[int](start))
	if err != nil {
		return "starting the live-only cell: " + err.Error()
	}
	if i < 0 {
		return ""
	}
	const chart = `(function () {
	  var c = window.sodLiveExplore, el = c && c.querySelector(".sodw div.item");
	  var w = window.sodWidgets;
	  return el && w && w.charts[el.id] && c.querySelector("[data-sodlive-control]") ? el.id : null; })()`
	first, err := chromedp.Run(tb.Ctx, chromedp.Poll[string](chart, chromedp.WithPollingTimeout(2*time.Minute), chromedp.WithPollingInterval(250*time.Millisecond)))
	if err != nil {
		return "the explorer drew no chart with controls: " + err.Error()
	}
	const move = `(function () {
	  var s = window.sodLiveExplore.querySelector('input[type=range][data-sodlive-control]');
	  if (!s) { return false; }
	  s.value = String(Math.min(+s.max, +s.value + 1) === +s.value ? +s.value - 1 : +s.value + 1);
	  s.dispatchEvent(new Event("input"));
	  return true; })()`
	if ok, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[bool](move)); err != nil || !ok {
		return fmt.Sprintf("moving a slider: %v %v", ok, err)
	}
	redrawn := strings.Replace(chart, "? el.id : null", "&& el.id !== "+strconv.Quote(first)+" ? el.id : null", 1)
	if _, err := chromedp.Run(tb.Ctx, chromedp.Poll[string](redrawn, chromedp.WithPollingTimeout(2*time.Minute), chromedp.WithPollingInterval(250*time.Millisecond))); err != nil {
		return "moving a slider did not redraw the explorer's chart: " + err.Error()
	}
	_, _ = chromedp.Run(tb.Ctx, chromedp.Evaluate[any](`window.sodLiveBook.stop()`))
	return "redrawn"
}

// downloadBudget is the most a notebook page may download, compressed.
const downloadBudget = 12_000_000

// download returns the gzip-compressed size of everything the page
// fetched from the book (the page, its resources and the worker's
// scripts, read from the book's folder).
func download(tb *browsercheck.Tab, base, dir, name string) (int, error) {
	urls, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[[]string](`performance.getEntriesByType("resource").map(function (e) { return e.name; })`))
	if err != nil {
		return 0, err
	}
	files := map[string]bool{name + ".html": true, "live/worker.js": true, "live/wasm_exec.js": true, "live/memfs.js": true}
	for _, u := range urls {
		if rest, ok := strings.CutPrefix(u, base+"/"); ok {
			rest, _, _ = strings.Cut(rest, "?")
			files[rest] = true
		}
	}
	total := 0
	for f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a request the server answered 404 (the browser's favicon.ico)
		}
		if err != nil {
			return 0, err
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(b)
		w.Close()
		total += z.Len()
	}
	return total, nil
}
