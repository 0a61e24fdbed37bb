package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"

	"gonum.org/v1/gonum/mat"
)

// This file holds the escape loop of the paper's section 6: gradient
// descent until it stalls, an escape step that proposes candidate points,
// a check that a candidate really lowers h, and gradient descent again.
//
// Escape variants plug in through the Escaper interface (escaper.go); each
// built-in one has a file of its own (multistep.go, linesearch.go,
// exactsubspace.go, singlestepsod.go, perturbedgd.go, randomline.go,
// neggrad.go). A variant in a notebook cell is a few lines:
//
//	esc := sod.EscapeFunc("my idea", func(ctx context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
//		var x mat.Dense
//		x.Scale(-1, st.X)
//		return []sod.Candidate{{X: &x, Label: "mirror"}}, nil
//	})
//	run, err := sod.RunEscape(ctx, p, x0, esc, sod.EscapeOptions{GD: gdOpt, MaxEscapes: 3})

// AcceptRule chooses among the candidates that lower h.
type AcceptRule int

const (
	// AcceptBest takes the candidate with the lowest (probed) h.
	AcceptBest AcceptRule = iota
	// AcceptFirst takes the first candidate, in the proposed order, that
	// lowers h.
	AcceptFirst
)

// String returns "best" or "first".
func (a AcceptRule) String() string {
	return enumString("AcceptRule", []string{AcceptBest: "best", AcceptFirst: "first"}, int(a))
}

