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

// BasicExampleConfig configures the basic example of the paper's Fig. 2 (section
// 1.1, eq. basic_example: n = 2, r = 1, z = e₁, spurious minima x̂ = (0,
// ±1/√2)): GD, SGD and GD+SOD from random starts, and the loss landscape.
//
// The paper does not give the starts, SGD's batch, the iteration budget or
// (l, t) for this figure. Defaults: Starts = 4 starts x₀ ~ N(0, I) drawn
// from Seed, with only starts whose GD run stalls at a spurious point kept
// (up to 100 seeds are tried), step 0.1 (REPRODUCTION.md C10) for GD, SGD (one
// measurement per step: sod.SGD seeded with the start's seed) and the
// GD phases of GD+SOD, 300 steps each; GD stalls when h decreased by less
// than a relative 1e-4 over 50 steps (the minimum is quartic along e₁, REPRODUCTION.md
// F5, so ‖∇h‖ decays slowly); SOD is the multi-step escape with l = 3,
// ρ = η = 0.1 and t from sod.AutoT(1.1) (here K_l = 2^{l−1} ≥ 1, so U_β = (0, ∞),
// U_γ = ∅ and the β-type point c_β e₁ is used).
type BasicExampleConfig struct {
	Starts    int
	Seed      uint64
	Step      float64
	Iters     int
	SGDBatch  int
	Escaper   sod.Escaper
	GridMin   float64 // landscape window [GridMin, GridMax]² (−1.5, 1.5)
	GridMax   float64
	GridSize  int // points per axis (101)
	OnlyStuck bool
}

// DefaultBasicExampleConfig returns the documented defaults.
func DefaultBasicExampleConfig() BasicExampleConfig {
	return BasicExampleConfig{Starts: 4, Seed: 1, Step: 0.1, Iters: 300, SGDBatch: 1,
		GridMin: -1.5, GridMax: 1.5, GridSize: 101, OnlyStuck: true}
}

// Path2D is a trajectory in the plane (rank-1, n = 2 iterates).
type Path2D struct {
	Method   string    `json:"method"` // "GD", "SGD" or "GD+SOD"
	Start    int       `json:"start"`
	X        []float64 `json:"x"`
	Y        []float64 `json:"y"`
	H        Floats    `json:"h"`
	Dist     Floats    `json:"dist"`                // ‖x xᵀ − M*‖_F
	EscapeAt []int     `json:"escape_at,omitempty"` // index of the first point after an escape
	Final    float64   `json:"final_dist"`
}

// BasicExampleResult is Fig. 2's data: the paths and the landscape h on a grid
// (H[j][i] = h(GridX[i], GridY[j]), to be drawn on a log scale as in the
// paper), with the special points.
type BasicExampleResult struct {
	Seeds  []uint64    `json:"seeds"` // the seed of each start
	Paths  []Path2D    `json:"paths"`
	GridX  []float64   `json:"grid_x"`
	GridY  []float64   `json:"grid_y"`
	H      [][]float64 `json:"h"`
	Z      [2]float64  `json:"z"`
	XHat   [2]float64  `json:"x_hat"`
	XCheck [][]float64 `json:"x_check"` // escape points used, one per escape
}

// Limits of BasicExampleConfig: at most MaxBasicStarts starts (searched among
// 100 seeds), MaxBasicIters GD/SGD steps per path (every iterate is kept)
// and a landscape grid of at most MaxBasicGrid points per axis.
const (
	MaxBasicStarts = 100
	MaxBasicIters  = 1_000_000
	MaxBasicGrid   = 2001
	// MaxBasicGridExtent bounds |GridMin| and |GridMax|: h grows as the
	// fourth power of the coordinates and overflows float64 far beyond.
	MaxBasicGridExtent = 1e6
)

// Validate checks cfg against the limits MaxBasicStarts, MaxBasicIters and
// MaxBasicGrid, naming the bad value and its range (an error wrapping
// ErrBadExperiment).
func (cfg BasicExampleConfig) Validate() error {
	switch {
	case cfg.Starts < 1 || cfg.Starts > MaxBasicStarts:
		return fmt.Errorf("%w: basic example Starts = %d, want [1, %d]", ErrBadExperiment, cfg.Starts, MaxBasicStarts)
	case !(cfg.Step > 0) || math.IsInf(cfg.Step, 0):
		return fmt.Errorf("%w: basic example Step = %v, want finite and > 0", ErrBadExperiment, cfg.Step)
	case cfg.Iters < 1 || cfg.Iters > MaxBasicIters:
		return fmt.Errorf("%w: basic example Iters = %d, want [1, %d]", ErrBadExperiment, cfg.Iters, MaxBasicIters)
	case cfg.SGDBatch < 0:
		return fmt.Errorf("%w: basic example SGDBatch = %d, want ≥ 0 (0: 1; above m = 2: full batch)", ErrBadExperiment, cfg.SGDBatch)
	case cfg.GridSize < 2 || cfg.GridSize > MaxBasicGrid:
		return fmt.Errorf("%w: basic example GridSize = %d, want [2, %d]", ErrBadExperiment, cfg.GridSize, MaxBasicGrid)
	case !(math.Abs(cfg.GridMin) <= MaxBasicGridExtent) || !(math.Abs(cfg.GridMax) <= MaxBasicGridExtent) || !(cfg.GridMax > cfg.GridMin):
		return fmt.Errorf("%w: basic example grid [%v, %v], want GridMin < GridMax in [−%g, %g]", ErrBadExperiment, cfg.GridMin, cfg.GridMax, MaxBasicGridExtent, MaxBasicGridExtent)
	}
	if cfg.Escaper != nil { // nil: the default
		if err := sod.ValidateEscaper(cfg.Escaper); err != nil {
			return fmt.Errorf("basic example Escaper: %w", err)
		}
	}
	return nil
}

