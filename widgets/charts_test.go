package widgets

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// optionJSON renders a chart and returns its ECharts option decoded as
// JSON (the embedded JavaScript functions are replaced by null first).
func optionJSON(t *testing.T, c Chart) map[string]any {
	t.Helper()
	o := c.RenderSnippet().Option
	o = strings.TrimSuffix(strings.TrimSpace(o), ";")
	// Embedded functions are not JSON: blank them out.
	for {
		i := strings.Index(o, "function (")
		if i < 0 {
			break
		}
		depth, j := 0, i
		for ; j < len(o); j++ {
			if o[j] == '{' {
				depth++
			} else if o[j] == '}' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		o = o[:i] + "null" + o[j+1:]
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(o), &m); err != nil {
		t.Fatalf("option is not JSON: %v\n%.400s", err, o)
	}
	return m
}

func seriesByType(m map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, s := range m["series"].([]any) {
		if sm := s.(map[string]any); sm["type"] == typ {
			out = append(out, sm)
		}
	}
	return out
}

func TestChartInputErrors(t *testing.T) {
	x := []float64{1, 2, 3}
	nan := math.NaN()
	okGrid := Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{1, 2}, {3, 4}}}
	tests := []struct {
		name string
		f    func() error
		want string
	}{
		{"curves: escape index", func() error {
			_, err := Curves{X: x, Series: []Series{{"a", x}}, EscapeAt: []int{3}}.Chart()
			return err
		}, "escape index 3 outside [0, 3)"},
		{"curves: short series", func() error {
			_, err := Curves{X: x, Series: []Series{{"a", x[:2]}}}.Chart()
			return err
		}, `series "a" has 2 values, want 3`},
		{"landscape: decreasing grid", func() error {
			_, err := Landscape{Grid: Grid{X: []float64{1, 0}, Y: []float64{0, 1}, Z: okGrid.Z}}.Chart()
			return err
		}, "strictly increasing"},
		{"landscape: infinite grid", func() error {
			_, err := Landscape{Grid: Grid{X: []float64{0, math.Inf(1)}, Y: []float64{0, 1}, Z: okGrid.Z}}.Chart()
			return err
		}, "finite and strictly increasing"},
		{"landscape: ragged Z", func() error {
			_, err := Landscape{Grid: Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{1, 2}, {3}}}}.Chart()
			return err
		}, "row 1 has 1 values"},
		{"landscape: nothing drawable", func() error {
			_, err := Landscape{LogZ: true, Grid: Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{0, -1}, {nan, 0}}}}.Chart()
			return err
		}, "no cell has a drawable value"},
		{"landscape: path lengths", func() error {
			_, err := Landscape{Grid: okGrid, Paths: []Path{{"p", []float64{0}, []float64{0, 1}}}}.Chart()
			return err
		}, `path "p" has 1 x and 2 y values`},
		{"3-D: nothing", func() error { _, err := Trajectory3D{}.Chart(); return err }, "nothing to draw"},
		{"3-D: ragged path", func() error {
			_, err := Trajectory3D{Paths: []Path3D{{"p", x, x, x[:1]}}}.Chart()
			return err
		}, "has 3, 3, 1 coordinates"},
		{"lifted: exact length", func() error {
			_, err := LiftedObjective{T: x, ClosedForm: x, Exact: x[:1]}.Chart()
			return err
		}, "Exact has 1 values, want 3"},
		{"terms: length", func() error {
			_, err := TermNorms{T: x, ClosedForm: Terms{A: x, B: x, C: x[:2]}}.Chart()
			return err
		}, "closed form ‖γ̃ c‖ (c-term) has 2 values"},
		{"windows: negative start", func() error {
			_, err := EscapeWindows{Rows: []WindowRow{{"l = 3", Interval{-1, 5}, Interval{}}}}.Chart()
			return err
		}, "starting at t = -1 < 0"},
		{"windows: no rows", func() error { _, err := EscapeWindows{}.Chart(); return err }, "no rows"},
		{"zones: radii", func() error { _, err := EFSZones{R1: 2, R2: 2}.Chart(); return err }, "0 < r₁ < r₂"},
		{"probability: lengths", func() error {
			_, err := ProbabilityCurve{X: x, Bound: x, MonteCarlo: x[:2]}.Chart()
			return err
		}, "MonteCarlo has 2 values"},
		{"success: too many", func() error {
			_, err := SuccessRates{Groups: []string{"40"}, Methods: []string{"GD"}, Successes: [][]int{{51}}, Trials: 50}.Chart()
			return err
		}, "51 successes out of 50 trials"},
		{"success: no trials", func() error {
			_, err := SuccessRates{Groups: []string{"40"}, Methods: []string{"GD"}, Successes: [][]int{{1}}}.Chart()
			return err
		}, "Trials = 0"},
		{"bundle: empty group", func() error {
			_, err := Bundle{X: x, Groups: []RunGroup{{Name: "GD"}}}.Chart()
			return err
		}, `group "GD" has no runs`},
		{"table: ragged", func() error {
			_, err := Table{Header: []string{"a", "b"}, Rows: [][]Cell{{{Text: "1"}}}}.HTML()
			return err
		}, "row 0 has 1 cells, header has 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want one containing %q", err, tc.want)
			}
		})
	}
}

