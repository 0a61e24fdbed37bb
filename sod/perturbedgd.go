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
//
// Its zero value is the workbench's perturbed GD (DefaultPerturbedGD with
// seed 0); its settings table (Params) has the keys radius, t_thres,
// samples and seed.
type PerturbedGD struct {
	// Radius is the radius of the Frobenius ball the perturbation ξ is
	// drawn from, finite and > 0. Zero means 0.1.
	Radius float64
	// TThres is Jin et al.'s t_thres: the GD steps after which each
	// perturbation is judged (its Candidate.Probe), in [1,
	// MaxSubspaceSteps]. Zero means 50.
	TThres int
	// Samples is the number of perturbations per round, in [1,
	// MaxCandidates]. Zero means 10.
	Samples int
	// Seed seeds the perturbations' generator (math/rand/v2 PCG), any
	// value; zero is the seed 0. The same Seed gives the same run.
	Seed uint64

	rng *rand.Rand
}

// The defaults PerturbedGD's zero fields stand for.
const (
	defaultPerturbRadius  = 0.1
	defaultPerturbTThres  = 50
	defaultPerturbSamples = 10
)

var (
	_ Escaper      = (*PerturbedGD)(nil)
	_ Validator    = (*PerturbedGD)(nil)
	_ Configurable = (*PerturbedGD)(nil)
)

// DefaultPerturbedGD returns perturbed GD with the workbench's settings,
// its zero value with Seed = seed: perturbations of radius 0.1, each
// judged after t_thres = 50 GD steps, 10 perturbations per round, drawn
// from the stream of seed.
func DefaultPerturbedGD(seed uint64) *PerturbedGD {
	return &PerturbedGD{Seed: seed}
}

// Params implements Configurable: the keys radius, t_thres, samples and
// seed, documented as the fields.
func (g *PerturbedGD) Params() []Param {
	if g == nil {
		return nil
	}
	return []Param{
		floatParam("radius", "radius of the perturbation ball, finite > 0 (0: 0.1)", &g.Radius, defaultPerturbRadius),
		intParam("t_thres", "GD steps after which each perturbation is judged, in [1, MaxSubspaceSteps] (0: 50)", &g.TThres, defaultPerturbTThres),
		intParam("samples", "perturbations per round, in [1, MaxCandidates] (0: 10)", &g.Samples, defaultPerturbSamples),
		uint64Param("seed", "seed of the perturbations' generator (0: seed 0)", &g.Seed),
	}
}

// eff returns g's settings with zeros replaced by their defaults.
func (g *PerturbedGD) eff() (radius float64, tthres, samples int) {
	return orDefault(g.Radius, defaultPerturbRadius), orDefault(g.TThres, defaultPerturbTThres), orDefault(g.Samples, defaultPerturbSamples)
}

// Name implements Escaper.
func (g *PerturbedGD) Name() string {
	if g == nil {
		return "nil PerturbedGD"
	}
	r, t, _ := g.eff()
	return fmt.Sprintf("perturbed GD (r=%g, t_thres=%d, seed=%d)", r, t, g.Seed)
}

// Validate checks the settings (zero ones stand for their defaults):
// Radius finite > 0, TThres in [1, MaxSubspaceSteps] probe steps and
// Samples in [1, MaxCandidates].
func (g *PerturbedGD) Validate() error {
	if g == nil {
		return fmt.Errorf("%w: nil PerturbedGD", ErrBadParameter)
	}
	radius, tthres, samples := g.eff()
	switch {
	case !(radius > 0) || math.IsInf(radius, 0):
		return fmt.Errorf("%w: perturbed GD Radius = %v, want finite and > 0 (0: %g)", ErrBadParameter, radius, defaultPerturbRadius)
	case tthres < 1 || tthres > MaxSubspaceSteps:
		return fmt.Errorf("%w: perturbed GD TThres = %d, want in [1, %d] (0: %d)", ErrBadParameter, tthres, MaxSubspaceSteps, defaultPerturbTThres)
	case samples < 1 || samples > MaxCandidates:
		return fmt.Errorf("%w: perturbed GD Samples = %d, want in [1, MaxCandidates = %d] (0: %d)", ErrBadParameter, samples, MaxCandidates, defaultPerturbSamples)
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
	radius, tthres, k := g.eff()
	n, r := st.X.Dims()
	var out []Candidate
	for s := 0; s < k; s++ {
		xi := gaussianMatrix(g.rng, n, r)
		// Uniform in the ball: radius·U^{1/d} along a uniform direction.
		rad := radius * math.Pow(g.rng.Float64(), 1/float64(n*r))
		xi.Scale(rad/mat.Norm(xi, 2), xi)
		xi.Add(xi, st.X)
		out = append(out, Candidate{X: xi, Label: fmt.Sprintf("perturbation %d", s), Probe: tthres})
	}
	return out, nil
}
