package reproducecli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

func TestProfileArg(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
		ok   bool
	}{
		{nil, "default", true},
		{[]string{"-trials", "3"}, "default", true},
		{[]string{"-trials", "3", "-profile", "quick"}, "quick", true},
		{[]string{"--profile=quick"}, "quick", true},
		{[]string{"-profile", "large"}, "large", true},
		{[]string{"-profile", "huge"}, "", false},
		{[]string{"-profile", "Large"}, "", false},
		{[]string{"-profile"}, "", false},
	} {
		got, err := profileArg(c.args)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("profileArg(%q) = %q, %v; want %q, ok %v", c.args, got, err, c.want, c.ok)
		}
	}
}

func TestProductCells(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   []string
		sizes []int
		eps   []float64
		n     []int
		m     []int
		r     []int
		want  []escapebench.PMCCell
		wantG []escapebench.GaussianCell
		ok    bool
	}{
		{name: "none", ok: true, want: escapebench.DefaultSpec().PMCCells, wantG: escapebench.DefaultSpec().GaussCells},
		{name: "pmc product", set: []string{"pmc-sizes", "pmc-eps"}, sizes: []int{12, 20}, eps: []float64{0.15}, ok: true,
			want: []escapebench.PMCCell{{N: 12, Eps: 0.15}, {N: 20, Eps: 0.15}}, wantG: escapebench.DefaultSpec().GaussCells},
		{name: "gauss product", set: []string{"gauss-n", "gauss-m", "gauss-r"}, n: []int{6}, m: []int{8, 14}, r: []int{1}, ok: true,
			want: escapebench.DefaultSpec().PMCCells, wantG: []escapebench.GaussianCell{{N: 6, M: 8, R: 1}, {N: 6, M: 14, R: 1}}},
		{name: "sizes alone", set: []string{"pmc-sizes"}, sizes: []int{12}},
		{name: "cells and sizes", set: []string{"pmc-cells", "pmc-sizes", "pmc-eps"}, sizes: []int{12}, eps: []float64{0.1}},
		{name: "gauss n alone", set: []string{"gauss-n"}, n: []int{6}},
		{name: "r > n", set: []string{"gauss-n", "gauss-m", "gauss-r"}, n: []int{3}, m: []int{8}, r: []int{4}},
	} {
		s := escapebench.DefaultSpec()
		set := map[string]bool{}
		for _, f := range c.set {
			set[f] = true
		}
		err := productCells(&s, set, c.sizes, c.eps, c.n, c.m, c.r)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.name, err, c.ok)
			continue
		}
		if c.ok && (!reflect.DeepEqual(s.PMCCells, c.want) || !reflect.DeepEqual(s.GaussCells, c.wantG)) {
			t.Errorf("%s: cells %v / %v, want %v / %v", c.name, s.PMCCells, s.GaussCells, c.want, c.wantG)
		}
	}
}

func TestBenchCellFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-profile", "huge"},
		{"bench", "-pmc-cells", "20:0.1,20:0.1"},
		{"bench", "-pmc-cells", "20:2"},
		{"bench", "-profile", ""},
		{"bench", "-families", "pmc,pmc-ranks"},
		{"bench", "-families", "gaussian-noise"},
		{"bench", "-pmc-cells", "100:0.1:r3"},
		{"bench", "-pmc-rank-cells", "100:0.1"},
		{"bench", "-pmc-rank-cells", "100:0.1:r11"},
		{"bench", "-pmc-rank-cells", "20:0.1:r5"},
		{"bench", "-pmc-rank-cells", "100:0.1:rx"},
		{"bench", "-noisy-cells", "3:10:4"},
		{"bench", "-noise-sigma", "0"},
		{"bench", "-noise-sigma", "-0.1"},
		{"bench", "-noise-sigma", "2"},
		{"bench", "-noise-sigma", "NaN"},
		{"bench", "-profile", "large", "-families", "pmc,gaussian"},
		{"bench", "-pmc-cells", "20:0.1", "-pmc-sizes", "20", "-pmc-eps", "0.1"},
		{"bench", "-pmc-sizes", "20"},
		{"bench", "-gauss-cells", "3:10:4"},
		{"bench", "-gauss-tries", "0"},
		{"bench", "-gauss-n", "6"},
		{"bench", "-results-md", "no-such-folder/RESULTS.md"},
		{"bench", "-results-md", "."},
	} {
		var o, e bytes.Buffer
		err := run(context.Background(), append(args, "-quiet", "-out", t.TempDir()), &o, &e)
		if exitCode(err) != 2 {
			t.Errorf("%q: %v (exit %d), want a usage error (exit 2)", args, err, exitCode(err))
		}
	}
}