// EscapeOptions configures RunEscape.
type EscapeOptions struct {
	// GD configures every gradient descent phase. Set StagnationWindow and
	// StopOnStagnation to escape at stagnation, GradTol to escape at an
	// (approximate) critical point, or only MaxIter for fixed-length phases
	// as in the paper's case studies. The Callback, if any, receives local
	// iteration numbers of each phase. Its zero value is refused (GD needs
	// a step size: GDOptions has no default step, which depends on the
	// problem).
	GD GDOptions
	// FirstPhaseIter, if > 0, replaces GD.MaxIter for the first phase (the
	// paper runs 6000 steps before SOD and 1000 after on PMC).
	FirstPhaseIter int
	// MaxEscapes is the number of escape rounds allowed (0 means 1).
	MaxEscapes int
	// TargetH ends the run as solved once h ≤ TargetH after a GD phase
	// (default 1e-12).
	TargetH float64
	// TargetDist, if > 0 and M* is known, also ends the run as solved once
	// ‖XXᵀ − M*‖_F ≤ TargetDist (the paper's success criterion uses 0.02).
	TargetDist float64
	// Accept is the rule among descending candidates. Zero is AcceptBest.
	Accept AcceptRule
	// MinDecrease: a candidate is accepted only if its (probed) h is
	// < h(X̂) − MinDecrease·max(h(X̂), tiny) (default 0: any strict decrease).
	MinDecrease float64
	// AllowAscent makes the driver use the best candidate even when no
	// candidate lowers h (the paper's practice). Such an escape is recorded
	// with Ascent set, never silently. False (zero): a round with no
	// descending candidate ends the run.
	AllowAscent bool
	// Critical is passed to AnalyzeCritical through EscapeState.Critical.
	// Zero: AnalyzeCritical's defaults (see CriticalOptions).
	Critical CriticalOptions
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

// CandidateResult is a candidate with the driver's verdict.
type CandidateResult struct {
	Candidate
	H      float64 // h(X̌) (+Inf when X̌ is not finite or h overflows)
	HProbe float64 // h after the probe (= H when Probe = 0)
	// ProbeIter is the number of GD steps the probe took: Probe, or fewer
	// when it met the phases' GradTol. ProbeX is its last iterate (nil
	// without a probe): an accepted candidate's next phase continues from
	// it, so the probe's steps are not taken twice.
	ProbeIter int
	ProbeX    *mat.Dense
	Dist      float64 // ‖X̌X̌ᵀ − M*‖_F (−1 if M* unknown or X̌ invalid)
	Descent   bool    // HProbe < h(X̂) (with MinDecrease)
	Accepted  bool
	Reason    Rejection // why it was rejected; NotRejected for a descending accepted candidate
}

// EscapeRecord is one escape round.
type EscapeRecord struct {
	Round      int
	Iter       int        // global iteration of the stalled point
	From       *mat.Dense // X̂
	HFrom      float64
	Candidates []CandidateResult
	// Accepted is the index of the accepted candidate, −1 if none.
	Accepted int
	// Ascent is set when AllowAscent made the driver use a candidate that
	// does not lower h.
	Ascent bool
	// Err is the error the Escaper returned in this round; Candidates is then empty and the run ends here with
	// Outcome EscapeError.
	Err error
}

// EscapeRun records a RunEscape run for plotting: the concatenated GD trace
// (global iteration numbers), the GD phases and the escape rounds.
type EscapeRun struct {
	Escaper string
	X       *mat.Dense // final point
	H       float64
	// Outcome says how the run ended: Solved (h ≤ TargetH or
	// dist ≤ TargetDist), NoDescent (no candidate lowered h),
	// NoCandidates, MaxEscapes, Diverged, Stopped or EscapeError (the
	// Escaper's Propose returned an error; see Err).
	Outcome Outcome
	// Err is the Escaper's failure when Outcome is EscapeError (wrapped
	// with the variant's name; errors.Is sees the variant's own error), nil
	// otherwise. X and H are then the stalled point GD ended at.
	Err   error
	Trace Trace // GD trace over all phases, Iter is global
	// PhaseStart[k] is the global iteration at which phase k starts.
	PhaseStart []int
	Phases     []*GDResult
	Escapes    []EscapeRecord
}

// Solved reports whether the run ended with Outcome Solved.
func (r *EscapeRun) Solved() bool {
	if r == nil {
		return false
	}
	return r.Outcome == Solved
}

// RunEscape runs GD → (stall) → escape → GD … from x0 with the escape
// variant esc. After each GD phase it stops if h ≤ TargetH, if GD diverged
// or if the escape budget is exhausted; otherwise it asks esc for
// candidates, evaluates h at each (after Probe GD steps if requested), and
// continues from an accepted candidate. A candidate that does not lower h
// is reported in the EscapeRecord and is not used unless AllowAscent.
//
// A probe is GD from the candidate with the phases' options (step,
// GradTol, divergence limit; no callback, trace or stagnation stop) for
// at most Probe steps. When a probed candidate is accepted, the next
// phase continues from the probe's last iterate with the steps the probe
// left of MaxIter: the same iterates as a phase from the candidate, each
// computed once (the probe's steps are counted in the global iteration
// numbers, and its evaluations by the problem's counter; they are not in
// the trace).
//
// The returned error is for bad arguments, a failing first GD phase,
// cancellation (ctx, checked inside every GD phase, passed to the
// Escaper and checked after every Propose) and a panic in the Escaper's
// Propose (an error wrapping ErrEscaperPanic that names the escaper and
// holds the panic value and the stack). When the Escaper returns an
// error, the failure is recorded in that round's EscapeRecord.Err and in
// EscapeRun.Err, the Outcome is EscapeError and the run ends with GD's
// point: the phases already run, and the trace, are kept.
func RunEscape(ctx context.Context, p *Problem, x0 mat.Matrix, esc Escaper, opt EscapeOptions) (*EscapeRun, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	if err := validateEscaper(esc); err != nil { // the escaper's settings (its Validate)
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckX(x0); err != nil {
		return nil, err
	}
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	maxEsc := opt.MaxEscapes
	if maxEsc == 0 {
		maxEsc = 1
	}
	target := opt.TargetH
	if target == 0 {
		target = 1e-12
	}
	limit := opt.GD.limit()
	run := &EscapeRun{Escaper: esc.Name()}
	x := mat.DenseCopyOf(x0)
	global := 0
	probed := 0 // GD steps of the accepted candidate's probe, if it had one
	for phase := 0; ; phase++ {
		gdo := opt.GD
		if phase == 0 && opt.FirstPhaseIter > 0 {
			gdo.MaxIter = opt.FirstPhaseIter
		}
		gdo.MaxIter = max(0, gdo.MaxIter-probed)
		global += probed
		res, err := GradientDescent(ctx, p, x, gdo)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			if phase > 0 {
				// Only possible when the escape landed where h overflows;
				// judgeCandidate rejects such points unless they are the
				// only ones.
				run.Outcome = Diverged
				return run, nil
			}
			return nil, err
		}
		run.Phases = append(run.Phases, res)
		run.PhaseStart = append(run.PhaseStart, global)
		appendTrace(&run.Trace, &res.Trace, global)
		global += res.Iter
		x = res.X
		run.X, run.H = x, res.H
		switch {
		case res.Stop == StopDiverged:
			run.Outcome = Diverged
			return run, nil
		case res.Stop == StopCallback:
			run.Outcome = Stopped
			return run, nil
		case res.H <= target || (opt.TargetDist > 0 && p.HasTruth() && p.DistStar(x) <= opt.TargetDist):
			run.Outcome = Solved
			return run, nil
		case len(run.Escapes) >= maxEsc:
			run.Outcome = MaxEscapes
			return run, nil
		}
		st := &EscapeState{P: p, X: mat.DenseCopyOf(x), H: res.H, Iter: global, Round: len(run.Escapes), critOpt: opt.Critical}
		cands, err := propose(ctx, esc, run.Escaper, st)
		if errors.Is(err, ErrEscaperPanic) {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sod: escape run stopped in round %d: %w", st.Round, ctx.Err())
		}
		rec := EscapeRecord{Round: st.Round, Iter: global, From: st.X, HFrom: res.H, Accepted: -1}
		if err != nil {
			rec.Err = err
			run.Escapes = append(run.Escapes, rec)
			run.Err = fmt.Errorf("sod: escape variant %q: %w", run.Escaper, err)
			run.Outcome = EscapeError
			return run, nil
		}
		if len(cands) == 0 {
			run.Escapes = append(run.Escapes, rec)
			run.Outcome = NoCandidates
			return run, nil
		}
		thr := res.H - opt.MinDecrease*math.Max(res.H, 1e-300)
		best, bestAny := -1, -1
		for i, c := range cands {
			cr := judgeCandidate(ctx, p, c, opt.GD, thr, limit)
			rec.Candidates = append(rec.Candidates, cr)
			if cr.Reason == RejectInvalid {
				continue
			}
			if bestAny < 0 || cr.HProbe < rec.Candidates[bestAny].HProbe {
				bestAny = i
			}
			if cr.Descent {
				if best < 0 || (opt.Accept == AcceptBest && cr.HProbe < rec.Candidates[best].HProbe) {
					best = i
				}
			}
		}
		if best < 0 && opt.AllowAscent && bestAny >= 0 {
			best = bestAny
			rec.Ascent = true
		}
		if best < 0 {
			run.Escapes = append(run.Escapes, rec)
			run.Outcome = NoDescent
			return run, nil
		}
		rec.Accepted = best
		for i := range rec.Candidates {
			rc := &rec.Candidates[i]
			rc.Accepted = i == best
			if !rc.Accepted && rc.Reason == NotRejected {
				rc.Reason = RejectNotSelected
			}
		}
		run.Escapes = append(run.Escapes, rec)
		x, probed = mat.DenseCopyOf(rec.Candidates[best].X), 0
		if cr := rec.Candidates[best]; cr.ProbeX != nil {
			x, probed = mat.DenseCopyOf(cr.ProbeX), cr.ProbeIter
		}
	}
}

// propose calls esc.Propose (named name). A panic there becomes an error
// wrapping ErrEscaperPanic (and the panic value, if it is an error) that
// names the escaper and the round and holds the panic value and the stack
// of the panicking goroutine: a variant written in a notebook cell gets
// its bug reported where it happened, and the kernel survives.
func propose(ctx context.Context, esc Escaper, name string, st *EscapeState) (cands []Candidate, err error) {
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			if e, ok := v.(error); ok {
				err = fmt.Errorf("%w: %q in round %d: %w\n%s", ErrEscaperPanic, name, st.Round, e, stack)
			} else {
				err = fmt.Errorf("%w: %q in round %d: %v\n%s", ErrEscaperPanic, name, st.Round, v, stack)
			}
			cands = nil
		}
	}()
	return esc.Propose(ctx, st)
}

