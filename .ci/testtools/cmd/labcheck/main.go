// Command labcheck runs notebooks in a live JupyterLab in headless
// Chromium, as a student would, and checks that every chart of the widgets
// package drew and that the GoNB sliders redraw their charts. It is the
// browser test of the image (docker/test-image.sh), and works against any
// JupyterLab 4 serving the gonb kernel, started with
// --expose-app-in-browser (labcheck drives Lab through window.jupyterapp).
//
//	labcheck -url http://127.0.0.1:8888 [-shots dir] [-timeout 15m] notebook.ipynb...
//
// The token is read from $JUPYTER_TOKEN (not from the command line, where
// other users could read it). Notebook paths are relative to the server's
// root. For each notebook labcheck:
//
//  1. opens it in a fresh Lab page (?reset) and runs notebook:run-all-cells;
//     a live-only cell that shows a slider (widgets.Explore) keeps the
//     kernel busy: the first slider is moved to its other end, its chart must
//     be redrawn (a new chart that drew, with a different option), then the
//     kernel is interrupted and the cells below are run
//     (notebook:run-all-below);
//  2. fails on any cell error or failed `!` line, and on any JavaScript
//     exception or console error;
//  3. checks every chart as the other browser tests do (registered with
//     ECharts, drawn, canvas with ink in a screenshot), and that Lab shows as
//     many charts as the cell outputs hold;
//  4. saves the notebook, reloads the page (reopening the saved notebook:
//     its charts must draw again from the saved outputs), and runs each
//     live-only cell again, whose slider must again redraw its chart;
//  5. writes a screenshot of the notebook after the run and after the reopen
//     (NN-name.png, NN-name-reopened.png) into -shots, and shuts its kernel
//     down.
//
// It prints one line per notebook and exits 1 if any failed. Set
// SOD_CHROMIUM to choose the browser.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/testtools/browsercheck"
)

// labAllowed are console messages of JupyterLab 4.0 itself, seen in every
// run, that are not failures of the notebooks or the widgets. Each is
// matched by where it comes from and by its text, so that nothing else is
// let through.
var labAllowed = []browsercheck.Allow{
	{
		URL: "/lsp/status", Text: "404", Name: "/lsp/status 404 (no jupyter-lsp)",
		Why: "Lab's language-server client asks the jupyter-lsp server extension for its status at start; " +
			"Debian does not package jupyter-lsp, the image has no language servers, and Lab works without (LSP features are off by default)",
	},
	{
		URL: "/static/lab/packages_notebook_lib_index_js", Text: "Cannot read properties of undefined (reading 'type')",
		Name: "ToC heading bug (jupyterlab#15166)",
		Why: "a JupyterLab 4 bug (jupyterlab/jupyterlab#15166, open): when a cell scrolls into view, the table of contents " +
			"looks up a heading id for a cell whose heading list has a hole; it only affects the ToC's numbering of that cell",
	},
}

