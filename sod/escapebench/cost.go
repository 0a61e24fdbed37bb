package escapebench

import (
	"fmt"
	"math"
	"time"

	"sodworkbench.org/workbench/sod"
)

// Cost is the price of one run: the oracle calls counted by a
// sod.EvalCounter on the run's own counted problem (no global state, so
// runs on parallel workers count apart) and the CPU time of the run's
// goroutine (−1 where not measurable).
type Cost struct {
	sod.EvalCounts
	CPU  time.Duration `json:"-"`
	Wall time.Duration `json:"-"`
}

// TracePoint is one point of a run's convergence curve: h and
// ‖XXᵀ − M*‖_F after Grad gradient evaluations (all of the run's,
// escape proposals and probes included).
type TracePoint struct {
	Grad int64    `json:"grad"`
	H    OptFloat `json:"h"`
	Dist OptFloat `json:"dist"`
}

// CostWeights are the relative costs of the oracle calls in the
// benchmark's one cost unit, the ∇h-equivalent (one evaluation of h and
// ∇h together costs 1): Units = Grad + H·h evaluations + HessVec·Hessian–
// vector products + Eigen·eigen-solves.
type CostWeights struct {
	H       float64 `json:"h"`
	HessVec float64 `json:"hess_vec"`
	Eigen   float64 `json:"eigen"`
}

// DefaultCostWeights are the weights of the reports, round values inside
// the ratios BenchmarkOracleCosts measures on the benchmark's instances
// (Gaussian n = 20–40, PMC n = 20–1000; on one core, before and after the
// kernels' streaming rework), which vary with the family and n: an h
// evaluation 0.4–0.9 of a ∇h evaluation, a Hessian–vector product 2–22,
// an eigen-solve (the spectrum of ∇f(X̂X̂ᵀ) of an escape round,
// sod.AnalyzeCritical) from 8 at Gaussian n = 20 to several thousand at
// PMC n = 100. The counts of every run are stored raw
// (TrialResult.Cost, Hit), so a report can be redone with other weights;
// CPU time is reported beside the units.
var DefaultCostWeights = CostWeights{H: 0.75, HessVec: 8, Eigen: 300}

// Validate checks that the weights are finite and ≥ 0.
func (w CostWeights) Validate() error {
	for _, v := range []float64{w.H, w.HessVec, w.Eigen} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: CostWeights %+v, want finite weights ≥ 0", ErrBadBench, w)
		}
	}
	return nil
}

// Units returns the cost of c in ∇h-equivalents; weights that Validate
// refuses are an error.
func (w CostWeights) Units(c sod.EvalCounts) (float64, error) {
	if err := w.Validate(); err != nil {
		return 0, err
	}
	return w.units(c), nil
}

// units is Units for weights already validated.
func (w CostWeights) units(c sod.EvalCounts) float64 {
	return float64(c.Grad) + w.H*float64(c.H) + w.HessVec*float64(c.HessVec) + w.Eigen*float64(c.Eigen)
}
