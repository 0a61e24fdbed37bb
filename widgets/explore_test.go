package widgets

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
)

func TestControlPositions(t *testing.T) {
	tests := []struct {
		name  string
		c     Control
		n     int       // positions
		want  []float64 // value at each position
		label string    // label of the last position
	}{
		{"linear", Control{Name: "η", Min: 0, Max: 1, Steps: 4}, 5, []float64{0, 0.25, 0.5, 0.75, 1}, "1"},
		{"log", Control{Name: "ρ", Min: 1e-3, Max: 1e-1, Steps: 2, Log: true}, 3, []float64{1e-3, 1e-2, 1e-1}, "0.1"},
		{"values", Control{Name: "l", Values: []float64{3, 5, 7}}, 3, []float64{3, 5, 7}, "7"},
		{"log integer", Control{Name: "t", Min: 1, Max: 1e6, Steps: 4, Log: true, Integer: true}, 5,
			[]float64{1, 32, 1000, 31623, 1e6}, "1000000"}, // 10^{1.5k}, rounded
		{"linear integer", Control{Name: "n", Min: 0, Max: 10, Steps: 4, Integer: true}, 5, []float64{0, 3, 5, 8, 10}, "10"},
		{"options", Control{Name: "case", Options: []string{"basic", "PMC"}}, 2, []float64{0, 1}, "PMC"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.c.validate(); err != nil {
				t.Fatal(err)
			}
			if got := tc.c.positions(); got != tc.n {
				t.Fatalf("positions() = %d, want %d", got, tc.n)
			}
			for k, w := range tc.want {
				if got := tc.c.value(k); math.Abs(got-w) > 1e-12*math.Max(1, math.Abs(w)) {
					t.Errorf("value(%d) = %g, want %g", k, got, w)
				}
				if len(tc.c.Options) == 0 {
					if got := tc.c.position(w); got != k {
						t.Errorf("position(%g) = %d, want %d", w, got, k)
					}
				}
			}
			if got := tc.c.format(tc.n - 1); got != tc.label {
				t.Errorf("format(last) = %q, want %q", got, tc.label)
			}
		})
	}
}

func TestExploreErrors(t *testing.T) {
	ok := func(Values) (Chart, error) { return charts.NewLine(), nil }
	tests := []struct {
		name     string
		controls []Control
		draw     func(Values) (Chart, error)
		want     string
	}{
		{"no name", []Control{{Min: 0, Max: 1, Steps: 1}}, ok, "no name"},
		{"no steps", []Control{{Name: "t", Min: 0, Max: 1}}, ok, "Steps ≥ 1"},
		{"empty range", []Control{{Name: "t", Min: 1, Max: 1, Steps: 3}}, ok, "Min < Max"},
		{"log from zero", []Control{{Name: "ρ", Min: 0, Max: 1, Steps: 3, Log: true}}, ok, "Min > 0"},
		{"NaN value", []Control{{Name: "l", Values: []float64{3, math.NaN()}}}, ok, "non-finite"},
		{"duplicate", []Control{{Name: "l", Values: []float64{3}}, {Name: "l", Values: []float64{5}}}, ok, "two controls"},
		{"draw fails", []Control{{Name: "l", Values: []float64{3}}}, func(Values) (Chart, error) { return nil, errors.New("boom") }, "boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Explore(context.Background(), tc.controls, tc.draw)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want one containing %q", err, tc.want)
			}
		})
	}
}

// Outside a notebook Explore draws once, with the initial values snapped to
// the controls' positions.
func TestExploreInitialValues(t *testing.T) {
	var got Values
	err := Explore(context.Background(), []Control{
		{Name: "l", Values: []float64{3, 5, 7}, Initial: 6.2},
		{Name: "η", Min: 0, Max: 1, Steps: 10, Initial: 0.33},
		{Name: "case", Options: []string{"basic", "PMC", "real"}, Initial: 2},
	}, func(v Values) (Chart, error) {
		got = v
		return Curves{Title: "t", X: []float64{1, 2}, Series: []Series{{"a", []float64{1, 2}}}}.Chart()
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Values{"l": 7, "η": 0.3, "case": 2}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-12 {
			t.Errorf("%s = %g, want %g", k, got[k], w)
		}
	}
}

func TestProgressHTML(t *testing.T) {
	if _, err := NewProgressBar("x", 0); err == nil {
		t.Fatal("NewProgressBar with total 0: no error")
	}
	p, err := NewProgressBar("Monte Carlo", 200)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		done    int
		elapsed time.Duration
		want    []string
	}{
		{0, 0, []string{"0/200 (0%)", "width:0.0%"}},
		{50, 10 * time.Second, []string{"50/200 (25%)", "about 30s left", "width:25.0%"}},
		{250, 20 * time.Second, []string{"200/200 (100%)", "width:100.0%"}},
	}
	for _, tc := range tests {
		h := p.html(tc.done, "l = 5 <b>", tc.elapsed)
		for _, w := range append(tc.want, "l = 5 &lt;b&gt;") {
			if !strings.Contains(h, w) {
				t.Errorf("html(%d) does not contain %q:\n%s", tc.done, w, h)
			}
		}
	}
	p.Update(10, "")
	p.Done("")
	p.Update(20, "") // ignored after Done
}