func main() {
	base := flag.String("url", "", "the JupyterLab server, e.g. http://127.0.0.1:8888 (its token in $JUPYTER_TOKEN)")
	shots := flag.String("shots", "", "directory for the screenshots (one per notebook, and one after reopening it)")
	timeout := flag.Duration("timeout", 15*time.Minute, "time limit for one notebook")
	reopen := flag.Bool("reopen", true, "save, reopen and check each notebook again")
	flag.Parse()
	token := os.Getenv("JUPYTER_TOKEN")
	if *base == "" || token == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: JUPYTER_TOKEN=... labcheck -url http://127.0.0.1:8888 [-shots dir] [-timeout 15m] [-reopen=false] notebook.ipynb...")
		os.Exit(2)
	}
	path, err := browsercheck.FindChromium()
	if err != nil {
		fmt.Fprintln(os.Stderr, "labcheck:", err)
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "labcheck")
	if err != nil {
		fmt.Fprintln(os.Stderr, "labcheck:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(tmp)
	if *shots != "" {
		if err := os.MkdirAll(*shots, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "labcheck:", err)
			os.Exit(2)
		}
	}
	bctx, cancel, err := browsercheck.Start(path, tmp, time.Duration(flag.NArg())*(*timeout)+time.Minute)
	if err != nil {
		fmt.Fprintln(os.Stderr, "labcheck:", err)
		os.Exit(2)
	}
	defer cancel()

	failed := 0
	for _, nb := range flag.Args() {
		c := &check{base: strings.TrimSuffix(*base, "/"), token: token, nb: nb, shots: *shots, reopen: *reopen}
		t0 := time.Now()
		err := c.run(bctx, *timeout)
		if err != nil {
			failed++
			fmt.Printf("FAIL %-45s %4.0fs  %s: %v\n", nb, time.Since(t0).Seconds(), c.summary(), err)
			continue
		}
		fmt.Printf("ok   %-45s %4.0fs  %s\n", nb, time.Since(t0).Seconds(), c.summary())
	}
	fmt.Printf("labcheck: %d passed, %d failed\n", flag.NArg()-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// check is the run of one notebook.
type check struct {
	base, token, nb, shots string
	reopen                 bool

	cells, live    int
	charts         int
	sliders        int
	reopenedCharts int
	reopenSliders  int
	allowed        []int // console messages let through, per labAllowed entry
}

func (c *check) summary() string {
	s := fmt.Sprintf("%d code cells (%d live-only), %d charts drawn, %d slider redraws", c.cells, c.live, c.charts, c.sliders)
	if c.reopen {
		s += fmt.Sprintf("; reopened: %d charts drawn, %d slider redraws", c.reopenedCharts, c.reopenSliders)
	}
	var allowed []string
	for i, n := range c.allowed {
		if n > 0 {
			allowed = append(allowed, fmt.Sprintf("%d× %s", n, labAllowed[i].Name))
		}
	}
	if len(allowed) > 0 {
		s += "; allowed Lab console messages: " + strings.Join(allowed, ", ")
	}
	return s
}

// nbJS is the current notebook panel.
const nbJS = `jupyterapp.shell.currentWidget`

// readyJS is true once the notebook is open and its kernel is idle.
const readyJS = `(function () {
  var nb = window.jupyterapp && ` + nbJS + `;
  if (!nb || !nb.content || !nb.context || !nb.context.isReady || !nb.sessionContext) { return false; }
  var s = nb.sessionContext.session;
  return !!(s && s.kernel && s.kernel.connectionStatus === 'connected' && s.kernel.status === 'idle' && nb.content.widgets.length > 0);
})()`

// cellState is what statusJS reports for one cell.
type cellState struct {
	Code    bool     `json:"code"`
	Live    bool     `json:"live"`
	Empty   bool     `json:"empty"`
	Running bool     `json:"running"` // its prompt shows [*]: queued or executing
	Count   *int     `json:"count"`
	Slider  bool     `json:"slider"` // a range input (or select) and a drawn chart in its output
	Errors  []string `json:"errors"`
	Charts  int      `json:"charts"` // chart <div>s in its outputs (the model, not the DOM)
}

type nbState struct {
	Kernel string      `json:"kernel"`
	Cells  []cellState `json:"cells"`
}

const statusJS = `(function () {
  var nb = ` + nbJS + `, out = {kernel: '', cells: []};
  var s = nb.sessionContext.session;
  out.kernel = s && s.kernel ? s.kernel.status : 'none';
  var w = window.sodWidgets || {charts: {}};
  nb.content.widgets.forEach(function (cell) {
    var m = cell.model, md = m.sharedModel.getMetadata() || {};
    var st = {code: m.type === 'code', live: (md.tags || []).indexOf('live-only') >= 0,
      empty: m.sharedModel.getSource().trim() === '', running: false, count: null, slider: false, errors: [], charts: 0};
    if (st.code) {
      st.count = m.executionCount;
      var p = cell.node.querySelector('.jp-InputPrompt');
      st.running = !!(p && p.textContent.indexOf('*') >= 0);
      for (var k = 0; k < m.outputs.length; k++) {
        var o = m.outputs.get(k).toJSON();
        if (o.output_type === 'error') { st.errors.push(o.ename + ': ' + String(o.evalue).slice(0, 300)); }
        var t = o.text ? (Array.isArray(o.text) ? o.text.join('') : o.text) : '';
        var e = /^exit status [1-9][0-9]*\s*$/m.exec(t);
        if (e) { st.errors.push('a ! line failed: ' + t.slice(-300)); }
        var h = o.data && o.data['text/html'];
        if (h) { h = Array.isArray(h) ? h.join('') : h; st.charts += (h.match(/<div class="sodw"/g) || []).length; }
      }
      var on = cell.outputArea && cell.outputArea.node;
      var c = on && on.querySelector('div.sodw div.item');
      st.slider = !!(on && (on.querySelector('input[type=range]') || on.querySelector('select')) && c && w.charts[c.id]);
    }
    out.cells.push(st);
  });
  return out;
})()`

// evalTimeout bounds one evaluation in the page: a page that stops answering, or a promise
// that never settles (a kernel interrupt, a save), is an error within a minute, not a wait
// until the notebook's whole time limit.
const evalTimeout = time.Minute

func (c *check) eval(ctx context.Context, js string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, evalTimeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("evaluating %.60q: %w", js, err)
	}
	if v == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}

func (c *check) status(ctx context.Context) (nbState, error) {
	var st nbState
	err := c.eval(ctx, statusJS, &st)
	return st, err
}

func (c *check) poll(ctx context.Context, what, js string, timeout time.Duration) error {
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(timeout),
		chromedp.WithPollingInterval(250*time.Millisecond))); err != nil {
		return fmt.Errorf("waiting for %s: %w", what, err)
	}
	return nil
}

