package widgets

import (
	"math"
	"strings"
	"testing"
)

// Curves.Chart reads its axes from the data (the same fields that
// plots.CurvesPlot reads) and turns undrawable values into counted gaps.
func TestCurvesAxesAndGaps(t *testing.T) {
	x := []float64{1, 2, 3}
	tests := []struct {
		name string
		c    Curves
		want []string // substrings of the ECharts option
	}{
		{name: "linear, series in the given order", c: Curves{X: x, XName: "iteration", YName: "h",
			Series: []Series{{"b", []float64{3, 2, 1}}, {"a", []float64{1, 2, 3}}}},
			want: []string{`"type":"value"`, `"name":"iteration"`, `"name":"h"`, `"data":[[1,3],[2,2],[3,1]],"emphasis":{"focus":"series"},"name":"b"`}},
		{name: "log y gaps", c: Curves{X: x, LogY: true, Series: []Series{{"a", []float64{1, 0, math.NaN()}}}},
			want: []string{`"type":"log"`, `[[1,1],[2,null],[3,null]]`, "2 non-finite or non-positive (log axis) value(s) not drawn"}},
		{name: "log x gap", c: Curves{X: []float64{0, 1, 10}, LogX: true, Series: []Series{{"a", []float64{1, 2, 3}}}},
			want: []string{`"type":"log"`, `[[null,null],[1,2],[10,3]]`, "1 non-finite or non-positive (log axis) value(s) not drawn"}},
		{name: "inf gap", c: Curves{X: x, Series: []Series{{"a", []float64{1, math.Inf(1), 2}}}},
			want: []string{`[[1,1],[2,null],[3,2]]`, "1 non-finite value(s) not drawn"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.c.Chart()
			if err != nil {
				t.Fatal(err)
			}
			opt := strings.ReplaceAll(c.RenderSnippet().Option, " ", "")
			for _, w := range tc.want {
				if !strings.Contains(opt, strings.ReplaceAll(w, " ", "")) {
					t.Errorf("option does not contain %s:\n%s", w, opt)
				}
			}
		})
	}
}