// judgeCandidate evaluates one candidate.
func judgeCandidate(ctx context.Context, p *Problem, c Candidate, gd GDOptions, thr, limit float64) CandidateResult {
	cr := CandidateResult{Candidate: c, H: math.Inf(1), HProbe: math.Inf(1), Dist: -1}
	if c.X == nil || p.CheckX(c.X) != nil {
		cr.Reason = RejectInvalid
		return cr
	}
	h := p.H(c.X)
	if !isFinite(h) || h > limit {
		cr.Reason = RejectInvalid
		return cr
	}
	cr.H, cr.HProbe = h, h
	if p.HasTruth() {
		cr.Dist = p.DistStar(c.X)
	}
	if c.Probe > 0 {
		pg := GDOptions{Iteration: Iteration{Step: gd.Step, MaxIter: c.Probe, TraceEvery: c.Probe, DivergenceLimit: gd.DivergenceLimit}, GradTol: gd.GradTol}
		res, err := GradientDescent(ctx, p, c.X, pg)
		if err != nil || res.Stop == StopDiverged {
			cr.Reason = RejectProbeDiverged
			return cr
		}
		cr.HProbe, cr.ProbeIter, cr.ProbeX = res.H, res.Iter, res.X
	}
	cr.Descent = cr.HProbe < thr
	if !cr.Descent {
		cr.Reason = RejectNoDecrease
	}
	return cr
}

// appendTrace appends src to dst with iterations shifted by offset. A
// phase starts at the point where the escape landed, so the global
// iteration of the stalled point appears twice: once with h(X̂) and once
// with h(X̌), which makes the escape jump visible in plots.
func appendTrace(dst, src *Trace, offset int) {
	for k, it := range src.Iter {
		dst.Iter = append(dst.Iter, it+offset)
		dst.H = append(dst.H, src.H[k])
		dst.GradNorm = append(dst.GradNorm, src.GradNorm[k])
		if src.Dist != nil {
			dst.Dist = append(dst.Dist, src.Dist[k])
		}
		if src.Iterates != nil {
			dst.Iterates = append(dst.Iterates, src.Iterates[k])
		}
	}
}