// open loads the notebook in a fresh Lab page (the workspace reset, so that
// only this notebook is open) and waits for its kernel.
func (c *check) open(ctx context.Context) error {
	url := fmt.Sprintf("%s/lab/tree/%s?reset&token=%s", c.base, c.nb, c.token)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("opening %s: %w", c.nb, err)
	}
	if err := c.poll(ctx, "JupyterLab with the notebook open and its kernel idle", readyJS, 3*time.Minute); err != nil {
		return err
	}
	var path string
	if err := c.eval(ctx, nbJS+`.context.path`, &path); err != nil {
		return err
	}
	if path != c.nb {
		return fmt.Errorf("lab opened %q, want %q", path, c.nb)
	}
	return nil
}

// command runs a Lab command and waits for it (docmanager:save); start
// only starts it (the run commands resolve when their cells finish, and a
// live cell never does).
func (c *check) command(ctx context.Context, cmd string) error {
	return c.eval(ctx, fmt.Sprintf(`jupyterapp.commands.execute(%q).then(function () { return null; })`, cmd), nil)
}

func (c *check) start(ctx context.Context, cmd string) error {
	return c.eval(ctx, fmt.Sprintf(`(jupyterapp.commands.execute(%q), null)`, cmd), nil)
}

func (c *check) run(bctx context.Context, timeout time.Duration) (err error) {
	tb := browsercheck.OpenTab(bctx)
	defer tb.Close()
	tb.ElementShots = true
	ctx, cancel := context.WithTimeout(tb.Ctx, timeout)
	defer cancel()
	defer func() { // the page as it was when the check failed, as evidence
		if err != nil {
			c.shot(tb.Ctx, "-failed")
		}
	}()

	if err := c.open(ctx); err != nil {
		return err
	}
	if err := c.start(ctx, "notebook:run-all-cells"); err != nil {
		return err
	}
	st, err := c.drive(ctx, &c.sliders)
	if err != nil {
		return err
	}
	for _, s := range st.Cells {
		if s.Code {
			c.cells++
			if s.Live {
				c.live++
			}
		}
	}
	if c.charts, err = c.inspect(ctx, tb, st, ""); err != nil {
		return err
	}
	if c.reopen {
		if err := c.command(ctx, "docmanager:save"); err != nil {
			return err
		}
		if err := c.poll(ctx, "the notebook to be saved", `!`+nbJS+`.context.model.dirty`, time.Minute); err != nil {
			return err
		}
		if err := c.open(ctx); err != nil {
			return fmt.Errorf("reopening: %w", err)
		}
		st, err := c.status(ctx)
		if err != nil {
			return err
		}
		if c.reopenedCharts, err = c.inspect(ctx, tb, st, "-reopened"); err != nil {
			return fmt.Errorf("reopened: %w", err)
		}
		if c.reopenedCharts != c.charts {
			return fmt.Errorf("reopened: %d charts drawn, %d before", c.reopenedCharts, c.charts)
		}
		for i, s := range st.Cells {
			if !s.Live {
				continue
			}
			if err := c.eval(ctx, fmt.Sprintf(`(%s.content.activeCellIndex = %d, null)`, nbJS, i), nil); err != nil {
				return err
			}
			if err := c.start(ctx, "notebook:run-cell"); err != nil {
				return err
			}
			if _, err := c.drive(ctx, &c.reopenSliders); err != nil {
				return fmt.Errorf("reopened, live cell %d: %w", i, err)
			}
		}
		rep, err := tb.Inspect(10 * time.Second)
		if err != nil {
			return err
		}
		c.allowed = rep.Allowed(labAllowed)
		if errs := rep.ErrorsExcept(labAllowed); len(errs) > 0 {
			return fmt.Errorf("reopened: JavaScript errors: %s", strings.Join(errs, "; "))
		}
	}
	_ = c.eval(ctx, nbJS+`.sessionContext.shutdown().then(function () { return null; })`, nil)
	return nil
}

