package sod

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// TestEnumText checks that every typed result prints, marshals and
// unmarshals as the words the JSON outputs have always held, and that an
// unknown word or value is refused with ErrBadParameter.
func TestEnumText(t *testing.T) {
	type enum interface {
		fmt.Stringer
		encoding.TextMarshaler
	}
	cases := []struct {
		v    enum
		want string
		back func() encoding.TextUnmarshaler
	}{
		{StopMaxIter, "max-iter", func() encoding.TextUnmarshaler { return new(StopReason) }},
		{StopConverged, "converged", func() encoding.TextUnmarshaler { return new(StopReason) }},
		{StopStagnated, "stagnated", func() encoding.TextUnmarshaler { return new(StopReason) }},
		{StopDiverged, "diverged", func() encoding.TextUnmarshaler { return new(StopReason) }},
		{StopCallback, "callback", func() encoding.TextUnmarshaler { return new(StopReason) }},
		{Solved, "solved", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{NoDescent, "no-descent", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{NoCandidates, "no-candidates", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{MaxEscapes, "max-escapes", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{Diverged, "diverged", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{Stopped, "stopped", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{EscapeError, "escape-error", func() encoding.TextUnmarshaler { return new(Outcome) }},
		{NotRejected, "", func() encoding.TextUnmarshaler { return new(Rejection) }},
		{RejectInvalid, "invalid", func() encoding.TextUnmarshaler { return new(Rejection) }},
		{RejectProbeDiverged, "probe diverged", func() encoding.TextUnmarshaler { return new(Rejection) }},
		{RejectNoDecrease, "does not lower h", func() encoding.TextUnmarshaler { return new(Rejection) }},
		{RejectNotSelected, "not selected", func() encoding.TextUnmarshaler { return new(Rejection) }},
		{KindNone, "none", func() encoding.TextUnmarshaler { return new(EscapeKind) }},
		{KindBeta, "β", func() encoding.TextUnmarshaler { return new(EscapeKind) }},
		{KindGamma, "γ", func() encoding.TextUnmarshaler { return new(EscapeKind) }},
		{RIPByEigen, "exact", func() encoding.TextUnmarshaler { return new(RIPMethod) }},
		{RIPBySampling, "sample", func() encoding.TextUnmarshaler { return new(RIPMethod) }},
		{RIPByOptimization, "optimize", func() encoding.TextUnmarshaler { return new(RIPMethod) }},
	}
	for _, tc := range cases {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%T(%d).String() = %q, want %q", tc.v, tc.v, got, tc.want)
		}
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("json.Marshal(%T %v) = %s, %v; want %q", tc.v, tc.v, b, err, tc.want)
		}
		back := tc.back()
		if err := back.UnmarshalText([]byte(tc.want)); err != nil {
			t.Errorf("%T.UnmarshalText(%q): %v", back, tc.want, err)
			continue
		}
		if s := back.(fmt.Stringer).String(); s != tc.want {
			t.Errorf("%T.UnmarshalText(%q) gives %q", back, tc.want, s)
		}
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("solve")); !errors.Is(err, ErrBadParameter) {
		t.Errorf(`Outcome.UnmarshalText("solve"): %v, want ErrBadParameter`, err)
	}
	if _, err := Outcome(99).MarshalText(); !errors.Is(err, ErrBadParameter) {
		t.Errorf("Outcome(99).MarshalText: %v, want ErrBadParameter", err)
	}
	if s := StopReason(-1).String(); s != "StopReason(-1)" {
		t.Errorf("StopReason(-1).String() = %q", s)
	}
	// A struct with a typed outcome encodes as the bare string.
	b, _ := json.Marshal(struct {
		Outcome Outcome `json:"outcome"`
	}{NoDescent})
	if string(b) != `{"outcome":"no-descent"}` {
		t.Errorf("JSON %s", b)
	}
}
