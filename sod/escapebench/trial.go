package escapebench

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// TrialOptions configure every run (trial) of a benchmark: RunTrial's
// budget and success criterion (Suite.TrialOptions).
type TrialOptions struct {
	// MaxIter is the gradient descent budget of each phase (default 3000;
	// an instance may ask for more, StallPoint.PhaseIter).
	MaxIter int
	// MaxEscapes is the number of escape rounds per run (default 3).
	MaxEscapes int
	// SuccessDist: a run succeeds when it ends with ‖XXᵀ − M*‖_F <
	// SuccessDist (default DefaultMinDist = 0.02, the paper's criterion).
	SuccessDist float64
	// TracePoints is the number of trace points per GD phase (default 20).
	TracePoints int
	// Targets is the ladder each run records its first hits of
	// (TrialResult.Hits; nil: DefaultTargets with the success target at
	// SuccessDist).
	Targets []Target
}

// HitChecks is the number of target checks per trace point: a first hit
// is timed to 1/(TracePoints·HitChecks) of a GD phase.
const HitChecks = 10

// DefaultTrialOptions returns the defaults above.
func DefaultTrialOptions() TrialOptions {
	return TrialOptions{MaxIter: 3000, MaxEscapes: 3, SuccessDist: DefaultMinDist, TracePoints: 20, Targets: DefaultTargets()}
}

// Validate checks the options (all > 0, MaxIter ≤ 10⁷, MaxEscapes ≤ 1000).
func (o TrialOptions) Validate() error {
	if o.MaxIter < 1 || o.MaxIter > 10_000_000 || o.MaxEscapes < 1 || o.MaxEscapes > 1000 || !(o.SuccessDist > 0) || o.TracePoints < 1 || o.TracePoints > 10_000 {
		return fmt.Errorf("%w: TrialOptions MaxIter = %d (want 1…10⁷), MaxEscapes = %d (want 1…1000), SuccessDist = %v (want > 0), TracePoints = %d (want 1…10⁴)", ErrBadBench, o.MaxIter, o.MaxEscapes, o.SuccessDist, o.TracePoints)
	}
	if o.Targets == nil {
		return nil
	}
	return validateTargets(o.Targets)
}

// TrialResult is one run of a method from an instance's certified point.
// Every field is deterministic given the seed, except Cost.CPU and
// Cost.Wall (not in the JSON; see WriteTimingsCSV). (Family, Instance) names the
// instance, whose certificate is in the suite's InstanceInfo
// (SuiteRun.Instances; bench-instances.json of reproduce bench).
type TrialResult struct {
	Family   string            `json:"family"`
	Instance string            `json:"instance"`
	Method   string            `json:"method"`
	Params   map[string]string `json:"params"`
	Trial    int               `json:"trial"`
	Seed     uint64            `json:"seed"`
	Outcome  sod.Outcome       `json:"outcome"`
	Success  bool              `json:"success"`
	H        OptFloat          `json:"h"`    // final h (null if it overflowed)
	Dist     OptFloat          `json:"dist"` // final ‖XXᵀ − M*‖_F
	Rounds   int               `json:"rounds"`
	// Judge is the rule by which the run accepted candidates
	// (Method.Judge).
	Judge JudgingRule `json:"judge"`
	// Lowered counts the rounds whose accepted point X̌ lowered h by the
	// value it was judged on: h(X̌), or h after its probe
	// (sod.CandidateResult.HProbe).
	Lowered int  `json:"lowered"`
	Cost    Cost `json:"cost"`
	// Hits are the costs at which the run first reached each target of
	// the ladder it reached (TrialOptions.Targets), in ladder order.
	Hits  []Hit        `json:"hits"`
	Trace []TracePoint `json:"trace"`
	// Escapes says what happened in each escape round: the candidates
	// proposed and the one accepted (kind, line and t for SOD's).
	Escapes []EscapeRound `json:"escapes,omitempty"`
	Err     string        `json:"err,omitempty"`
}

