// Package chartkit holds what the interactive charts of package widgets and
// the static figures of package widgets/plots share: the colour cycles, the
// test of what an axis can draw and the labels both print, so that each is
// defined once.
package chartkit

import (
	"fmt"
	"math"
	"strconv"
)

// Palette is ECharts' default colour cycle (also used by the static plots).
var Palette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de",
	"#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

// Viridis is a perceptually uniform colour ramp for landscapes.
var Viridis = []string{"#440154", "#482878", "#3e4989", "#31688e", "#26828e",
	"#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"}

// PathColors are high-contrast colours for trajectories drawn over the
// viridis landscape.
var PathColors = []string{"#ff4d4f", "#00e5ff", "#ff9f1c", "#f72585", "#adff2f", "#ffffff"}

// Drawable reports whether v can be drawn on an axis (finite, and positive
// on a log axis).
func Drawable(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

// FiniteRange returns the smallest and largest drawable values of the
// slices, and ok=false if there is none.
func FiniteRange(log bool, vs ...[]float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		for _, x := range v {
			if Drawable(x, log) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
				ok = true
			}
		}
	}
	return lo, hi, ok
}

// CheckLen reports an error when a slice does not have n elements.
func CheckLen(chart, what string, got, n int) error {
	if got != n {
		return fmt.Errorf("widgets: %s: %s has %d values, want %d", chart, what, got, n)
	}
	return nil
}

// LogLabel is the label of the power of ten 10^e on a log axis: 0.001 …
// 10000 as they are, other powers as 1e-9, 1e7 (the charts' JavaScript
// formatter does the same).
func LogLabel(e int) string {
	if e >= -3 && e < 5 {
		return strconv.FormatFloat(math.Pow10(e), 'g', 6, 64)
	}
	return fmt.Sprintf("1e%d", e)
}

// LSuffix is the legend suffix naming the lifting order l (none for l ≤ 0).
func LSuffix(l int) string {
	if l <= 0 {
		return ""
	}
	return fmt.Sprintf(" (l = %d)", l)
}

// BundleName is the legend name of a group of runs.
func BundleName(name string, runs int) string { return fmt.Sprintf("%s (%d runs)", name, runs) }

// Distinct are 16 colours that stay apart from one another on screen and
// in print (Tableau 10 and six more), for charts that compare many
// methods (SeriesStyle).
var Distinct = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
	"#9c755f", "#79706e", "#1f3a93", "#8cd17d", "#d37295", "#499894", "#b6992d", "#000000"}

// Dashes and Markers are the line dashes and point markers SeriesStyle
// cycles through (ECharts' names).
var (
	Dashes  = []string{"solid", "dashed", "dotted"}
	Markers = []string{"circle", "rect", "triangle", "diamond", "pin", "arrow", "roundRect", "emptyCircle"}
)

// Style is how one series is drawn.
type Style struct{ Color, Dash, Marker string }

// SeriesStyle returns the style of the k-th series (k ≥ 0) of a chart of
// many methods: its colour is Distinct[k mod 16] and its dash and marker
// cycle, so that the first 16 series have distinct colours and the first
// 48 distinct (colour, dash) pairs.
func SeriesStyle(k int) Style {
	k = max(k, 0)
	return Style{Color: Distinct[k%len(Distinct)], Dash: Dashes[(k+k/len(Distinct))%len(Dashes)], Marker: Markers[k%len(Markers)]}
}
