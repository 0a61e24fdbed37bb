package escapebench

import (
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
