package figures

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

func TestHeldAt(t *testing.T) {
	grid, v := []float64{0, 10, 20}, []float64{1, 0.5, 0.01}
	for _, tc := range []struct {
		x, want []float64
	}{
		{[]float64{0, 5, 10, 15, 20, 40}, []float64{1, 1, 0.5, 0.5, 0.01, 0.01}}, // held between points and after the end
		{[]float64{-1}, []float64{1}},
		{[]float64{9.999, 10}, []float64{1, 0.5}},
	} {
		if got := heldAt(grid, v, tc.x); !slices.Equal(got, tc.want) {
			t.Errorf("heldAt(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

func TestBenchMediansChart(t *testing.T) {
	curve := escapebench.Curve{Grad: []float64{0, 50, 100}, P10: []float64{1, 0.1, 0.01}, P25: []float64{1, 0.2, 0.01}, P50: []float64{1, 0.5, 0.01}, P75: []float64{1, 0.7, 0.5}, P90: []float64{1, 1, 1}}
	ss := []escapebench.Summary{
		{Family: "pmc", Method: "mine", Trials: 4, Curve: curve},
		{Family: "pmc", Method: "gd-alone", Trials: 1, Curve: escapebench.Curve{Grad: []float64{0, 30}, P10: []float64{1, 1}, P25: []float64{1, 1}, P50: []float64{1, 1}, P75: []float64{1, 1}, P90: []float64{1, 1}}},
		{Family: "pmc", Method: "no-trace", Trials: 1},
		{Family: "paper", Method: "mine", Trials: 3, Curve: curve},
	}
	ch, err := BenchMediansChart(ss, "pmc")
	if err != nil {
		t.Fatal(err)
	}
	page, err := widgets.HTML(ch)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mine (4 runs)", "gd-alone (1 runs)"} {
		if !strings.Contains(page, want) {
			t.Errorf("chart lacks the series %q", want)
		}
	}
	if strings.Contains(page, "no-trace") || strings.Contains(page, "3 runs") {
		t.Errorf("chart shows a method without a trace or another family's")
	}
	for _, fam := range []string{"gaussian", ""} {
		if _, err := BenchMediansChart(ss, fam); !errors.Is(err, ErrBadFigure) {
			t.Errorf("family %q: error %v, want ErrBadFigure", fam, err)
		}
	}
}
