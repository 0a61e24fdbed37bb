package widgets

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/widgets/internal/browsercheck"
)

// testNotebook is the notebook the browser tests run with the gonb kernel:
// every gallery chart in three cells, a progress bar, and a live-only cell
// with a slider (see testdata/widgets.ipynb).
const testNotebook = "testdata/widgets.ipynb"

// galleryCharts is the number of charts the test notebook draws.
const galleryCharts = 10

// needGonb skips (or fails under SOD_REQUIRE_BROWSER=1) when Jupyter or the
// gonb kernel is missing.
func needGonb(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("jupyter"); err != nil {
		needTool(t, "notebook browser test: jupyter not found (install it with `docker/install.sh --system`)")
	}
	out, err := exec.Command("jupyter", "kernelspec", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "gonb") {
		needTool(t, "notebook browser test: the gonb Jupyter kernel is not installed (run `docker/install.sh --user`)")
	}
}

// TestBrowserExecutedNotebook executes the test notebook with nbconvert and
// the gonb kernel (skipping the live-only cell, as the notebook harness
// does), exports it to HTML and checks in Chromium, without network, that
// every chart drew and the progress bar is there. This is the real GoNB
// output path: each cell is its own program and carries the library.
func TestBrowserExecutedNotebook(t *testing.T) {
	assetsOrSkip(t)
	needGonb(t)
	ctx := browser(t)
	dir := t.TempDir()
	abs, err := filepath.Abs(testNotebook)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, "jupyter", "nbconvert", "--to", "html", "--execute",
		"--ExecutePreprocessor.kernel_name=gonb", "--ExecutePreprocessor.timeout=300",
		"--TagRemovePreprocessor.remove_cell_tags="+LiveOnlyTag,
		"--output-dir", dir, "--output", "executed", abs)
	cmd.Dir = filepath.Dir(abs) // the kernel starts in the notebook's folder, as in Jupyter
	cmd.Env = append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jupyter nbconvert --execute: %v\n%s", err, b)
	}
	t.Logf("executed and exported in %v", time.Since(start).Round(time.Second))
	html := filepath.Join(dir, "executed.html")
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("progress demo")) || !bytes.Contains(b, []byte("20/20 (100%)")) {
		t.Errorf("the exported notebook has no finished progress bar")
	}
	if bytes.Contains(b, []byte("slope")) && bytes.Contains(b, []byte(`type="range"`)) {
		t.Errorf("the live-only cell was executed")
	}
	rep := loadPage(t, ctx, "file://"+html, 15*time.Second)
	for _, p := range rep.ChartProblems(galleryCharts) {
		t.Error(p)
	}
	for _, e := range rep.Errors(nbconvertAllowed) {
		t.Errorf("page error: %s", e)
	}
	keep := filepath.Join(artefactDir(t), "notebook-executed.html")
	writeFile(t, keep, b)
	t.Logf("exported notebook: %s (%.1f MB)", keep, float64(len(b))/1e6)
}

// freePort returns a free TCP port on 127.0.0.1.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startNotebookServer starts Jupyter Notebook on 127.0.0.1 serving dir and
// returns its base URL and token. The server is stopped at the end of the
// test.
func startNotebookServer(t *testing.T, dir string) (base, token string) {
	t.Helper()
	var tb [16]byte
	_, _ = rand.Read(tb[:])
	token = hex.EncodeToString(tb[:])
	port := freePort(t)
	cmd := exec.Command("jupyter", "notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--NotebookApp.token="+token, "--NotebookApp.open_browser=False", "--notebook-dir="+dir)
	if os.Geteuid() == 0 {
		cmd.Args = append(cmd.Args, "--allow-root") // e.g. in CI containers
	}
	cmd.Env = append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1", "JUPYTER_RUNTIME_DIR="+t.TempDir())
	logf, err := os.Create(filepath.Join(t.TempDir(), "jupyter.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting jupyter notebook: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// Stop the server and its kernels (its own process group only).
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		logf.Close()
		if t.Failed() {
			if b, err := os.ReadFile(logf.Name()); err == nil {
				t.Logf("jupyter log:\n%s", tailLines(string(b), 40))
			}
		}
	})
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			t.Fatalf("jupyter notebook exited at start")
		default:
		}
		resp, err := http.Get(base + "/api?token=" + token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, token
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("jupyter notebook did not answer on %s within 60 s", base)
	return "", ""
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// run evaluates a JavaScript expression in the page and fails the test on
// error.
func run[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %.80q: %v", js, err)
	}
	return v
}

