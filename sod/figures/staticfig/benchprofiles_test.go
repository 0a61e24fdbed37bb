package staticfig_test

import (
	"bytes"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/figures/staticfig"
	"sodworkbench.org/workbench/widgets/plots"
)

// The benchmark's profiles render as SVG and PDF, with every method in
// the legend and the y axis fixed to [0, 1].
func TestBenchProfileFigures(t *testing.T) {
	a := escapebench.FamilyAnalysis{Family: "pmc", Targets: escapebench.DefaultTargets()}
	for k := range 16 {
		m := "method-" + string(rune('a'+k))
		c := escapebench.Curve2D{Method: m, X: []float64{10 * float64(k+1), 1000}, Y: []float64{0.5, 1}}
		a.ECDF, a.Perf, a.Data = append(a.ECDF, c), append(a.Perf, c), append(a.Data, c)
	}
	ps, err := staticfig.BenchProfileFigures(a)
	if err != nil || len(ps) != 3 {
		t.Fatalf("%d figures, %v", len(ps), err)
	}
	for _, p := range ps {
		if p.Y.Min != 0 || p.Y.Max != 1 {
			t.Errorf("%s: y axis [%v, %v]", p.Title.Text, p.Y.Min, p.Y.Max)
		}
		svg, err := plots.Render(p, 16*plots.Centimeter, 12*plots.Centimeter, "svg")
		if err != nil {
			t.Fatal(err)
		}
		for k := range 16 {
			if m := "method-" + string(rune('a'+k)); !bytes.Contains(svg, []byte(m)) {
				t.Errorf("%s: the SVG's legend lacks %s", p.Title.Text, m)
			}
		}
		if pdf, err := plots.Render(p, 16*plots.Centimeter, 12*plots.Centimeter, "pdf"); err != nil || !strings.HasPrefix(string(pdf), "%PDF") {
			t.Errorf("PDF: %v", err)
		}
	}
}

// The convergence bands of 17 methods: a panel each, four to a row, each
// titled by its method and naming its median and quartiles; bad input is
// an error.
func TestBenchBandFigure(t *testing.T) {
	var ss []escapebench.Summary
	for k := range 17 {
		ss = append(ss, escapebench.Summary{Family: "pmc", Method: "method-" + string(rune('a'+k)), Trials: 3,
			Curve: escapebench.Curve{Grad: []float64{0, 100}, P10: []float64{1, 0.01}, P25: []float64{1, 0.05}, P50: []float64{1, 0.1}, P75: []float64{1, 0.5}, P90: []float64{1, 0.9}}})
	}
	ss = append(ss, escapebench.Summary{Family: "pmc", Method: "no-trace", Trials: 1}, escapebench.Summary{Family: "empty", Method: "x", Trials: 1})
	f, err := staticfig.BenchBandFigure(ss, "pmc", 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Panels) != 5 || len(f.Panels[0]) != 4 || len(f.Panels[4]) != 1 {
		t.Fatalf("panels: %d rows, want 5 of 4, 4, 4, 4, 1", len(f.Panels))
	}
	svg, err := plots.Render(f, 32*plots.Centimeter, 35*plots.Centimeter, "svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"method-a (3 runs)", "method-q (3 runs)", "25 %", "75 %", "median"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if strings.Contains(string(svg), "no-trace") {
		t.Error("the SVG has a panel for a method without a trace")
	}
	for _, c := range []struct {
		fam  string
		cols int
	}{{"empty", 4}, {"absent", 4}, {"pmc", 0}} {
		if _, err := staticfig.BenchBandFigure(ss, c.fam, c.cols); err == nil {
			t.Errorf("family %q, %d columns: no error", c.fam, c.cols)
		}
	}
}
