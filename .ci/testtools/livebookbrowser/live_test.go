// Package livebookbrowser tests the live book (livebook) in headless
// Chromium: from a local static server, with every other network request
// refused, each notebook page opened with ?run=all must run its code cells
// in the page's Go interpreter, end with data-run-state "done", print what
// the gonb kernel printed (the executed notebook in the book's ipynb/), draw
// every chart, and rerun an edited cell. Environment:
//
//	SOD_LIVEBOOK=DIR          the live book (built by scripts/book.sh); unset: the test is skipped
//	SOD_LIVEBOOK_NOTEBOOKS=RE the notebook pages to open and run (default ".": all, as CI)
//	SOD_REQUIRE_BROWSER=1     fail instead of skip when Chromium or the book is missing
//	SOD_LIVEBOOK_KERNEL_TIMES=FILE  the kernel's time of each cell (scripts/cellcost.sh --cells --out FILE)
//	SOD_LIVEBOOK_TIME_BUDGETS=assert  fail a page over the time budgets (default: report them)
//
// The budgets, as a reader receives them, are measured on every page: the
// bytes the server sent for the page (the server does not compress, as
// python3 -m http.server, and forbids caching, so every page is a first
// visit) at most 12 MB, one copy of each chart library and no script from
// the exporting machine's disk are asserted; the first output within 5 s
// of the navigation's start, the median cell under 0.5 s and every cell
// within 5 s are written to the report and the log, page by page, with the
// machine's load, and asserted only with SOD_LIVEBOOK_TIME_BUDGETS=assert: the pages do not
// meet them yet (the report says by how much). A cell the page cannot run
// (known.json) must keep the kernel's output, charts included, with a note,
// and so must a later cell whose run fails after it (it may need what the
// known cell declares); every other failing cell's error names its line.
// On the first page, Stop must end a running cell with one "stopped", and
// a cell that crashes the interpreter must make the page restart it and
// say so; the next run works without Reset.
//
// TestPageWithoutInterpreter: a page whose interpreter, or whole live
// runtime, the server refuses still draws the kernel's charts and
// typesets its math.
//
// It writes DIR/LIVE-REPORT.md: per notebook, the transfer, the time to
// the first output, the median and slowest cell, each cell's time beside
// the kernel's, and every cell that failed or whose output differs, with
// the reason. The kernel's time of a cell is read from
// SOD_LIVEBOOK_KERNEL_TIMES (scripts/cellcost.sh --cells --out FILE: the
// wall time of each cell, from the execute request to the reply) when set,
// else from the executed notebook's execution timestamps (which GoNB stamps
// to the second).
package livebookbrowser

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	Kept    bool    `json:"kept"`  // a failed run left the kernel's output (a known cell, or one after it)
	After   int     `json:"after"` // a cell kept because it comes after this known cell, which failed
	Cell    int     `json:"cell"`
	MS      float64 `json:"ms"`
	OK      bool    `json:"ok"`
	Error   string  `json:"error"`
	Text    string  `json:"text"`
	Outputs int     `json:"outputs"`
	Known   string  `json:"known"`
	Live    bool    `json:"liveOnly"`
	// The parts of the run in the interpreter, in ms: parsing and
	// type-checking the program (and rewriting it), giving a fresh
	// interpreter the symbols, compiling and running.
	Check   float64 `json:"check"`
	Setup   float64 `json:"setup"`
	Compile float64 `json:"compile"`
	Exec    float64 `json:"exec"`
}

// timelinePhases are the marks of window.sodLiveStats.timeline (web/load.js,
// live.js, worker.js, cmd/sodlive), in the order of a page's loading.
var timelinePhases = []struct{ mark, what string }{
	{"loader", "the loader ran in the head (the interpreter's fetch starts)"},
	{"response", "the interpreter's response arrived"},
	{"fetched", "its last byte arrived"},
	{"compiled", "compiled (WebAssembly.compileStreaming)"},
	{"htmlParsed", "HTML parsed (DOMContentLoaded)"},
	{"liveScript", "live.js started"},
	{"init", "the page's cells set up (live.js, at the body's end)"},
	{"sources", "the source packages fetched"},
	{"workerCreated", "the worker created"},
	{"workerScript", "the worker's script started"},
	{"workerLoaded", "the worker's scripts loaded"},
	{"instantiated", "Go instantiated"},
	{"goMain", "Go runtime and package init done (main)"},
	{"interpreter", "the kernel made (live.New)"},
	{"warmed", "the warm-up done (the page's imports type-checked, a program importing them compiled)"},
	{"ready", "the page knows it is ready"},
	{"firstRun", "cell 1 sent to the worker"},
	{"firstOutput", "the first output arrived"},
	{"firstPaint", "the first output painted"},
	{"mathjax", "MathJax's typesetting ended"},
}

