package figures

import (
	"bytes"
	"errors"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

// benchRun is a hand-made run: success or not, its gradient count and a
// two-point trace from dist0 to dist1.
func benchRun(fam, method string, trial int, ok bool, grad int64, dist0, dist1 float64) *escapebench.TrialResult {
	out := sod.NoDescent
	if ok {
		out = sod.Solved
	}
	r := &escapebench.TrialResult{Family: fam, Instance: fam + " #0", Method: method, Params: map[string]string{"rho": "0.1", "label": method},
		Trial: trial, Outcome: out, Success: ok, Rounds: 1, Dist: escapebench.OptFloat(dist1),
		Trace: []escapebench.TracePoint{{Grad: 0, Dist: escapebench.OptFloat(dist0)}, {Grad: grad, Dist: escapebench.OptFloat(dist1)}}}
	r.Cost.Grad = grad
	r.Cost.CPU = time.Duration(grad) * time.Microsecond
	if ok {
		r.Lowered = 1
	}
	return r
}

// hostile is caller text that would break the page if inserted as markup.
const hostile = `</script><img src=x onerror=alert(1)>"'&`

func benchRuns() []*escapebench.TrialResult {
	return []*escapebench.TrialResult{
		benchRun("paper", "sod-line-search", 0, true, 100, 1, 1e-9),
		benchRun("paper", "sod-line-search", 1, true, 300, 1, 1e-9),
		benchRun("paper", hostile, 0, false, 50, 1, 0.5),
		benchRun("user "+hostile, "sod-line-search", 0, true, 10, 2, 1e-12),
		benchRun("user "+hostile, hostile, 0, false, 20, 2, 1),
		benchRun("user "+hostile, hostile, 1, true, 40, 2, 1e-3),
	}
}

func TestBenchMetricsTable(t *testing.T) {
	ss, err := escapebench.Summarize(benchRuns())
	if err != nil {
		t.Fatal(err)
	}
	tab, err := BenchMetricsTable(ss, "user "+hostile)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(tab.Rows))
	}
	// hostile: 1 success in 2 runs. Wilson 95 %, by hand with z = 1.96:
	// centre (½ + z²/4)/(1 + z²/2) = ½, half-width z√(1/8 + z²/16)/(1 + z²/2)
	// = 0.405, so [9.5 %, 90.5 %] → "[9, 91]".
	// Both runs are on one instance: escaped once, not by every run,
	// Wilson(1, 1) = [20.7 %, 100 %].
	want := []string{hostile, "1/2", "50 % [9, 91]", "40", "40", "0.04 ms", "0.04 ms", "50 % of 2", "1 / 0 / 1 [21, 100] %"}
	for i, c := range tab.Rows[1] {
		if c.Text != want[i] {
			t.Errorf("column %q: %q, want %q", tab.Header[i], c.Text, want[i])
		}
	}
	// paper/sod-line-search: successes at 100 and 300 gradient evaluations:
	// median 200, 90th percentile 100 + 0.9·200 = 280 (linear interpolation).
	tab, err = BenchMetricsTable(ss, "paper")
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.Rows[0]; r[0].Text != "sod-line-search" || r[3].Text != "200" || r[4].Text != "280" {
		t.Errorf("paper/sod-line-search row %v, want median 200 and p90 280", r)
	}
	if r := tab.Rows[1]; r[3].Text != "—" || r[5].Text != "—" {
		t.Errorf("a method without success shows %q, %q, want —", r[3].Text, r[5].Text)
	}
	if _, err := BenchMetricsTable(ss, "nope"); !errors.Is(err, ErrBadFigure) {
		t.Errorf("unknown family: %v", err)
	}
}

