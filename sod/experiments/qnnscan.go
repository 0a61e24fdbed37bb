package experiments

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// QNNScanConfig configures RunQNNScan: the network of QNN and how the
// scan runs on it. A zero Starts, MaxIter, GradTol or HessTol means its
// default.
type QNNScanConfig struct {
	// QNN is the network (problem, start scale, GD step, first seed).
	QNN QNNConfig
	// Starts is the number of seeded starts, seeds QNN.Seed,
	// Seed+1, … (default 20).
	Starts int
	// MaxIter and GradTol stop each GD run (defaults 50000 and 1e-7): the
	// scan wants converged end points, not a fixed budget.
	MaxIter int
	GradTol float64
	// HessTol is the tolerance of the local-minimum test, relative to the
	// largest Hessian eigenvalue (default 1e-6).
	HessTol float64
}

// DefaultQNNScanConfig returns the documented defaults on the network of
// DefaultQNNConfig.
func DefaultQNNScanConfig() QNNScanConfig {
	return QNNScanConfig{QNN: DefaultQNNConfig(), Starts: 20, MaxIter: 50000, GradTol: 1e-7, HessTol: 1e-6}
}

// QNNMinimum is where GD from one seeded start ends, and what the SOD
// directions offer there. The fields after GradNorm are computed only for
// converged runs (zero otherwise). When GD diverges, H and X are those of
// its last finite iterate.
type QNNMinimum struct {
	Seed      uint64  `json:"seed"`
	Iter      int     `json:"iter"`
	Converged bool    `json:"converged"` // ‖∇h‖_F ≤ GradTol
	H         float64 `json:"h"`
	GradNorm  float64 `json:"grad_norm"`
	LambdaN   float64 `json:"lambda_n"` // λ_n(∇f(X̂X̂ᵀ))
	// HessMin is the smallest eigenvalue of the Hessian of h and HessFree
	// the smallest one outside the r(r−1)/2 directions X̂ ↦ X̂Q of the
	// rotations Q, along which h is constant.
	HessMin  float64 `json:"hess_min"`
	HessFree float64 `json:"hess_free"`
	// LocalMin: converged, Hessian PSD and positive definite outside the
	// rotation directions (a strict local minimum up to rotation).
	LocalMin bool `json:"local_min"`
	// Spurious: a local minimum whose h exceeds the lowest h of the scan
	// (QNNScanResult.BestH) by more than a relative 1e-6.
	Spurious bool `json:"spurious"`
	// BetaBest and GammaBest are min over every real c of h(c·u_n q_rᵀ)
	// and h(c·E X̂), in closed form (h(cD) = ½‖c²𝒜(DDᵀ) − b‖² is a
	// quadratic in c²). Every β-type (eq. x_check_beta) and γ-type
	// (eq. x_check_gamma) escape point is such a c·D, for every l, t, ρ,
	// η and both signs, so no SOD candidate has h below min(BetaBest,
	// GammaBest).
	BetaBest  float64 `json:"beta_best"`
	GammaBest float64 `json:"gamma_best"`
	// ShiftBest is the lowest h(X̂ + c·u_n q_rᵀ) over c = ±‖X̂‖_F·10^{k/50},
	// k = −150 … 150 (the single-step SOD line of section 4).
	ShiftBest float64 `json:"shift_best"`
	// X is GD's end point W (n×r, row-major).
	X []float64 `json:"x"`
}

// Validate checks c: Starts in [0, MaxBasicStarts·100], MaxIter in [0,
// MaxStudyRuns], GradTol and HessTol ≥ 0 (zero meaning the default), and
// the network c.QNN (QNNConfig.Validate). The error wraps
// ErrBadExperiment and names the bad value.
func (c QNNScanConfig) Validate() error {
	switch {
	case c.Starts < 0 || c.Starts > 100*MaxBasicStarts:
		return fmt.Errorf("%w: QNN scan Starts = %d, want [0, %d] (0: the default 20)", ErrBadExperiment, c.Starts, 100*MaxBasicStarts)
	case c.MaxIter < 0 || c.MaxIter > MaxStudyRuns:
		return fmt.Errorf("%w: QNN scan MaxIter = %d, want [0, %d] (0: the default 50000)", ErrBadExperiment, c.MaxIter, MaxStudyRuns)
	case !(c.GradTol >= 0):
		return fmt.Errorf("%w: QNN scan GradTol = %v, want ≥ 0 (0: the default 1e-7)", ErrBadExperiment, c.GradTol)
	case !(c.HessTol >= 0):
		return fmt.Errorf("%w: QNN scan HessTol = %v, want ≥ 0 (0: the default 1e-6)", ErrBadExperiment, c.HessTol)
	}
	return c.QNN.Validate()
}

// QNNScanResult is the outcome of RunQNNScan.
type QNNScanResult struct {
	BestH  float64      `json:"best_h"` // lowest h over the converged runs
	Minima []QNNMinimum `json:"minima"`
	// Spurious counts the runs that end at a spurious local minimum and
	// SODLowers those among them where some SOD escape point lowers h
	// (min(BetaBest, GammaBest) < H).
	Spurious  int `json:"spurious"`
	SODLowers int `json:"sod_lowers"`
}

