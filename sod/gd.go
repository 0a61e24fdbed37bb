package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// DefaultDivergenceLimit is the divergence limit of GradientDescent, SGD,
// Adam and RunEscape when Iteration.DivergenceLimit is 0: an iteration
// whose h or ‖∇h‖_F exceeds it counts as diverged.
const DefaultDivergenceLimit = 1e150

// Iteration holds the options GradientDescent, SGD and Adam share (each
// embeds it): the step size, the number of steps, how often the trace is
// recorded and when a run counts as diverged.
type Iteration struct {
	// Step is the step size η > 0 (Adam's learning rate α).
	Step float64
	// MaxIter is the iteration cap (≥ 0; 0 only evaluates x0).
	MaxIter int
	// TraceEvery records the trace every TraceEvery iterations (default 1:
	// every iteration). Iteration 0 and the last iteration are always recorded.
	TraceEvery int
	// KeepIterates records a copy of every traced iterate in Trace.Iterates.
	// This allocates one n×r matrix per traced iteration and does not
	// change the iterates. False (zero): Trace.Iterates is nil.
	KeepIterates bool
	// DivergenceLimit: the run stops with StopDiverged when h or ‖∇h‖_F
	// exceeds it or becomes non-finite. 0 means DefaultDivergenceLimit;
	// otherwise it must lie in (0, +Inf] (+Inf: only overflow counts); NaN
	// or a negative value is an error.
	DivergenceLimit float64
}

// limit returns DivergenceLimit, or DefaultDivergenceLimit when it is 0.
func (it Iteration) limit() float64 {
	if it.DivergenceLimit == 0 {
		return DefaultDivergenceLimit
	}
	return it.DivergenceLimit
}

// check validates the shared options of the method named by name (GD,
// SGD or Adam), naming the bad value and its accepted range.
func (it Iteration) check(name string) error {
	switch {
	case !(it.Step > 0) || math.IsInf(it.Step, 0):
		return fmt.Errorf("%w: %s step %v, want finite > 0", ErrBadParameter, name, it.Step)
	case it.MaxIter < 0:
		return fmt.Errorf("%w: %s MaxIter = %d, want ≥ 0", ErrBadParameter, name, it.MaxIter)
	case it.TraceEvery < 0:
		return fmt.Errorf("%w: %s TraceEvery = %d, want ≥ 0", ErrBadParameter, name, it.TraceEvery)
	case !(it.DivergenceLimit >= 0):
		return fmt.Errorf("%w: %s DivergenceLimit = %v, want 0 (DefaultDivergenceLimit = %g) or a value in (0, +Inf]", ErrBadParameter, name, it.DivergenceLimit, DefaultDivergenceLimit)
	}
	return nil
}

// GDOptions configures GradientDescent, the plain iteration
// X ← X − Step·∇h(X) of the paper's experiments (section 6; step 0.1 for the
// basic and real-world cases, 0.001 for PMC).
type GDOptions struct {
	Iteration

	// GradTol stops the iteration with StopConverged once ‖∇h‖_F ≤ GradTol.
	// Zero disables the test.
	GradTol float64

	// StagnationWindow (at most MaxStagnationWindow) and StagnationTol
	// control stagnation detection:
	// GD has stagnated at iteration k ≥ W = StagnationWindow when
	// h_{k−W} − h_k ≤ StagnationTol·h_{k−W} while ‖∇h‖_F > GradTol, i.e.
	// h has not decreased by a relative StagnationTol over the last W
	// iterations although the gradient test has not been met (a plateau or a
	// slowly converging, singular minimum). Zero StagnationWindow disables it.
	StagnationWindow int
	// StagnationTol is the relative decrease of h below which GD has
	// stagnated over StagnationWindow iterations (see StagnationWindow),
	// ≥ 0. Zero: stagnated only when h does not decrease at all.
	StagnationTol float64
	// StopOnStagnation ends the run at the first stagnation (StopStagnated);
	// otherwise (false, zero) Stagnated is reported but GD continues.
	StopOnStagnation bool

	// Callback, if not nil, is called after each traced iteration (including
	// iteration 0) with the iteration number, the current iterate, h and
	// ‖∇h‖_F. Returning false stops the run (StopCallback). X is GD's own
	// buffer: the Callback must not retain it (copy what it keeps) and must
	// not modify it. GradientDescent checks X after each call and ends the
	// run with an error wrapping ErrBadParameter, naming the Callback and
	// the iteration, when the Callback changed X's shape (Reset, resizing)
	// or any of its entries.
	Callback func(iter int, X *mat.Dense, h, gradNorm float64) bool
}

// MaxStagnationWindow bounds GDOptions.StagnationWindow (GD keeps the last
// StagnationWindow values of h: 8 MiB at this limit).
const MaxStagnationWindow = 1 << 20

// tracePrealloc bounds the trace entries GradientDescent preallocates;
// longer traces grow as they are recorded (so MaxIter = math.MaxInt, "until
// converged", costs memory only for the iterations actually traced:
// 32 bytes each, plus an n×r copy with KeepIterates).
const tracePrealloc = 1 << 16

