package reproducecli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

// TestBenchExternalMethods (CI): the Python and Go reference clients'
// example escapes (sod/escapebench/clients/python/negcurv.py,
// sod/escapebench/execclient/negcurv) run on the quick profile beside
// every built-in method, from -method exec:…, and their rows are in the
// summary and the HTML report; bench merge makes the same report from the
// unsharded run's journal.
func TestBenchExternalMethods(t *testing.T) {
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} { // PATH's python3 may be another one (pyenv's) without Debian's python3-numpy
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Fatal("the Python reference client needs python3 with NumPy (scripts/install.sh installs python3-numpy)")
	}
	dir := t.TempDir()
	goBin := filepath.Join(dir, "negcurv")
	if out, err := exec.Command("go", "build", "-o", goBin, "../escapebench/execclient/negcurv").CombinedOutput(); err != nil {
		t.Fatalf("go build execclient/negcurv: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "q")
	runBenchOK(t, []string{"bench", "-out", out, "-quiet", "-profile", "quick", "-trials", "1",
		"-method", "exec:" + py + " ../escapebench/clients/python/negcurv.py", "-method", "exec:negcurv-go=" + goBin})
	j, err := escapebench.ReadJournal(filepath.Join(out, "bench-journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if h := j.Header.Bench; len(h.Exec) != 2 || h.Exec[0].Name != "exec-negcurv" || h.Exec[1].Name != "negcurv-go" {
		t.Fatalf("journal header's external methods %+v", h.Exec)
	}
	runs := map[string]int{}
	for _, r := range j.Runs() {
		if strings.Contains(r.Method, "negcurv") {
			runs[r.Method]++
			if r.Err != "" {
				t.Errorf("%s on %s: %s", r.Method, r.Instance, r.Err)
			}
		}
	}
	if runs["exec-negcurv"] == 0 || runs["exec-negcurv"] != runs["negcurv-go"] {
		t.Fatalf("external runs %v", runs)
	}
	// bench merge accepts the unsharded journal and writes the same report.
	merged := filepath.Join(dir, "m")
	runBenchOK(t, []string{"bench", "merge", "-out", merged, out})
	for _, d := range []string{out, merged} {
		files := []string{escapebench.SummaryPageFile, "bench-summary.json"}
		if _, noAssets := widgets.AssetsDir(); noAssets == nil {
			files = append(files, benchReportFile)
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(d, f))
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"exec-negcurv", "negcurv-go", "sod-line-search", "gd-alone"}
			if f == escapebench.SummaryPageFile {
				want = append(want, "external method exec-negcurv", "negcurv.py (protocol 1", "escape rounds per run")
			}
			for _, m := range want {
				if !strings.Contains(string(b), m) {
					t.Errorf("%s lacks method %s", filepath.Join(filepath.Base(d), f), m)
				}
			}
		}
	}
	// The profiles as SVG, every method in the legend.
	svg, err := os.ReadFile(filepath.Join(out, "bench-profile-pmc-ecdf.svg"))
	if err != nil || !strings.Contains(string(svg), "exec-negcurv") || !strings.Contains(string(svg), "sod-line-search") {
		t.Errorf("bench-profile-pmc-ecdf.svg: %v (%d bytes)", err, len(svg))
	}
	a, _ := os.ReadFile(filepath.Join(out, "bench-results.json"))
	b, _ := os.ReadFile(filepath.Join(merged, "bench-results.json"))
	var ra, rb map[string]json.RawMessage
	if json.Unmarshal(a, &ra) != nil || json.Unmarshal(b, &rb) != nil || string(ra["runs"]) != string(rb["runs"]) {
		t.Error("the merged journal's runs differ from the run's")
	}
}
