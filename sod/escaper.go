package sod

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Candidate is a point proposed by an Escaper.
type Candidate struct {
	// X is the proposed point (n×r).
	X *mat.Dense
	// Label describes the candidate for plots and tables (e.g. "γ t=150000").
	Label string
	// Probe, if > 0, asks the driver to judge the candidate by h after Probe
	// gradient steps from X (the step size of the GD phases; fewer if GD
	// meets the phases' GradTol first) instead of by h(X) itself, as
	// perturbed GD does (Jin et al.'s t_thres). If the candidate is
	// accepted, the next phase continues from where the probe ended.
	Probe int
	// Data carries variant-specific details (for example *MultiStepInfo).
	Data any
}

// EscapeState is what an Escaper sees at a stalled point (the run's
// context is Propose's first argument).
type EscapeState struct {
	P     *Problem
	X     *mat.Dense // the stalled point X̂ (do not modify)
	H     float64    // h(X̂)
	Iter  int        // global GD iteration at which GD stalled
	Round int        // escape round, 0-based

	crit    *CriticalPoint
	critErr error
	critOK  bool
	critOpt CriticalOptions
}

// Critical returns AnalyzeCritical at X̂ (computed once per round, with
// the driver's CriticalOptions).
func (st *EscapeState) Critical() (*CriticalPoint, error) {
	if st == nil {
		return nil, fmt.Errorf("%w: EscapeState.Critical on a nil state (the escape loop gives each escaper its state)", ErrBadParameter)
	}
	if !st.critOK {
		st.crit, st.critErr = AnalyzeCritical(st.P, st.X, st.critOpt)
		st.critOK = true
	}
	return st.crit, st.critErr
}

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

// Escaper is an escape variant: given a stalled point, it proposes
// candidate points. Propose may return zero candidates (the driver then
// stops and reports it) and should return an error only for a failure, not
// for "no escape found"; a long Propose should stop with ctx's error once
// ctx is done. RunEscape records such an error in the round's
// EscapeRecord.Err and in EscapeRun.Err and ends the run at the stalled
// point (Outcome EscapeError), so a failing variant never loses the GD
// run. A panic in Propose is a bug, not a failure of the method: RunEscape
// returns it as an error wrapping ErrEscaperPanic, with the escaper's
// name, the panic value and the stack. Bad settings are not a failure of
// the method either: an Escaper that also implements Validator (every
// built-in one does, with the rules of escapersettings.go) has them
// refused by RunEscape with an error before any work.
type Escaper interface {
	Name() string
	Propose(ctx context.Context, st *EscapeState) ([]Candidate, error)
}

// Validator is implemented by escapers that can check their settings
// before a run; RunEscape calls it before any work.
type Validator interface {
	Validate() error
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

// funcEscaper is the Escaper EscapeFunc returns.
type funcEscaper struct {
	name string
	f    func(ctx context.Context, st *EscapeState) ([]Candidate, error)
}

var (
	_ Escaper   = funcEscaper{}
	_ Validator = funcEscaper{}
)

func (e funcEscaper) Name() string { return e.name }

func (e funcEscaper) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return e.f(ctx, st)
}

// Validate refuses a nil function.
func (e funcEscaper) Validate() error {
	if e.f == nil {
		return fmt.Errorf("%w: EscapeFunc(%q, nil)", ErrBadParameter, e.name)
	}
	return nil
}

// EscapeFunc turns a function into a named Escaper.
func EscapeFunc(name string, f func(ctx context.Context, st *EscapeState) ([]Candidate, error)) Escaper {
	return funcEscaper{name: name, f: f}
}
