package figures

import (
	"sort"

	"sodworkbench.org/workbench/widgets"
)

// seriesByName lists the curves of m as widgets.Series in the lexical order
// of their names, so that a chart built from a map is the same on every run.
func seriesByName(m map[string][]float64) []widgets.Series {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	s := make([]widgets.Series, len(names))
	for i, n := range names {
		s[i] = widgets.Series{Name: n, Y: m[n]}
	}
	return s
}
