package figures

import (
	"fmt"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/widgets"
)

// BenchRoundsTable says what happened in the escape rounds of one family
// (escapebench.SummarizeRounds): per method its runs and rounds, the
// rounds that accepted a candidate, ended with none or failed, the
// accepted candidates by kind and line (SOD's β and γ points of section 5,
// + on the line through X̂, − reflected; "no kind": a label only), and the
// t of the accepted SOD points (median and range, and how many lie in the
// paper's interval of their kind). An external method's candidates carry
// a label only: its kinds are "not reported by the method".
func BenchRoundsTable(rs []escapebench.RoundStats, family string) (widgets.Table, error) {
	tab := widgets.Table{Caption: "Family " + family + ": escape rounds (the accepted candidate of each round)",
		Header: []string{"method", "runs", "rounds", "accepted / none / failed", "accepted by kind and line", "t of accepted SOD points: median [min, max]", "t in the paper's interval"}}
	for _, s := range rs {
		if s.Family != family {
			continue
		}
		var kinds []string
		for _, k := range s.Kinds {
			kinds = append(kinds, fmt.Sprintf("%s %d", k.Kind, k.N))
		}
		if s.Unkinded > 0 {
			word := "no kind"
			if s.External {
				word = "not reported by the method"
			}
			kinds = append(kinds, fmt.Sprintf("%s %d", word, s.Unkinded))
		}
		kind := strings.Join(kinds, ", ")
		if kind == "" {
			kind = "—"
		}
		tr, in := "—", "—"
		if s.T.N > 0 {
			tr = fmt.Sprintf("%.4g [%d, %d]", s.T.Median, s.T.Min, s.T.Max)
			in = fmt.Sprintf("%d of %d", s.InInterval, s.T.N)
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: s.Method}, {Text: fmt.Sprint(s.Runs)}, {Text: fmt.Sprint(s.Rounds)},
			{Text: fmt.Sprintf("%d / %d / %d", s.Accepted, s.None, s.Failed)}, {Text: kind}, {Text: tr}, {Text: in}})
	}
	if len(tab.Rows) == 0 {
		return widgets.Table{}, fmt.Errorf("%w: BenchRoundsTable: no runs of family %q", ErrBadFigure, family)
	}
	tab.Notes = []string{"A round accepts the best candidate its method proposed (by h, or by h after a GD probe); none: the method proposed no candidate that lowered it, and the run ended; failed: the method returned an error. Kinds and t are those a SOD candidate records (sod.MultiStepInfo); another method's candidates carry a label only, and an external method's kind is not reported by the protocol."}
	return tab, nil
}
