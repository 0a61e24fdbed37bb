package experiments

import (
	"math"

	"sodworkbench.org/workbench/sod"
)

// TRule chooses the TPGD step count t of the multi-step escape for the
// closed-form dynamics at a given stalled point.
type TRule func(cf *sod.TPGDClosedForm) int64

// FixedT always uses t (the paper's case studies: t = 59000 for PMC,
// 150000 for the real-world case).
func FixedT(t int64) TRule { return func(*sod.TPGDClosedForm) int64 { return t } }

// AutoT picks a t at which the paper's selection rule defines an escape
// point: the midpoint of U_β when U_β is non-empty and bounded, otherwise
// ⌈factor·lo⌉ + 1 with lo the left end of U_γ (or of an unbounded U_β).
// It returns −1 when both intervals are empty. The paper gives no rule for
// choosing t at a new instance, and U_β, U_γ move with λ_n, σ_r and ‖E X̂‖;
// this rule only makes t land where the escape point is defined.
func AutoT(factor float64) TRule {
	return func(cf *sod.TPGDClosedForm) int64 {
		ub, ug := cf.UBeta(), cf.UGamma()
		ok := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && factor*v < 1e18 }
		switch {
		case !ub.Empty && !math.IsInf(ub.Hi, 1) && ub.Hi-ub.Lo > 2:
			return int64(math.Ceil((ub.Lo + ub.Hi) / 2))
		case !ub.Empty && math.IsInf(ub.Hi, 1) && ok(ub.Lo):
			return int64(math.Ceil(factor*ub.Lo)) + 1
		case !ug.Empty && ok(ug.Lo):
			return int64(math.Ceil(factor*ug.Lo)) + 1
		}
		return -1
	}
}

// MultiStepAutoT is the paper's multi-step SOD escape (sod.MultiStepSOD,
// section 5) with t chosen per stalled point by rule. It proposes the same
// candidate sod.MultiStepSOD{L: l, T: rule(·), Rho: rho, Eta: eta} would, or
// none when rule returns t < 0 or the selection rule leaves the point
// undefined.
func MultiStepAutoT(l int, rho, eta float64, rule TRule) sod.Escaper {
	return sod.EscapeFunc("multi-step SOD (auto t)", func(ctx *sod.EscapeContext) ([]sod.Candidate, error) {
		cp, err := ctx.Critical()
		if err != nil {
			return nil, err
		}
		if !(cp.LambdaN < 0) {
			return nil, nil
		}
		cf, err := sod.NewTPGDFromCritical(cp, l, rho, eta)
		if err != nil {
			return nil, err
		}
		t := rule(cf)
		if t < 0 {
			return nil, nil
		}
		return (&sod.MultiStepSOD{L: l, T: t, Rho: rho, Eta: eta}).Propose(ctx)
	})
}

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
}

func summarizeEscapes(recs []sod.EscapeRecord) []EscapeSummary {
	out := make([]EscapeSummary, 0, len(recs))
	for _, r := range recs {
		s := EscapeSummary{Round: r.Round, Iter: r.Iter, HHat: r.HFrom, Ascent: r.Ascent, HCheck: -1}
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
