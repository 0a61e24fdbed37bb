package sod

import "fmt"

// This file holds the typed results of the optimisers and the escape loop:
// why a descent run stopped (StopReason), how an escape run ended
// (Outcome) and why the escape loop rejected a candidate (Rejection).
// Each has String and, for JSON and other text encodings, MarshalText and
// UnmarshalText, which use the same words.

// StopReason says why GradientDescent, SGD or Adam stopped
// (GDResult.Stop).
type StopReason int

const (
	// StopMaxIter: MaxIter steps were taken.
	StopMaxIter StopReason = iota
	// StopConverged: ‖∇h‖_F ≤ GDOptions.GradTol.
	StopConverged
	// StopStagnated: h stagnated and GDOptions.StopOnStagnation was set.
	StopStagnated
	// StopDiverged: h or ‖∇h‖_F overflowed or exceeded the divergence
	// limit; the result holds the last iterate below it.
	StopDiverged
	// StopCallback: GDOptions.Callback returned false.
	StopCallback
)

var stopReasonText = [...]string{
	StopMaxIter:   "max-iter",
	StopConverged: "converged",
	StopStagnated: "stagnated",
	StopDiverged:  "diverged",
	StopCallback:  "callback",
}

// String returns "max-iter", "converged", "stagnated", "diverged" or
// "callback".
func (s StopReason) String() string { return enumString("StopReason", stopReasonText[:], int(s)) }

// MarshalText implements encoding.TextMarshaler with the words of String.
func (s StopReason) MarshalText() ([]byte, error) {
	return enumMarshal("StopReason", stopReasonText[:], int(s))
}

// UnmarshalText implements encoding.TextUnmarshaler for the words of String.
func (s *StopReason) UnmarshalText(b []byte) error {
	return enumUnmarshal("StopReason", stopReasonText[:], b, (*int)(s))
}

// Outcome says how RunEscape ended (EscapeRun.Outcome).
type Outcome int

const (
	// Solved: h ≤ TargetH, or ‖XXᵀ − M*‖_F ≤ TargetDist, after a GD phase.
	Solved Outcome = iota + 1
	// NoDescent: no candidate lowered h (and AllowAscent was not set).
	NoDescent
	// NoCandidates: the Escaper proposed nothing.
	NoCandidates
	// MaxEscapes: the escape budget EscapeOptions.MaxEscapes was used up.
	MaxEscapes
	// Diverged: a GD phase diverged.
	Diverged
	// Stopped: the GD Callback stopped a phase.
	Stopped
	// EscapeError: the Escaper's Propose returned an error; EscapeRun.Err
	// holds it. (A panic is no outcome: RunEscape returns ErrEscaperPanic.)
	EscapeError
)

var outcomeText = [...]string{
	Solved:       "solved",
	NoDescent:    "no-descent",
	NoCandidates: "no-candidates",
	MaxEscapes:   "max-escapes",
	Diverged:     "diverged",
	Stopped:      "stopped",
	EscapeError:  "escape-error",
}

// String returns "solved", "no-descent", "no-candidates", "max-escapes",
// "diverged", "stopped" or "escape-error".
func (o Outcome) String() string { return enumString("Outcome", outcomeText[:], int(o)) }

// MarshalText implements encoding.TextMarshaler with the words of String.
func (o Outcome) MarshalText() ([]byte, error) {
	return enumMarshal("Outcome", outcomeText[:], int(o))
}

// UnmarshalText implements encoding.TextUnmarshaler for the words of String.
func (o *Outcome) UnmarshalText(b []byte) error {
	return enumUnmarshal("Outcome", outcomeText[:], b, (*int)(o))
}

// Rejection says why RunEscape did not use a candidate
// (CandidateResult.Reason): NotRejected for the accepted one; an ascent
// accepted with AllowAscent keeps RejectNoDecrease.
type Rejection int

const (
	// NotRejected: the candidate was accepted.
	NotRejected Rejection = iota
	// RejectInvalid: the point has the wrong shape, is not finite, or h
	// overflows there.
	RejectInvalid
	// RejectProbeDiverged: GD from the point (Candidate.Probe steps)
	// diverged.
	RejectProbeDiverged
	// RejectNoDecrease: the (probed) h does not lie below h(X̂).
	RejectNoDecrease
	// RejectNotSelected: the candidate lowers h but another one was
	// accepted.
	RejectNotSelected
)

var rejectionText = [...]string{
	NotRejected:         "",
	RejectInvalid:       "invalid",
	RejectProbeDiverged: "probe diverged",
	RejectNoDecrease:    "does not lower h",
	RejectNotSelected:   "not selected",
}

// String returns "" (NotRejected), "invalid", "probe diverged", "does not
// lower h" or "not selected".
func (r Rejection) String() string { return enumString("Rejection", rejectionText[:], int(r)) }

// MarshalText implements encoding.TextMarshaler with the words of String.
func (r Rejection) MarshalText() ([]byte, error) {
	return enumMarshal("Rejection", rejectionText[:], int(r))
}

// UnmarshalText implements encoding.TextUnmarshaler for the words of String.
func (r *Rejection) UnmarshalText(b []byte) error {
	return enumUnmarshal("Rejection", rejectionText[:], b, (*int)(r))
}

// enumString returns words[v], or "Type(v)" for a value outside the
// enumeration.
func enumString(typ string, words []string, v int) string {
	if v < 0 || v >= len(words) || (words[v] == "" && v != 0) {
		return fmt.Sprintf("%s(%d)", typ, v)
	}
	return words[v]
}

func enumMarshal(typ string, words []string, v int) ([]byte, error) {
	if v < 0 || v >= len(words) || (words[v] == "" && v != 0) {
		return nil, fmt.Errorf("%w: %s(%d) is not a valid %s", ErrBadParameter, typ, v, typ)
	}
	return []byte(words[v]), nil
}

func enumUnmarshal(typ string, words []string, b []byte, dst *int) error {
	for v, w := range words {
		if w == string(b) && (w != "" || v == 0) {
			*dst = v
			return nil
		}
	}
	return fmt.Errorf("%w: %s %q, want one of %q", ErrBadParameter, typ, b, nonEmpty(words))
}

func nonEmpty(words []string) []string {
	var out []string
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}