// liveWait is how long a live-only cell may run before its slider shows: the
// cells of the notebooks draw theirs in seconds.
const liveWait = 2 * time.Minute

// drive waits until the cells that run have finished: each live-only cell
// that shows a slider gets its slider test and is interrupted, and the cells
// that an interrupt left unexecuted are run. It counts the slider redraws.
func (c *check) drive(ctx context.Context, sliders *int) (nbState, error) {
	tested := map[int]bool{}
	restarted := map[int]bool{}
	idle := 0
	runningCell, runningSince := -1, time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return nbState{}, fmt.Errorf("the cells did not finish in time: %w", err)
		}
		st, err := c.status(ctx)
		if err != nil {
			return st, err
		}
		running := -1
		for i, s := range st.Cells {
			// A live cell that was interrupted here may report the interrupt as an error.
			if len(s.Errors) > 0 && !tested[i] {
				return st, fmt.Errorf("cell %d: %s", i, strings.Join(s.Errors, "; "))
			}
			if s.Running && running < 0 {
				running = i
			}
		}
		if running >= 0 {
			idle = 0
			s := st.Cells[running]
			if running != runningCell {
				runningCell, runningSince = running, time.Now()
			}
			if s.Live && !s.Slider && !tested[running] && time.Since(runningSince) > liveWait {
				return st, fmt.Errorf("live cell %d: running for %v without showing its slider and a drawn chart (GoNB's widget connection?)", running, liveWait)
			}
			if s.Live && s.Slider && !tested[running] {
				tested[running] = true
				if err := c.slider(ctx, running); err != nil {
					return st, fmt.Errorf("live cell %d: %w", running, err)
				}
				*sliders++
				if err := c.eval(ctx, nbJS+`.sessionContext.session.kernel.interrupt().then(function () { return null; })`, nil); err != nil {
					return st, err
				}
			}
			time.Sleep(300 * time.Millisecond)
			continue
		}
		if st.Kernel != "idle" {
			idle = 0
			time.Sleep(300 * time.Millisecond)
			continue
		}
		if idle++; idle < 3 { // idle and nothing queued for a moment
			time.Sleep(300 * time.Millisecond)
			continue
		}
		next := -1
		for i, s := range st.Cells {
			if s.Code && !s.Empty && s.Count == nil && !tested[i] {
				next = i
				break
			}
		}
		if next < 0 {
			return st, nil
		}
		if restarted[next] {
			return st, fmt.Errorf("cell %d did not run", next)
		}
		restarted[next] = true
		if err := c.eval(ctx, fmt.Sprintf(`(%s.content.activeCellIndex = %d, null)`, nbJS, next), nil); err != nil {
			return st, err
		}
		if err := c.start(ctx, "notebook:run-all-below"); err != nil {
			return st, err
		}
		idle = 0
	}
}

