package sod

import (
	"context"
	"errors"
	"fmt"
)

// Sentinel errors returned (possibly wrapped, test with errors.Is) by the
// functions of this package. The package never panics on bad input and
// never returns a silent NaN, with two documented exceptions that panic
// with an error wrapping a sentinel instead of returning it, because the
// method has no error result: Problem's hot methods on a wrong shape
// (ErrShape), and a method called on a nil receiver, or on the zero value
// of a type its constructor makes (ErrBadParameter, naming the type, the
// method and the constructor; methods with an error result return that
// error, size accessors give 0 and predicates false). The walker test of
// sod/internal/walker calls every exported function and method with bad
// arguments and nil and zero receivers to check this.
var (
	// ErrShape reports a matrix or vector of the wrong size.
	ErrShape = errors.New("sod: wrong shape")
	// ErrNotSymmetric reports a sensing matrix that is not symmetric.
	ErrNotSymmetric = errors.New("sod: sensing matrix is not symmetric")
	// ErrNotFinite reports a NaN or infinite entry in an input.
	ErrNotFinite = errors.New("sod: input is not finite")
	// ErrNoMeasurements reports m = 0 (no sensing matrices or measurements).
	ErrNoMeasurements = errors.New("sod: no measurements (m = 0)")
	// ErrBadParameter reports a scalar parameter outside its domain
	// (for example ε ≤ 0, a non-positive step, a negative iteration cap).
	ErrBadParameter = errors.New("sod: parameter out of range")
	// ErrDelta reports a RIP constant δ outside [0, 1).
	ErrDelta = errors.New("sod: RIP constant δ must lie in [0, 1)")
	// ErrRankDeficient reports a point X̂ whose r-th singular value is zero
	// (σ_r = 0), so that v_r, q_r and NCM are undefined.
	ErrRankDeficient = errors.New("sod: X̂ is rank deficient (σ_r = 0)")
	// ErrNotSpuriousMinimum reports a point that is not a spurious local
	// minimum: its gradient is not small or λ_n(∇f(X̂X̂ᵀ)) ≥ 0.
	ErrNotSpuriousMinimum = errors.New("sod: not a spurious local minimum")
	// ErrNoGroundTruth reports an operation that needs M* on a problem
	// built from measurements only.
	ErrNoGroundTruth = errors.New("sod: ground truth M* unknown")
	// ErrFactorization reports a failed eigen- or singular value decomposition.
	ErrFactorization = errors.New("sod: factorization failed")
	// ErrTooLarge reports a size above a stated limit (ExplicitMaxBytes for
	// ExplicitLifting, the documented limit elsewhere), refused before
	// allocating; the message names the size and the limit.
	ErrTooLarge = errors.New("sod: size exceeds the stated limit")
	// ErrEscaperPanic reports a panic in an Escaper's Propose. RunEscape
	// returns it (and no EscapeRun): a panic is a bug of the escaper, not
	// an outcome of the escape. The message names the escaper and holds
	// the panic value and the stack; a panic value that is an error is
	// wrapped too.
	ErrEscaperPanic = errors.New("sod: escaper panicked")
)

// checkContext refuses a nil context (long work takes one as its first
// argument; context.Background() when there is none) and one that is
// already done.
func checkContext(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("%w: nil context (pass context.Background())", ErrBadParameter)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sod: not started: %w", err)
	}
	return nil
}