// RunBasicExample runs Fig. 2's experiment on sod.BasicExampleProblem. cfg
// is checked by Validate before any work; ctx stops the runs early with an
// error wrapping ctx.Err(); prog (may be nil) is told after every start.
func RunBasicExample(ctx context.Context, cfg BasicExampleConfig, prog batch.ProgressFunc) (*BasicExampleResult, error) {
	if err := checkContext(ctx, "RunBasicExample"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Escaper == nil {
		cfg.Escaper = sod.MultiStepAutoT(3, 0.1, 0.1, sod.AutoT(1.1))
	}
	p := sod.BasicExampleProblem()
	xh := sod.BasicExampleXHat()
	res := &BasicExampleResult{Z: [2]float64{1, 0}, XHat: [2]float64{xh.At(0, 0), xh.At(1, 0)}}
	gdo := sod.GDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: cfg.Iters, KeepIterates: true}, StagnationWindow: 50, StagnationTol: 1e-4, StopOnStagnation: true, GradTol: 1e-10}
	total := cfg.Starts + 1
	for try := uint64(0); len(res.Seeds) < cfg.Starts && try < 100; try++ {
		seed := cfg.Seed + try // wraps around at 2⁶⁴: any Seed has 100 tries
		rng := randstream.New(seed, randstream.BasicExampleStarts)
		x0 := mat.NewDense(2, 1, []float64{rng.NormFloat64(), rng.NormFloat64()})
		run, err := sod.RunEscape(ctx, p, x0, cfg.Escaper, sod.EscapeOptions{GD: gdo, MaxEscapes: 1, AllowAscent: true, TargetDist: 1e-3})
		if err == nil {
			err = run.Err // the figure needs the escape: a failing variant is an error here
		}
		if err != nil {
			return nil, err
		}
		stuck := len(run.Phases) > 1 || p.DistStar(run.Phases[0].X) > 0.1
		if cfg.OnlyStuck && !stuck {
			continue
		}
		k := len(res.Seeds)
		res.Seeds = append(res.Seeds, seed)
		gd := run.Phases[0]
		res.Paths = append(res.Paths, path2D("GD", k, p, gd.Trace.Iterates, gd.Trace.H, nil))
		var esc []int
		at := 0
		for i, ph := range run.Phases {
			if i > 0 {
				esc = append(esc, at)
			}
			at += len(ph.Trace.Iter)
		}
		res.Paths = append(res.Paths, path2D("GD+SOD", k, p, run.Trace.Iterates, run.Trace.H, esc))
		for _, e := range run.Escapes {
			if e.Accepted >= 0 {
				x := e.Candidates[e.Accepted].X
				res.XCheck = append(res.XCheck, []float64{x.At(0, 0), x.At(1, 0)})
			}
		}
		sp, err := sgdPath(ctx, p, x0, cfg, seed)
		if err != nil {
			return nil, err
		}
		sp.Start = k
		res.Paths = append(res.Paths, *sp)
		prog.Report("basic example", k+1, total)
	}
	if len(res.Seeds) < cfg.Starts {
		return nil, fmt.Errorf("%w: only %d of %d starts stall at a spurious point in 100 seeds", ErrBadExperiment, len(res.Seeds), cfg.Starts)
	}
	res.GridX = linspace(cfg.GridMin, cfg.GridMax, cfg.GridSize)
	res.GridY = linspace(cfg.GridMin, cfg.GridMax, cfg.GridSize)
	res.H = make([][]float64, cfg.GridSize)
	x := mat.NewDense(2, 1, nil)
	for j, yv := range res.GridY {
		row := make([]float64, cfg.GridSize)
		for i, xv := range res.GridX {
			x.Set(0, 0, xv)
			x.Set(1, 0, yv)
			row[i] = p.H(x)
		}
		res.H[j] = row
	}
	prog.Report("basic example", total, total)
	return res, nil
}

func linspace(lo, hi float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return v
}

func path2D(method string, start int, p *sod.Problem, its []*mat.Dense, h []float64, esc []int) Path2D {
	pt := Path2D{Method: method, Start: start, EscapeAt: esc, H: append(Floats(nil), h...)}
	for _, x := range its {
		pt.X = append(pt.X, x.At(0, 0))
		pt.Y = append(pt.Y, x.At(1, 0))
		pt.Dist = append(pt.Dist, p.DistStar(x))
	}
	pt.Final = pt.Dist[len(pt.Dist)-1]
	return pt
}

// sgdPath runs sod.SGD from x0 with the start's seed, keeping every
// iterate (sod.SGDOptions.KeepIterates); a batch larger than m means full
// batch.
func sgdPath(ctx context.Context, p *sod.Problem, x0 *mat.Dense, cfg BasicExampleConfig, seed uint64) (*Path2D, error) {
	_, m := p.Op.Dims()
	batch := cfg.SGDBatch
	if batch > m {
		batch = m
	}
	res, err := sod.SGD(ctx, p, x0, sod.SGDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: cfg.Iters, KeepIterates: true}, Minibatch: sod.Minibatch{BatchSize: batch, Seed: seed}})
	if err != nil {
		return nil, err
	}
	pt := path2D("SGD", 0, p, res.Trace.Iterates, res.Trace.H, nil)
	return &pt, nil
}
