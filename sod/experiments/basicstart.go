package experiments

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// BasicStartConfig configures BasicFromStart: the three runs of the paper's
// Fig. basic_example (GD, SGD, GD + SOD) from one fixed start in the basin
// of x̂. The paper gives only the step 0.1; the other settings are ours.
type BasicStartConfig struct {
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

// DefaultBasicStartConfig returns the defaults listed on BasicStartConfig.
func DefaultBasicStartConfig() BasicStartConfig {
	return BasicStartConfig{X0: [2]float64{0.05, 1.0}, Step: 0.1, Phase: 300, L: 3, T: 40, Rho: 0.1, Eta: 0.1,
		SGDBatch: 1, SGDSeed: 7, SGDEvery: 5}
}

// BasicRuns holds the three runs from one start. GD and SOD keep every
// iterate (Trace.Iterates); SGD keeps every SGDEvery-th (SGDIter, SGDX),
// the last entry being its end point.
type BasicRuns struct {
	Config  BasicStartConfig
	P       *sod.Problem
	GD      *sod.GDResult
	SGDIter []int
	SGDX    []*mat.Dense
	SOD     *sod.EscapeRun // GD (Phase steps) → multi-step SOD → GD (Phase steps)
}

// BasicFromStart runs GD and SGD for 2·Phase steps from cfg.X0 on
// sod.BasicExample, and GD + SOD: Phase GD steps, one multi-step SOD escape
// (sod.MultiStepSOD with L, T, Rho, Eta) verified by sod.RunEscape to lower
// h, and Phase GD steps. An escape that fails is an error.
func BasicFromStart(cfg BasicStartConfig) (*BasicRuns, error) {
	if !(cfg.Step > 0) || cfg.Phase < 1 || cfg.SGDEvery < 1 {
		return nil, fmt.Errorf("%w: basic-example runs: step %v, phase %d, SGD every %d", sod.ErrBadParameter, cfg.Step, cfg.Phase, cfg.SGDEvery)
	}
	p := sod.BasicExample()
	x0 := mat.NewDense(2, 1, cfg.X0[:])
	gd, err := sod.GradientDescent(p, x0, sod.GDOptions{Step: cfg.Step, MaxIter: 2 * cfg.Phase, KeepIterates: true})
	if err != nil {
		return nil, err
	}
	s, err := sod.SGD(p, x0, sod.SGDOptions{Step: cfg.Step, MaxIter: 2 * cfg.Phase, BatchSize: cfg.SGDBatch, Seed: cfg.SGDSeed,
		TraceEvery: cfg.SGDEvery, KeepIterates: true})
	if err != nil {
		return nil, err
	}
	esc := &sod.MultiStepSOD{L: cfg.L, T: cfg.T, Rho: cfg.Rho, Eta: cfg.Eta}
	run, err := sod.RunEscape(p, x0, esc, sod.EscapeOptions{
		GD: sod.GDOptions{Step: cfg.Step, MaxIter: cfg.Phase, KeepIterates: true}, MaxEscapes: 1})
	if err != nil {
		return nil, err
	}
	if run.Err != nil {
		return nil, fmt.Errorf("the escape failed (outcome %s): %w", run.Outcome, run.Err)
	}
	return &BasicRuns{Config: cfg, P: p, GD: gd, SGDIter: s.Trace.Iter, SGDX: s.Trace.Iterates, SOD: run}, nil
}
