package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
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

// MultiStepAutoT is the paper's multi-step SOD escape (section 5; the
// point MultiStepSOD{L: l, T: t, Rho: rho, Eta: eta} proposes) with t
// chosen per stalled point by rule. It proposes nothing when rule returns
// t < 0, when the selection rule leaves the point undefined, when λ_n ≥ 0 or
// when the point overflows float64.
//
// Workaround for a gonum v0.17.0 bug: mat.EigenSym (LAPACK Dsteqr/Dsterf)
// returns garbage (λ_n ≈ −1e121 for a matrix of norm 0.76) or panics when
// the tridiagonal matrix splits off a block of norm below ≈ 1e-122 (its
// rescaling calls Dlascl on a column with leading dimension n). GD on PMC
// drives the even coordinates of X to ≈ 1e-159, which produces such
// blocks in ∇f(X̂X̂ᵀ). Entries of X̂ below 1e-50·max|X̂| are therefore set to
// zero before the analysis (a change far below float64 resolution of h and
// ∇f), and the analysis is rejected (ErrFactorization) if |λ_n| exceeds
// ‖∇f(X̂X̂ᵀ)‖_F, which no true eigenvalue can.
//
// Its settings are checked by its Validate (l, ρ, η as CheckTPGDParams,
// a non-nil rule), which RunEscape and the configs holding it call
// before any work; l, ρ and η at zero stand for DefaultLiftingOrder,
// DefaultSODRho and DefaultSODEta, as in MultiStepSOD, whose zero T
// runs this escaper with AutoT(1). Its settings table has the keys l, rho
// and eta (the rule is a function, set only here).
func MultiStepAutoT(l int, rho, eta float64, rule TRule) Escaper {
	return &autoTEscaper{l: l, rho: rho, eta: eta, rule: rule}
}

// autoTEscaper is the escaper MultiStepAutoT returns, and MultiStepSOD's
// with T zero (then with its Force and BothSigns).
type autoTEscaper struct {
	l         int
	rho, eta  float64
	rule      TRule
	force     EscapeKind
	bothSigns bool
}

var (
	_ Escaper      = (*autoTEscaper)(nil)
	_ Validator    = (*autoTEscaper)(nil)
	_ Configurable = (*autoTEscaper)(nil)
)

// Name implements Escaper.
func (e *autoTEscaper) Name() string { return "multi-step SOD (auto t)" }

// Params implements Configurable: l, rho and eta.
func (e *autoTEscaper) Params() []Param {
	if e == nil {
		return nil
	}
	return []Param{
		intParam("l", "lifting order l, odd ≥ 3 (0: DefaultLiftingOrder)", &e.l, DefaultLiftingOrder),
		floatParam("rho", "ρ ∈ (0, 1), weight of the escape direction (0: DefaultSODRho)", &e.rho, DefaultSODRho, "ρ"),
		floatParam("eta", "TPGD step η ∈ (0, 1) (0: DefaultSODEta)", &e.eta, DefaultSODEta, "η"),
	}
}

// Validate implements Validator.
func (e *autoTEscaper) Validate() error {
	if e == nil {
		return fmt.Errorf("%w: nil MultiStepAutoT escaper", ErrBadParameter)
	}
	if e.rule == nil {
		return fmt.Errorf("%w: MultiStepAutoT: nil TRule (use AutoT or FixedT)", ErrBadParameter)
	}
	if err := checkKind("MultiStepSOD.Force", e.force, true); err != nil {
		return err
	}
	return CheckTPGDParams(orDefault(e.l, DefaultLiftingOrder), orDefault(e.rho, DefaultSODRho), orDefault(e.eta, DefaultSODEta))
}

// Propose implements Escaper.
func (e *autoTEscaper) Propose(_ context.Context, st *EscapeState) ([]Candidate, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if st == nil || st.X == nil {
		return nil, fmt.Errorf("%w: MultiStepAutoT: nil EscapeState or X̂", ErrBadParameter)
	}
	l, rho, eta, rule := orDefault(e.l, DefaultLiftingOrder), orDefault(e.rho, DefaultSODRho), orDefault(e.eta, DefaultSODEta), e.rule
	cp, err := analyzeFlushed(st.P, st.X)
	if err != nil {
		return nil, err
	}
	if !(cp.LambdaN < 0) {
		return nil, nil
	}
	cf, err := NewTPGDFromCritical(cp, l, rho, eta)
	if err != nil {
		return nil, err
	}
	t := rule(cf)
	if t < 0 {
		return nil, nil
	}
	var x *mat.Dense
	kind, in := e.force, true
	if kind != KindNone {
		in = cf.Select(t) == kind
		x, err = forcedEscapePoint(cf, cp, t, kind)
	} else {
		x, kind, err = cf.EscapePoint(t, cp.Un, cp.Qr, cp.EX)
	}
	if errors.Is(err, ErrScaleOverflow) || (err == nil && x == nil) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	info := &MultiStepInfo{ClosedForm: cf, Critical: cp, T: t, Kind: kind, InInterval: in}
	out := []Candidate{{X: x, Label: fmt.Sprintf("%v-type l=%d t=%d", kind, l, t), Data: info}}
	if e.bothSigns {
		var nx mat.Dense
		nx.Scale(-1, x)
		out = append(out, Candidate{X: &nx, Label: fmt.Sprintf("−%v-type l=%d t=%d", kind, l, t), Data: info})
	}
	return out, nil
}

// analyzeFlushed is AnalyzeCritical (default sign convention, no
// Hessian, no Ξ²) at X̂ with its negligible entries flushed to zero, with a
// sanity check of λ_n (see MultiStepAutoT).
func analyzeFlushed(p *Problem, xhat *mat.Dense) (*CriticalPoint, error) {
	x := mat.DenseCopyOf(xhat)
	raw := x.RawMatrix()
	big := 0.0
	for i := 0; i < raw.Rows; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			big = math.Max(big, math.Abs(v))
		}
	}
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for k, v := range row {
			if math.Abs(v) < 1e-50*big {
				row[k] = 0
			}
		}
	}
	// σ_r is the smallest nonzero singular value (REPRODUCTION.md C2), so a stalled
	// point of lower rank than r (over-parameterised search) is allowed.
	cp, err := AnalyzeCritical(p, x, CriticalOptions{SkipHessian: true, SkipXi: true, AllowRankDeficient: true})
	if err != nil {
		return nil, err
	}
	if nf := cp.GradFNorm; math.Abs(cp.LambdaN) > nf*(1+1e-8)+1e-300 {
		return nil, fmt.Errorf("%w: λ_n = %g exceeds ‖∇f‖_F = %g (eigensolver failure)", ErrFactorization, cp.LambdaN, nf)
	}
	return cp, nil
}