// gdLaneOff turns descend11 off (tests compare the two loops).
var gdLaneOff = false

// Trace is the history of a gradient descent run. Entry k corresponds to
// iteration Iter[k]; the first entry is iteration 0 (the starting point).
type Trace struct {
	Iter     []int
	H        []float64    // h(X_k)
	GradNorm []float64    // ‖∇h(X_k)‖_F
	Dist     []float64    // ‖X_kX_kᵀ − M*‖_F; nil when M* is unknown
	Iterates []*mat.Dense // copies of X_k when GDOptions.KeepIterates
}

// GDResult is the outcome of GradientDescent, SGD and Adam.
type GDResult struct {
	// X is the final iterate, or the last finite iterate when the run
	// diverged.
	X *mat.Dense
	// Iter is the number of gradient steps taken (X is X_Iter).
	Iter int
	// Stop says why the run ended: StopConverged (‖∇h(X)‖_F ≤ GradTol),
	// StopMaxIter, StopStagnated (with StopOnStagnation), StopDiverged (h
	// or ∇h overflowed or exceeded DivergenceLimit; X is the last iterate
	// at which both were finite and below the limit) or StopCallback.
	Stop StopReason
	// Stagnated: stagnation was detected (see GDOptions.StagnationWindow),
	// whether or not the run stopped there.
	Stagnated bool
	// StagnatedAt is the first iteration at which stagnation was detected
	// (−1 if never).
	StagnatedAt int
	// H and GradNorm are h(X) and ‖∇h(X)‖_F at the returned X.
	H, GradNorm float64
	Trace       Trace
}

// GradientDescent runs X_{k+1} = X_k − η∇h(X_k) from x0 (n×r, finite).
// It stops when ‖∇h‖_F ≤ GradTol, after MaxIter steps, on stagnation if
// requested, when the Callback returns false, or on overflow (never
// returns NaN); GDResult.Stop says which. The loop runs in preallocated
// workspaces and does not allocate per iteration (except for KeepIterates
// copies). ctx is checked before the first step and every 1024 steps; once
// it is done GradientDescent returns an error wrapping ctx.Err().
func GradientDescent(ctx context.Context, p *Problem, x0 mat.Matrix, opt GDOptions) (*GDResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckX(x0); err != nil {
		return nil, err
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	every := opt.TraceEvery
	if every == 0 {
		every = 1
	}
	limit := opt.limit()
	n, r := p.Dims()
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)

	x := mat.DenseCopyOf(x0)
	flushDense(x) // the rule of every step (flushTiny), from the start
	next := mat.NewDense(n, r, nil)
	g := mat.NewDense(n, r, nil)
	capTrace := min(opt.MaxIter/every, tracePrealloc) + 2
	res := &GDResult{StagnatedAt: -1, Stop: StopMaxIter}
	tr := &res.Trace
	tr.Iter = make([]int, 0, capTrace)
	tr.H = make([]float64, 0, capTrace)
	tr.GradNorm = make([]float64, 0, capTrace)
	if p.HasTruth() {
		tr.Dist = make([]float64, 0, capTrace)
	}
	if opt.KeepIterates {
		tr.Iterates = make([]*mat.Dense, 0, capTrace)
	}
	var ring []float64
	if opt.StagnationWindow > 0 {
		ring = make([]float64, opt.StagnationWindow+1)
	}
	var seen *mat.Dense // X as the Callback received it
	if opt.Callback != nil {
		seen = mat.NewDense(n, r, nil)
	}
	var cbErr error // the Callback broke its contract (record returned false)
	record := func(k int, h, gn float64) bool {
		tr.Iter = append(tr.Iter, k)
		tr.H = append(tr.H, h)
		tr.GradNorm = append(tr.GradNorm, gn)
		if p.HasTruth() {
			// Every record follows a gradFast at x, which for a structured
			// problem has left ‖xxᵀ − M*‖_F in ws.sw.dist.
			if p.st != nil {
				tr.Dist = append(tr.Dist, ws.sw.dist)
			} else {
				tr.Dist = append(tr.Dist, p.distStar(ws, x))
			}
		}
		if opt.KeepIterates {
			tr.Iterates = append(tr.Iterates, mat.DenseCopyOf(x))
		}
		if opt.Callback != nil {
			seen.Copy(x)
			raw := x.RawMatrix()
			goOn := opt.Callback(k, x, h, gn)
			if cbErr = callbackChanged(k, x, raw, seen); cbErr != nil {
				return false
			}
			return goOn
		}
		return true
	}
	h := p.gradFast(ws, g, x)
	gn := gradNorm{g: g, ss: -1}
	if overLimit(h, &gn, limit) {
		return nil, fmt.Errorf("%w: h(x0) = %v, ‖∇h(x0)‖ = %v overflow", ErrNotFinite, h, gn.value())
	}
	k := 0
	lastRecorded := -1
	// diverge ends the run at x = X_k, whose step overflowed or passed
	// the limit: h and ∇h are evaluated there again (and counted).
	diverge := func() {
		h = p.gradFast(ws, g, x)
		gn = gradNorm{g: g, ss: -1}
		res.Stop = StopDiverged
		if lastRecorded != k {
			record(k, h, gn.value())
		}
	}
	lane := ring == nil && !gdLaneOff && p.laneUsable(x, next, g)
	laneRetry := 0
	for {
		if ring != nil {
			ring[k%len(ring)] = h
		}
		converged := opt.GradTol > 0 && gn.within(opt.GradTol)
		stop := converged || k >= opt.MaxIter
		if ring != nil && !converged && k >= opt.StagnationWindow {
			old := ring[(k-opt.StagnationWindow)%len(ring)]
			if old-h <= opt.StagnationTol*math.Abs(old) {
				if !res.Stagnated {
					res.Stagnated, res.StagnatedAt = true, k
				}
				if opt.StopOnStagnation && !stop {
					stop = true
					res.Stop = StopStagnated
				}
			}
		}
		if k%every == 0 || stop {
			lastRecorded = k
			if !record(k, h, gn.value()) {
				if cbErr != nil {
					return nil, cbErr
				}
				res.Stop = StopCallback
				stop = true
			}
		}
		if converged {
			res.Stop = StopConverged
		}
		if stop {
			break
		}
		// Between trace points the structured r = 1 path steps in one
		// pass (descend11).
		if lane && k >= laneRetry {
			if to := laneTarget(k, every, opt.MaxIter); to-k >= laneMinSteps {
				ls, err := p.descend11(ctx, ws, x, next, g, -opt.Step, k, to, opt.GradTol, limit)
				if err != nil {
					return nil, err
				}
				x, next = ls.x, ls.next
				if ls.end == laneDiverged {
					k = ls.k
					diverge()
					break
				}
				if ls.end == laneNotTaken || ls.end == laneExact {
					laneRetry = ls.k + laneBackoff
				}
				if ls.end != laneNotTaken {
					k, h, gn = ls.k, ls.h, ls.gn
					continue
				}
			}
		}
		// Step into next, keeping x in case of overflow.
		nh, ss := p.stepGradFast(ws, next, x, g, -opt.Step)
		ngn := gradNorm{g: g, ss: ss}
		if overLimit(nh, &ngn, limit) {
			diverge()
			break
		}
		x, next = next, x
		h, gn = nh, ngn
		k++
		if k%gdCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("sod: gradient descent stopped at iteration %d: %w", k, err)
			}
		}
	}
	if cbErr != nil { // at the record of a diverged run
		return nil, cbErr
	}
	res.X, res.Iter, res.H, res.GradNorm = x, k, h, gn.value()
	return res, nil
}