// Key identifies a run: family, instance, method and trial.
func (t *TrialResult) Key() string {
	if t == nil {
		panic(fmt.Errorf("%w: TrialResult.Key on a nil run", ErrBadBench))
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d", t.Family, t.Instance, t.Method, t.Trial)
}

// TrialSeed is the seed of run (instance, method, trial) under the master
// seed: the same whatever the sharding, the workers or the order.
func TrialSeed(seed uint64, in CertifiedInstance, method string, trial int) uint64 {
	return seed ^ cellSeed(in.Family+"\x00"+in.Name+"\x00"+method, uint64(trial))
}

// RunTrial runs method m once from in's certified point with
// sod.RunEscape on a counted copy of the problem (sod.Problem.WithCounter)
// and records outcome, cost and the convergence trace.
func RunTrial(ctx context.Context, in CertifiedInstance, m Method, trial int, seed uint64, opt TrialOptions) (*TrialResult, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if m.New == nil || m.Name == "" {
		return nil, fmt.Errorf("%w: method %q has no name or no constructor", ErrBadBench, m.Name)
	}
	if in.P == nil || in.X == nil || !(in.Step > 0) {
		return nil, fmt.Errorf("%w: instance %q has no problem, point or step", ErrBadBench, in.Name)
	}
	ts := TrialSeed(seed, in, m.Name, trial)
	esc, err := m.New(in, ts)
	if err != nil {
		return nil, fmt.Errorf("escapebench: method %q: %w", m.Name, err)
	}
	defer closeEscaper(esc) // an external method's program (ExecCommand)
	res := &TrialResult{Family: in.Family, Instance: in.Name, Method: m.Name, Params: recordedParams(m, esc), Trial: trial, Seed: ts, Judge: m.judge(), Hits: []Hit{}}
	phase := max(opt.MaxIter, in.PhaseIter)
	if pr, ok := esc.(prober); ok {
		pr.setProbe(phase)
	}
	var counter sod.EvalCounter
	p := in.P.WithCounter(&counter)
	// The targets are checked HitChecks times per trace point (the first
	// hit's cost is that of the first check at or past it).
	every := max(1, phase/opt.TracePoints)
	check := max(1, every/HitChecks)
	targets := opt.Targets
	if targets == nil {
		targets = DefaultTargets()
		targets[SuccessTarget].Level = opt.SuccessDist
	}
	hits := newHitRecorder(targets, in.P.H(in.X), in.P.DistStar(in.X)) // on the uncounted problem
	const gradTol = 1e-10
	gd := sod.GDOptions{Iteration: sod.Iteration{Step: in.Step, MaxIter: phase, TraceEvery: check}, GradTol: gradTol}
	gd.Callback = func(k int, X *mat.Dense, h, gn float64) bool {
		c := counter.Counts()
		d := p.DistStar(X)
		hits.check(h, d, c)
		if k%every == 0 || k >= phase || gn <= gradTol { // a trace point, or the phase's last
			res.Trace = append(res.Trace, TracePoint{Grad: c.Grad, H: OptFloat(h), Dist: OptFloat(d)})
		}
		return true
	}
	// The escapers need the spectrum of ∇f(X̂X̂ᵀ), not the nr×nr Hessian
	// (O(n³) at the dense path's sizes): skip it.
	eo := sod.EscapeOptions{GD: gd, MaxEscapes: opt.MaxEscapes, TargetDist: opt.SuccessDist, Critical: sod.CriticalOptions{SkipHessian: true}}
	wall := time.Now()
	stop := threadCPU()
	run, err := sod.RunEscape(ctx, p, in.X, esc, eo)
	res.Cost.CPU = stop()
	if ext := closeEscaper(esc); ext > 0 && res.Cost.CPU >= 0 {
		res.Cost.CPU += ext // an external method's program
	}
	res.Cost.Wall = time.Since(wall)
	if err != nil {
		return nil, fmt.Errorf("escapebench: %s on %s trial %d: %w", m.Name, in.Name, trial, err)
	}
	res.Cost.EvalCounts = counter.Counts()
	res.Outcome, res.H = run.Outcome, OptFloat(run.H)
	dist := in.P.DistStar(run.X)
	res.Dist = OptFloat(dist)
	res.Success = dist < opt.SuccessDist
	if run.Err != nil {
		res.Err = run.Err.Error()
	}
	for _, rec := range run.Escapes {
		res.Rounds++
		res.Escapes = append(res.Escapes, roundOf(rec))
		// By the value the candidate was judged on: h after its probe,
		// if it had one (random restart's h(X̌) is that of a random start).
		if rec.Accepted >= 0 && rec.Candidates[rec.Accepted].HProbe < rec.HFrom {
			res.Lowered++
		}
	}
	res.Hits = hits.sorted()
	return res, nil
}
