package widgetsbrowser

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/testtools/browsercheck"
	"sodworkbench.org/workbench/widgets"
)

// explorerNotebook is the course notebook with the live-only explorer cell
// (widgets.Explore over l, t, ρ, η and the case).
const explorerNotebook = "07-case-real-world-and-ablation.ipynb"

var live = flag.Bool("live", false, "drive the live-only explorer cell of a course notebook (TestBrowserLiveExplorer)")

// TestBrowserLiveExplorer drives the live-only explorer cell of notebook 07
// for real: it serves the repository's notebooks with scripts/notebook.sh on
// 127.0.0.1 (token authentication on), opens notebook 07 in headless
// Chromium without network, runs the setup cell, the import cell (the
// explorer is figures.ExplorerControls and figures.ExplorerChart) and the
// live cell, then moves the controls as a student would and checks
// each redraw against values that do not come from this package: h(X̂) of
// the real-world case at the printed x̂ (0.0582892, notebook 07's table) and
// of the PMC case (0.330275, REPRODUCTION.md F1), and which rows and marks the chart
// holds. Autosave is switched off and the notebook file must be unchanged
// afterwards (the server serves the working tree).
//
// It runs only with the test flag -live (it starts a second Jupyter server
// and compiles three GoNB cells, about a minute on 2 cores):
//
//	cd .ci/testtools && go test -run TestBrowserLiveExplorer -v ./widgetsbrowser -live
func TestBrowserLiveExplorer(t *testing.T) {
	if !*live {
		t.Skip("run with the test flag -live to drive the live-only cells of the course notebooks")
	}
	assetsOrSkip(t)
	needGonb(t)
	bctx := browser(t)

	nbPath, err := filepath.Abs(filepath.Join(repoRoot, "notebooks", explorerNotebook))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(nbPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(orig)
	t.Cleanup(func() {
		now, err := os.ReadFile(nbPath)
		if err == nil && sha256.Sum256(now) != sum {
			t.Errorf("%s was modified while the test had it open; restoring it", explorerNotebook)
			_ = os.WriteFile(nbPath, orig, 0o644)
		}
	})
	base, token := startNotebookScript(t)

	tb := browsercheck.OpenTab(bctx)
	defer tb.Close()
	ctx := tb.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/notebooks/"+explorerNotebook+"?token="+token)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the notebook and its gonb kernel", `window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()`, 90*time.Second)
	run[any](t, ctx, `(Jupyter.notebook.set_autosave_interval(0), Jupyter.notebook.writable = false, null)`)

	// The cells to run, found by their source: the setup cell, the explorer's definitions, the live cell.
	index := func(marker string) int {
		i := run[int](t, ctx, fmt.Sprintf(`Jupyter.notebook.get_cells().findIndex(function (c) { return c.cell_type === 'code' && c.get_text().indexOf(%q) >= 0; })`, marker))
		if i < 0 {
			t.Fatalf("no code cell containing %q in %s", marker, explorerNotebook)
		}
		return i
	}
	// The explorer lives in package figures: the "definitions" are the notebook's import cell.
	setup, decl, live := index("go mod edit -require"), index(`"sodworkbench.org/workbench/sod/figures"`),
		index("widgets.Explore(ctx, figures.ExplorerControls(), figures.ExplorerChart)")
	tags := run[[]string](t, ctx, fmt.Sprintf(`(Jupyter.notebook.get_cell(%d).metadata.tags || [])`, live))
	if strings.Join(tags, ",") != widgets.LiveOnlyTag {
		t.Errorf("the explorer cell has tags %q, want [%s]", tags, widgets.LiveOnlyTag)
	}
	start := time.Now()
	run[any](t, ctx, fmt.Sprintf(`Jupyter.notebook.execute_cells([%d, %d]), null`, setup, decl))
	poll(t, ctx, "the setup and definition cells", fmt.Sprintf(cellsDoneJS, jsInts([]int{setup, decl})), 3*time.Minute)
	if errs := run[string](t, ctx, `Array.from(document.querySelectorAll('.output_stderr, .output_error')).map(function (e) { return e.textContent; }).join('\n')`); strings.TrimSpace(errs) != "" {
		t.Fatalf("cell errors:\n%s", errs)
	}

	out := fmt.Sprintf(`Jupyter.notebook.get_cell(%d).output_area.element[0]`, live)
	run[any](t, ctx, fmt.Sprintf(`Jupyter.notebook.execute_cells([%d]), null`, live))
	poll(t, ctx, "the explorer's controls and chart", fmt.Sprintf(`(function () { var o = %s; var w = window.sodWidgets;
	  var c = o.querySelector('div.sodw div.item');
	  return o.querySelectorAll('input[type=range]').length === 4 && !!o.querySelector('select') && !!(c && w && w.charts[c.id]); })()`, out), 3*time.Minute)
	t.Logf("explorer shown %v after the first cell started", time.Since(start).Round(time.Second))
	defer run[any](t, ctx, `Jupyter.notebook.kernel.interrupt(), null`)

	// state returns the chart's title and subtitle, its row labels and its marks.
	state := fmt.Sprintf(`(function () { var c = %s.querySelector('div.sodw div.item'); var i = c && window.sodWidgets.charts[c.id];
	  if (!i) { return ''; }
	  var o = i.getOption(); var s = o.series[0]; var marks = (s.markLine && s.markLine.data || []).map(function (d) { return d.xAxis; });
	  return o.title[0].text + '\n' + o.title[0].subtext + '\n' + o.yAxis[0].data.join('|') + '\n' + marks.join('|'); })()`, out)
	current := func() string { return run[string](t, ctx, state) }
	// move sets control k (0 case select, then the sliders l, t, ρ, η) to position pos.
	move := func(k int, pos string) {
		run[any](t, ctx, fmt.Sprintf(`(function () { var o = %s; var el = %s; el.value = %q;
		  el.dispatchEvent(new Event('input')); el.dispatchEvent(new Event('change')); return null; })()`,
			out, map[bool]string{true: `o.querySelector('select')`, false: fmt.Sprintf(`o.querySelectorAll('input[type=range]')[%d]`, k-1)}[k == 0], pos))
	}
	waitFor := func(what string, want ...string) string {
		t.Helper()
		js := fmt.Sprintf(`(function () { var s = %s; return %s; })()`, state, containsAll(want))
		poll(t, ctx, what, js, 60*time.Second)
		return current()
	}

	s := waitFor("the initial chart", "real-world", "ρ = 0.1, η = 0.1", "l = 5, t = 150000: γ-type X̌", "h(X̂) = 0.0582892", "raises h", "▶ l = 5")
	t.Logf("initial:\n%s", s)
	if got := strings.Split(s, "\n")[3]; got != "150000" {
		t.Errorf("initial mark at t = %q, want 150000", got)
	}

	// l slider to l = 7 (position 2) and t to its smallest position (150): t ∈ U_β for l = 7 at ρ = 0.1.
	move(1, "2")
	move(2, "0")
	s = waitFor("the redraw for l = 7, t = 150", "l = 7, t = 150: β-type X̌", "▶ l = 7")
	t.Logf("l = 7, t = 150:\n%s", s)
	if strings.Contains(s, "▶ l = 5") {
		t.Errorf("two rows are marked as selected:\n%s", s)
	}

	// ρ slider to 0.001 (position 0): below ρ_min of every l, so U_β is empty in every row.
	move(3, "0")
	s = waitFor("the redraw for ρ = 0.001", "ρ = 0.001, η = 0.1")
	if n := strings.Count(strings.Split(s, "\n")[2], "U_β = ∅"); n != 5 {
		t.Errorf("ρ = 0.001: %d rows say U_β = ∅, want all 5 (ρ < ρ_min for l ≤ 11):\n%s", n, s)
	}

	// The case select to PMC, l = 11, t = round(150·10^{2.6}) = 59716 (position 52), ρ = η = 0.1 (position 6):
	// near the paper's t = 59000, which is in U_γ for l = 11 (ρ_min = 16.77 > ρ, so U_β = ∅).
	move(0, "1")
	move(1, "4")
	move(2, "52")
	move(3, "6")
	s = waitFor("the redraw for PMC", "PMC n = 3, ε = 0.3, ρ = 0.1, η = 0.1", "l = 11, t = 59716: γ-type X̌", "h(X̂) = 0.330275", "▶ l = 11 (ρ_min = 16.8) (U_β = ∅)")
	t.Logf("PMC, l = 11, t = 59716:\n%s", s)
	if label := run[string](t, ctx, fmt.Sprintf(`%s.innerText`, out)); !strings.Contains(label, "t = 59716") {
		t.Errorf("the t slider's label does not read 59716 (an integer number of steps):\n%s", label)
	}

	run[any](t, ctx, fmt.Sprintf(`(%s.scrollIntoView({block: 'center'}), null)`, out))
	_ = chromedp.Do(ctx, chromedp.Sleep(800*time.Millisecond))
	if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
		p := filepath.Join(artefactDir(t), "live-explorer.png")
		writeFile(t, p, shot)
		t.Logf("screenshot of the live explorer: %s", p)
	}
}

