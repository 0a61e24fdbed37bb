package sod

import (
	"fmt"
	"math"
)

// Validation of the escapers' settings, in one place. Every built-in
// Escaper has a Validate method that applies the same rules to the same
// kinds of setting:
//
//   - the lifting order l odd ≥ 3 and ρ, η ∈ (0, 1) (CheckTPGDParams);
//   - simulated step counts t ≥ 0;
//   - step lists (Alphas) finite and > 0, at most MaxCandidates long;
//   - growth factors finite and > 1 (or 0: off);
//   - counts (directions, samples) ≥ 0 and with the candidates they make
//     at most MaxCandidates (a size guard, checked before any work);
//   - enumerations (EscapeKind, AcceptRule) one of their named values.
//
// RunEscape calls Validate (when the Escaper has one: an Escaper written
// in a notebook need not) and EscapeOptions.Validate before any work, and
// each Propose calls it again, so a direct call to Propose is checked too.

// MaxCandidates is the largest number of candidates one Propose of a
// built-in escaper may make (directions × step lengths, samples, ...).
const MaxCandidates = 1 << 16

// Validator is implemented by escapers that can check their settings
// before a run; RunEscape calls it before any work.
type Validator interface {
	Validate() error
}

func checkAlphas(who string, alphas []float64, copies int) error {
	if len(alphas) > MaxCandidates || copies*max(len(alphas), 16) > MaxCandidates {
		return fmt.Errorf("%w: %s makes %d directions × %d step lengths, more than MaxCandidates = %d", ErrTooLarge, who, copies, len(alphas), MaxCandidates)
	}
	if alphas != nil && len(alphas) == 0 {
		return fmt.Errorf("%w: %s Alphas is empty (nil: the default grid)", ErrBadParameter, who)
	}
	for i, a := range alphas {
		if !(a > 0) || math.IsInf(a, 0) {
			return fmt.Errorf("%w: %s Alphas[%d] = %v, want finite and > 0", ErrBadParameter, who, i, a)
		}
	}
	return nil
}

func checkKind(who string, k EscapeKind, allowNone bool) error {
	if (k == KindNone && allowNone) || k == KindBeta || k == KindGamma {
		return nil
	}
	return fmt.Errorf("%w: %s escape kind %d, want %v or %v", ErrBadParameter, who, int(k), KindBeta, KindGamma)
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

// Validate checks the settings: l, ρ, η (CheckTPGDParams), GrowthQ finite
// > 1 or 0, every t of Ts ≥ 0, Kinds β or γ, and at most MaxCandidates
// candidates.
func (s *SODLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil SODLineSearch", ErrBadParameter)
	}
	if err := CheckTPGDParams(s.L, s.Rho, s.Eta); err != nil {
		return err
	}
	if s.GrowthQ != 0 && !(s.GrowthQ > 1 && !math.IsInf(s.GrowthQ, 0)) {
		return fmt.Errorf("%w: SOD line search growth factor Q = %v, want finite > 1 (or 0: off)", ErrBadParameter, s.GrowthQ)
	}
	if s.Ts != nil && len(s.Ts) == 0 {
		return fmt.Errorf("%w: SOD line search Ts is empty (nil: the default grid)", ErrBadParameter)
	}
	if s.Kinds != nil && len(s.Kinds) == 0 {
		return fmt.Errorf("%w: SOD line search Kinds is empty (nil: β and γ)", ErrBadParameter)
	}
	if 2*len(s.Ts)*max(len(s.Kinds), 2) > MaxCandidates {
		return fmt.Errorf("%w: SOD line search with %d steps × %d kinds, more than MaxCandidates = %d candidates", ErrTooLarge, len(s.Ts), len(s.Kinds), MaxCandidates)
	}
	for _, t := range s.Ts {
		if t < 0 {
			return errNegativeT(t)
		}
	}
	for _, k := range s.Kinds {
		if err := checkKind("SOD line search", k, false); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks the settings: Radius finite > 0, TThres ≥ 0 (at most
// MaxSubspaceSteps probe steps) and Samples in [0, MaxCandidates].
func (g *PerturbedGD) Validate() error {
	if g == nil {
		return fmt.Errorf("%w: nil PerturbedGD", ErrBadParameter)
	}
	switch {
	case !(g.Radius > 0) || math.IsInf(g.Radius, 0):
		return fmt.Errorf("%w: perturbed GD Radius = %v, want finite and > 0", ErrBadParameter, g.Radius)
	case g.TThres < 0 || g.TThres > MaxSubspaceSteps:
		return fmt.Errorf("%w: perturbed GD TThres = %d, want in [0, %d]", ErrBadParameter, g.TThres, MaxSubspaceSteps)
	case g.Samples < 0 || g.Samples > MaxCandidates:
		return fmt.Errorf("%w: perturbed GD Samples = %d, want in [0, MaxCandidates = %d]", ErrBadParameter, g.Samples, MaxCandidates)
	}
	return nil
}

// Validate checks the settings: Directions ≥ 0, Alphas finite > 0, and
// Directions × len(Alphas) at most MaxCandidates.
func (s *RandomLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil RandomLineSearch", ErrBadParameter)
	}
	if s.Directions < 0 || s.Directions > MaxCandidates {
		return fmt.Errorf("%w: random line search Directions = %d, want in [0, MaxCandidates = %d]", ErrBadParameter, s.Directions, MaxCandidates)
	}
	return checkAlphas("random line search", s.Alphas, max(s.Directions, 1))
}

// Validate checks the settings: Alphas finite > 0, at most MaxCandidates.
func (s *NegGradLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil NegGradLineSearch", ErrBadParameter)
	}
	return checkAlphas("negative-gradient line search", s.Alphas, 1)
}

// Validate checks the settings: l, ρ, η (CheckTPGDParams) and T in
// [0, MaxSubspaceSteps].
func (e *ExactSubspaceSOD) Validate() error {
	if e == nil {
		return fmt.Errorf("%w: nil ExactSubspaceSOD", ErrBadParameter)
	}
	if err := CheckTPGDParams(e.L, e.Rho, e.Eta); err != nil {
		return err
	}
	if e.T < 0 || e.T > MaxSubspaceSteps {
		return fmt.Errorf("%w: ExactSubspaceSOD runs T exact PGD steps, T must lie in [0, MaxSubspaceSteps = %d], got %d", ErrBadParameter, MaxSubspaceSteps, e.T)
	}
	return nil
}

// Validate checks the settings: Options.Delta ∈ [0, 1), Options.Rho and
// Options.GradTol finite (GradTol ≥ 0), as SingleStep does.
func (s *SingleStepSOD) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil SingleStepSOD", ErrBadParameter)
	}
	if d := s.Options.Delta; !(d >= 0 && d < 1) {
		return fmt.Errorf("%w: single-step SOD δ = %v", ErrDelta, d)
	}
	if !isFinite(s.Options.Rho) {
		return fmt.Errorf("%w: single-step SOD ρ̂ = %v, want finite", ErrBadParameter, s.Options.Rho)
	}
	if g := s.Options.GradTol; !(g >= 0) || math.IsInf(g, 0) {
		return fmt.Errorf("%w: single-step SOD GradTol = %v, want finite and ≥ 0", ErrBadParameter, g)
	}
	return nil
}

