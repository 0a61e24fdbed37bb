package widgetsbrowser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrowserBenchReport builds the reproduce command, runs the escape
// benchmark's quick profile (every family and method), opens the
// bench-report.html it wrote from file:// in Chromium without network and
// checks that every chart drew — the runtime profiles (ECDF, performance
// and data profiles) and success against an instance feature among them —
// and no script failed or asked for the network. The page's screenshot is kept as
// widgets/testdata/out/bench-report.png.
func TestBrowserBenchReport(t *testing.T) {
	assetsOrSkip(t)
	bctx := browser(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "reproduce")
	build := exec.Command("go", "build", "-o", bin, "./sod/cmd/reproduce")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./sod/cmd/reproduce: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "bench")
	cmd := exec.Command(bin, "bench", "-out", out, "-quiet", "-profile", "quick")
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
	rep := loadPage(t, bctx, "file://"+path, 60*time.Second)
	for _, p := range append(rep.ChartProblems(charts), rep.Errors(nil)...) {
		t.Error(p)
	}
	writeFile(t, filepath.Join(artefactDir(t), "bench-report.png"), rep.Full)
	if !t.Failed() {
		t.Logf("bench-report.html (%d kB): %d charts drew offline", len(page)/1000, charts)
	}
}