func TestCellEdges(t *testing.T) {
	got := cellEdges([]float64{0, 1, 3})
	want := []float64{-0.5, 0.5, 2, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cellEdges = %v, want %v", got, want)
		}
	}
}

// The landscape's cells are coloured by log₁₀ z, cover the grid without
// gaps, and leave out (and count) the cells that cannot be coloured.
func TestLandscapeCells(t *testing.T) {
	l := Landscape{Title: "t", LogZ: true, Grid: Grid{X: []float64{0, 1}, Y: []float64{0, 2},
		Z: [][]float64{{1, 100}, {0, 10}}}}
	m := optionJSON(t, must(l.Chart()))
	cells := seriesByType(m, "custom")[0]["data"].([]any)
	want := [][]float64{{-0.5, 0.5, -1, 1, 0}, {0.5, 1.5, -1, 1, 2}, {0.5, 1.5, 1, 3, 1}}
	if len(cells) != len(want) {
		t.Fatalf("%d cells, want %d (the z = 0 cell left out)", len(cells), len(want))
	}
	for i, c := range cells {
		for j, v := range c.([]any) {
			if math.Abs(v.(float64)-want[i][j]) > 1e-12 {
				t.Errorf("cell %d = %v, want %v", i, c, want[i])
				break
			}
		}
	}
	if sub := m["title"].(map[string]any)["subtext"]; !strings.Contains(fmt.Sprint(sub), "1 non-finite") {
		t.Errorf("subtitle %q does not count the undrawable cell", sub)
	}
}

// Success rates are drawn in percent of the trials, labelled with counts.
func TestSuccessRatesValues(t *testing.T) {
	m := optionJSON(t, must(SuccessRates{Groups: []string{"40", "50"}, Methods: []string{"GD", "GD + SOD"},
		Successes: [][]int{{37, 0}, {50, 49}}, Trials: 50}.Chart()))
	bars := seriesByType(m, "bar")
	want := [][]float64{{74, 0}, {100, 98}}
	for k, b := range bars {
		for g, d := range b["data"].([]any) {
			v := d.(map[string]any)["value"].(float64)
			if v != want[k][g] {
				t.Errorf("method %d group %d: %g%%, want %g%%", k, g, v, want[k][g])
			}
		}
	}
}

