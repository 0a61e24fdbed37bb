package widgetsbrowser

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/testtools/browsercheck"
)

// TestBrowserBenchReport builds the reproduce command, runs the escape
// benchmark's quick profile (every family and method), opens the
// bench-report.html it wrote from file:// in Chromium without network and
// checks that every chart drew — the runtime profiles (ECDF, performance
// and data profiles) and success against an instance feature among them —
// and no script failed or asked for the network. The suite has 16 methods
// (the quick profile's, a grid of two and an external method), and the
// charts are read back from ECharts (checkBenchCharts): each curve its
// own colour, dash and marker, every method in a legend drawn whole inside
// its chart, probability axes [0, 1], profiles as steps naming their
// targets; the static SVG figures name every method (checkBenchSVGs). A
// copy of the charts spoilt with each fault must fail the same checks.
// The page's screenshot is kept as widgets/testdata/out/bench-report.png.
func TestBrowserBenchReport(t *testing.T) {
	assetsOrSkip(t)
	chromiumPath(t) // skip before the suite runs if there is no browser
	dir := t.TempDir()
	bin := filepath.Join(dir, "reproduce")
	build := exec.Command("go", "build", "-o", bin, "./sod/cmd/reproduce")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./sod/cmd/reproduce: %v\n%s", err, out)
	}
	// 16 methods per family: the quick profile's 13, two of a grid and
	// the Go reference client's example as an external method.
	negcurv := filepath.Join(dir, "negcurv")
	build = exec.Command("go", "build", "-o", negcurv, "./sod/escapebench/execclient/negcurv")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./sod/escapebench/execclient/negcurv: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "bench")
	cmd := exec.Command(bin, "bench", "-out", out, "-quiet", "-profile", "quick", "-method", "sod-line-search:l=3,7", "-method", "exec:go-negcurv="+negcurv)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("reproduce bench: %v\n%s", err, b)
	}
	path := filepath.Join(out, "bench-report.html")
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	charts := strings.Count(string(page), `<div class="sodw"`)
	if charts < 2 {
		t.Fatalf("%s holds %d charts", path, charts)
	}
	for _, title := range []string{"runtime to target (ECDF)", "performance profile (Dolan–Moré)", "data profile (Moré–Wild)", "success rate per instance against"} {
		if !strings.Contains(string(page), title) {
			t.Errorf("%s has no chart %q", path, title)
		}
	}
	bctx := browser(t) // started now: its time limit is for the pages
	tb := browsercheck.OpenTab(bctx)
	defer tb.Close()
	if err := chromedp.Do(tb.Ctx, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatal(err)
	}
	rep, err := tb.Inspect(60 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(rep.ChartProblems(charts), rep.Errors(nil)...) {
		t.Error(p)
	}
	writeFile(t, filepath.Join(artefactDir(t), "bench-report.png"), rep.Full)
	methods := benchMethods(t, out)
	for fam, ms := range methods {
		if len(ms) < 16 {
			t.Errorf("family %s has %d methods, want at least 16: %v", fam, len(ms), ms)
		}
	}
	read := run[[]benchChart](t, tb.Ctx, benchChartJS) // the same tab, every chart drawn
	n, problems := checkBenchCharts(read, methods)
	for _, p := range problems {
		t.Error(p)
	}
	spoilt, want := spoilBenchCharts(read)
	if spoilt == nil {
		t.Error("no ECDF chart to spoil for the control")
	}
	_, caught := checkBenchCharts(spoilt, methods)
	for _, w := range want {
		if !slices.ContainsFunc(caught, func(p string) bool { return strings.Contains(p, w) }) {
			t.Errorf("control: a chart spoilt with %q passes the checks (found %q)", w, caught)
		}
	}
	svgs := checkBenchSVGs(t, out, methods)
	t.Logf("%d charts with several curves and %d static figures checked for distinct styles, full legends, [0, 1] axes, steps and named targets", n, svgs)
	if !t.Failed() {
		t.Logf("bench-report.html (%d kB): %d charts drew offline", len(page)/1000, charts)
	}
}
