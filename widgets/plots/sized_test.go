package plots

import (
	"math"
	"strings"
	"testing"

	"sodworkbench.org/workbench/widgets"
)

// TestAtSize: a static figure at a size renders as SVG for widgets.Show; a nil figure or a
// size Render refuses is an error, never a panic or an empty picture.
func TestAtSize(t *testing.T) {
	p, err := CurvesPlot(widgets.Curves{Title: "t", X: []float64{1, 2}, Series: []widgets.Series{{Name: "s", Y: []float64{1, 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    Sized
		want string // in the error, "" for success
	}{
		{"ok", AtSize(p, 10*Centimeter, 6*Centimeter), ""},
		{"nil figure", AtSize(nil, 10*Centimeter, 6*Centimeter), "nil figure"},
		{"zero value", Sized{}, "nil figure"},
		{"NaN width", AtSize(p, Length(math.NaN()), 6*Centimeter), "want each in"},
		{"negative height", AtSize(p, 10*Centimeter, -1), "want each in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg, err := tc.s.SVG()
			switch {
			case tc.want == "" && (err != nil || !strings.Contains(svg, "<svg")):
				t.Errorf("SVG() = %.80q, %v; want an SVG", svg, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("SVG() error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
