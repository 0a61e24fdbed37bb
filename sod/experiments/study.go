package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/internal/resultcache"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/sod/randstream"
)

// StudyConfig configures the success-rate study of the paper's Fig.
// "numerical_study" (section 6.2): perturbed matrix completion (Appendix case
// 1) for several sizes n and perturbations ε, many random starts, GD against
// GD+SOD, success iff ‖XXᵀ − M*‖_F < SuccessTol.
//
// The paper does not state the rank, the ground truth, the initialisation or
// the step sizes of this study. Our choices (the defaults of
// DefaultStudyConfig), and why:
//
//   - r = 1 and z = (1, 0, 1, 0, …)ᵀ (entries 1 at the 1-based odd indices;
//     fields Rank and Truth, AlternatingTruth):
//     the n-dimensional version of the case study's z = (1, 0, 1). With the
//     paper's Ω the entries between two odd indices are exactly the
//     unobserved ones, so every sign pattern ±a on the odd entries that is not
//     constant gives a spurious solution (2^{⌈n/2⌉−1}−1 of them), the mechanism
//     the case study shows for n = 3.
//   - x₀ = InitScale·N(0, I) with InitScale = 0.01, the small random start of
//     the PMC case study (REPRODUCTION.md C10).
//   - GD step η = StepScale/n with StepScale = 0.5: near M* the curvature of
//     h along the even coordinates is ≈ ‖z‖² = ⌈n/2⌉ ≈ n/2 (z has a one at
//     every odd index), so a step ∝ 1/n is the
//     largest safe choice at every n. The case study's 0.001 (n = 3) would be
//     about 10× slower at n = 40 for no difference in the outcome.
//   - GD stops at ‖∇h‖_F ≤ GradTol = 1e-6 or after MaxIter = 20000 steps.
//   - SOD: the paper's closed-form escape (sod.MultiStepSOD) with the PMC
//     case study's l = 11, ρ = η = 0.1; t is chosen per stalled point by
//     sod.AutoT(1.1) (t must lie in U_β ∪ U_γ, which moves with λ_n; a fixed t
//     such as the case study's 59000 lies outside both intervals for many
//     of these instances). As in the paper the escape point is used even
//     when it does not lower h (sod.EscapeOptions.AllowAscent); every
//     escape records whether h(X̌) < h(X̂). After an escape GD runs again;
//     at most MaxEscapes = 3 escapes per trial (sod.RunEscape).
type StudyConfig struct {
	Sizes    []int     // n values (default 40, 50, 60, 70, 80)
	Epsilons []float64 // ε values (default 0.15, 0.10)
	Trials   int       // random starts per (n, ε) cell (default 50)
	// Rank is the search rank r (columns of X; default 1) and Truth the
	// ground-truth factor Z (n×k) for size n (default AlternatingTruth).
	Rank       int
	Truth      func(n int) (*mat.Dense, error)
	Seed       uint64      // master seed
	InitScale  float64     // x₀ = InitScale·N(0, I)
	StepScale  float64     // GD step η = StepScale/n
	Step       float64     // if > 0, a fixed GD step for every n (e.g. the case study's 0.001), overriding StepScale
	MaxIter    int         // GD steps per phase (before and after each escape)
	GradTol    float64     // GD stops when ‖∇h‖_F ≤ GradTol
	SuccessTol float64     // success iff ‖XXᵀ − M*‖_F < SuccessTol (paper: 0.02)
	MaxEscapes int         // SOD escapes per trial
	Escaper    sod.Escaper // escape variant (default sod.MultiStepAutoT(11, 0.1, 0.1, sod.AutoT(1.1)))
	TraceEvery int         // trajectory sampling (every TraceEvery GD steps)
	// Workers is the number of goroutines (default runtime.GOMAXPROCS(0)).
	// The result does not depend on it: every trial has its own seed.
	Workers int
	// DensePath evaluates on the dense O(n²) path instead of the
	// structured one (sod.Problem.DensePath; n ≤ sod.MaxDenseSize), to
	// check that the two give the same study.
	DensePath bool
}

