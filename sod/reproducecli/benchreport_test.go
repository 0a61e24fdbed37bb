package reproducecli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sodworkbench.org/workbench/widgets"
)

// TestBenchReport: a complete run and a merge of shards both write the
// offline HTML report, with every family and method and the suite's
// parameters, loading nothing from the network.
func TestBenchReport(t *testing.T) {
	if _, err := widgets.AssetsDir(); err != nil {
		t.Skip(err)
	}
	tmp := t.TempDir()
	args := func(out string, extra ...string) []string {
		return append([]string{"bench", "-out", out, "-quiet", "-families", "paper,pmc", "-pmc-sizes", "12", "-pmc-eps", "0.15",
			"-methods", "sod-line-search,gd-alone,random-restart", "-trials", "2", "-seed", "5"}, extra...)
	}
	a := filepath.Join(tmp, "a")
	runBenchOK(t, args(a))
	c := filepath.Join(tmp, "c")
	runBenchOK(t, args(c, "-shard", "0/2"))
	runBenchOK(t, args(c, "-shard", "1/2"))
	if _, err := os.Stat(filepath.Join(c, benchReportFile)); !os.IsNotExist(err) {
		t.Errorf("a shard wrote %s (only complete suites have one): %v", benchReportFile, err)
	}
	d := filepath.Join(tmp, "d")
	runBenchOK(t, []string{"bench", "merge", "-out", d, c})
	offline := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*\b(src|href)\s*=\s*["']?(https?:)?//`)
	for _, dir := range []string{a, d} {
		b, err := os.ReadFile(filepath.Join(dir, benchReportFile))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, s := range []string{"Family paper", "Family pmc", "sod-line-search", "gd-alone", "random-restart",
			"scale=", "cells n:ε[:points] 12:0.15;", ">seed<", ">5<", "certified instances", "instances and their certificates", "strict-local-min"} {
			if !strings.Contains(page, s) {
				t.Errorf("%s: the report lacks %q", dir, s)
			}
		}
		if m := offline.FindString(page); m != "" {
			t.Errorf("%s: the report loads %q from the network", dir, m)
		}
		if n := strings.Count(page, `<div class="sodw"`); n < 2 {
			t.Errorf("%s: %d charts", dir, n)
		}
	}
}
