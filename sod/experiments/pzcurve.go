package experiments

import (
	"context"
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// PZCurveConfig configures RunPZCurve, the Paley–Zygmund bound of section 4.3
// against the probability it bounds, in the paper's coordinates: the squared
// distance D = ‖X̂X̂ᵀ − M*‖²_F runs across the band [r₁, r₂] (and beyond) for
// fixed n, m, δ and σ_r²·Tr(M*).
type PZCurveConfig struct {
	N, M    int     // matrix size and number of Gaussian measurements
	Delta   float64 // RIP constant δ ∈ [0, 1)
	SigmaTr float64 // σ_r²·Tr(M*) (σ_r = 1 and Tr(M*) = SigmaTr in sod.Radii)
	Points  int     // D values, from r₁ − 0.6(r₂ − r₁) to r₁ + 1.4(r₂ − r₁)
	Samples int     // Monte Carlo samples per D
	Seed    uint64  // point i uses seed Seed + i
}

// DefaultPZCurveConfig returns n = 3, m = 10, δ = 0.5, σ_r²Tr(M*) = 1, 25
// points, 3000 samples each, seed 100.
func DefaultPZCurveConfig() PZCurveConfig {
	return PZCurveConfig{N: 3, M: 10, Delta: 0.5, SigmaTr: 1, Points: 25, Samples: 3000, Seed: 100}
}

// PZCurveResult holds, for each squared distance D, the proof's θ, the
// theorem's lower bound on P(EFS > 1) (1 beyond r₂, 0 inside r₁, the
// Paley–Zygmund bound in between) and a Monte Carlo estimate of
// P(NCM + S²/(2(1+δ)²) > 1) with its standard error.
type PZCurveResult struct {
	R1      float64   `json:"r1"`
	R2      float64   `json:"r2"`
	D       []float64 `json:"d"`
	Theta   []float64 `json:"theta"`
	Bound   []float64 `json:"bound"`
	MC      []float64 `json:"monte_carlo"`
	StdErr  []float64 `json:"std_err"`
	Samples int       `json:"samples"`
}

// Validate checks c: Points in [2, MaxGridPoints], Samples in [1,
// sod.MaxSamples], δ in [0, 1), a finite SigmaTr > 0 (N, M and the radii
// are checked by sod.Radii and sod.MonteCarloEFS). The error wraps
// ErrBadExperiment and names the bad value.
func (c PZCurveConfig) Validate() error {
	switch {
	case c.Points < 2 || c.Points > MaxGridPoints:
		return fmt.Errorf("%w: P(EFS > 1) curve Points = %d, want [2, %d]", ErrBadExperiment, c.Points, MaxGridPoints)
	case c.Samples < 1 || c.Samples > sod.MaxSamples:
		return fmt.Errorf("%w: P(EFS > 1) curve Samples = %d, want [1, %d]", ErrBadExperiment, c.Samples, sod.MaxSamples)
	case !(c.Delta >= 0 && c.Delta < 1):
		return fmt.Errorf("%w: P(EFS > 1) curve δ = %v, want [0, 1)", ErrBadExperiment, c.Delta)
	case !(c.SigmaTr > 0) || math.IsInf(c.SigmaTr, 0):
		return fmt.Errorf("%w: P(EFS > 1) curve SigmaTr = %v, want finite and > 0", ErrBadExperiment, c.SigmaTr)
	}
	return nil
}

// RunPZCurve evaluates the bound and the Monte Carlo probability along D. The
// proof replaces NCM by its lower bound D/r₂, so
//
//	1 − NCM = θ/((1+δ)²m),  θ = (1 − D/r₂)(1+δ)²m,
//
// and the bound is sod.PZBound(θ, m) = (1−θ)² m/(3(m+2)) for D in [r₁, r₂).
// The Monte Carlo estimate (sod.MonteCarloEFS) draws fresh Gaussian
// ensembles for NCM = D/r₂. cfg is checked by Validate before any work;
// ctx stops the curve early with an error wrapping ctx.Err(); prog (may be
// nil) is told after every point.
func RunPZCurve(ctx context.Context, cfg PZCurveConfig, prog batch.ProgressFunc) (*PZCurveResult, error) {
	if err := checkContext(ctx, "RunPZCurve"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r1, r2, err := sod.Radii(cfg.Delta, 1, cfg.SigmaTr, cfg.M)
	if err != nil {
		return nil, err
	}
	res := &PZCurveResult{R1: r1, R2: r2, Samples: cfg.Samples}
	scale := (1 + cfg.Delta) * (1 + cfg.Delta) * float64(cfg.M)
	for i := range cfg.Points {
		d := r1 - 0.6*(r2-r1) + 2*(r2-r1)*float64(i)/float64(cfg.Points-1)
		ncm := d / r2
		theta := (1 - ncm) * scale
		var b float64
		switch {
		case d >= r2:
			b = 1
		case d < r1:
			b = 0
		default:
			if b, err = sod.PZBound(theta, cfg.M); err != nil {
				return nil, err
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("experiments: P(EFS > 1) curve stopped at point %d: %w", i, err)
		}
		est, err := sod.MonteCarloEFS(ctx, cfg.N, cfg.M, cfg.Delta, ncm, cfg.Samples, cfg.Seed+uint64(i))
		if err != nil {
			return nil, err
		}
		res.D, res.Theta, res.Bound = append(res.D, d), append(res.Theta, theta), append(res.Bound, b)
		res.MC, res.StdErr = append(res.MC, est.P), append(res.StdErr, est.StdErr)
		prog.Report("P(EFS > 1) curve", i+1, cfg.Points)
	}
	return res, nil
}
