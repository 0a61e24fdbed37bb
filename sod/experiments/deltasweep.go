package experiments

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/randstream"
)

// DeltaSweepConfig configures RunDeltaSweep: how the landscape of perturbed
// matrix completion (Appendix case 1) turns less benign as its RIP
// constant δ grows. The PMC operator with weight ε on the unobserved entries
// has the exact RIP constant δ = 1 − ε² (sod.RIPExact), so ε dials δ.
type DeltaSweepConfig struct {
	Sizes    []int     // n; the ground truth is AlternatingTruth(n), rank 1
	Epsilons []float64 // ε ∈ (0, 1]
	Trials   int       // random starts x₀ ~ N(0, I/n) per (n, ε); the same starts for every ε
	Step     float64   // GD step
	MaxIter  int       // GD steps at most
	GradTol  float64   // GD stops at ‖∇h‖_F ≤ GradTol
	Success  float64   // success iff ‖XXᵀ − M*‖_F < Success (the paper's 0.02)
	Seed     uint64    // the starts of size n come from randstream.NewIndexed(Seed, DeltaSweepStarts, n)
}

// DefaultDeltaSweepConfig returns n ∈ {3, 6, 10}, ε from 1 down to 0.05
// (δ from 0 to 0.9975), 40 starts, GD step 0.05 for at most 5000 steps
// (‖∇h‖ ≤ 1e-9), success below 0.02, seed 2026.
func DefaultDeltaSweepConfig() DeltaSweepConfig {
	return DeltaSweepConfig{Sizes: []int{3, 6, 10}, Epsilons: []float64{1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05},
		Trials: 40, Step: 0.05, MaxIter: 5000, GradTol: 1e-9, Success: 0.02, Seed: 2026}
}

// DeltaSweepResult holds, for every size (outer index, as Sizes) and ε
// (inner index, as Epsilons), the exact RIP constant δ and the fraction of
// GD runs that succeed.
type DeltaSweepResult struct {
	Sizes    []int       `json:"sizes"`
	Epsilons []float64   `json:"epsilons"`
	Delta    [][]float64 `json:"delta"`
	Rate     [][]float64 `json:"success_rate"`
	Trials   int         `json:"trials"`
}

// Validate checks c: at least one size, each in [1, sod.MaxDenseSize]; at
// least one ε, each in (0, 1]; Trials in [1, MaxStudyRuns]; a finite Step
// > 0; MaxIter in [1, MaxStudyRuns]; GradTol ≥ 0; Success > 0. The error
// wraps ErrBadExperiment and names the bad value.
func (c DeltaSweepConfig) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: δ sweep "+format, append([]any{ErrBadExperiment}, a...)...)
	}
	switch {
	case len(c.Sizes) == 0:
		return bad("needs at least one size, got none")
	case len(c.Epsilons) == 0:
		return bad("needs at least one ε, got none")
	case c.Trials < 1 || c.Trials > MaxStudyRuns:
		return bad("Trials = %d, want [1, %d]", c.Trials, MaxStudyRuns)
	case !(c.Step > 0) || math.IsInf(c.Step, 0):
		return bad("Step = %v, want finite and > 0", c.Step)
	case c.MaxIter < 1 || c.MaxIter > MaxStudyRuns:
		return bad("MaxIter = %d, want [1, %d]", c.MaxIter, MaxStudyRuns)
	case !(c.GradTol >= 0):
		return bad("GradTol = %v, want ≥ 0", c.GradTol)
	case !(c.Success > 0):
		return bad("Success = %v, want > 0", c.Success)
	}
	for _, n := range c.Sizes {
		if n < 1 || n > sod.MaxDenseSize {
			return bad("size n = %d, want [1, sod.MaxDenseSize = %d]", n, sod.MaxDenseSize)
		}
	}
	for _, eps := range c.Epsilons {
		if !(eps > 0 && eps <= 1) {
			return bad("ε = %v, want (0, 1]", eps)
		}
	}
	if err := checkDistinct("δ sweep size n", c.Sizes); err != nil {
		return err
	}
	return checkDistinct("δ sweep ε", c.Epsilons)
}

// RunDeltaSweep runs GD from cfg.Trials seeded starts on the PMC problem of
// every size and ε and counts the successes. cfg is checked by Validate
// before any work; ctx stops the sweep early with an error wrapping
// ctx.Err(); prog (may be nil) is told after every (n, ε).
func RunDeltaSweep(ctx context.Context, cfg DeltaSweepConfig, prog batch.ProgressFunc) (*DeltaSweepResult, error) {
	if err := checkContext(ctx, "RunDeltaSweep"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	res := &DeltaSweepResult{Sizes: cfg.Sizes, Epsilons: cfg.Epsilons, Trials: cfg.Trials}
	total, done := len(cfg.Sizes)*len(cfg.Epsilons), 0
	for _, n := range cfg.Sizes {
		z, err := AlternatingTruth(n)
		if err != nil {
			return nil, err
		}
		deltas, rates := make([]float64, len(cfg.Epsilons)), make([]float64, len(cfg.Epsilons))
		for k, eps := range cfg.Epsilons {
			op, err := sod.NewPMCOperator(n, eps)
			if err != nil {
				return nil, err
			}
			rip, err := sod.RIPExact(op)
			if err != nil {
				return nil, err
			}
			p, err := sod.NewProblem(op, z, 1)
			if err != nil {
				return nil, err
			}
			rng := randstream.NewIndexed(cfg.Seed, randstream.DeltaSweepStarts, uint64(n))
			x0 := mat.NewDense(n, 1, nil)
			succ := 0
			for range cfg.Trials {
				for i := range n {
					x0.Set(i, 0, rng.NormFloat64()/math.Sqrt(float64(n)))
				}
				g, err := sod.GradientDescent(ctx, p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: cfg.MaxIter}, GradTol: cfg.GradTol})
				if err != nil {
					return nil, err
				}
				if p.DistStar(g.X) < cfg.Success {
					succ++
				}
			}
			deltas[k], rates[k] = rip.Delta, float64(succ)/float64(cfg.Trials)
			done++
			prog.Report("δ sweep", done, total)
		}
		res.Delta = append(res.Delta, deltas)
		res.Rate = append(res.Rate, rates)
	}
	return res, nil
}
