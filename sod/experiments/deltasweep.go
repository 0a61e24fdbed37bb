package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// DeltaSweepConfig configures DeltaSweep: how the landscape of perturbed
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
	Seed     uint64    // the starts of size n come from PCG(Seed, n)
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

// DeltaSweep runs GD from cfg.Trials seeded starts on the PMC problem of
// every size and ε and counts the successes. Progress is reported per
// (n, ε).
func DeltaSweep(cfg DeltaSweepConfig, prog ProgressFunc) (*DeltaSweepResult, error) {
	if len(cfg.Sizes) == 0 || len(cfg.Epsilons) == 0 || cfg.Trials < 1 || !(cfg.Step > 0) || cfg.MaxIter < 1 || !(cfg.Success > 0) {
		return nil, fmt.Errorf("%w: δ sweep config %+v", sod.ErrBadParameter, cfg)
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
			op, err := sod.NewPMC(n, eps)
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
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(n)))
			x0 := mat.NewDense(n, 1, nil)
			succ := 0
			for range cfg.Trials {
				for i := range n {
					x0.Set(i, 0, rng.NormFloat64()/math.Sqrt(float64(n)))
				}
				g, err := sod.GradientDescent(p, x0, sod.GDOptions{Step: cfg.Step, MaxIter: cfg.MaxIter, GradTol: cfg.GradTol})
				if err != nil {
					return nil, err
				}
				if p.DistStar(g.X) < cfg.Success {
					succ++
				}
			}
			deltas[k], rates[k] = rip.Delta, float64(succ)/float64(cfg.Trials)
			done++
			prog.report("δ sweep", done, total)
		}
		res.Delta = append(res.Delta, deltas)
		res.Rate = append(res.Rate, rates)
	}
	return res, nil
}