// containsAll returns a JavaScript condition that s contains every string.
func containsAll(want []string) string {
	var conds []string
	for _, w := range want {
		conds = append(conds, fmt.Sprintf("s.indexOf(%q) >= 0", w))
	}
	if len(conds) == 0 {
		return "true"
	}
	return strings.Join(conds, " && ")
}

// startNotebookScript serves the repository's notebooks with
// scripts/notebook.sh on a free loopback port and a fresh token, as a
// student would, and returns its base URL and token. The server (its own
// process group) is stopped at the end of the test.
//
// notebook.sh refuses to start when `jupyter kernelspec list` does not
// list gonb. On the shared development machine that check failed twice in
// a row while the kernel list passed needGonb a moment before (the
// kernelspec was apparently being reinstalled by another process), so that
// one failure is retried twice, and logged.
func startNotebookScript(t *testing.T) (base, token string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		base, token, log, ok := tryNotebookScript(t)
		if ok {
			return base, token
		}
		if attempt == 3 || !strings.Contains(log, "gonb kernel is not installed") {
			t.Fatalf("scripts/notebook.sh exited at start:\n%s", log)
		}
		t.Logf("scripts/notebook.sh failed its gonb check (attempt %d), retrying:\n%s", attempt, log)
	}
}

// tryNotebookScript starts scripts/notebook.sh once; ok is false, with the
// script's output, when it exits before serving.
func tryNotebookScript(t *testing.T) (base, token, output string, ok bool) {
	t.Helper()
	var tb [16]byte
	_, _ = rand.Read(tb[:])
	token = hex.EncodeToString(tb[:])
	port := freePort(t)
	script, err := filepath.Abs(filepath.Join(repoRoot, "docker", "notebook.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, "--port", fmt.Sprint(port))
	cmd.Env = append(os.Environ(), "SOD_TOKEN="+token, "PYDEVD_DISABLE_FILE_VALIDATION=1", "JUPYTER_RUNTIME_DIR="+t.TempDir())
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting scripts/notebook.sh: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("notebook.sh log:\n%s", tailLines(log.String(), 40))
		}
	})
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return "", "", log.String(), false
		default:
		}
		resp, err := http.Get(base + "/api?token=" + token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, token, "", true
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("scripts/notebook.sh did not answer on %s within 60 s", base)
	return "", "", "", false
}
