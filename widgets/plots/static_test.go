package plots

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/widgets"
)

// Every static figure renders to SVG (well-formed XML with drawn paths) and
// to a PNG that is not blank; both are kept in widgets/testdata/out/static.
func TestStaticGallery(t *testing.T) {
	items, err := StaticGallery(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 10 {
		t.Errorf("StaticGallery has %d figures, want 10", len(items))
	}
	dir := filepath.Join(artefactDir(t), "static")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		t.Run(it.Name, func(t *testing.T) {
			w, h := 16*Centimeter, 10*Centimeter
			if it.Name == "efs-zones" || it.Name == "landscape" {
				w = h
			}
			svg, err := Render(it.Static, w, h, "svg")
			if err != nil {
				t.Fatal(err)
			}
			if err := xml.Unmarshal(svg, new(struct{})); err != nil {
				t.Errorf("SVG is not well-formed XML: %v", err)
			}
			if n := strings.Count(string(svg), "<path"); n < 10 {
				t.Errorf("SVG has only %d paths", n)
			}
			b, err := Render(it.Static, w, h, "png")
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if f, c := ink(img); f < 0.01 || c < 4 {
				t.Errorf("PNG looks blank: %.2f%% inked, %d colours", 100*f, c)
			}
			for ext, data := range map[string][]byte{"svg": svg, "png": b} {
				if err := os.WriteFile(filepath.Join(dir, it.Name+"."+ext), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestStaticErrors(t *testing.T) {
	p, err := CurvesPlot(widgets.Curves{X: []float64{1, 2}, Series: []widgets.Series{{Name: "a", Y: []float64{1, 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		f      func() error
		substr string
	}{
		{"bad format", func() error { _, err := Render(p, Centimeter, Centimeter, "bmp"); return err }, "unsupported format"},
		{"zero size", func() error { _, err := Render(p, 0, Centimeter, "svg"); return err }, "size 0 × 28.346456692913385 pt, want each in (0, 2834.6456692913384] pt"},
		{"nil figure", func() error { _, err := Render(nil, Centimeter, Centimeter, "svg"); return err }, "nil figure"},
		{"all NaN", func() error {
			_, err := CurvesPlot(widgets.Curves{X: []float64{1, 2}, Series: []widgets.Series{{Name: "a", Y: []float64{math.NaN(), math.NaN()}}}})
			return err
		}, "no drawable value"},
		{"non-positive only on log axis", func() error {
			_, err := CurvesPlot(widgets.Curves{X: []float64{1, 2}, LogY: true, Series: []widgets.Series{{Name: "a", Y: []float64{0, -1}}}})
			return err
		}, "no drawable value"},
		{"bad radii", func() error { _, err := EFSZonesPlot(widgets.EFSZones{R1: 3, R2: 2}); return err }, "0 < r₁ < r₂"},
		{"unnamed instance", func() error {
			_, err := EFSZonesPlot(widgets.EFSZones{R1: 1, R2: 2, Instances: []widgets.Radial{{Name: " ", R: 1.5}}})
			return err
		}, "EFSZonesPlot instance has an empty name"},
		{"no windows", func() error { _, err := EscapeWindowsPlot(widgets.EscapeWindows{Title: "w"}); return err }, "no rows"},
		{"window before t = 0", func() error {
			_, err := EscapeWindowsPlot(widgets.EscapeWindows{Rows: []widgets.WindowRow{{Label: "l=3", Beta: widgets.Interval{Lo: -1, Hi: 5}}}})
			return err
		}, "starting at t = -1 < 0"},
		{"unnamed window row", func() error {
			_, err := EscapeWindowsPlot(widgets.EscapeWindows{Rows: []widgets.WindowRow{{Beta: widgets.Interval{Lo: 1, Hi: 5}}}})
			return err
		}, "EscapeWindowsPlot row has an empty name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if err == nil || !strings.Contains(err.Error(), tc.substr) {
				t.Fatalf("err = %v; want one containing %q", err, tc.substr)
			}
		})
	}
}

// Log axes of the static plots are labelled at exact, round powers of ten
// (gonum's LogTicks printed 9.999999999999999e-05), at most maxLogLabels of
// them however many decades the range spans, and always with at least two
// labels inside the range (a range within one decade had none).
func TestLogTicks(t *testing.T) {
	tests := []struct {
		lo, hi     float64
		wantLabels []string // nil: not checked
	}{
		{3e-8, 2, []string{"1e-8", "1e-6", "1e-4", "0.01", "1"}}, // 10 decades: every other one
		{0.05, 300, []string{"0.01", "0.1", "1", "10", "100", "1000"}},
		{1e-300, 1e300, nil},
		{2.459e-4, 5.94e-4, nil}, // the real-world lifted objective of notebook 07 (no power of ten inside)
		{0.02, 0.5, nil},         // one power of ten inside
	}
	for _, tc := range tests {
		ticks := logTicks{}.Ticks(tc.lo, tc.hi)
		var labels []string
		inRange := 0
		for _, tk := range ticks {
			if tk.Label == "" {
				continue
			}
			labels = append(labels, tk.Label)
			if tk.Value >= tc.lo && tk.Value <= tc.hi {
				inRange++
			}
			if strings.Contains(tk.Label, "999") || strings.Contains(tk.Label, "000000") || strings.Contains(tk.Label, "e-0") {
				t.Errorf("[%g, %g]: label %q is not short", tc.lo, tc.hi, tk.Label)
			}
			if tc.wantLabels != nil && tk.Value != math.Pow10(int(math.Round(math.Log10(tk.Value)))) {
				t.Errorf("[%g, %g]: labelled tick at %v is not a power of ten", tc.lo, tc.hi, tk.Value)
			}
		}
		if len(labels) > maxLogLabels+1 {
			t.Errorf("[%g, %g]: %d labels, want at most %d", tc.lo, tc.hi, len(labels), maxLogLabels+1)
		}
		if inRange < 2 {
			t.Errorf("[%g, %g]: %d labels inside the range (%q), want at least 2", tc.lo, tc.hi, inRange, labels)
		}
		if tc.wantLabels != nil && strings.Join(labels, " ") != strings.Join(tc.wantLabels, " ") {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, labels, tc.wantLabels)
		}
	}
}

// Every static figure names the paper's figure it serves, as the
// interactive gallery item of the same name does.
func TestStaticGalleryFigures(t *testing.T) {
	items, err := StaticGallery(1)
	if err != nil {
		t.Fatal(err)
	}
	charts, err := widgets.Gallery(1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, c := range charts {
		want[c.Name] = c.Figure
	}
	for _, it := range items {
		if it.Figure == "" || it.Figure != want[it.Name] {
			t.Errorf("%s: figure %q, the interactive gallery says %q", it.Name, it.Figure, want[it.Name])
		}
	}
}