// pageStats is window.sodLiveStats; times in ms from the navigation's start.
type pageStats struct {
	FirstOutput float64     `json:"firstOutput"`
	Ready       float64     `json:"ready"`
	Compiled    float64     `json:"compiled"`
	Script      float64     `json:"script"` // when live.js started
	Cells       []*cellStat `json:"cells"`
	// Timeline are the marks of the loading (timelinePhases), LongTasks
	// the main thread's tasks over 50 ms, [start, duration].
	Timeline  map[string]float64 `json:"timeline"`
	LongTasks [][2]float64       `json:"longTasks"`
}

// The budgets of a page, as a reader receives it.
const (
	transferBudget    = 12_000_000      // bytes the server sends for a page
	firstOutputBudget = 5 * time.Second // from the navigation's start
	medianCellBudget  = 500 * time.Millisecond
	slowestCellBudget = 5 * time.Second // any one cell
)

// server serves the book as python3 -m http.server does (no compression),
// with caching forbidden, and counts the bytes it sends and the files
// asked for.
type server struct {
	files http.Handler
	mu    sync.Mutex
	sent  int64
	paths map[string]int
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, ".wasm") {
		w.Header().Set("Content-Type", "application/wasm")
	}
	w.Header().Set("Cache-Control", "no-store")
	s.mu.Lock()
	s.paths[r.URL.Path]++
	s.mu.Unlock()
	s.files.ServeHTTP(&countingWriter{ResponseWriter: w, s: s}, r)
}

// reset starts counting a new page.
func (s *server) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent, s.paths = 0, map[string]int{}
}

func (s *server) counts() (int64, map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent, maps.Clone(s.paths)
}

type countingWriter struct {
	http.ResponseWriter
	s *server
}

func (w *countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.s.mu.Lock()
	w.s.sent += int64(n)
	w.s.mu.Unlock()
	return n, err
}

// kernelOutputs is browsercheck.KernelOutputs, failing the test on error.
func kernelOutputs(t *testing.T, file string) (texts []string, charts []int) {
	t.Helper()
	texts, charts, err := browsercheck.KernelOutputs(file)
	if err != nil {
		t.Fatal(err)
	}
	return texts, charts
}

// comparable is browsercheck.Comparable: a cell's text without what differs
// between two correct runs.
func comparable(s string) string { return browsercheck.Comparable(s) }

