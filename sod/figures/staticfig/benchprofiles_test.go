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