// The escape windows are clipped to the axis: a window from 0 starts at the
// left edge, an unbounded one ends at the right edge with the "open" flag,
// and an empty one is named in the row label.
func TestEscapeWindowsData(t *testing.T) {
	m := optionJSON(t, must(EscapeWindows{Rows: []WindowRow{
		{"l = 3", Interval{math.NaN(), math.NaN()}, Interval{2000, math.Inf(1)}},
		{"l = 7", Interval{0, 1e6}, Interval{1e6, math.Inf(1)}},
	}, Marks: []float64{1000, 2e6}}.Chart()))
	x := m["xAxis"].([]any)[0].(map[string]any)
	if x["min"] != 1000.0 || x["max"] != 1e8 {
		t.Errorf("t axis [%v, %v], want [1000, 1e8]", x["min"], x["max"])
	}
	labels := m["yAxis"].([]any)[0].(map[string]any)["data"].([]any)
	if labels[0] != "l = 3 (U_β = ∅)" || labels[1] != "l = 7" {
		t.Errorf("row labels %v", labels)
	}
	cs := seriesByType(m, "custom")
	beta, gamma := cs[0]["data"].([]any), cs[1]["data"].([]any)
	if len(beta) != 1 || len(gamma) != 2 {
		t.Fatalf("%d β and %d γ bars, want 1 and 2", len(beta), len(gamma))
	}
	if b := beta[0].([]any); b[0] != 1000.0 || b[1] != 1e6 || b[4] != 0.0 || b[5] != "(0.00, 1000000.00)" {
		t.Errorf("U_β bar %v", b)
	}
	if g := gamma[0].([]any); g[0] != 2000.0 || g[1] != 1e8 || g[4] != 1.0 || g[5] != "(2000.00, ∞)" {
		t.Errorf("U_γ bar %v", g)
	}
}

func TestIntervalString(t *testing.T) {
	tests := []struct {
		iv   Interval
		want string
	}{
		{Interval{26948.72, 33974.73}, "(26948.72, 33974.73)"},
		{Interval{0, math.Inf(1)}, "(0.00, ∞)"},
		{Interval{5, 5}, "∅"},
		{Interval{math.NaN(), 1}, "∅"},
	}
	for _, tc := range tests {
		if got := tc.iv.String(); got != tc.want {
			t.Errorf("%v.String() = %q, want %q", tc.iv, got, tc.want)
		}
	}
}

