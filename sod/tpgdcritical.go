package sod

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// The paper's closed-form TPGD dynamics (tpgd.go) at a point analysed by
// AnalyzeCritical: the closed form built from the point's λ_n, σ_r,
// ‖X̂‖_F and ‖E X̂‖_F, and its β- and γ-type escape points.

// checkCritical refuses a critical point the escape constructions cannot
// use: nil, or one not made by AnalyzeCritical (no X̂, u_n, q_r or E X̂, or
// their shapes disagree).
func checkCritical(what string, cp *CriticalPoint) error {
	if cp == nil {
		return fmt.Errorf("%w: %s: nil CriticalPoint", ErrBadParameter, what)
	}
	if cp.X == nil || cp.Un == nil || cp.Qr == nil || cp.EX == nil {
		return fmt.Errorf("%w: %s: CriticalPoint lacks X̂, u_n, q_r or E X̂ (build it with AnalyzeCritical)", ErrBadParameter, what)
	}
	n, r := cp.X.Dims()
	if er, ec := cp.EX.Dims(); cp.Un.Len() != n || cp.Qr.Len() != r || er != n || ec != r {
		return fmt.Errorf("%w: %s: CriticalPoint X̂ is %d×%d but u_n has length %d, q_r length %d, E X̂ is %d×%d", ErrShape, what, n, r, cp.Un.Len(), cp.Qr.Len(), er, ec)
	}
	return nil
}

// NewTPGDFromCritical returns the paper's closed-form TPGD dynamics at the
// analysed point cp (λ_n, σ_r, ‖X̂‖_F, ‖E X̂‖_F).
func NewTPGDFromCritical(cp *CriticalPoint, l int, rho, eta float64) (*TPGDClosedForm, error) {
	if err := checkCritical("NewTPGDFromCritical", cp); err != nil {
		return nil, err
	}
	return NewTPGDClosedForm(TPGDInputs{LambdaN: cp.LambdaN, SigmaR: cp.SigmaR,
		NormX: mat.Norm(cp.X, 2), NormEX: cp.EXNorm}, l, rho, eta)
}

// EscapePointAt returns the escape point of the closed form at t for the
// analysed point cp (see TPGDClosedForm.EscapePoint).
func (c *TPGDClosedForm) EscapePointAt(cp *CriticalPoint, t int64) (*mat.Dense, EscapeKind, error) {
	if c == nil || !c.built {
		return nil, KindNone, errUnbuilt("TPGDClosedForm", "EscapePointAt", "NewTPGDClosedForm or NewTPGDFromCritical")
	}
	if err := checkCritical("EscapePointAt", cp); err != nil {
		return nil, KindNone, err
	}
	return c.EscapePoint(t, cp.Un, cp.Qr, cp.EX)
}

// forcedEscapePoint returns the β- or γ-type point at t regardless of U_β, U_γ.
func forcedEscapePoint(cf *TPGDClosedForm, cp *CriticalPoint, t int64, kind EscapeKind) (*mat.Dense, error) {
	n, r := cp.X.Dims()
	x := mat.NewDense(n, r, nil)
	switch kind {
	case KindBeta:
		s, err := cf.BetaScale(t)
		if err != nil {
			return nil, err
		}
		x.Outer(s, cp.Un, cp.Qr)
	case KindGamma:
		s, err := cf.GammaScale(t)
		if err != nil {
			return nil, err
		}
		x.Scale(s, cp.EX)
	default:
		return nil, fmt.Errorf("%w: escape kind %v", ErrBadParameter, kind)
	}
	return x, nil
}
