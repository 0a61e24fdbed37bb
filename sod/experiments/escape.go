package experiments

import (
	"math"

	"sodworkbench.org/workbench/sod"
)

// EscapeSummary is the plain-data record of one escape round of a
// sod.RunEscape run: the accepted candidate (or the best one when none was
// accepted), h before and after, and whether it was a descent.
type EscapeSummary struct {
	Round    int     `json:"round"`
	Iter     int     `json:"iter"` // global GD iteration of the stalled point
	Label    string  `json:"label"`
	HHat     float64 `json:"h_hat"`   // h(X̂)
	HCheck   float64 `json:"h_check"` // h(X̌); +Inf is reported as −1
	Descent  bool    `json:"descent"` // h(X̌) < h(X̂)
	Ascent   bool    `json:"ascent"`  // used although it raises h (AllowAscent)
	Accepted bool    `json:"accepted"`
	T        int64   `json:"t,omitempty"`
	L        int     `json:"l,omitempty"`
	Kind     string  `json:"kind,omitempty"`
	// Error is the escape variant's failure in this round (sod.EscapeRecord.Err),
	// empty when it proposed candidates.
	Error string `json:"error,omitempty"`
}

func summarizeEscapes(recs []sod.EscapeRecord) []EscapeSummary {
	out := make([]EscapeSummary, 0, len(recs))
	for _, r := range recs {
		s := EscapeSummary{Round: r.Round, Iter: r.Iter, HHat: r.HFrom, Ascent: r.Ascent, HCheck: -1}
		if r.Err != nil {
			s.Error = r.Err.Error()
		}
		k := r.Accepted
		if k < 0 {
			for i, c := range r.Candidates {
				if k < 0 || c.HProbe < r.Candidates[k].HProbe {
					k = i
				}
			}
		}
		if k >= 0 {
			c := r.Candidates[k]
			s.Label, s.Descent, s.Accepted = c.Label, c.Descent, c.Accepted
			if !math.IsInf(c.H, 0) && !math.IsNaN(c.H) {
				s.HCheck = c.H
			}
			if info, ok := c.Data.(*sod.MultiStepInfo); ok {
				s.T, s.L, s.Kind = info.T, info.ClosedForm.L, info.Kind.String()
			}
		}
		out = append(out, s)
	}
	return out
}