func TestTableEscapes(t *testing.T) {
	h, err := Table{Caption: "<script>", Header: []string{"a&b"}, Rows: [][]Cell{{{Text: `"x"<y>`}}}}.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, "<script>") || !strings.Contains(h, "a&amp;b") || !strings.Contains(h, "&lt;y&gt;") {
		t.Errorf("table HTML is not escaped: %s", h)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestCompactNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{1000, "1000"}, {5000, "5000"}, {33500, "3.35e4"}, {1e5, "1e5"}, {2e6, "2e6"}, {0.5, "0.5"}, {1.5e-5, "1.5e-5"}} {
		if got := compactNum(tc.v); got != tc.want {
			t.Errorf("compactNum(%g) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// The bundle's success threshold is always inside the y range, with a
// margin, and so are the runs: ECharts does not widen an axis for a
// markLine, so a threshold below every run used to fall outside the chart
// (panel (c) of numerical_study).
func TestBundleThresholdVisible(t *testing.T) {
	tests := []struct {
		name      string
		runs      [][]float64
		threshold float64
		logY      bool
	}{
		{"log, runs far above the threshold", [][]float64{{1.2, 1.1, 1.05}, {1.3, 1.0, 0.9}}, 0.02, true},
		{"log, runs cross the threshold", [][]float64{{1.2, 0.1, 1e-7}, {1.3, 1.0, 0.9}}, 0.02, true},
		{"log, runs far below the threshold", [][]float64{{1e-9, 1e-10, 1e-12}}, 0.02, true},
		{"log, threshold a power of ten", [][]float64{{0.5, 0.4, 0.3}}, 0.01, true},
		{"linear, runs far above", [][]float64{{3.1, 3.2, 3.05}}, 0.02, false},
		{"linear, runs below", [][]float64{{-1, -0.5, -0.7}}, 0.5, false},
		{"linear, one constant run at the threshold", [][]float64{{0.02, 0.02, 0.02}}, 0.02, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := optionJSON(t, must(Bundle{Title: "b", X: []float64{0, 1, 2}, LogY: tc.logY,
				Groups: []RunGroup{{Name: "GD", Runs: tc.runs}}, Threshold: tc.threshold}.Chart()))
			y := m["yAxis"].([]any)[0].(map[string]any)
			lo, ok1 := y["min"].(float64)
			hi, ok2 := y["max"].(float64)
			if !ok1 || !ok2 {
				t.Fatalf("y axis has no fixed range: min %v, max %v", y["min"], y["max"])
			}
			dlo, dhi, _ := finiteRange(tc.logY, tc.runs...)
			if lo > dlo || hi < dhi {
				t.Errorf("y range [%g, %g] cuts the runs [%g, %g]", lo, hi, dlo, dhi)
			}
			// The threshold is strictly inside, at least a factor 2 (log) or 5 % of the range (linear) from the ends.
			if tc.logY {
				if !(tc.threshold/lo >= 2-1e-12 && hi/tc.threshold >= 2-1e-12) {
					t.Errorf("threshold %g too close to the log range [%g, %g]", tc.threshold, lo, hi)
				}
				if r := math.Log10(lo); r != math.Round(r) {
					t.Errorf("log axis starts at %g, not a power of ten", lo)
				}
			} else if m := (hi - lo) / 20; !(tc.threshold-lo >= m*(1-1e-9) && hi-tc.threshold >= m*(1-1e-9)) {
				t.Errorf("threshold %g too close to the range [%g, %g]", tc.threshold, lo, hi)
			}
			if s := fmt.Sprint(lo, hi); strings.Contains(s, "0000000") || strings.Contains(s, "9999999") {
				t.Errorf("axis ends %s are not round", s)
			}
			line := m["series"].([]any)[0].(map[string]any)["markLine"].(map[string]any)["data"].([]any)[0].(map[string]any)
			if line["yAxis"] != tc.threshold {
				t.Errorf("threshold line at %v, want %g", line["yAxis"], tc.threshold)
			}
		})
	}
}

// logLabel writes the labels logLabelJS writes in the browser.
func TestLogLabel(t *testing.T) {
	for e, want := range map[int]string{-12: "1e-12", -4: "1e-4", -3: "0.001", 0: "1", 4: "10000", 5: "1e5", 100: "1e100"} {
		if got := logLabel(e); got != want {
			t.Errorf("logLabel(%d) = %q, want %q", e, got, want)
		}
	}
}

// The term-norm chart's y-axis name stands clear of its longest tick label
// (it overlapped "0.001" and "1e-12" at the fixed gap of 45 px).
func TestTermNormsNameGap(t *testing.T) {
	tests := []struct {
		name    string
		lo, hi  float64
		longest string // longest label on the axis
	}{
		{"0.001 to 1", 0.002, 0.9, "0.001"},
		{"1e-12 to 1", 3e-12, 0.5, "1e-12"},
		{"1e-100 to 1e100", 2e-100, 1e99, "1e-100"},
		{"1 to 10", 2, 3, "10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y := []float64{tc.lo, tc.hi}
			terms := Terms{A: y, B: y, C: y}
			m := optionJSON(t, must(TermNorms{T: []float64{1, 10}, ClosedForm: terms, Exact: &terms}.Chart()))
			for k, a := range m["yAxis"].([]any) {
				ax := a.(map[string]any)
				lo, hi := ax["min"].(float64), ax["max"].(float64)
				if !(lo <= tc.lo && hi >= tc.hi) || lo <= 0 {
					t.Errorf("panel %d: y range [%g, %g] does not hold [%g, %g]", k, lo, hi, tc.lo, tc.hi)
				}
				// 12 px sans-serif digits are at most 7 px wide; 8 px label margin, and 6 px for half the name.
				need := 8 + 7*len(tc.longest) + 6
				if gap := ax["nameGap"].(float64); gap < float64(need) {
					t.Errorf("panel %d: nameGap %g px < %d px needed beside %q", k, gap, need, tc.longest)
				}
			}
		})
	}
}

// The ends of the term-norm chart's log y axis are labelled only when they
// do not crowd one of ECharts' own ticks (the PMC panel of notebook 06, from
// 1e-300 to 1000, printed "1000" over "1").
func TestTermNormsEdgeLabels(t *testing.T) {
	tests := []struct {
		name             string
		lo, hi           float64
		showMin, showMax bool
	}{
		{"six decades: a tick every decade", 2e-6, 0.5, true, true},
		{"1e-283 to 1000: ticks every 100 decades", 3e-283, 500, false, false},
		{"1e-40 to 1: ticks every 10 decades, ends on them", 2e-40, 0.5, true, true},
		{"1e-45 to 1: ticks every 10 decades", 2e-45, 0.5, true, true}, // −45 is half an interval from −40 and −50
		{"1e-41 to 1e2", 2e-41, 50, false, false},
		{"a subnormal term: clipped at 1e-300", 5e-324, 500, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y := []float64{tc.lo, tc.hi}
			m := optionJSON(t, must(TermNorms{T: []float64{1, 10}, ClosedForm: Terms{A: y, B: y, C: y}}.Chart()))
			ax := m["yAxis"].([]any)[0].(map[string]any)
			if lo := ax["min"].(float64); !(lo > 0) {
				t.Fatalf("log axis starts at %g", lo)
			}
			lab := ax["axisLabel"].(map[string]any)
			if lab["showMinLabel"] != tc.showMin || lab["showMaxLabel"] != tc.showMax {
				t.Errorf("axis [%g, %g]: showMinLabel %v, showMaxLabel %v, want %v, %v", ax["min"], ax["max"],
					lab["showMinLabel"], lab["showMaxLabel"], tc.showMin, tc.showMax)
			}
		})
	}
}

