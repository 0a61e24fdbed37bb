package escapebench

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// The at-a-glance table shows n/a where a method has no run on a family
// (single-step SOD above n = sod.MaxDenseSize) and says why.
func TestWriteGlanceNotApplicable(t *testing.T) {
	spec := Spec{Families: []string{"pmc"}, Methods: []string{"single-step-sod", "gd-alone"}}
	ss := []Summary{{Family: "pmc", Method: "gd-alone", Trials: 2, Instances: 2, Rate: 0, RateHi: 0.66}}
	as := []FamilyAnalysis{{Family: "pmc", Targets: DefaultTargets(), Methods: []string{"gd-alone"}, ART: [][]OptFloat{{1, 2, OptFloat(math.Inf(1)), 3, 4, 5, 6}}}}
	var b bytes.Buffer
	writeGlance(&b, spec, ss, as)
	got := b.String()
	for _, want := range []string{"| single-step-sod | raw-h | n/a |", "| gd-alone | raw-h | 0 % [0, 66] · ∞ |", "n/a: no run. single-step-sod: not run above n = 2048 (dense n×n arrays)"} {
		if !strings.Contains(got, want) {
			t.Errorf("glance lacks %q:\n%s", want, got)
		}
	}
}

// The page quotes the command's words for a shell and leaves out the
// instances section when they are not known.
func TestWriteSummaryPage(t *testing.T) {
	spec := QuickSpec()
	var b bytes.Buffer
	info := PageInfo{Command: []string{"reproduce", "bench", "-out", "it's here"}, Env: testEnv}
	if err := WriteSummaryPage(&b, spec, &SuiteRun{}, nil, nil, info); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, "`reproduce bench -out 'it'\\''s here'`") || strings.Contains(page, "## Instances") || !strings.Contains(page, "| seed | 1 |") || !strings.Contains(page, "| date | 2026-01-01 |") {
		t.Errorf("page:\n%s", page)
	}
	// The time of the runs names the CPU it was measured on.
	if want := fmt.Sprintf("runs; CPU time of the runs 0 ms on %s (%d CPUs)", testEnv.CPU, testEnv.NumCPU); !strings.Contains(page, want) {
		t.Errorf("page lacks %q:\n%s", want, page)
	}
	// The wall time is read beside the machine's load.
	b.Reset()
	info.Wall, info.Workers, info.Load = 90*time.Second, 2, "3.10 2.00 1.50"
	if err := WriteSummaryPage(&b, spec, &SuiteRun{}, nil, nil, info); err != nil {
		t.Fatal(err)
	}
	if want := "wall time of the command 1m30s with -workers 2, load average at its end 3.10 2.00 1.50 (1, 5, 15 min)."; !strings.Contains(b.String(), want) {
		t.Errorf("page lacks %q:\n%s", want, b.String())
	}
}