// callbackChanged returns the error of a GDOptions.Callback that changed
// X at iteration k: X's shape or storage is no longer raw's (Reset,
// resizing, growing), or an entry differs from seen (X before the call),
// bit for bit. It returns nil when X is as the Callback received it.
func callbackChanged(k int, x *mat.Dense, raw blas64.General, seen *mat.Dense) error {
	n, r := seen.Dims()
	now := x.RawMatrix()
	if x.IsEmpty() || now.Rows != n || now.Cols != r || now.Stride != raw.Stride || &now.Data[0] != &raw.Data[0] {
		a, b := now.Rows, now.Cols
		return fmt.Errorf("%w: GD Callback changed X from %d×%d to %d×%d (or its storage) at iteration %d: the Callback must not modify X (copy it)", ErrBadParameter, n, r, a, b, k)
	}
	for i := 0; i < n; i++ {
		got, was := x.RawRowView(i), seen.RawRowView(i)
		for j, v := range got {
			if math.Float64bits(v) != math.Float64bits(was[j]) {
				return fmt.Errorf("%w: GD Callback changed X[%d,%d] from %v to %v at iteration %d: the Callback must not modify X (copy it)", ErrBadParameter, i, j, was[j], v, k)
			}
		}
	}
	return nil
}

// check validates the options (other than the Problem), naming the bad
// value and its accepted range.
func (opt *GDOptions) check() error {
	if err := opt.Iteration.check("GD"); err != nil {
		return err
	}
	if opt.StagnationWindow < 0 || opt.StagnationWindow > MaxStagnationWindow {
		return fmt.Errorf("%w: GD StagnationWindow = %d, want in [0, MaxStagnationWindow = %d]", ErrBadParameter, opt.StagnationWindow, MaxStagnationWindow)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"GradTol", opt.GradTol}, {"StagnationTol", opt.StagnationTol}} {
		if !(v.v >= 0) || math.IsInf(v.v, 0) {
			return fmt.Errorf("%w: GD %s = %v, want finite and ≥ 0", ErrBadParameter, v.name, v.v)
		}
	}
	return nil
}
