package sod

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
//
// Its zero value is the multi-step escape with l = DefaultLiftingOrder,
// ρ = DefaultSODRho, η = DefaultSODEta and t chosen per stalled point by
// AutoT(1) (as MultiStepAutoT), the paper's selection rule and one sign;
// its settings table (Params) has the keys l, t, rho, eta, force and
// both_signs.
type MultiStepSOD struct {
	// L is the lifting order l, odd and ≥ 3. Zero means DefaultLiftingOrder.
	L int
	// T is the simulated TPGD step count t ≥ 1 (the paper's case studies:
	// 59000 for PMC, 150000 for the real-world case). Zero means "auto":
	// t is chosen at each stalled point by AutoT(1), where the selection
	// rule defines an escape point (the critical point is then analysed
	// as MultiStepAutoT does).
	T int64
	// Rho is the paper's ρ ∈ (0, 1), the weight of the escape direction in
	// w_escape = a + ρ b (eq. w_escape). Zero means DefaultSODRho.
	Rho float64
	// Eta is the TPGD step η ∈ (0, 1) of the closed form. Zero means
	// DefaultSODEta.
	Eta float64
	// Force, if KindBeta or KindGamma, proposes that point whatever t's
	// interval; KindNone (zero) applies the paper's selection rule.
	Force EscapeKind
	// BothSigns also proposes −X̌. The sign of u_n (and of q_r) is
	// arbitrary, and the escape point depends on s = sign(u_n)·sign(q_r)
	// (REPRODUCTION.md C3); with BothSigns the result does not depend on
	// the sign convention. False (zero): X̌ only, as the paper.
	BothSigns bool
}

var (
	_ Escaper      = (*MultiStepSOD)(nil)
	_ Validator    = (*MultiStepSOD)(nil)
	_ Configurable = (*MultiStepSOD)(nil)
)

// DefaultMultiStepSOD returns the paper's multi-step SOD at the lifting
// order l and simulated step count t, with the step sizes of the paper's
// case studies and ablation table, ρ = η = 0.1, and the paper's selection
// rule (Force = KindNone): the zero value with L = l and T = t. Its
// settings are checked by Validate.
func DefaultMultiStepSOD(l int, t int64) *MultiStepSOD {
	return &MultiStepSOD{L: l, T: t}
}

// Params implements Configurable: the keys l, t, rho, eta, force and
// both_signs, documented as the fields.
func (m *MultiStepSOD) Params() []Param {
	if m == nil {
		return nil
	}
	t := int64Param("t", "simulated TPGD step count t ≥ 1 (0 or auto: AutoT(1) per stalled point)", &m.T, 0)
	get, set := t.get, t.set
	t.get = func() string {
		if m.T == 0 {
			return autoTWord
		}
		return get()
	}
	t.set = func(s string) error {
		if strings.EqualFold(s, autoTWord) {
			m.T = 0
			return nil
		}
		return set(s)
	}
	return []Param{
		intParam("l", "lifting order l, odd ≥ 3 (0: DefaultLiftingOrder)", &m.L, DefaultLiftingOrder),
		t,
		floatParam("rho", "ρ ∈ (0, 1), weight of the escape direction (0: DefaultSODRho)", &m.Rho, DefaultSODRho, "ρ"),
		floatParam("eta", "TPGD step η ∈ (0, 1) (0: DefaultSODEta)", &m.Eta, DefaultSODEta, "η"),
		kindParam("force", "beta or gamma: propose that point whatever t's interval (none: the paper's selection rule)", &m.Force),
		boolParam("both_signs", "also propose the mirrored point −X̌ (false: X̌ only)", &m.BothSigns),
	}
}

// autoTWord is the text of MultiStepSOD.T's zero: t chosen per point.
const autoTWord = "auto"

// eff returns m with its zero settings replaced by their defaults (T
// stays 0: auto).
func (m *MultiStepSOD) eff() MultiStepSOD {
	e := *m
	e.L = orDefault(e.L, DefaultLiftingOrder)
	e.Rho = orDefault(e.Rho, DefaultSODRho)
	e.Eta = orDefault(e.Eta, DefaultSODEta)
	return e
}

// Name implements Escaper.
func (m *MultiStepSOD) Name() string {
	if m == nil {
		return "nil MultiStepSOD"
	}
	e := m.eff()
	if e.T == 0 {
		return fmt.Sprintf("multi-step SOD (l=%d, t auto, ρ=%g, η=%g)", e.L, e.Rho, e.Eta)
	}
	return fmt.Sprintf("multi-step SOD (l=%d, t=%d, ρ=%g, η=%g)", e.L, e.T, e.Rho, e.Eta)
}

// Validate checks the settings (zero ones stand for their defaults): l,
// ρ, η (CheckTPGDParams), T ≥ 0 and Force one of KindNone, KindBeta,
// KindGamma.
func (m *MultiStepSOD) Validate() error {
	if m == nil {
		return fmt.Errorf("%w: nil MultiStepSOD", ErrBadParameter)
	}
	e := m.eff()
	if e.T < 0 {
		return errNegativeT(e.T)
	}
	if err := checkKind("MultiStepSOD.Force", e.Force, true); err != nil {
		return err
	}
	return CheckTPGDParams(e.L, e.Rho, e.Eta)
}

// Propose implements Escaper.
func (mp *MultiStepSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	m := mp.eff()
	if m.T == 0 {
		return (&autoTEscaper{l: m.L, rho: m.Rho, eta: m.Eta, rule: AutoT(1), force: m.Force, bothSigns: m.BothSigns}).Propose(ctx, st)
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
