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
// benchmark on a quick suite (the paper's instances and a PMC cell, every
// method, 2 trials), opens the bench-report.html it wrote from file:// in
// Chromium without network and checks that every chart drew and no script
// failed or asked for the network. The page's screenshot is kept as
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
	cmd := exec.Command(bin, "bench", "-out", out, "-quiet", "-families", "paper,pmc", "-pmc-sizes", "12", "-pmc-eps", "0.15",
		"-per-cell", "2", "-trials", "2")
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
	rep := loadPage(t, bctx, "file://"+path, 60*time.Second)
	for _, p := range append(rep.ChartProblems(charts), rep.Errors(nil)...) {
		t.Error(p)
	}
	writeFile(t, filepath.Join(artefactDir(t), "bench-report.png"), rep.Full)
	if !t.Failed() {
		t.Logf("bench-report.html (%d kB): %d charts drew offline", len(page)/1000, charts)
	}
}