// TestBenchSummaryMarkdown: a complete run writes bench-summary.md, and
// -results-md the same bytes elsewhere, with the command, the suite, the
// instances and the table of every (family, method).
func TestBenchSummaryMarkdown(t *testing.T) {
	tmp := t.TempDir()
	out, md := filepath.Join(tmp, "a"), filepath.Join(tmp, "RESULTS.md")
	runBenchOK(t, []string{"bench", "-out", out, "-quiet", "-families", "paper,pmc", "-pmc-cells", "12:0.15:2",
		"-methods", "sod-line-search,gd-alone,random-restart", "-trials", "2", "-results-md", md})
	a, err := os.ReadFile(filepath.Join(out, benchSummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("-results-md differs from bench-summary.md")
	}
	page := string(a)
	for _, s := range []string{"do not edit by hand", "go run ./sod/cmd/reproduce bench -out", `| pmc | cells n:ε\[:points\] 12:0.15:2;`,
		"| paper | sod-line-search | 3 |", "| pmc | random-restart | 4 |", "| paper | 3 | 2 | 1 | 0 |", "wall time of the command"} {
		if !strings.Contains(page, s) {
			t.Errorf("bench-summary.md lacks %q:\n%s", s, page)
		}
	}
}

// TestBenchQuickProfile: -profile quick runs every family and method end
// to end in seconds (CI's suite), and later flags amend it.
func TestBenchQuickProfile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "q")
	got := runBenchOK(t, []string{"bench", "-out", out, "-quiet", "-trials", "2", "-profile", "quick"})
	for _, s := range []string{"family paper:", "family pmc:", "family gaussian:", "random-restart", "gd-alone"} {
		if !strings.Contains(got, s) {
			t.Errorf("quick profile output lacks %q:\n%s", s, got)
		}
	}
	j, err := escapebench.ReadJournal(filepath.Join(out, "bench-journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := escapebench.QuickSpec()
	want.Trials = 2
	if !reflect.DeepEqual(j.Header.Bench, want) {
		t.Errorf("journal suite %+v, want the quick profile with -trials 2: %+v", j.Header.Bench, want)
	}
	// The quick profile writes everything the default suite does: the
	// environment, X̂ and features per instance, first hits, judges, aRT,
	// profiles and paired tests.
	for file, wants := range map[string][]string{
		"bench-results.json":   {`"env"`, `"gomaxprocs"`, `"judge": "gd-probe"`, `"hits"`},
		"bench-results.csv":    {"# go: ", "judge", "first_hits"},
		"bench-timings.csv":    {"# date: "},
		"bench-instances.json": {`"x":[`, `"stream":`, `"features":{"beta_min":`, `"descent_steps":2000`},
		"bench-summary.json":   {`"art"`, `"ecdf"`, `"perf_profile"`, `"data_profile"`, `"paired"`, `"cost_weights"`},
		benchSummaryFile:       {"## Instance features", "| method | judge |", "sod-line-search+probe", "## Runtime to targets", "## Paired comparison", "## Environment"},
		benchReportFile:        {"runtime to target (ECDF)", "performance profile (Dolan–Moré)", "data profile (Moré–Wild)", "instances × methods"},
	} {
		b, err := os.ReadFile(filepath.Join(out, file))
		if _, noAssets := widgets.AssetsDir(); file == benchReportFile && noAssets != nil {
			continue // not written without the ECharts assets (TestBenchWithoutAssets)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q", file, w)
			}
		}
	}
}
