package figures

import (
	"math"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
)

// TestBenchARTTableAndSampling: the aRT table prints ∞ for a target no
// run reached and the measured CPU beside; the profiles' step curves are
// sampled as steps (0 before the first point, the last value after).
func TestBenchARTTableAndSampling(t *testing.T) {
	a := escapebench.FamilyAnalysis{Family: "f", Targets: escapebench.DefaultTargets()[:2], Methods: []string{"m"},
		ART: [][]escapebench.OptFloat{{12.5, escapebench.OptFloat(math.Inf(1))}},
		CPU: []escapebench.CPUTotal{{Method: "m", Seconds: 0.002, Runs: 1, All: 2}}}
	tab, err := BenchARTTable(a)
	if err != nil {
		t.Fatal(err)
	}
	row := tab.Rows[0]
	if row[1].Text != "12.5" || row[2].Text != "∞" || !strings.Contains(row[3].Text, "2 ms (1 of 2 runs)") {
		t.Errorf("row %v", row)
	}
	a.ART = nil
	if _, err := BenchARTTable(a); err == nil {
		t.Error("missing aRT rows accepted")
	}
	c := escapebench.Curve2D{Method: "m", X: []float64{10, 100}, Y: []float64{0.25, 0.75}}
	ch, ok, err := stepCurvesChart("t", "x", "y", []escapebench.Curve2D{c})
	if err != nil || !ok || ch == nil {
		t.Fatalf("chart %v, %v, %v", ch, ok, err)
	}
	if _, ok, err := stepCurvesChart("t", "x", "y", []escapebench.Curve2D{{Method: "m"}}); ok || err != nil {
		t.Errorf("empty curves: ok %v, err %v; want no chart", ok, err)
	}
}
