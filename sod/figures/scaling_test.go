package figures

import (
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
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
	line := c.(*charts.Line)
	want := map[string][]float64{
		"ε = 0.10 GD": {0.25, 0.75}, "ε = 0.10 GD+SOD": {1, 1},
		"ε = 0.05 GD": {0, 0.5}, "ε = 0.05 GD+SOD": {0.5, 1},
	}
	if len(line.MultiSeries) != len(want) {
		t.Fatalf("%d series, want %d", len(line.MultiSeries), len(want))
	}
	for _, s := range line.MultiSeries {
		w, ok := want[s.Name]
		if !ok {
			t.Errorf("unexpected series %q", s.Name)
			continue
		}
		data := s.Data.([]opts.LineData)
		for i, d := range data {
			xy := d.Value.([]any)
			if xy[1] != w[i] || xy[0] != []float64{40, 80}[i] {
				t.Errorf("%s point %d = %v, want (%v, %v)", s.Name, i, xy, []float64{40, 80}[i], w[i])
			}
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