func TestLiveBook(t *testing.T) {
	dir := os.Getenv("SOD_LIVEBOOK")
	if dir == "" {
		t.Skip("set SOD_LIVEBOOK to a live book built by scripts/book.sh (scripts/test.sh builds one)")
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
		match = "."
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

	srv0 := &server{files: http.FileServer(http.Dir(dir)), paths: map[string]int{}}
	srv := httptest.NewServer(srv0)
	defer srv.Close()
	kernel, kernelSource := kernelTimes(t, dir, names)

	bctx, cancel, err := browsercheck.Start(chromium, t.TempDir(), time.Duration(len(names))*15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()

	load0 := loadavg()
	var report, cellRows strings.Builder
	report.WriteString("# The live book: cells run in the browser\n\n")
	report.WriteString("Generated by the live book's browser test (.ci/testtools/livebookbrowser) in headless Chromium, " +
		"each page opened with `?run=all` from a static server that does not compress (as `python3 -m http.server`) " +
		"and forbids caching (every page a first visit), with the network refused.\n\n")
	report.WriteString("Transfer: the bytes the server sent for the page (HTML, MathJax, the interpreter gzip-compressed, scripts), asserted at most 12 MB. " +
		"ECharts: copies of the chart library the page received (inlined by the kernel's outputs, or fetched), at most 1. " +
		"Times from the navigation's start: the interpreter compiled, ready to run a cell, and the first output (asserted within 5 s); " +
		"the median cell is asserted under 0.5 s. Ratio: a cell's time in the page over its time in the kernel (" + kernelSource + ").\n\n")
	report.WriteString("| notebook | cells | ran as the kernel | transfer | ECharts | compiled | interpreter ready | first output | median cell | slowest cell | median ratio | charts |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var listed []string
	timeline := map[string][]string{}
	var timelinePages []string
	total, failedTotal := 0, 0
	var all, allRatios []float64
	within, over5, timed := 0, 0, 0
	for i, name := range names {
		tb := browsercheck.OpenTab(bctx)
		srv0.reset()
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
		sent, paths := srv0.counts()
		st, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[pageStats](`window.sodLiveStats`))
		if err != nil {
			t.Errorf("%s: reading the stats: %v", name, err)
		}
		timelinePages = append(timelinePages, name[:2])
		for k, v := range timelineColumn(st) {
			timeline[k] = append(timeline[k], v)
		}
		t.Logf("%s: timeline %s", name, timelineLine(st))
		texts, charts := kernelOutputs(t, filepath.Join(dir, "ipynb", name+".ipynb"))
		// The kernel's notebook has no live-only cells; "run all" skips them.
		// Cell numbers count them (the page's numbering); k counts the kernel's cells.
		st.Cells = slices.DeleteFunc(st.Cells, func(c *cellStat) bool { return c == nil || c.Live })
		if len(st.Cells) != len(texts) {
			t.Errorf("%s: %d cells ran, the notebook has %d", name, len(st.Cells), len(texts))
		}
		wantCharts, ran := 0, 0
		var ms, ratios []float64
		slowest := 0
		for k, c := range st.Cells {
			total++
			ms = append(ms, c.MS)
			all = append(all, c.MS)
			if c.MS >= st.Cells[slowest].MS {
				slowest = k
			}
			kt, haveKernel := kernel[name][k]
			ratio := "—"
			if haveKernel && kt > 0 {
				r := c.MS / 1000 / kt
				ratios = append(ratios, r)
				allRatios = append(allRatios, r)
				ratio = fmt.Sprintf("%.1f", r)
				timed++
				if c.MS/1000 <= 3*kt+0.5 {
					within++
				}
			}
			if c.MS > 5000 {
				over5++
			}
			kernelCol := "—"
			if haveKernel {
				kernelCol = fmt.Sprintf("%.2f", kt)
			}
			fmt.Fprintf(&cellRows, "| %s | %d | %.2f | %s | %s |\n", name, c.Cell, c.MS/1000, kernelCol, ratio)
			reason := ""
			switch {
			case !c.OK:
				reason = "fails: " + firstLine(c.Error)
				if !regexp.MustCompile(`cell \d+, line \d+|line \d+`).MatchString(c.Error) && c.After == 0 {
					t.Errorf("%s cell %d: its error names no line of the cell: %q", name, c.Cell, firstLine(c.Error))
				}
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
				switch {
				case c.After > 0:
					reason += fmt.Sprintf(" (the page keeps the kernel's output, with a note: it comes after cell %d, which the page cannot run)", c.After)
				case c.Kept:
					reason += " (the page keeps the kernel's output, with a note)"
				}
				listed = append(listed, fmt.Sprintf("- %s, cell %d: %s", name, c.Cell, reason))
				if c.Known == "" && c.After == 0 {
					t.Errorf("%s cell %d %s", name, c.Cell, reason)
				}
			}
			if (c.Known != "" || c.After > 0) && !c.OK && k < len(texts) {
				checkKept(t, tb, name, c, texts[k], charts[k])
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

		// The budgets, as the reader received them.
		if sent > transferBudget {
			t.Errorf("%s: the server sent %.1f MB for the page, over the budget of %.0f MB (%v)", name, float64(sent)/1e6, float64(transferBudget)/1e6, paths)
		}
		html, err := os.ReadFile(filepath.Join(dir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		copies := libraryCopies(html, paths)
		for lib, n := range copies {
			if n > 1 {
				t.Errorf("%s: the page received %d copies of %s, want at most 1", name, n, lib)
			}
		}
		if m := regexp.MustCompile(`<script[^>]*\ssrc="file:[^"]*"`).Find(html); m != nil {
			t.Errorf("%s: the page loads a script from the exporting machine's disk: %s", name, m)
		}
		if first := time.Duration(st.FirstOutput * float64(time.Millisecond)); st.FirstOutput <= 0 || first > firstOutputBudget {
			overTime(t, "%s: the first output came %.1f s after the navigation started (interpreter compiled %.1f s, ready %.1f s), over the budget of %v; load %s",
				name, st.FirstOutput/1000, st.Compiled/1000, st.Ready/1000, firstOutputBudget, loadavg())
		}
		sorted := slices.Sorted(slices.Values(ms))
		if med := time.Duration(median(sorted) * float64(time.Millisecond)); med >= medianCellBudget {
			overTime(t, "%s: the median cell took %.2f s, over the budget of %v; load %s", name, median(sorted)/1000, medianCellBudget, loadavg())
		}
		if slow := time.Duration(last(sorted) * float64(time.Millisecond)); slow > slowestCellBudget {
			overTime(t, "%s: the slowest cell took %.1f s, over the budget of %v; load %s", name, last(sorted)/1000, slowestCellBudget, loadavg())
		}

		if i == 0 {
			stopAndCrash(t, tb, name)
			// An edited cell reruns, after the stop and the crash, without Reset.
			out, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`(async function () {
				var n = window.sodLiveBook.count - 1;
				var st = await window.sodLiveBook.run(n, "%%\nfmt.Println(\"edited\", 6*7)");
				return st.ok ? st.text : "error: " + st.error; })()`, chromedp.EvalAwaitPromise))
			if err != nil || strings.TrimSpace(out) != "edited 42" {
				t.Errorf("%s: an edited cell printed %q (%v), want \"edited 42\"", name, out, err)
			}
		}
		if p := explore(tb); p != "" && p != "redrawn" {
			t.Errorf("%s: %s", name, p)
		} else if p == "redrawn" {
			t.Logf("%s: the explorer's chart was redrawn when a slider moved", name)
		}
		tb.Close()
		slices.Sort(ratios)
		slow := "—"
		if len(st.Cells) > 0 {
			slow = fmt.Sprintf("%.1f s (cell %d)", st.Cells[slowest].MS/1000, st.Cells[slowest].Cell)
		}
		medRatio := "—"
		if len(ratios) > 0 {
			medRatio = fmt.Sprintf("%.1f", median(ratios))
		}
		fmt.Fprintf(&report, "| %s | %d | %d | %.1f MB | %s | %.1f s | %.1f s | %.1f s | %.2f s | %s | %s | %d/%d |\n", name, len(st.Cells), ran,
			float64(sent)/1e6, copiesText(copies), st.Compiled/1000, st.Ready/1000, st.FirstOutput/1000, median(sorted)/1000, slow, medRatio, drawn, wantCharts)
		t.Logf("%s: %s; transfer %.1f MB, first output %.1f s from navigation (compiled %.1f s, ready %.1f s), median cell %.2f s, slowest %s, %d charts drawn",
			name, state, float64(sent)/1e6, st.FirstOutput/1000, st.Compiled/1000, st.Ready/1000, median(sorted)/1000, slow, drawn)
	}
	slices.Sort(all)
	slices.Sort(allRatios)
	fmt.Fprintf(&report, "\nAll: %d cells, median %.2f s, slowest %.1f s; %d listed (%.1f %%).\n", total, median(all)/1000, last(all)/1000, failedTotal, 100*float64(failedTotal)/float64(max(total, 1)))
	if timed > 0 {
		fmt.Fprintf(&report, "Against the kernel: median ratio %.1f; %d of %d timed cells within 3× the kernel's time plus 0.5 s; %d cells over 5 s.\n", median(allRatios), within, timed, over5)
	}
	fmt.Fprintf(&report, "\nLoad average (/proc/loadavg) at the start: %s; at the end: %s (%d cores).\n\n## Cells listed\n\n", load0, loadavg(), runtime.NumCPU())
	if len(listed) == 0 {
		report.WriteString("None.\n")
	}
	report.WriteString(strings.Join(listed, "\n") + "\n")
	report.WriteString("\n## The loading's timeline\n\nSeconds from the navigation's start, page by page; the first cells' parts in ms (check: parsing, type-checking and rewriting; setup: a fresh interpreter given the symbols; compile; exec); " +
		"long tasks: the main thread's tasks over 50 ms before the first output (MathJax, chart scripts, the page's own).\n\n| phase | " +
		strings.Join(timelinePages, " | ") + " |\n|---|" + strings.Repeat("---|", len(timelinePages)) + "\n")
	for _, ph := range timelineRows {
		fmt.Fprintf(&report, "| %s | %s |\n", ph, strings.Join(timeline[ph], " | "))
	}
	report.WriteString("\n## Every cell: the page's time and the kernel's\n\n| notebook | cell | page (s) | kernel (s) | ratio |\n|---|---|---|---|---|\n")
	report.WriteString(cellRows.String())
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

// overTime reports a page over a time budget: a failure with
// SOD_LIVEBOOK_TIME_BUDGETS=assert, else a line of the log marked
// "OVER BUDGET" (the report's table carries the figures).
func overTime(t *testing.T, format string, args ...any) {
	t.Helper()
	switch v := os.Getenv("SOD_LIVEBOOK_TIME_BUDGETS"); v {
	case "assert":
		t.Errorf(format, args...)
	case "", "report":
		t.Logf("OVER BUDGET: "+format, args...)
	default:
		t.Fatalf("SOD_LIVEBOOK_TIME_BUDGETS=%q: want assert or report", v)
	}
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

// kernelTimes returns the kernel's time of each code cell (seconds, by the
// cell's index among the kernel's code cells) of the named notebooks, and
// where they come from.
func kernelTimes(t *testing.T, dir string, names []string) (map[string]map[int]float64, string) {
	t.Helper()
	times := map[string]map[int]float64{}
	if f := os.Getenv("SOD_LIVEBOOK_KERNEL_TIMES"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("SOD_LIVEBOOK_KERNEL_TIMES: %v", err)
		}
		// scripts/cellcost.sh --cells: "## NAME.ipynb", then "| cell | wall | ..." rows.
		nb := ""
		row := regexp.MustCompile(`^\| (\d+) \| ([\d.]+) \|`)
		for _, l := range strings.Split(string(b), "\n") {
			if h, ok := strings.CutPrefix(l, "## "); ok {
				nb = strings.TrimSuffix(strings.TrimSpace(h), ".ipynb")
				times[nb] = map[int]float64{}
				continue
			}
			if m := row.FindStringSubmatch(l); m != nil && nb != "" {
				k, _ := strconv.Atoi(m[1])
				v, _ := strconv.ParseFloat(m[2], 64)
				times[nb][k-1] = v
			}
		}
		return times, "the wall time of each cell, from the execute request to the reply, in " + filepath.Base(f) + " (scripts/cellcost.sh --cells: a warm build cache; it includes GoNB's build of the cell)"
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, "ipynb", name+".ipynb"))
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type     string `json:"cell_type"`
				Metadata struct {
					Execution map[string]string `json:"execution"`
				} `json:"metadata"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cell := map[int]float64{}
		k, coarse := 0, true
		for _, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			in, err1 := time.Parse(time.RFC3339Nano, c.Metadata.Execution["iopub.execute_input"])
			out, err2 := time.Parse(time.RFC3339Nano, c.Metadata.Execution["shell.execute_reply"])
			if err1 == nil && err2 == nil {
				cell[k] = out.Sub(in).Seconds()
				coarse = coarse && in.Nanosecond() == 0 && out.Nanosecond() == 0
			}
			k++
		}
		if !coarse {
			times[name] = cell
		}
	}
	return times, "the executed notebook's execution timestamps, from the execute request to the reply; " +
		"when they are stamped to the second (GoNB's), a cell has no kernel time: set SOD_LIVEBOOK_KERNEL_TIMES to scripts/cellcost.sh --cells --out FILE"
}

// loadavg is the machine's load (the first three fields of /proc/loadavg).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// libraryLoader finds the widgets' loaders of a chart library in a page
// (compressed or plain), the library's name as the submatch.
var libraryLoader = regexp.MustCompile(`var name = "([\w-]+)", global = |if \(!\(window\["([\w-]+)"\]\)\) \{ \(function \(define, exports`)

// libraryCopies counts the copies of ECharts and ECharts-GL a page
// received: inlined in its HTML, or fetched.
func libraryCopies(page []byte, paths map[string]int) map[string]int {
	n := map[string]int{"echarts": 0, "echarts-gl": 0}
	for _, m := range libraryLoader.FindAllSubmatch(page, -1) {
		n[string(m[1])+string(m[2])]++
	}
	for p, k := range paths {
		switch path.Base(p) {
		case "echarts.min.js":
			n["echarts"] += k
		case "echarts-gl.min.js":
			n["echarts-gl"] += k
		}
	}
	return n
}

func copiesText(n map[string]int) string {
	if n["echarts-gl"] > 0 {
		return fmt.Sprintf("%d (+%d GL)", n["echarts"], n["echarts-gl"])
	}
	return strconv.Itoa(n["echarts"])
}

// cellOutput is window.sodLiveBook.output(i).
type cellOutput struct {
	Text   string   `json:"text"`
	Charts int      `json:"charts"`
	Notes  []string `json:"notes"`
	Errors []string `json:"errors"`
}

// checkKept checks that a known cell whose run failed shows the kernel's
// output (its text and charts) with a note saying why, and no error of its
// own: no run erases an output it cannot replace.
func checkKept(t *testing.T, tb *browsercheck.Tab, name string, c *cellStat, kernelText string, kernelCharts int) {
	t.Helper()
	out, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[cellOutput](fmt.Sprintf(`window.sodLiveBook.output(%d)`, c.Cell-1)))
	if err != nil {
		t.Errorf("%s cell %d: %v", name, c.Cell, err)
		return
	}
	if !c.Kept || len(out.Errors) > 0 {
		t.Errorf("%s cell %d (known: %q, after cell %d) failed and did not keep the kernel's output: %+v", name, c.Cell, c.Known, c.After, out)
	}
	if want := comparable(kernelText); want != "" && !strings.Contains(comparable(out.Text), want) {
		t.Errorf("%s cell %d: the kernel's text is not shown after a failed run:\n%s", name, c.Cell, diff(want, comparable(out.Text)))
	}
	if out.Charts < kernelCharts {
		t.Errorf("%s cell %d: %d of the kernel's %d charts shown after a failed run", name, c.Cell, out.Charts, kernelCharts)
	}
	if !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, "kernel's output") && strings.Contains(n, c.Known) }) {
		t.Errorf("%s cell %d: no note says why the kernel's output stays: %q", name, c.Cell, out.Notes)
	}
}

// stopAndCrash checks, on a page that has run: Stop ends a running cell
// with one "stopped" and the page gets ready again; a cell that crashes
// the Go interpreter itself (not a panic a run contains: the Go runtime's
// fatal error) ends with the page saying it restarted the interpreter,
// and the page is ready again.
func stopAndCrash(t *testing.T, tb *browsercheck.Tab, name string) {
	t.Helper()
	const stop = `(async function () {
	  var n = window.sodLiveBook.count - 1;
	  var run = window.sodLiveBook.run(n, "%%\nfor i := 0; ; i++ {\n}");
	  await new Promise(function (r) { setTimeout(r, 1500); });
	  window.sodLiveBook.stop();
	  var st = await run;
	  await new Promise(function (r) { setTimeout(r, 500); });
	  return {ok: st.ok, error: st.error, out: window.sodLiveBook.output(n)}; })()`
	type result struct {
		OK    bool       `json:"ok"`
		Error string     `json:"error"`
		Out   cellOutput `json:"out"`
	}
	r, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[result](stop, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Errorf("%s: Stop: %v", name, err)
		return
	}
	if n := strings.Count(r.Out.Text, "stopped"); r.OK || n != 1 {
		t.Errorf("%s: Stop ended the running cell with ok=%v and %d \"stopped\" in its output (want 1): %q", name, r.OK, n, r.Out.Text)
	}
	stopped := strings.TrimSpace(r.Out.Text)
	ready := chromedp.Poll[string](`/^ready/.test(window.sodLiveBook.status()) ? window.sodLiveBook.status() : null`,
		chromedp.WithPollingTimeout(2*time.Minute), chromedp.WithPollingInterval(250*time.Millisecond))
	if _, err := chromedp.Run(tb.Ctx, ready); err != nil {
		t.Errorf("%s: the page is not ready after Stop: %v", name, err)
	}
	// Unbounded recursion: the Go runtime's "stack overflow" is a fatal
	// error that no recover contains; the interpreter exits.
	const crash = `(async function () {
	  var n = window.sodLiveBook.count - 1;
	  var st = await window.sodLiveBook.run(n, "func sodDeep(n int) int { return sodDeep(n+1) + 1 }\n\n%%\nfmt.Println(sodDeep(0))");
	  return {ok: st.ok, error: st.error, out: window.sodLiveBook.output(n)}; })()`
	r, err = chromedp.Run(tb.Ctx, chromedp.Evaluate[result](crash, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Errorf("%s: crash: %v", name, err)
		return
	}
	if r.OK || !strings.Contains(r.Error, "the interpreter crashed") || !strings.Contains(r.Error, "restarted") || !strings.Contains(r.Error, "fatal error: ") {
		t.Errorf("%s: a cell crashing the interpreter ended with ok=%v, error %q; want the Go runtime's fatal error and the page saying it restarted the interpreter", name, r.OK, r.Error)
	}
	status, err := chromedp.Run(tb.Ctx, ready)
	if err != nil || !strings.Contains(status, "restarted") {
		t.Errorf("%s: after a crash the status is %q (%v), want ready and restarted", name, status, err)
	}
	t.Logf("%s: Stop printed %q; a crash ended with %q", name, stopped, firstLine(r.Error))
}

// timelineRows are the rows of the report's timeline: the phases, the
// first cells' parts and the main thread's long tasks.
var timelineRows = func() []string {
	var r []string
	for _, p := range timelinePhases {
		r = append(r, p.mark+": "+p.what)
	}
	return append(r, "cell 1: check / setup / compile / exec (ms)", "cell 2: check / setup / compile / exec (ms)",
		"first output's cell", "long tasks before the first output: count, total (s)")
}()

// timelineColumn is a page's column of the report's timeline.
func timelineColumn(st pageStats) map[string]string {
	col := map[string]string{}
	for i, p := range timelinePhases {
		v, ok := st.Timeline[p.mark]
		col[timelineRows[i]] = "—"
		if ok {
			col[timelineRows[i]] = fmt.Sprintf("%.2f", v/1000)
		}
	}
	n := len(timelinePhases)
	for k := range 2 {
		col[timelineRows[n+k]] = "—"
		if k < len(st.Cells) && st.Cells[k] != nil {
			c := st.Cells[k]
			col[timelineRows[n+k]] = fmt.Sprintf("%.0f / %.0f / %.0f / %.0f", c.Check, c.Setup, c.Compile, c.Exec)
		}
	}
	col[timelineRows[n+2]] = "—"
	for _, c := range st.Cells {
		if c != nil && (c.Text != "" || c.Outputs > 0) {
			col[timelineRows[n+2]] = strconv.Itoa(c.Cell)
			break
		}
	}
	count, sum := 0, 0.0
	for _, lt := range st.LongTasks {
		if st.FirstOutput <= 0 || lt[0] < st.FirstOutput {
			count++
			sum += lt[1]
		}
	}
	col[timelineRows[n+3]] = fmt.Sprintf("%d, %.2f", count, sum/1000)
	return col
}

// timelineLine is a page's timeline for the log.
func timelineLine(st pageStats) string {
	var b strings.Builder
	for _, p := range timelinePhases {
		if v, ok := st.Timeline[p.mark]; ok {
			fmt.Fprintf(&b, "%s %.2f, ", p.mark, v/1000)
		}
	}
	col := timelineColumn(st)
	n := len(timelinePhases)
	fmt.Fprintf(&b, "cell 1 %s ms, long tasks %s s:", col[timelineRows[n]], col[timelineRows[n+3]])
	for _, lt := range st.LongTasks {
		fmt.Fprintf(&b, " %.2f+%.0fms", lt[0]/1000, lt[1])
	}
	return b.String()
}