// RunQNNScan runs GD to convergence from Starts seeded starts of the
// quadratic network of cfg (the same starts W₀ = InitScale·N(0, I) and step
// as RunQNN), classifies every end point (converged, local minimum, spurious)
// with sod.AnalyzeCritical, and bounds, at each end point, what the SOD
// escape points can achieve there (QNNMinimum.BetaBest, GammaBest) without
// choosing l, t, ρ or η. It is the check behind QNNConfig's findings: it
// answers "does GD stall at a spurious minimum here, and could any SOD
// candidate lower h there?".
//
// cfg is checked by Validate before any work; ctx stops the scan early with
// an error wrapping ctx.Err(); prog (may be nil) is told after every start.
//
// In a notebook session the result is remembered for later cells, keyed by
// cfg (see RunStudy).
func RunQNNScan(ctx context.Context, cfg QNNScanConfig, prog batch.ProgressFunc) (*QNNScanResult, error) {
	return remembered("experiments.RunQNNScan", cfg, prog, func() (*QNNScanResult, error) { return runQNNScan(ctx, cfg, prog) })
}

// runQNNScan is RunQNNScan without the session cache.
func runQNNScan(ctx context.Context, cfg QNNScanConfig, prog batch.ProgressFunc) (*QNNScanResult, error) {
	if err := checkContext(ctx, "RunQNNScan"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net, opt := cfg.QNN, cfg
	d := DefaultQNNScanConfig()
	if opt.Starts == 0 {
		opt.Starts = d.Starts
	}
	if opt.MaxIter == 0 {
		opt.MaxIter = d.MaxIter
	}
	if opt.GradTol == 0 {
		opt.GradTol = d.GradTol
	}
	if opt.HessTol == 0 {
		opt.HessTol = d.HessTol
	}
	p, err := QNNProblem(net)
	if err != nil {
		return nil, err
	}
	n, r := p.Dims()
	res := &QNNScanResult{BestH: math.Inf(1)}
	rot := r * (r - 1) / 2
	for s := 0; s < opt.Starts; s++ {
		seed := net.Seed + uint64(s)
		gd, err := sod.GradientDescent(ctx, p, qnnStart(p, net.InitScale, seed), sod.GDOptions{Iteration: sod.Iteration{Step: net.Step, MaxIter: opt.MaxIter, TraceEvery: opt.MaxIter}, GradTol: opt.GradTol})
		if err != nil {
			return nil, err
		}
		mn := QNNMinimum{Seed: seed, Iter: gd.Iter, Converged: gd.Stop == sod.StopConverged, H: gd.H, GradNorm: gd.GradNorm,
			X: append([]float64(nil), gd.X.RawMatrix().Data...)}
		if mn.Converged {
			res.BestH = math.Min(res.BestH, gd.H)
			cp, err := sod.AnalyzeCritical(p, gd.X, sod.CriticalOptions{SkipXi: true, AllowRankDeficient: true})
			if err != nil {
				return nil, fmt.Errorf("experiments: QNN scan seed %d: %w", seed, err)
			}
			mn.LambdaN, mn.HessMin = cp.LambdaN, cp.HessEig[0]
			mn.HessFree = cp.HessEig[min(rot, len(cp.HessEig)-1)]
			tol := opt.HessTol * math.Max(1, cp.HessEig[len(cp.HessEig)-1])
			mn.LocalMin = cp.HessEig[0] >= -tol && mn.HessFree > tol
			un := mat.NewDense(n, 1, cp.Un.RawVector().Data)
			var beta mat.Dense
			beta.Mul(un, cp.Qr.T())
			mn.BetaBest = rayMin(p, &beta)
			mn.GammaBest = rayMin(p, cp.EX)
			mn.ShiftBest = shiftMin(p, gd.X, &beta)
		}
		res.Minima = append(res.Minima, mn)
		prog.Report("quadratic network scan", s+1, opt.Starts)
	}
	for i := range res.Minima {
		mn := &res.Minima[i]
		mn.Spurious = mn.LocalMin && mn.H > res.BestH+1e-6*math.Max(1, res.BestH)
		if mn.Spurious {
			res.Spurious++
			if math.Min(mn.BetaBest, mn.GammaBest) < mn.H {
				res.SODLowers++
			}
		}
	}
	return res, nil
}

// rayMin returns min over real c of h(c·D) = ½‖c²a − b‖², a = 𝒜(DDᵀ):
// the minimiser over s = c² ≥ 0 is s = max(0, ⟨a, b⟩/‖a‖²).
func rayMin(p *sod.Problem, dir *mat.Dense) float64 {
	n, _ := dir.Dims()
	_, m := p.Op.Dims()
	dd := mat.NewDense(n, n, nil)
	dd.Mul(dir, dir.T())
	a := make([]float64, m)
	p.Op.Apply(a, dd)
	hb := floats.Dot(p.B, p.B) / 2
	ab, aa := floats.Dot(a, p.B), floats.Dot(a, a)
	if ab <= 0 || aa == 0 {
		return hb
	}
	return hb - ab*ab/aa/2
}

// shiftMin returns the lowest h(X + c·D) over c = ±‖X‖_F·10^{k/50},
// k = −150 … 150.
func shiftMin(p *sod.Problem, x, dir *mat.Dense) float64 {
	best := math.Inf(1)
	scale := mat.Norm(x, 2)
	var y mat.Dense
	for k := -150; k <= 150; k++ {
		c := scale * math.Pow(10, float64(k)/50)
		for _, sg := range []float64{1, -1} {
			y.Scale(sg*c, dir)
			y.Add(&y, x)
			best = math.Min(best, p.H(&y))
		}
	}
	return best
}