// Validate refuses a nil function.
func (e funcEscaper) Validate() error {
	if e.f == nil {
		return fmt.Errorf("%w: EscapeFunc(%q, nil)", ErrBadParameter, e.name)
	}
	return nil
}

// Validate checks the options as RunEscape does before any work: counts
// ≥ 0, targets finite ≥ 0, Accept a named AcceptRule and the GD options.
func (opt EscapeOptions) Validate() error {
	if opt.MaxEscapes < 0 || opt.FirstPhaseIter < 0 {
		return fmt.Errorf("%w: EscapeOptions.MaxEscapes = %d, FirstPhaseIter = %d, want both ≥ 0", ErrBadParameter, opt.MaxEscapes, opt.FirstPhaseIter)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"TargetH", opt.TargetH}, {"TargetDist", opt.TargetDist}, {"MinDecrease", opt.MinDecrease}} {
		if !(v.v >= 0) || math.IsInf(v.v, 0) {
			return fmt.Errorf("%w: EscapeOptions.%s = %v, want finite and ≥ 0", ErrBadParameter, v.name, v.v)
		}
	}
	if opt.Accept != AcceptBest && opt.Accept != AcceptFirst {
		return fmt.Errorf("%w: EscapeOptions.Accept = %d, want %v or %v", ErrBadParameter, int(opt.Accept), AcceptBest, AcceptFirst)
	}
	return opt.GD.check()
}

// validateEscaper runs esc's Validate if it has one.
func validateEscaper(esc Escaper) error {
	if esc == nil {
		return fmt.Errorf("%w: nil Escaper", ErrBadParameter)
	}
	if v, ok := esc.(Validator); ok {
		return v.Validate()
	}
	return nil
}

// ValidateEscaper checks esc as RunEscape does before any work: not nil,
// and its settings (its Validate method, if it has one). Experiment
// configs holding escapers call it in their own Validate.
func ValidateEscaper(esc Escaper) error { return validateEscaper(esc) }

// check refuses a state Propose cannot work on: nil, no problem, or X not
// a finite n×r matrix.
func (st *EscapeState) check() error {
	if st == nil {
		return fmt.Errorf("%w: nil EscapeState", ErrBadParameter)
	}
	if err := st.P.Validate(); err != nil {
		return err
	}
	if st.X == nil {
		return fmt.Errorf("%w: EscapeState.X is nil", ErrShape)
	}
	return st.P.CheckX(st.X)
}

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
