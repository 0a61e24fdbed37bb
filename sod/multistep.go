package sod

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// MultiStepInfo is the Candidate.Data of the multi-step variants.
type MultiStepInfo struct {
	ClosedForm *TPGDClosedForm
	Critical   *CriticalPoint
	T          int64
	Kind       EscapeKind
	// InInterval reports whether T lies in U_β (β-type) or U_γ (γ-type),
	// i.e. whether the paper's selection rule would pick this point.
	InInterval bool
}

// MultiStepSOD is the paper's multi-step SOD escape at a given (l, t)
// (section 5, Theorem "Multi-step SOD Escape, formal"): the β-type point
// c_β u_n q_rᵀ if t ∈ U_β, else the γ-type point c_γ E X̂ if t ∈ U_γ, else
// no candidate. Force overrides the selection rule.
type MultiStepSOD struct {
	L        int
	T        int64
	Rho, Eta float64
	// Force, if KindBeta or KindGamma, proposes that point whatever t's
	// interval; KindNone applies the paper's selection rule.
	Force EscapeKind
	// BothSigns also proposes −X̌. The sign of u_n (and of q_r) is
	// arbitrary, and the escape point depends on s = sign(u_n)·sign(q_r)
	// (REPRODUCTION.md C3); with BothSigns the result does not depend on
	// the sign convention.
	BothSigns bool
}

var (
	_ Escaper   = (*MultiStepSOD)(nil)
	_ Validator = (*MultiStepSOD)(nil)
)

// DefaultMultiStepSOD returns the paper's multi-step SOD at the lifting
// order l and simulated step count t, with the step sizes of the paper's
// case studies and ablation table, ρ = η = 0.1, and the paper's selection
// rule (Force = KindNone). Its settings are checked by Validate.
func DefaultMultiStepSOD(l int, t int64) *MultiStepSOD {
	return &MultiStepSOD{L: l, T: t, Rho: 0.1, Eta: 0.1}
}

// Name implements Escaper.
func (m *MultiStepSOD) Name() string {
	if m == nil {
		return "nil MultiStepSOD"
	}
	return fmt.Sprintf("multi-step SOD (l=%d, t=%d, ρ=%g, η=%g)", m.L, m.T, m.Rho, m.Eta)
}

// Validate checks the settings: l, ρ, η (CheckTPGDParams), T ≥ 0 and Force
// one of KindNone, KindBeta, KindGamma.
func (m *MultiStepSOD) Validate() error {
	if m == nil {
		return fmt.Errorf("%w: nil MultiStepSOD", ErrBadParameter)
	}
	if m.T < 0 {
		return errNegativeT(m.T)
	}
	if err := checkKind("MultiStepSOD.Force", m.Force, true); err != nil {
		return err
	}
	return CheckTPGDParams(m.L, m.Rho, m.Eta)
}

// Propose implements Escaper.
func (m *MultiStepSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	if !(cp.LambdaN < 0) {
		return nil, nil // no negative curvature: nothing to simulate
	}
	cf, err := NewTPGDFromCritical(cp, m.L, m.Rho, m.Eta)
	if err != nil {
		return nil, err
	}
	kind := cf.Select(m.T)
	in := kind != KindNone
	if m.Force != KindNone {
		in = kind == m.Force
		kind = m.Force
	}
	if kind == KindNone {
		return nil, nil
	}
	x, err := forcedEscapePoint(cf, cp, m.T, kind)
	if errors.Is(err, ErrScaleOverflow) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	info := &MultiStepInfo{ClosedForm: cf, Critical: cp, T: m.T, Kind: kind, InInterval: in}
	out := []Candidate{{X: x, Label: fmt.Sprintf("%v-type l=%d t=%d", kind, m.L, m.T), Data: info}}
	if m.BothSigns {
		var nx mat.Dense
		nx.Scale(-1, x)
		out = append(out, Candidate{X: &nx, Label: fmt.Sprintf("−%v-type l=%d t=%d", kind, m.L, m.T), Data: info})
	}
	return out, nil
}
