package experiments

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// BasicFromStartConfig configures RunBasicFromStart: the three runs of the paper's
// Fig. basic_example (GD, SGD, GD + SOD) from one fixed start in the basin
// of x̂. The paper gives only the step 0.1; the other settings are ours.
type BasicFromStartConfig struct {
	X0       [2]float64 // the start (default (0.05, 1.0), in the basin of x̂ = (0, 1/√2))
	Step     float64    // GD and SGD step (0.1)
	Phase    int        // GD steps before the escape and again after it (300); GD and SGD run 2·Phase steps
	L        int        // lifting order of the escape (3)
	T        int64      // TPGD steps t of the escape (40)
	Rho, Eta float64    // ρ, η of the escape (0.1, 0.1)
	SGDBatch int        // measurements per SGD step, of m = 3 (1)
	SGDSeed  uint64     // (7)
	SGDEvery int        // SGD iterates are kept every SGDEvery steps (5)
}

// DefaultBasicFromStartConfig returns the defaults listed on BasicFromStartConfig.
func DefaultBasicFromStartConfig() BasicFromStartConfig {
	return BasicFromStartConfig{X0: [2]float64{0.05, 1.0}, Step: 0.1, Phase: 300, L: 3, T: 40, Rho: 0.1, Eta: 0.1,
		SGDBatch: 1, SGDSeed: 7, SGDEvery: 5}
}

// BasicFromStartResult holds the three runs from one start. GD and SOD keep every
// iterate (Trace.Iterates); SGD keeps every SGDEvery-th (SGDIter, SGDX),
// the last entry being its end point.
type BasicFromStartResult struct {
	Config  BasicFromStartConfig
	P       *sod.Problem
	GD      *sod.GDResult
	SGDIter []int
	SGDX    []*mat.Dense
	SOD     *sod.EscapeRun // GD (Phase steps) → multi-step SOD → GD (Phase steps)
}

// Validate checks cfg: Step finite and > 0, Phase in [1, MaxBasicIters/2],
// SGDEvery ≥ 1 (an error wrapping ErrBadExperiment naming the value).
func (cfg BasicFromStartConfig) Validate() error {
	switch {
	case !(cfg.Step > 0) || math.IsInf(cfg.Step, 0):
		return fmt.Errorf("%w: basic-example runs Step = %v, want finite and > 0", ErrBadExperiment, cfg.Step)
	case cfg.Phase < 1 || cfg.Phase > MaxBasicIters/2:
		return fmt.Errorf("%w: basic-example runs Phase = %d, want [1, %d]", ErrBadExperiment, cfg.Phase, MaxBasicIters/2)
	case cfg.SGDEvery < 1:
		return fmt.Errorf("%w: basic-example runs SGDEvery = %d, want ≥ 1", ErrBadExperiment, cfg.SGDEvery)
	}
	// The escaper the run builds (the same settings, checked by its own rule).
	if err := (&sod.MultiStepSOD{L: cfg.L, T: cfg.T, Rho: cfg.Rho, Eta: cfg.Eta}).Validate(); err != nil {
		return fmt.Errorf("basic-example runs: %w", err)
	}
	return nil
}

// RunBasicFromStart runs GD and SGD for 2·Phase steps from cfg.X0 on
// sod.BasicExampleProblem, and GD + SOD: Phase GD steps, one multi-step SOD
// escape (sod.MultiStepSOD with L, T, Rho, Eta) verified by sod.RunEscape
// to lower h, and Phase GD steps. An escape that fails is an error. cfg is
// checked by Validate before any work; ctx stops the runs early; prog (may
// be nil) is told after each of the three runs.
func RunBasicFromStart(ctx context.Context, cfg BasicFromStartConfig, prog batch.ProgressFunc) (*BasicFromStartResult, error) {
	if err := checkContext(ctx, "RunBasicFromStart"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	const label = "basic example from one start"
	p := sod.BasicExampleProblem()
	x0 := mat.NewDense(2, 1, cfg.X0[:])
	gd, err := sod.GradientDescent(ctx, p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: 2 * cfg.Phase, KeepIterates: true}})
	if err != nil {
		return nil, err
	}
	prog.Report(label, 1, 3)
	s, err := sod.SGD(ctx, p, x0, sod.SGDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: 2 * cfg.Phase, TraceEvery: cfg.SGDEvery, KeepIterates: true}, Minibatch: sod.Minibatch{BatchSize: cfg.SGDBatch, Seed: cfg.SGDSeed}})
	if err != nil {
		return nil, err
	}
	prog.Report(label, 2, 3)
	esc := &sod.MultiStepSOD{L: cfg.L, T: cfg.T, Rho: cfg.Rho, Eta: cfg.Eta}
	run, err := sod.RunEscape(ctx, p, x0, esc, sod.EscapeOptions{
		GD: sod.GDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: cfg.Phase, KeepIterates: true}}, MaxEscapes: 1})
	if err != nil {
		return nil, err
	}
	if run.Err != nil {
		return nil, fmt.Errorf("the escape failed (outcome %s): %w", run.Outcome, run.Err)
	}
	prog.Report(label, 3, 3)
	return &BasicFromStartResult{Config: cfg, P: p, GD: gd, SGDIter: s.Trace.Iter, SGDX: s.Trace.Iterates, SOD: run}, nil
}
