package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// SingleStepSOD is the single-step SOD escape of the paper's section 4
// (Theorem single-step-sod-formal) as an Escaper: it runs SingleStep and
// proposes X̌ = X̂ + ρ̂ u_n q_rᵀ when EFS > 1. At a point that is not a
// spurious minimum (ErrNotSpuriousMinimum) it proposes nothing.
//
// Its zero value is single-step SOD with δ = 0 and SingleStep's defaults
// (see SingleStepOptions); its settings table (Params) has the keys
// delta, rho, grad_tol and exact_line (Options.Critical is set in Go
// only).
type SingleStepSOD struct {
	// Options are passed to SingleStep. Options.Delta, the RIP constant
	// δ ∈ [0, 1), is the one to choose: the paper does not say which RIP
	// constant to use, and zero is δ = 0 (the bound of a perfect isometry,
	// the most optimistic).
	Options SingleStepOptions
	// ExactLine also proposes X̂ + ρ u_n q_rᵀ at the exact minimiser of h
	// along that line when it lowers h. This is not the paper's method; it
	// shows whether the line holds a descent point at all. False (zero):
	// only the paper's candidate.
	ExactLine bool
}

var (
	_ Escaper      = (*SingleStepSOD)(nil)
	_ Validator    = (*SingleStepSOD)(nil)
	_ Configurable = (*SingleStepSOD)(nil)
)

// Params implements Configurable: the keys delta, rho, grad_tol and
// exact_line, documented as the fields of SingleStepOptions and
// SingleStepSOD.
func (s *SingleStepSOD) Params() []Param {
	if s == nil {
		return nil
	}
	return []Param{
		floatParam("delta", "RIP constant δ ∈ [0, 1) in C₁, C₃, NCM and AIC (0: δ = 0)", &s.Options.Delta, 0, "δ"),
		floatParam("rho", "step ρ̂ of the candidate, finite (0: the centre of (ρ̂₁, ρ̂₂))", &s.Options.Rho, 0, "ρ"),
		floatParam("grad_tol", "gradient tolerance of the spurious-point check, finite ≥ 0 (0: DefaultSpuriousGradTol)", &s.Options.GradTol, DefaultSpuriousGradTol),
		boolParam("exact_line", "also propose the exact minimiser of h along the line (false: the paper's candidate only)", &s.ExactLine),
	}
}

// DefaultSingleStepSOD returns single-step SOD with the RIP constant δ =
// delta (which the paper leaves to the user: see SingleStepOptions.Delta)
// and SingleStep's defaults for everything else.
func DefaultSingleStepSOD(delta float64) *SingleStepSOD {
	return &SingleStepSOD{Options: SingleStepOptions{Delta: delta}}
}

// Name implements Escaper.
func (s *SingleStepSOD) Name() string {
	if s == nil {
		return "nil SingleStepSOD"
	}
	return fmt.Sprintf("single-step SOD (δ=%g)", s.Options.Delta)
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

// Propose implements Escaper.
func (s *SingleStepSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	res, err := SingleStep(st.P, st.X, s.Options)
	if errors.Is(err, ErrNotSpuriousMinimum) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Candidate
	if res.Candidate != nil {
		out = append(out, Candidate{X: res.Candidate, Label: fmt.Sprintf("single-step ρ̂=%.4g (EFS=%.3g)", res.Rho, res.EFS), Data: res})
	}
	if s.ExactLine && res.ExactCandidate != nil {
		out = append(out, Candidate{X: res.ExactCandidate, Label: fmt.Sprintf("exact line ρ=%.4g (not the paper's)", res.Exact.BestRho), Data: res})
	}
	return out, nil
}
