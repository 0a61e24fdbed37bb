package sod

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

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
