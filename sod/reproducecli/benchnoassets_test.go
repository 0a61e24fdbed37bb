package reproducecli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/widgets"
)

// TestBenchWithoutAssets: without the ECharts assets (the assets lookup
// pointed at an empty directory, as widgets.AssetsDir allows) a run and a
// merge still write every other output, bench-summary.md included, skip
// only the HTML report and say so and why, and succeed.
// The widgets keep the ECharts sources once read, for the whole process,
// so the test runs in a fresh child process (this test binary) where no
// other test has read them.
func TestBenchWithoutAssets(t *testing.T) {
	const childEnv = "REPRODUCE_NO_ASSETS_CHILD"
	if os.Getenv(childEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBenchWithoutAssets$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"=1", widgets.AssetsEnv+"="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	if _, err := widgets.AssetsDir(); err == nil {
		t.Fatal("widgets.AssetsDir found assets in an empty directory")
	}
	tmp := t.TempDir()
	base := []string{"-quiet", "-families", "paper", "-methods", "sod-line-search,gd-alone", "-trials", "1", "-seed", "5"}
	sharded := filepath.Join(tmp, "sharded")
	for _, c := range []struct {
		dir  string
		args []string
	}{
		{filepath.Join(tmp, "run"), append([]string{"bench", "-out", filepath.Join(tmp, "run")}, base...)},
		{"", append([]string{"bench", "-out", sharded, "-shard", "0/2"}, base...)},
		{"", append([]string{"bench", "-out", sharded, "-shard", "1/2"}, base...)},
		{filepath.Join(tmp, "merged"), []string{"bench", "merge", "-out", filepath.Join(tmp, "merged"), sharded}},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), c.args, &out, &errb); err != nil {
			t.Fatalf("%q: %v\n%s", c.args, err, errb.String())
		}
		if c.dir == "" {
			continue
		}
		for _, f := range []string{"bench-results.json", "bench-results.csv", "bench-timings.csv", "bench-summary.json", benchSummaryFile, instancesFile} {
			if _, err := os.Stat(filepath.Join(c.dir, f)); err != nil {
				t.Errorf("%q: %s not written: %v", c.args, f, err)
			}
		}
		if _, err := os.Stat(filepath.Join(c.dir, benchReportFile)); !os.IsNotExist(err) {
			t.Errorf("%q: %s exists without the assets: %v", c.args, benchReportFile, err)
		}
		if s := errb.String(); !strings.Contains(s, "skipped "+benchReportFile) || !strings.Contains(s, "ECharts assets not found") || !strings.Contains(s, widgets.AssetsEnv) {
			t.Errorf("%q: stderr does not say that and why the report was skipped:\n%s", c.args, s)
		}
		if s := out.String(); !strings.Contains(s, "skipped "+benchReportFile) {
			t.Errorf("%q: the last line does not name the skipped report:\n%s", c.args, s)
		}
	}
}