// DefaultStudyConfig returns the paper's grid (n ∈ {40, …, 80}, ε ∈ {0.15,
// 0.10}, 50 trials) with the choices documented on StudyConfig.
func DefaultStudyConfig() StudyConfig {
	g := paper.SuccessStudy()
	return StudyConfig{
		Sizes: g.Sizes, Epsilons: g.Epsilons, Trials: g.Trials, Seed: 1,
		Rank: 1, Truth: AlternatingTruth, InitScale: 0.01, StepScale: 0.5, MaxIter: 20000, GradTol: 1e-6, SuccessTol: g.SuccessTol,
		MaxEscapes: 3, TraceEvery: 10,
	}
}

// Trajectory is ‖X_kX_kᵀ − M*‖_F sampled along a run; for GD+SOD the
// iteration count continues through the escapes and EscapeAt lists the
// indices into Iter at which an escape point was inserted.
type Trajectory struct {
	Iter     []int     `json:"iter"`
	Dist     []float64 `json:"dist"`
	EscapeAt []int     `json:"escape_at,omitempty"`
}

// StudyTrial is one random start of one (n, ε) cell.
type StudyTrial struct {
	Index      int             `json:"index"`
	GDDist     float64         `json:"gd_dist"` // final ‖XXᵀ − M*‖_F of GD
	GDSuccess  bool            `json:"gd_success"`
	GDIter     int             `json:"gd_iter"`
	GDX        []float64       `json:"gd_x"`     // GD's final point X (n×r, row-major); nil when n·r > MaxStudyKeepX
	SODDist    float64         `json:"sod_dist"` // final distance of GD+SOD
	SODSuccess bool            `json:"sod_success"`
	SODIter    int             `json:"sod_iter"` // total GD steps of GD+SOD
	Outcome    string          `json:"outcome"`  // sod.EscapeRun.Outcome, or "escape error: …" when the escape variant failed
	Escapes    []EscapeSummary `json:"escapes"`
	GD         Trajectory      `json:"gd"`
	SOD        Trajectory      `json:"sod"`
}

// MaxStudyKeepX is the largest n·r for which a trial keeps GD's final
// point (StudyTrial.GDX): above it the study's output would grow with n
// (about 2 MB of JSON per trial at n = 10⁵), and the distances, outcomes
// and trajectories are what the study is about.
const MaxStudyKeepX = 4096

// StudyCell is one (n, ε) cell of the study.
type StudyCell struct {
	N             int          `json:"n"`
	Eps           float64      `json:"eps"`
	GDSuccesses   int          `json:"gd_successes"`
	SODSuccesses  int          `json:"sod_successes"`
	Escapes       int          `json:"escapes"`        // escape rounds over all trials (failed rounds excluded)
	EscapeDescent int          `json:"escape_descent"` // rounds whose point lowered h
	EscapeErrors  int          `json:"escape_errors"`  // trials whose escape variant failed (see StudyTrial.Outcome)
	Trials        []StudyTrial `json:"trials"`
}

// StudyResult is the outcome of RunStudy, cells in the order Sizes × Epsilons
// (ε varying fastest).
type StudyResult struct {
	Config StudyConfig `json:"-"`
	Cells  []StudyCell `json:"cells"`
}

// PMCStudyProblem returns the study's default instance: the PMC operator
// of size n and perturbation ε, z = AlternatingTruth(n), search rank 1 (see
// StudyConfig).
func PMCStudyProblem(n int, eps float64) (*sod.Problem, error) {
	return pmcProblem(n, eps, 1, AlternatingTruth)
}

// MaxStudyN is the largest size n the study accepts (StudyConfig.Sizes,
// AlternatingTruth): an n-vector then takes 80 MB.
const MaxStudyN = 10_000_000

// MaxStudyRuns bounds the number of trials of a study (cells × trials per
// cell), whose results are all kept; MaxStudyWorkers bounds its goroutines.
const (
	MaxStudyRuns    = 10_000_000
	MaxStudyWorkers = 4096
)

