package figures

import (
	"fmt"
	"sort"

	"sodworkbench.org/workbench/widgets"
)

// Small builders of widgets' values that several figures use.

// num is a table cell holding v written with format.
func num(format string, v float64) widgets.Cell { return widgets.Cell{Text: fmt.Sprintf(format, v)} }

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