// poll waits until the JavaScript expression is truthy.
func poll(t *testing.T, ctx context.Context, what, js string, timeout time.Duration) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(timeout),
		chromedp.WithPollingInterval(200*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// cellsDone is true when the kernel is idle and the given code cells have
// an execution count.
const cellsDoneJS = `(function (idx) {
  var nb = Jupyter.notebook;
  if (!nb.kernel || nb.kernel_busy) { return false; }
  if (document.querySelector('#notification_kernel') && /busy/i.test(document.body.className)) { return false; }
  for (var k = 0; k < idx.length; k++) {
    var c = nb.get_cell(idx[k]);
    if (c.cell_type === 'code' && (c.input_prompt_number === null || c.input_prompt_number === undefined || c.input_prompt_number === '*')) { return false; }
  }
  return true;
})(%s)`

// TestBrowserLiveNotebook opens the test notebook in a live Jupyter Notebook
// 6 (with its require.js) in Chromium without Internet access, runs it with
// the gonb kernel, checks that every chart drew, then moves the slider of
// the live-only cell and checks that the chart was redrawn with the new
// value.
func TestBrowserLiveNotebook(t *testing.T) {
	assetsOrSkip(t)
	needGonb(t)
	bctx := browser(t)

	// The notebook must sit inside the module, for its replace directive.
	work := filepath.Join(artefactDir(t), "live")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(testNotebook)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(work, "widgets.ipynb"), src)
	base, token := startNotebookServer(t, work)

	tb := browsercheck.OpenTab(bctx)
	defer tb.Close()
	tb.ElementShots = true
	ctx := tb.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/notebooks/widgets.ipynb?token="+token)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the notebook and its gonb kernel", `window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()`, 90*time.Second)
	if amd := run[bool](t, ctx, `typeof define === 'function' && !!define.amd`); !amd {
		t.Errorf("the live notebook page has no AMD define: the require.js case is not exercised")
	}
	ncells := run[int](t, ctx, `Jupyter.notebook.ncells()`)
	var static, live []int
	for i := 0; i < ncells; i++ {
		tags := run[[]string](t, ctx, fmt.Sprintf(`(Jupyter.notebook.get_cell(%d).metadata.tags || [])`, i))
		if strings.Contains(strings.Join(tags, ","), LiveOnlyTag) {
			live = append(live, i)
		} else {
			static = append(static, i)
		}
	}
	if len(live) != 1 {
		t.Fatalf("want one live-only cell in %s, found %d", testNotebook, len(live))
	}
	start := time.Now()
	run[any](t, ctx, fmt.Sprintf(`Jupyter.notebook.execute_cells(%s), null`, jsInts(static)))
	poll(t, ctx, "the cells to run", fmt.Sprintf(cellsDoneJS, jsInts(static)), 4*time.Minute)
	t.Logf("ran %d cells in %v", len(static), time.Since(start).Round(time.Second))
	if errs := run[string](t, ctx, `Array.from(document.querySelectorAll('.output_stderr, .output_error')).map(function (e) { return e.textContent; }).join('\n')`); strings.TrimSpace(errs) != "" {
		t.Errorf("cell errors:\n%s", errs)
	}
	rep, err := tb.Inspect(15 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.ChartProblems(galleryCharts) {
		t.Error(p)
	}
	for _, e := range rep.Errors(nil) {
		t.Errorf("page error: %s", e)
	}

	// The slider cell: wait for its chart, move the slider, wait for a redraw.
	cell := live[0]
	out := fmt.Sprintf(`Jupyter.notebook.get_cell(%d).output_area.element[0]`, cell)
	run[any](t, ctx, fmt.Sprintf(`Jupyter.notebook.execute_cells([%d]), null`, cell))
	poll(t, ctx, "the slider and its chart", fmt.Sprintf(`(function () { var o = %s; var w = window.sodWidgets;
	  var el = document.querySelector('input[type=range]'); var c = o.querySelector('div.sodw div.item');
	  return !!(el && c && w && w.charts[c.id]); })()`, out), 3*time.Minute)
	title := fmt.Sprintf(`(function () { var c = %s.querySelector('div.sodw div.item'); var i = c && window.sodWidgets.charts[c.id];
	  return i ? i.getOption().title[0].text : ''; })()`, out)
	before := run[string](t, ctx, title)
	if before != "slope 1.00" {
		t.Errorf("initial chart title %q, want %q", before, "slope 1.00")
	}
	run[any](t, ctx, `(function () { var el = document.querySelector('input[type=range]'); el.value = 15;
	  el.dispatchEvent(new Event('input')); el.dispatchEvent(new Event('change')); return null; })()`)
	poll(t, ctx, "the chart to be redrawn", fmt.Sprintf(`%s === 'slope 1.50'`, title), 60*time.Second)
	after := run[string](t, ctx, title)
	t.Logf("slider moved: chart title %q → %q", before, after)
	if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		p := filepath.Join(artefactDir(t), "live-notebook.png")
		writeFile(t, p, shot)
		t.Logf("screenshot of the live notebook: %s", p)
	}
	run[any](t, ctx, `Jupyter.notebook.kernel.interrupt(), null`)
}

func jsInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}