// AlternatingTruth is the study's default ground truth z = (1, 0, 1, 0, …)ᵀ
// (n×1): entries 1 at the 1-based odd indices, the n-dimensional version of
// the PMC case study's z = (1, 0, 1). n must lie in [1, MaxStudyN] (else
// the error wraps ErrBadExperiment, before allocating).
func AlternatingTruth(n int) (*mat.Dense, error) {
	if n < 1 || n > MaxStudyN {
		return nil, fmt.Errorf("%w: AlternatingTruth needs n in [1, %d], got %d", ErrBadExperiment, MaxStudyN, n)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	return z, nil
}

func pmcProblem(n int, eps float64, rank int, truth func(int) (*mat.Dense, error)) (*sod.Problem, error) {
	op, err := sod.NewPMCOperator(n, eps)
	if err != nil {
		return nil, err
	}
	z, err := truth(n)
	if err != nil {
		return nil, err
	}
	if z == nil {
		return nil, fmt.Errorf("%w: Truth returned no matrix", ErrBadExperiment)
	}
	return sod.NewProblem(op, z, rank)
}

func (c *StudyConfig) validate() error {
	if c.Escaper == nil {
		c.Escaper = sod.MultiStepAutoT(11, 0.1, 0.1, sod.AutoT(1.1))
	}
	if c.TraceEvery <= 0 {
		c.TraceEvery = 10
	}
	if c.Truth == nil {
		c.Truth = AlternatingTruth
	}
	if c.Rank == 0 {
		c.Rank = 1
	}
	if c.Rank < 0 {
		return fmt.Errorf("%w: search rank %d, want ≥ 1 (0: the default 1)", ErrBadExperiment, c.Rank)
	}
	if c.Workers > MaxStudyWorkers {
		return fmt.Errorf("%w: %d workers, want at most %d (0: all cores)", ErrBadExperiment, c.Workers, MaxStudyWorkers)
	}
	if c.Workers < 0 {
		return fmt.Errorf("%w: %d workers, want ≥ 0 (0: all cores)", ErrBadExperiment, c.Workers)
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if len(c.Sizes) == 0 || len(c.Epsilons) == 0 {
		return fmt.Errorf("%w: study needs at least one size and one ε, got %d sizes and %d ε", ErrBadExperiment, len(c.Sizes), len(c.Epsilons))
	}
	if err := checkDistinct("study size n", c.Sizes); err != nil {
		return err
	}
	if err := checkDistinct("study ε", c.Epsilons); err != nil {
		return err
	}
	if err := sod.ValidateEscaper(c.Escaper); err != nil {
		return fmt.Errorf("study Escaper: %w", err)
	}
	for _, n := range c.Sizes { // the ground truth of every size, before any trial runs
		if n < 2 || n > MaxStudyN {
			break // refused below with the size's own message
		}
		z, err := c.Truth(n)
		if err != nil {
			return fmt.Errorf("study Truth(%d): %w", n, err)
		}
		if z == nil {
			return fmt.Errorf("%w: study Truth(%d) returned no matrix", ErrBadExperiment, n)
		}
		if zr, zc := z.Dims(); zr != n || zc < 1 || zc > n {
			return fmt.Errorf("%w: study Truth(%d) is %d×%d, want %d×k with 1 ≤ k ≤ %d", ErrBadExperiment, n, zr, zc, n, n)
		}
	}
	if c.Trials < 1 || c.Trials > MaxStudyRuns || len(c.Sizes)*len(c.Epsilons) > MaxStudyRuns/c.Trials {
		return fmt.Errorf("%w: %d trials per cell × %d cells, want trials ≥ 1 and at most %d runs in all", ErrBadExperiment, c.Trials, len(c.Sizes)*len(c.Epsilons), MaxStudyRuns)
	}
	for _, n := range c.Sizes {
		if n < 2 || n > MaxStudyN {
			return fmt.Errorf("%w: study size n = %d, want n in [2, %d]", ErrBadExperiment, n, MaxStudyN)
		}
		if c.Rank > n {
			return fmt.Errorf("%w: search rank %d exceeds the size n = %d, want rank in [1, n]", ErrBadExperiment, c.Rank, n)
		}
	}
	for _, e := range c.Epsilons {
		if !(e > 0) || math.IsInf(e, 0) {
			return fmt.Errorf("%w: ε = %v, want finite and > 0", ErrBadExperiment, e)
		}
	}
	for _, v := range []struct {
		name string
		v    float64
		pos  bool // must be > 0 (else ≥ 0)
	}{{"Step", c.Step, false}, {"InitScale", c.InitScale, true}, {"StepScale", c.StepScale, c.Step == 0}, {"GradTol", c.GradTol, false}, {"SuccessTol", c.SuccessTol, true}} {
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) || v.v < 0 || (v.pos && v.v == 0) {
			rng := "[0, ∞)"
			if v.pos {
				rng = "(0, ∞)"
			}
			return fmt.Errorf("%w: study %s = %v, want a finite value in %s", ErrBadExperiment, v.name, v.v, rng)
		}
	}
	if c.MaxIter < 1 || c.MaxEscapes < 0 {
		return fmt.Errorf("%w: study MaxIter = %d, MaxEscapes = %d, want MaxIter ≥ 1, MaxEscapes ≥ 0", ErrBadExperiment, c.MaxIter, c.MaxEscapes)
	}
	return nil
}

// Validate reports whether cfg is a valid study configuration (the checks
// RunStudy makes before any work, with the defaults it fills in), so that a
// command can refuse bad input before it creates files.
func (c StudyConfig) Validate() error { return c.validate() }

// trialRNG gives every trial its own stream (randstream.StudyTrials), so the outcome of a trial
// depends only on (Seed, cell, trial) and not on scheduling.
func trialRNG(seed uint64, cell, trial int) *rand.Rand {
	return randstream.NewIndexed(seed, randstream.StudyTrials, uint64(cell)<<32|uint64(trial))
}

// RunStudy runs the success-rate study. Trials run in parallel on
// cfg.Workers goroutines; the result is bit-identical to a serial run
// (Workers = 1) with the same seed, because each trial draws from its own
// seeded stream and writes only its own slot. prog (may be nil) is told after
// every finished trial, from the calling goroutine, with the share of the
// work done (trials weighted by their size n) for an ETA. Cancelling ctx
// stops the study early with ctx's error.
//
// RunStudy is RunStudyShard(ctx, cfg, 0, 1, prog) followed by MergeStudy, so a
// study run as N shards (on N machines) and merged is the same result.
//
// In a notebook session the result is remembered (package
// sod/internal/resultcache): a later call with an equal configuration, in
// any later cell, returns it without running the study again (prog is then
// told once that all the work is done). A configuration with an Escaper or
// a Truth function is run every time.
func RunStudy(ctx context.Context, cfg StudyConfig, prog batch.ProgressFunc) (*StudyResult, error) {
	var ran *StudyResult
	res, err := resultcache.Do("experiments.RunStudy", cfg, func() (*StudyResult, error) {
		r, err := runStudy(ctx, cfg, prog)
		if err != nil {
			return nil, err
		}
		ran = r
		return &StudyResult{Cells: r.Cells}, nil // the cells; Config holds the escaper, which gob cannot encode
	})
	if err != nil {
		return nil, err
	}
	if ran != nil {
		return ran, nil
	}
	res.Config = cfg
	if prog != nil {
		n := len(cfg.Sizes) * len(cfg.Epsilons) * cfg.Trials
		prog(batch.Progress{Label: "remembered", Done: n, Total: n, Work: 1, TotalWork: 1})
	}
	return res, nil
}

// runStudy runs the study (RunStudy without the cache).
func runStudy(ctx context.Context, cfg StudyConfig, prog batch.ProgressFunc) (*StudyResult, error) {
	sh, err := RunStudyShard(ctx, cfg, 0, 1, prog)
	if err != nil {
		return nil, err
	}
	res, err := MergeStudy([]*StudyShard{sh})
	if err != nil {
		return nil, err
	}
	res.Config = sh.config
	return res, nil
}

// countCell sets the cell's counts from its trials.
func countCell(c *StudyCell) {
	c.GDSuccesses, c.SODSuccesses, c.EscapeErrors, c.Escapes, c.EscapeDescent = 0, 0, 0, 0, 0
	for _, tr := range c.Trials {
		if tr.GDSuccess {
			c.GDSuccesses++
		}
		if tr.SODSuccess {
			c.SODSuccesses++
		}
		if strings.HasPrefix(tr.Outcome, "escape error") {
			c.EscapeErrors++
		}
		for _, e := range tr.Escapes {
			if e.Error != "" {
				continue // counted in EscapeErrors
			}
			c.Escapes++
			if e.Descent {
				c.EscapeDescent++
			}
		}
	}
}

// runTrial runs sod.RunEscape from a seeded start. GD and GD+SOD share
// the first GD phase: the GD baseline is that phase (GD has converged to a
// critical point or used its budget), GD+SOD continues with escapes.
func runTrial(ctx context.Context, p *sod.Problem, cfg *StudyConfig, cell, trial int) (*StudyTrial, error) {
	n, r := p.Dims()
	rng := trialRNG(cfg.Seed, cell, trial)
	x0 := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < r; k++ {
			x0.Set(i, k, cfg.InitScale*rng.NormFloat64())
		}
	}
	step := cfg.StepScale / float64(n)
	if cfg.Step > 0 {
		step = cfg.Step
	}
	opt := sod.EscapeOptions{
		GD:         sod.GDOptions{Iteration: sod.Iteration{Step: step, MaxIter: cfg.MaxIter, TraceEvery: cfg.TraceEvery}, GradTol: cfg.GradTol},
		MaxEscapes: cfg.MaxEscapes, TargetDist: cfg.SuccessTol, AllowAscent: true,
	}
	var run *sod.EscapeRun
	if cfg.MaxEscapes > 0 {
		// A failing escape variant does not lose the trial: sod.RunEscape
		// records the error and ends at GD's point.
		var err error
		if run, err = sod.RunEscape(ctx, p, x0, cfg.Escaper, opt); err != nil {
			return nil, err
		}
	} else {
		g, err := sod.GradientDescent(ctx, p, x0, opt.GD)
		if err != nil {
			return nil, err
		}
		run = &sod.EscapeRun{X: g.X, H: g.H, Outcome: sod.MaxEscapes, Trace: g.Trace, PhaseStart: []int{0}, Phases: []*sod.GDResult{g}}
	}
	g := run.Phases[0]
	tr := &StudyTrial{Index: trial, GDIter: g.Iter, GDDist: p.DistStar(g.X), Outcome: run.Outcome.String()}
	if run.Err != nil {
		tr.Outcome = "escape error: " + run.Err.Error()
	}
	tr.GDSuccess = g.Stop != sod.StopDiverged && tr.GDDist < cfg.SuccessTol
	if n*r <= MaxStudyKeepX {
		tr.GDX = append([]float64(nil), g.X.RawMatrix().Data...)
	}
	tr.GD = Trajectory{Iter: g.Trace.Iter, Dist: g.Trace.Dist}
	tr.SOD = Trajectory{Iter: run.Trace.Iter, Dist: run.Trace.Dist}
	at := 0
	for k, ph := range run.Phases {
		if k > 0 {
			tr.SOD.EscapeAt = append(tr.SOD.EscapeAt, at)
		}
		at += len(ph.Trace.Iter)
	}
	last := run.Phases[len(run.Phases)-1]
	tr.SODIter = run.PhaseStart[len(run.PhaseStart)-1] + last.Iter
	tr.SODDist = p.DistStar(run.X)
	tr.SODSuccess = last.Stop != sod.StopDiverged && tr.SODDist < cfg.SuccessTol
	tr.Escapes = summarizeEscapes(run.Escapes)
	return tr, nil
}

// remembered is run() under the session cache (package
// sod/internal/resultcache, keyed by kind and cfg); when the result comes
// from the cache, prog (if not nil) is told once that all the work is done.
func remembered[C, R any](kind string, cfg C, prog batch.ProgressFunc, run func() (R, error)) (R, error) {
	ran := false
	r, err := resultcache.Do(kind, cfg, func() (R, error) {
		ran = true
		return run()
	})
	if err == nil && !ran && prog != nil {
		prog(batch.Progress{Label: "remembered", Done: 1, Total: 1, Work: 1, TotalWork: 1})
	}
	return r, err
}