// The landscape's axes end at cell edges (−1.515 for a grid from −1.5):
// their end labels are hidden when they would print a non-round number next
// to one of ECharts' round ticks, and kept when the edge is itself round.
func TestLandscapeEdgeLabels(t *testing.T) {
	tests := []struct {
		name             string
		x0, x1           float64 // grid from x0 to x1 in 100 points
		showMin, showMax bool
	}{
		{"−1.5 to 1.5 (edges ±1.5152)", -1.5, 1.5, false, false},
		{"−1.47 to 1.53 (edges −1.4852, 1.5452)", -1.47, 1.53, false, false},
		{"−2.02 to 2.02 (edges ±2.0404: round 2 is 0.04 away)", -2.02, 2.02, false, false},
		{"0.005 to 0.995 (edges 0 and 1)", 0.005, 0.995, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Grid{X: make([]float64, 100), Y: []float64{0, 1}, Z: [][]float64{make([]float64, 100), make([]float64, 100)}}
			for i := range g.X {
				g.X[i] = tc.x0 + (tc.x1-tc.x0)*float64(i)/99
				g.Z[0][i], g.Z[1][i] = 1, 2
			}
			m := optionJSON(t, must(Landscape{Title: "l", Grid: g}.Chart()))
			x := m["xAxis"].([]any)[0].(map[string]any)
			lab := x["axisLabel"].(map[string]any)
			if lab["showMinLabel"] != tc.showMin || lab["showMaxLabel"] != tc.showMax {
				t.Errorf("x axis [%v, %v]: showMinLabel %v, showMaxLabel %v, want %v, %v",
					x["min"], x["max"], lab["showMinLabel"], lab["showMaxLabel"], tc.showMin, tc.showMax)
			}
		})
	}
}

// echartsNice and valueEdgeLabels follow ECharts 5's tick rule.
func TestValueEdgeLabels(t *testing.T) {
	for v, want := range map[float64]float64{0.606: 0.5, 0.14: 0.1, 0.3: 0.3, 0.8: 1, 2.2: 2, 45: 50} {
		if got := echartsNice(v); got != want {
			t.Errorf("echartsNice(%g) = %g, want %g", v, got, want)
		}
	}
	tests := []struct {
		lo, hi           float64
		showMin, showMax bool
	}{
		{0, 1, true, true},
		{-1.515, 1.515, false, false}, // interval 0.5: ±1.5 are 0.015 away
		{-1.25, 1.25, true, true},     // interval 0.5: half an interval from ±1 and ±1.5
		{0.0, 97, true, false},        // interval 20: 97 is 3 from 100
	}
	for _, tc := range tests {
		if a, b := valueEdgeLabels(tc.lo, tc.hi); a != tc.showMin || b != tc.showMax {
			t.Errorf("valueEdgeLabels(%g, %g) = %v, %v, want %v, %v", tc.lo, tc.hi, a, b, tc.showMin, tc.showMax)
		}
	}
}