func TestWriteBenchReport(t *testing.T) {
	if _, err := widgets.AssetsDir(); err != nil {
		t.Skip(err)
	}
	rep := BenchReport{Runs: benchRuns(),
		Settings:  []escapebench.Setting{{Name: "families", Value: "paper, user " + hostile}, {Name: "seed", Value: "7"}},
		Instances: []escapebench.InstanceInfo{{Family: "paper", Name: "paper #0"}},
		Dropped:   []escapebench.Dropped{{Family: "paper", Name: "paper #1", Reason: "too close"}}}
	var b bytes.Buffer
	if err := WriteBenchReport(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, s := range []string{"<title>Escape benchmark</title>", "Family paper", "Family " + html.EscapeString("user "+hostile),
		"sod-line-search", html.EscapeString(hostile), "seed", "1 certified instances, 1 generated points dropped",
		"rounds lowering h", "rate [95 % Wilson]"} {
		if !strings.Contains(page, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if strings.Contains(page, "<img src=x") {
		t.Error("a method name went into the page as markup")
	}
	// Four cells (paper × 2 methods, user × 2 methods), one chart each,
	// and one chart of the medians per family.
	if n := strings.Count(page, `<div class="sodw"`); n != 6 {
		t.Errorf("%d charts, want 6", n)
	}
	// Offline: nothing loaded from the network.
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*\b(src|href)\s*=\s*["']?(https?:)?//`).FindString(page); m != "" {
		t.Errorf("the report loads %q from the network", m)
	}
	if strings.Contains(page, "cdn.") || strings.Contains(page, "go-echarts.github.io") {
		t.Error("the report names a CDN")
	}

	// Bad input is an error, never a panic.
	for name, r := range map[string]BenchReport{"no runs": {}, "nil run": {Runs: []*escapebench.TrialResult{nil}}} {
		if err := WriteBenchReport(&b, r); !errors.Is(err, ErrBadFigure) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := WriteBenchReport(nil, rep); err == nil {
		t.Error("nil writer accepted")
	}
}

// TestBenchPartialNote: a method run on fewer instances than its family
// has is named with its count; none, no note.
func TestBenchPartialNote(t *testing.T) {
	ss := []escapebench.Summary{
		{Family: "pmc", Method: "sod-line-search", Instances: 28},
		{Family: "pmc", Method: "single-step-sod", Instances: 24},
		{Family: "paper", Method: "single-step-sod", Instances: 3},
	}
	for _, c := range []struct {
		fam  string
		ni   int
		want string
	}{
		{"pmc", 28, "single-step-sod on 24"},
		{"paper", 3, ""},
	} {
		got := benchPartialNote(ss, c.fam, c.ni)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) || strings.Contains(got, "sod-line-search") {
			t.Errorf("%s: %q, want it to name %q only", c.fam, got, c.want)
		}
	}
}

// The rounds table: SOD kinds with their t, a method whose candidates
// carry a label only, an external one whose kind is not reported.
func TestBenchRoundsTable(t *testing.T) {
	rs := []escapebench.RoundStats{
		{Family: "pmc", Method: "sod-line-search", Runs: 2, Rounds: 3, Accepted: 2, None: 1, Kinds: []escapebench.KindCount{{Kind: "β+", N: 1}, {Kind: "γ−", N: 1}},
			T: escapebench.TRange{N: 2, Median: 55, Min: 10, Max: 100}, InInterval: 1},
		{Family: "pmc", Method: "perturbed-gd", Runs: 1, Rounds: 1, Accepted: 1, Unkinded: 1},
		{Family: "pmc", Method: "exec-negcurv", Runs: 1, Rounds: 2, Accepted: 1, Failed: 1, Unkinded: 1, External: true},
		{Family: "paper", Method: "gd-alone", Runs: 1, Rounds: 1, None: 1},
	}
	tab, err := BenchRoundsTable(rs, "pmc")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"sod-line-search", "2", "3", "2 / 1 / 0", "β+ 1, γ− 1", "55 [10, 100]", "1 of 2"},
		{"perturbed-gd", "1", "1", "1 / 0 / 0", "no kind 1", "—", "—"},
		{"exec-negcurv", "1", "2", "1 / 0 / 1", "not reported by the method 1", "—", "—"},
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(want))
	}
	for i, row := range want {
		for j, cell := range row {
			if got := tab.Rows[i][j].Text; got != cell {
				t.Errorf("row %d column %q: %q, want %q", i, tab.Header[j], got, cell)
			}
		}
	}
	if _, err := BenchRoundsTable(rs, "gaussian"); !errors.Is(err, ErrBadFigure) {
		t.Errorf("a family without runs: %v, want ErrBadFigure", err)
	}
}
