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
	cv, ok, err := stepCurves("t", "x", "y", []escapebench.Curve2D{c})
	if err != nil || !ok || !cv.Step || !cv.Probability || !cv.Distinct {
		t.Fatalf("curves %+v, %v, %v", cv, ok, err)
	}
	// The sampled steps: 0 before x = 10, 0.25 from 10, 0.75 from 100.
	for i, x := range cv.X {
		want := 0.0
		switch {
		case x >= 100:
			want = 0.75
		case x >= 10:
			want = 0.25
		}
		if cv.Series[0].Y[i] != want {
			t.Errorf("at x = %v: %v, want %v", x, cv.Series[0].Y[i], want)
		}
	}
	if _, ok, err := stepCurves("t", "x", "y", []escapebench.Curve2D{{Method: "m"}}); ok || err != nil {
		t.Errorf("empty curves: ok %v, err %v; want no chart", ok, err)
	}
}