// sliderJS moves the first slider of cell i's output to its other end (or
// the select to another option) and returns the chart's id and a digest of
// its option.
const sliderJS = `(function (i) {
  var nb = ` + nbJS + `, o = nb.content.widgets[i].outputArea.node, w = window.sodWidgets;
  var c = o.querySelector('div.sodw div.item'), inst = w.charts[c.id];
  var before = {id: c.id, option: JSON.stringify(inst.getOption())};
  var el = o.querySelector('input[type=range]');
  if (el) {
    el.value = String(Number(el.value) >= Number(el.max) ? el.min : el.max);
  } else {
    el = o.querySelector('select');
    el.selectedIndex = (el.selectedIndex + 1) %% el.options.length;
  }
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return before;
})(%d)`

// redrawnJS is true once cell i shows a chart other than before.id that
// drew, with an option other than before.option.
const redrawnJS = `(function (i, id, option) {
  var nb = ` + nbJS + `, o = nb.content.widgets[i].outputArea.node, w = window.sodWidgets;
  var c = o.querySelector('div.sodw div.item'), inst = c && w.charts[c.id];
  if (!inst || c.id === id) { return false; }
  var drawn = (w.finished && w.finished[c.id]) || (inst.getZr().animation.isFinished() && inst.getZr().storage.getDisplayList().length > 0);
  return !!drawn && c.querySelectorAll('canvas').length > 0 && JSON.stringify(inst.getOption()) !== option;
})(%d, %q, %q)`

func (c *check) slider(ctx context.Context, i int) error {
	var before struct {
		ID     string `json:"id"`
		Option string `json:"option"`
	}
	if err := c.eval(ctx, fmt.Sprintf(sliderJS, i), &before); err != nil {
		return err
	}
	if err := c.poll(ctx, "the slider to redraw its chart", fmt.Sprintf(redrawnJS, i, before.ID, before.Option), 2*time.Minute); err != nil {
		return err
	}
	// The redrawn chart with its controls, as evidence (NN-name-slider-CELL.png).
	_ = c.eval(ctx, fmt.Sprintf(`(%s.content.widgets[%d].outputArea.node.scrollIntoView({block: 'start'}), null)`, nbJS, i), nil)
	c.shot(ctx, fmt.Sprintf("-slider-%d", i))
	return nil
}

// inspect checks every chart of the page, and that the page shows as many
// charts as the outputs hold; it saves the screenshot.
func (c *check) inspect(ctx context.Context, tb *browsercheck.Tab, st nbState, suffix string) (int, error) {
	want := 0
	for _, s := range st.Cells {
		want += s.Charts
	}
	count := `document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) div.sodw div.item').length`
	_ = c.poll(ctx, "all charts on the page", fmt.Sprintf("%s >= %d", count, want), time.Minute)
	rep, err := tb.Inspect(time.Minute)
	if err != nil {
		return 0, err
	}
	c.screenshot(ctx, suffix)
	c.allowed = rep.Allowed(labAllowed)
	var probs []string
	probs = append(probs, rep.ChartProblems(want)...)
	for _, e := range rep.ErrorsExcept(labAllowed) {
		probs = append(probs, "JavaScript: "+e)
	}
	if len(probs) > 0 {
		return 0, errors.New(strings.Join(probs, "; "))
	}
	return len(rep.Charts), nil
}

// screenshot saves the viewport with the notebook scrolled to its first
// chart (or its top).
func (c *check) screenshot(ctx context.Context, suffix string) {
	if c.shots == "" {
		return
	}
	_ = c.eval(ctx, `(function () { var el = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) div.sodw div.item');
	  if (el) { el.scrollIntoView({block: 'start'}); } return null; })()`, nil)
	c.shot(ctx, suffix)
}

// shot saves the viewport as it is, as NN-name<suffix>.png in -shots.
func (c *check) shot(ctx context.Context, suffix string) {
	if c.shots == "" {
		return
	}
	_ = chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond))
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second) // a capture can wait for a frame forever
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		fmt.Fprintf(os.Stderr, "labcheck: %s: no screenshot%s: %v\n", c.nb, suffix, err)
		return
	}
	name := strings.TrimSuffix(filepath.Base(c.nb), filepath.Ext(c.nb)) + suffix + ".png"
	_ = os.WriteFile(filepath.Join(c.shots, name), shot, 0o644)
}
