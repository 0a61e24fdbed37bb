package widgets

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestLineChartInput(t *testing.T) {
	x := []float64{1, 2, 3}
	tests := []struct {
		name    string
		x       []float64
		series  map[string][]float64
		opts    []Option
		wantErr string
		// for valid input: substrings of the ECharts option
		want []string
	}{
		{name: "no x", x: nil, series: map[string][]float64{"a": {}}, wantErr: "no x values"},
		{name: "no series", x: x, series: nil, wantErr: "no series"},
		{name: "length mismatch", x: x, series: map[string][]float64{"a": {1, 2}}, wantErr: `"a" has 2 values, x has 3`},
		{name: "empty name", x: x, series: map[string][]float64{" ": {1, 2, 3}}, wantErr: "empty name"},
		{name: "linear", x: x, series: map[string][]float64{"b": {3, 2, 1}, "a": {1, 2, 3}},
			want: []string{`"type":"value"`, `"data":[{"value":[1,1]},{"value":[2,2]},{"value":[3,3]}]`, `"name":"a"`}},
		{name: "log gaps", x: x, series: map[string][]float64{"a": {1, 0, math.NaN()}}, opts: []Option{LogY()},
			want: []string{`"type":"log"`, `[{"value":[1,1]},{"value":[2,null]},{"value":[3,null]}]`, "2 non-finite or non-positive (log axis) value(s) not drawn"}},
		{name: "inf gap", x: x, series: map[string][]float64{"a": {1, math.Inf(1), 2}},
			want: []string{`[{"value":[1,1]},{"value":[2,null]},{"value":[3,2]}]`, "1 non-finite value(s) not drawn"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := LineChart("t", tc.x, tc.series, tc.opts...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v; want one containing %q", err, tc.wantErr)
				}
				return
			}
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

// The series are drawn in the lexical order of their names, whatever the
// map order.
func ExampleLineChart() {
	iter := []float64{0, 1, 2, 3}
	c, err := LineChart("GD on the basic example", iter, map[string][]float64{
		"h(X)":      {0.5, 0.2, 0.1, 0.05},
		"‖∇h(X)‖_F": {1, 0.5, 0.2, 0.1},
	}, LogY(), AxisNames("iteration", "value"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.MultiSeries {
		fmt.Println(s.Name, s.Type)
	}
	// Display(c) would show it in a GoNB cell.
	// Output:
	// h(X) line
	// ‖∇h(X)‖_F line
}
