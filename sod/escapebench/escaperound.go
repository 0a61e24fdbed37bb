package escapebench

import (
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod"
)

// EscapeRound is what happened in one escape round of a run: how many
// candidates the method proposed and which one the run accepted, with
// what the candidate says of itself. A SOD candidate (its Data a
// *sod.MultiStepInfo: multi-step SOD, the SOD line search) gives its kind
// (β or γ, the paper's two escape points of section 5), its line (+, or
// − for the point reflected through X̂) and its t, and whether t lies in
// the paper's interval of that kind; any candidate gives its label.
type EscapeRound struct {
	Round int `json:"round"`
	// Proposed is the number of candidates; Accepted the index of the one
	// accepted, −1 if none (the run ended there), or −2 if the method
	// failed (TrialResult.Err).
	Proposed int      `json:"proposed"`
	Accepted int      `json:"accepted"`
	HFrom    OptFloat `json:"h_from"` // h at the stalled point
	// H is the value the accepted candidate was judged on: h(X̌), or h
	// after its probe (Probe GD steps).
	H          OptFloat `json:"h,omitempty"`
	Probe      int      `json:"probe,omitempty"`
	Label      string   `json:"label,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Line       string   `json:"line,omitempty"`
	T          int64    `json:"t,omitempty"`
	InInterval bool     `json:"in_interval,omitempty"`
}

// roundOf summarises rec.
func roundOf(rec sod.EscapeRecord) EscapeRound {
	r := EscapeRound{Round: rec.Round, Proposed: len(rec.Candidates), Accepted: rec.Accepted, HFrom: OptFloat(rec.HFrom)}
	if rec.Err != nil {
		r.Accepted = -2
	}
	if rec.Accepted < 0 || rec.Accepted >= len(rec.Candidates) {
		return r
	}
	c := rec.Candidates[rec.Accepted]
	r.H, r.Probe, r.Label = OptFloat(c.HProbe), c.Probe, c.Label
	if info, ok := c.Data.(*sod.MultiStepInfo); ok && info != nil {
		r.Kind, r.T, r.InInterval = info.Kind.String(), info.T, info.InInterval
		r.Line = "+"
		if strings.HasPrefix(c.Label, "−") {
			r.Line = "−"
		}
	}
	return r
}

// RoundStats says what happened in the escape rounds of one family's runs
// of one method (SummarizeRounds): how many rounds accepted a candidate,
// of which kind and line (SOD's β and γ points of section 5, on the +
// line or reflected through X̂, −) and at which t.
type RoundStats struct {
	Family, Method string
	Runs           int
	// Rounds counts the escape rounds; Accepted those that accepted a
	// candidate, None those that ended the run with none accepted, Failed
	// those where the method failed (EscapeRound.Accepted −1 and −2).
	Rounds, Accepted, None, Failed int
	// Kinds counts the accepted candidates by kind and line ("β+",
	// "β−", "γ+", "γ−"), in that order, the kinds seen only;
	// Unkinded counts the accepted candidates that say no kind (a label
	// only: not a SOD point, or a method that does not report it).
	Kinds    []KindCount
	Unkinded int
	// T lists the t of the accepted candidates with a kind, InInterval
	// how many of them lie in the paper's interval of their kind.
	T          TRange
	InInterval int
	// External is true for an external method (ExecCommand): the kind of
	// its candidates is not reported by the protocol, only a label.
	External bool
}

// KindCount is a count of accepted candidates of one kind and line.
type KindCount struct {
	Kind string // "β+", "β−", "γ+" or "γ−"
	N    int    // accepted candidates of the kind
}

// TRange is the distribution of the t of accepted SOD candidates: how
// many, the median and the range (zero when N is 0).
type TRange struct {
	N        int
	Median   float64
	Min, Max int64
}

// roundKinds is the order of RoundStats.Kinds.
var roundKinds = []string{"β+", "β−", "γ+", "γ−"}

// SummarizeRounds summarises the recorded escape rounds
// (TrialResult.Escapes) per (family, method), in order of first
// appearance in rs, as Summarize orders its summaries.
func SummarizeRounds(rs []*TrialResult) ([]RoundStats, error) {
	if err := validateRuns("SummarizeRounds", rs); err != nil {
		return nil, err
	}
	type cell struct{ f, m string }
	var order []cell
	group := map[cell][]*TrialResult{}
	for _, r := range rs {
		c := cell{r.Family, r.Method}
		if _, ok := group[c]; !ok {
			order = append(order, c)
		}
		group[c] = append(group[c], r)
	}
	out := make([]RoundStats, 0, len(order))
	for _, c := range order {
		s := RoundStats{Family: c.f, Method: c.m}
		kinds := map[string]int{}
		var ts []int64
		for _, r := range group[c] {
			s.Runs++
			if _, ok := r.Params[execProtocolParam]; ok {
				s.External = true
			}
			for _, e := range r.Escapes {
				s.Rounds++
				switch {
				case e.Accepted == -2:
					s.Failed++
				case e.Accepted < 0:
					s.None++
				default:
					s.Accepted++
					if e.Kind == "" {
						s.Unkinded++
						continue
					}
					kinds[e.Kind+e.Line]++
					ts = append(ts, e.T)
					if e.InInterval {
						s.InInterval++
					}
				}
			}
		}
		for _, k := range roundKinds {
			if kinds[k] > 0 {
				s.Kinds = append(s.Kinds, KindCount{Kind: k, N: kinds[k]})
			}
		}
		if len(ts) > 0 {
			slices.Sort(ts)
			s.T = TRange{N: len(ts), Min: ts[0], Max: ts[len(ts)-1], Median: medianInt(ts)}
		}
		out = append(out, s)
	}
	return out, nil
}

// medianInt is the median of sorted xs (the mean of the two middle
// values for an even count).
func medianInt(xs []int64) float64 {
	k := len(xs) / 2
	if len(xs)%2 == 1 {
		return float64(xs[k])
	}
	return (float64(xs[k-1]) + float64(xs[k])) / 2
}
