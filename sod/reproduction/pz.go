package reproduction

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
	"sodworkbench.org/workbench/sod"
)

// Paley–Zygmund

// Monte Carlo settings of the moment rows.
const (
	pzN, pzM, pzSamples = 3, 10, 20000
	pzSeed              = 1
	pzDelta, pzTheta    = 0.3, 0.5
)

// PZValues are the report's values of the moments of S and the Paley–Zygmund bound (§4.3).
type PZValues struct {
	N, M, Samples int
	Seed          uint64
	Moments       []MomentValues // E S, E S², E S⁴
	Theta, Delta  float64
	Bound         float64 // (1−θ)² m/(3(m+2))
	Prob, ProbSE  float64 // Monte Carlo P(AIC ≥ θ E AIC) and its standard error
	BoundHolds    bool
}

// MomentValues is the k-th moment of S: the closed form, its Monte Carlo
// estimate with the standard error, and whether they agree within three
// standard errors.
type MomentValues struct {
	K              int
	Closed, MC, SE float64
	Agree          bool
}

func computePZ(ctx context.Context) (*PZValues, error) {
	v := &PZValues{}
	*v = PZValues{N: pzN, M: pzM, Samples: pzSamples, Seed: pzSeed, Theta: pzTheta, Delta: pzDelta}
	mean, second, fourth, err := sod.SMoments(pzM)
	if err != nil {
		return nil, err
	}
	samples, err := sod.SampleS(ctx, pzN, pzM, pzSamples, pzSeed)
	if err != nil {
		return nil, err
	}
	for _, m := range []struct {
		k      int
		closed float64
	}{{1, mean}, {2, second}, {4, fourth}} {
		x := make([]float64, len(samples))
		for i, s := range samples {
			x[i] = math.Pow(s, float64(m.k))
		}
		mc := floats.Sum(x) / float64(len(x))
		var ss float64
		for _, s := range x {
			ss += (s - mc) * (s - mc)
		}
		se := math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
		v.Moments = append(v.Moments, MomentValues{K: m.k, Closed: m.closed, MC: mc, SE: se, Agree: math.Abs(mc-m.closed) <= 3*se})
	}
	eAIC, _, err := sod.AICMoments(pzM, pzDelta)
	if err != nil {
		return nil, err
	}
	if v.Bound, err = sod.PZBound(pzTheta, pzM); err != nil {
		return nil, err
	}
	d2 := (1 + pzDelta) * (1 + pzDelta)
	hit := 0
	for _, s := range samples {
		if s*s/(2*d2) >= pzTheta*eAIC {
			hit++
		}
	}
	v.Prob = float64(hit) / float64(len(samples))
	v.ProbSE = math.Sqrt(v.Prob * (1 - v.Prob) / float64(len(samples)))
	v.BoundHolds = v.Prob >= v.Bound-3*v.ProbSE
	return v, nil
}
