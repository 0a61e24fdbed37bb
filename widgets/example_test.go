package widgets_test

import (
	"context"
	"fmt"
	"math"
	"strings"

	"sodworkbench.org/workbench/widgets"
)

// In a GoNB cell, build a chart from plain slices and display it. The chart
// carries ECharts from widgets/assets; no network is needed.
func ExampleDisplay() {
	iter := []float64{0, 1, 2, 3, 4}
	c, err := widgets.Curves{
		Title: "GD then SOD", XName: "iteration", YName: "h(X)", LogY: true,
		X:        iter,
		Series:   []widgets.Series{{Name: "h(X)", Y: []float64{0.5, 0.4, 0.38, 0.1, 0.01}}},
		EscapeAt: []int{2},
	}.Chart()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := widgets.Display(c); err != nil {
		fmt.Println(err) // e.g. the assets are missing, with how to install them
	}
}

// An escape is marked by a vertical line at its iteration and a marker on
// every series.
func ExampleCurves_Chart() {
	c, err := widgets.Curves{
		X:        []float64{0, 10, 20, 30},
		Series:   []widgets.Series{{Name: "h(X)", Y: []float64{1, 0.33, 0.33, 0.01}}, {Name: "‖∇h‖", Y: []float64{2, 1e-6, 1e-6, 1e-3}}},
		EscapeAt: []int{2},
		LogY:     true,
	}.Chart()
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := c.RenderSnippet().Option
	fmt.Println(strings.Contains(opt, `"xAxis":20`), strings.Count(opt, `"symbol":"diamond"`))
	// Output:
	// true 2
}

func ExampleInterval_String() {
	fmt.Println(widgets.Interval{Lo: 26948.72, Hi: 33974.73})
	fmt.Println(widgets.Interval{Lo: 0, Hi: math.Inf(1)})
	fmt.Println(widgets.Interval{Lo: 5, Hi: 5})
	// Output:
	// (26948.72, 33974.73)
	// (0.00, ∞)
	// ∅
}

// Sliders for the classroom: tag the cell "live-only" (widgets.LiveOnlyTag),
// since GoNB widgets need a live browser.
func ExampleExplore() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := widgets.Explore(ctx, []widgets.Control{
		{Name: "l", Values: []float64{3, 5, 7, 9, 11}, Initial: 5},
		{Name: "η", Min: 1e-3, Max: 1, Steps: 30, Log: true, Initial: 0.1},
	}, func(v widgets.Values) (widgets.Chart, error) {
		t := []float64{1, 10, 100, 1000}
		y := make([]float64, len(t))
		for i := range t {
			y[i] = math.Pow(1+v["η"], t[i]/v["l"])
		}
		return widgets.Curves{Title: fmt.Sprintf("l = %g, η = %.3g", v["l"], v["η"]), X: t,
			Series: []widgets.Series{{Name: "growth", Y: y}}, LogX: true, LogY: true}.Chart()
	})
	fmt.Println(err) // outside a notebook: drawn once, nothing shown
	// Output:
	// <nil>
}

func ExampleNewProgressBar() {
	p, err := widgets.NewProgressBar("Monte Carlo", 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 1; i <= 1000; i++ {
		// ... one trial ...
		p.Update(i, "")
	}
	p.Done("1000 trials")
	// Output:
}

// A table is shown with DisplayTable, the one entry point for tables (charts
// have Display, static figures plots.DisplayStatic). Outside a notebook it
// only builds the HTML, so bad input is still reported.
func ExampleDisplayTable() {
	t := widgets.Table{
		Caption: "Ablation (excerpt)",
		Header:  []string{"l", "t"},
		Rows:    [][]widgets.Cell{{{Text: "3"}, {Text: "2.0e6", Paper: "2e6"}}},
	}
	fmt.Println(widgets.DisplayTable(t))
	t.Rows[0] = t.Rows[0][:1]
	fmt.Println(widgets.DisplayTable(t))
	// Output:
	// <nil>
	// widgets: Table "Ablation (excerpt)": row 0 has 1 cells, header has 2
}

// Success counts as grouped bars, each labelled with its count; the same
// value drawn statically is plots.SuccessRatesPlot(s).
func ExampleSuccessRates_Chart() {
	s := widgets.SuccessRates{
		Title: "success rate, ε = 0.15", GroupName: "n",
		Groups: []string{"40", "50"}, Methods: []string{"GD", "GD+SOD"},
		Successes: [][]int{{12, 9}, {50, 49}}, Trials: 50,
	}
	c, err := s.Chart()
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := c.RenderSnippet().Option
	fmt.Println(strings.Contains(opt, `"formatter":"12/50"`), strings.Contains(opt, `"formatter":"49/50"`))
	s.Successes[1][0] = 51
	_, err = s.Chart()
	fmt.Println(err)
	// Output:
	// true true
	// widgets: SuccessRates.Chart: method "GD+SOD", group "40": 51 successes out of 50 trials
}

// Show takes all the results of a figure's builder: the chart and its error. Outside a
// notebook it builds the chart (an error would go to standard error) and shows nothing.
func ExampleShow() {
	c := widgets.Curves{Title: "loss", X: []float64{1, 2, 3}, Series: []widgets.Series{{Name: "GD", Y: []float64{1, 0.1, 0.01}}}, LogY: true}
	widgets.Show(c.Chart())
	widgets.Show(c) // an input alone: its Chart is shown
	fmt.Println("shown")
	// Output: shown
}
