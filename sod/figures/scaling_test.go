package figures

import (
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/experiments"
)

// TestSuccessVsN checks the plotted rates against the cells' counts (an
// independent division here), and that a study with a missing cell is
// refused.
func TestSuccessVsN(t *testing.T) {
	tr := func(k int) []experiments.StudyTrial { return make([]experiments.StudyTrial, k) }
	res := &experiments.StudyResult{Cells: []experiments.StudyCell{
		{N: 40, Eps: 0.1, GDSuccesses: 1, SODSuccesses: 4, Trials: tr(4)},
		{N: 80, Eps: 0.1, GDSuccesses: 3, SODSuccesses: 4, Trials: tr(4)},
		{N: 40, Eps: 0.05, GDSuccesses: 0, SODSuccesses: 2, Trials: tr(4)},
		{N: 80, Eps: 0.05, GDSuccesses: 2, SODSuccesses: 4, Trials: tr(4)},
	}}
	c, err := SuccessVsNChart(res, "rates")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{
		"ε = 0.10 GD": {0.25, 0.75}, "ε = 0.10 GD+SOD": {1, 1},
		"ε = 0.05 GD": {0, 0.5}, "ε = 0.05 GD+SOD": {0.5, 1},
	}
	if got := len(option(t, c)["series"].([]any)); got != len(want) {
		t.Fatalf("%d series, want %d", got, len(want))
	}
	for name, w := range want {
		if got := series(t, c, name); !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	res.Cells = res.Cells[:3]
	if _, err := SuccessVsNChart(res, "rates"); err == nil || !strings.Contains(err.Error(), "n = 80, ε = 0.05") {
		t.Errorf("missing cell: error %v", err)
	}
	if _, err := SuccessVsNChart(&experiments.StudyResult{}, "x"); err == nil {
		t.Error("empty study accepted")
	}
}
