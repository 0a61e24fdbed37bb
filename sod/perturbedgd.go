package sod

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/randstream"
)

// PerturbedGD is the perturbation step of perturbed gradient descent (Jin,
// Ge, Netrapalli, Kakade, Jordan 2017): X̂ + ξ with ξ uniform in the
// Frobenius ball of radius Radius. Each candidate carries Probe = TThres, so
// the driver judges it by h after TThres GD steps, as the algorithm does
// (it keeps the perturbation only if GD then decreases h).
type PerturbedGD struct {
	Radius  float64
	TThres  int
	Samples int // perturbations per round (default 1)
	Seed    uint64

	rng *rand.Rand
}

var (
	_ Escaper   = (*PerturbedGD)(nil)
	_ Validator = (*PerturbedGD)(nil)
)

// DefaultPerturbedGD returns perturbed GD with the workbench's settings:
// perturbations of radius 0.1, each judged after t_thres = 50 GD steps,
// 10 perturbations per round, drawn from the stream of seed.
func DefaultPerturbedGD(seed uint64) *PerturbedGD {
	return &PerturbedGD{Radius: 0.1, TThres: 50, Samples: 10, Seed: seed}
}

// Name implements Escaper.
func (g *PerturbedGD) Name() string {
	if g == nil {
		return "nil PerturbedGD"
	}
	return fmt.Sprintf("perturbed GD (r=%g, t_thres=%d, seed=%d)", g.Radius, g.TThres, g.Seed)
}

// Validate checks the settings: Radius finite > 0, TThres ≥ 0 (at most
// MaxSubspaceSteps probe steps) and Samples in [0, MaxCandidates].
func (g *PerturbedGD) Validate() error {
	if g == nil {
		return fmt.Errorf("%w: nil PerturbedGD", ErrBadParameter)
	}
	switch {
	case !(g.Radius > 0) || math.IsInf(g.Radius, 0):
		return fmt.Errorf("%w: perturbed GD Radius = %v, want finite and > 0", ErrBadParameter, g.Radius)
	case g.TThres < 0 || g.TThres > MaxSubspaceSteps:
		return fmt.Errorf("%w: perturbed GD TThres = %d, want in [0, %d]", ErrBadParameter, g.TThres, MaxSubspaceSteps)
	case g.Samples < 0 || g.Samples > MaxCandidates:
		return fmt.Errorf("%w: perturbed GD Samples = %d, want in [0, MaxCandidates = %d]", ErrBadParameter, g.Samples, MaxCandidates)
	}
	return nil
}

// Propose implements Escaper.
func (g *PerturbedGD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	if g.rng == nil {
		g.rng = randstream.New(g.Seed, randstream.Perturbations)
	}
	k := g.Samples
	if k == 0 {
		k = 1
	}
	n, r := st.X.Dims()
	var out []Candidate
	for s := 0; s < k; s++ {
		xi := gaussianMatrix(g.rng, n, r)
		// Uniform in the ball: radius·U^{1/d} along a uniform direction.
		rad := g.Radius * math.Pow(g.rng.Float64(), 1/float64(n*r))
		xi.Scale(rad/mat.Norm(xi, 2), xi)
		xi.Add(xi, st.X)
		out = append(out, Candidate{X: xi, Label: fmt.Sprintf("perturbation %d", s), Probe: g.TThres})
	}
	return out, nil
}
