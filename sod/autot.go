package sod

import "math"

// TRule chooses the TPGD step count t of the multi-step escape for the
// closed-form dynamics at a given stalled point.
type TRule func(cf *TPGDClosedForm) int64

// FixedT always uses t (the paper's case studies: t = 59000 for PMC,
// 150000 for the real-world case).
func FixedT(t int64) TRule { return func(*TPGDClosedForm) int64 { return t } }

// AutoT picks a t at which the paper's selection rule defines an escape
// point: the midpoint of U_β when U_β is non-empty and bounded, otherwise
// ⌈factor·lo⌉ + 1 with lo the left end of U_γ (or of an unbounded U_β).
// It returns −1 when both intervals are empty. The paper gives no rule for
// choosing t at a new instance, and U_β, U_γ move with λ_n, σ_r and ‖E X̂‖;
// this rule only makes t land where the escape point is defined.
func AutoT(factor float64) TRule {
	return func(cf *TPGDClosedForm) int64 {
		ub, ug := cf.UBeta(), cf.UGamma()
		ok := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && factor*v < 1e18 }
		switch {
		case !ub.Empty() && !math.IsInf(ub.Hi, 1) && ub.Hi-ub.Lo > 2:
			return int64(math.Ceil((ub.Lo + ub.Hi) / 2))
		case !ub.Empty() && math.IsInf(ub.Hi, 1) && ok(ub.Lo):
			return int64(math.Ceil(factor*ub.Lo)) + 1
		case !ug.Empty() && ok(ug.Lo):
			return int64(math.Ceil(factor*ug.Lo)) + 1
		}
		return -1
	}
}
