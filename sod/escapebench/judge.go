package escapebench

import (
	"context"
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
)

// JudgingRule is the rule by which a run accepts an escape candidate: every
// method is named in the results with its rule (TrialResult.Judge), so
// that a method judged one way is not set beside one judged the other as
// if they were alike.
type JudgingRule int

const (
	// JudgeRawH (the zero value): a candidate X̌ is accepted when
	// h(X̌) < h(X̂) — the paper's rule for SOD (section 6), and that of the
	// line searches.
	JudgeRawH JudgingRule = iota
	// JudgeProbe: the escaper's best candidate by raw h is accepted when
	// h after a gradient descent probe from it (a full phase,
	// sod.Candidate.Probe) is < h(X̂) — random restart's rule (a random
	// start has a large h), and perturbed GD's with its own shorter probe.
	JudgeProbe
)

// String returns "raw-h" or "gd-probe".
func (j JudgingRule) String() string {
	switch j {
	case JudgeRawH:
		return "raw-h"
	case JudgeProbe:
		return "gd-probe"
	}
	return fmt.Sprintf("JudgingRule(%d)", int(j))
}

// MarshalText implements encoding.TextMarshaler.
func (j JudgingRule) MarshalText() ([]byte, error) {
	if j != JudgeRawH && j != JudgeProbe {
		return nil, fmt.Errorf("%w: invalid JudgingRule %d", ErrBadBench, int(j))
	}
	return []byte(j.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (j *JudgingRule) UnmarshalText(b []byte) error {
	switch string(b) {
	case "raw-h":
		*j = JudgeRawH
	case "gd-probe":
		*j = JudgeProbe
	default:
		return fmt.Errorf("%w: unknown judge %q, want raw-h or gd-probe", ErrBadBench, b)
	}
	return nil
}

// ProbeSuffix ends the name of a method judged by JudgeProbe whose own
// rule is JudgeRawH (WithJudge): "sod-line-search+probe".
const (
	ProbeSuffix = "+probe"
	RawHSuffix  = "+raw-h"
)

// WithJudge returns m judged by j: m itself if that is its rule
// (Method.Judge), else a method named m.Name+ProbeSuffix (or RawHSuffix)
// whose escaper is m's wrapped: for JudgeProbe it proposes only m's
// candidate of least h (each candidate's h evaluated, and counted), to be
// judged after a gradient descent phase; for JudgeRawH it proposes m's
// candidates without their probes.
func WithJudge(m Method, j JudgingRule) (Method, error) {
	if j != JudgeRawH && j != JudgeProbe {
		return Method{}, fmt.Errorf("%w: judge %v, want raw-h or gd-probe", ErrBadBench, j)
	}
	if m.New == nil || m.Name == "" {
		return Method{}, fmt.Errorf("%w: method %q has no name or no constructor", ErrBadBench, m.Name)
	}
	if m.judge() == j {
		return m, nil
	}
	out := m
	out.Judge = j
	out.Params = map[string]string{}
	for k, v := range m.Params {
		out.Params[k] = v
	}
	inner := m.New
	if j == JudgeProbe {
		out.Name += ProbeSuffix
		out.Weight = math.Max(m.Weight, 15) // a full phase per round, as random restart
		out.New = func(in CertifiedInstance, seed uint64) (sod.Escaper, error) {
			e, err := inner(in, seed)
			if err != nil {
				return nil, err
			}
			return &probeBest{inner: e}, nil
		}
	} else {
		out.Name += RawHSuffix
		out.New = func(in CertifiedInstance, seed uint64) (sod.Escaper, error) {
			e, err := inner(in, seed)
			if err != nil {
				return nil, err
			}
			return rawH{e}, nil
		}
	}
	return out, nil
}

// judge returns m's rule.
func (m Method) judge() JudgingRule { return m.Judge }

// prober is an escaper whose candidates RunTrial gives a probe of one GD
// phase.
type prober interface{ setProbe(steps int) }

// probeBest proposes inner's candidate of least h with a probe.
type probeBest struct {
	inner sod.Escaper
	probe int
}

func (p *probeBest) setProbe(steps int) { p.probe = steps }

func (p *probeBest) Name() string { return p.inner.Name() + ProbeSuffix }

func (p *probeBest) Propose(ctx context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	cs, err := p.inner.Propose(ctx, st)
	if err != nil || len(cs) == 0 {
		return cs, err
	}
	best, bh := -1, math.Inf(1)
	for i, c := range cs {
		if c.X == nil || st.P.CheckX(c.X) != nil {
			continue
		}
		if h := st.P.H(c.X); h < bh {
			best, bh = i, h
		}
	}
	if best < 0 {
		return cs[:1], nil // all invalid: the driver rejects it
	}
	c := cs[best]
	c.Probe = max(c.Probe, p.probe)
	return []sod.Candidate{c}, nil
}

// rawH proposes inner's candidates without their probes.
type rawH struct{ inner sod.Escaper }

func (r rawH) Name() string { return r.inner.Name() + RawHSuffix }

func (r rawH) Propose(ctx context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	cs, err := r.inner.Propose(ctx, st)
	for i := range cs {
		cs[i].Probe = 0
	}
	return cs, err
}

func (p *probeBest) Validate() error { return validateInner(p.inner) }
func (r rawH) Validate() error       { return validateInner(r.inner) }

// unwrapJudge returns the escaper a judge's wrapper (WithJudge) wraps, or
// e itself.
func unwrapJudge(e sod.Escaper) sod.Escaper {
	switch w := e.(type) {
	case *probeBest:
		return w.inner
	case rawH:
		return w.inner
	}
	return e
}

// validateInner runs a wrapped escaper's own Validate, if it has one.
func validateInner(e sod.Escaper) error {
	if v, ok := e.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

func (rr *randomRestart) setProbe(steps int) { rr.probe = steps }
