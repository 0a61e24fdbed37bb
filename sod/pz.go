package sod

import (
	"context"
	"fmt"
	"math"
	"sodworkbench.org/workbench/sod/randstream"
)

// SMoments returns the moments of S_𝒜(P, Q) = Σ_i ⟨A_i, P⟩⟨A_i, Q⟩ for
// P = u vᵀ + v uᵀ and Q = u uᵀ with orthonormal u, v, when the A_i are drawn
// from the Gaussian ensemble (eq. gaussian_ensemble), as derived in the
// paper's section 4.3: E S = 0, E S² = 2/m and E S⁴ = 12(m+2)/m³.
func SMoments(m int) (mean, second, fourth float64, err error) {
	if m < 1 {
		return 0, 0, 0, ErrNoMeasurements
	}
	fm := float64(m)
	return 0, 2 / fm, 12 * (fm + 2) / (fm * fm * fm), nil
}

// AICMoments returns E[AIC] = 1/((1+δ)² m) and E[AIC²] = 3(m+2)/((1+δ)⁴ m³),
// with AIC = S²/(2(1+δ)²) (section 4.3).
func AICMoments(m int, delta float64) (mean, second float64, err error) {
	if m < 1 {
		return 0, 0, ErrNoMeasurements
	}
	if !(delta >= 0 && delta < 1) {
		return 0, 0, fmt.Errorf("%w: δ = %v", ErrDelta, delta)
	}
	fm, d2 := float64(m), (1+delta)*(1+delta)
	return 1 / (d2 * fm), 3 * (fm + 2) / (d2 * d2 * fm * fm * fm), nil
}

// PZBound returns the Paley–Zygmund lower bound (eq. pz_inequality applied
// to V = AIC) P(AIC ≥ θ E[AIC]) ≥ (1−θ)² m/(3(m+2)), for θ ∈ [0, 1].
func PZBound(theta float64, m int) (float64, error) {
	if m < 1 {
		return 0, ErrNoMeasurements
	}
	if !(theta >= 0 && theta <= 1) {
		return 0, fmt.Errorf("%w: θ = %v, want θ ∈ [0, 1]", ErrBadParameter, theta)
	}
	fm := float64(m)
	return (1 - theta) * (1 - theta) * fm / (3 * (fm + 2)), nil
}

// Radii returns the radii of Theorem single-step-sod-formal
// (defs. r_1 and r_2):
//
//	r₂ = 2 (1+δ)/(1−δ) σ_r² Tr(M*),
//	r₁ = 2 [1 − 1/((1+δ)² m)] (1+δ)/(1−δ) σ_r² Tr(M*).
//
// They bound the squared distance ‖X̂X̂ᵀ − M*‖_F².
func Radii(delta, sigmaR, traceMStar float64, m int) (r1, r2 float64, err error) {
	if m < 1 {
		return 0, 0, ErrNoMeasurements
	}
	if !(delta >= 0 && delta < 1) {
		return 0, 0, fmt.Errorf("%w: δ = %v", ErrDelta, delta)
	}
	if !(sigmaR >= 0) || !(traceMStar >= 0) || math.IsInf(sigmaR, 0) || math.IsInf(traceMStar, 0) {
		return 0, 0, fmt.Errorf("%w: σ_r = %v, Tr(M*) = %v", ErrBadParameter, sigmaR, traceMStar)
	}
	r2 = 2 * (1 + delta) / (1 - delta) * sigmaR * sigmaR * traceMStar
	r1 = (1 - 1/((1+delta)*(1+delta)*float64(m))) * r2
	return r1, r2, nil
}

// PZCase is the case of Theorem single-step-sod-formal.
type PZCase int

const (
	// PZFar is Case 1: ‖X̂X̂ᵀ − M*‖² ≥ r₂, P(EFS > 1) = 1.
	PZFar PZCase = 1
	// PZNear is Case 2: ‖X̂X̂ᵀ − M*‖² < r₁, single-step SOD disabled
	// (probability 0 by the paper's conservative design).
	PZNear PZCase = 2
	// PZBand is Case 3: r₁ ≤ ‖X̂X̂ᵀ − M*‖² < r₂, P(EFS > 1) ≥ (1−θ)² m/(3(m+2)).
	PZBand PZCase = 3
)

// String returns the case's number with its zone: "1 (≥ r₂)", "2 (< r₁)"
// or "3 (band)".
func (c PZCase) String() string {
	return enumString("PZCase", []string{PZFar: "1 (≥ r₂)", PZNear: "2 (< r₁)", PZBand: "3 (band)"}, int(c))
}

// PZAnalysis is the probabilistic analysis of section 4.3 at one point.
type PZAnalysis struct {
	Delta  float64
	M      int
	SigmaR float64
	TraceM float64 // Tr(M*)
	Dist2  float64 // ‖X̂X̂ᵀ − M*‖_F²
	R1, R2 float64
	Case   PZCase
	// Theta is θ with Dist2 = θ r₁ + (1−θ) r₂ in Case 3 (0 in Case 1, 1
	// in Case 2), and Bound the theorem's lower bound on P(EFS > 1):
	// 1, 0 or (1−θ)² m/(3(m+2)).
	Theta, Bound float64
	// NCM is the point's actual NCM; ThetaNCM = (1 − NCM)(1+δ)² m is the θ
	// of the proof (1 − NCM = θ/((1+δ)² m)), which agrees with Theta only
	// when NCM attains the lower bound of Ma et al. used by the paper.
	// BoundNCM is PZBound(ThetaNCM) when ThetaNCM ∈ [0, 1], 1 when
	// ThetaNCM < 0 (NCM > 1) and 0 when ThetaNCM > 1.
	NCM, ThetaNCM, BoundNCM float64
}

// PaleyZygmund classifies the critical point cp of p (which must know M*)
// into the cases of Theorem single-step-sod-formal for the given δ, and
// evaluates the Paley–Zygmund bound. The theorem's Gaussian-ensemble
// assumption is not checked: for a non-Gaussian operator the numbers are
// what the theorem would say, not a guarantee.
func PaleyZygmund(p *Problem, cp *CriticalPoint, delta float64) (*PZAnalysis, error) {
	if cp == nil {
		return nil, fmt.Errorf("%w: nil critical point", ErrBadParameter)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !p.HasTruth() {
		return nil, ErrNoGroundTruth
	}
	tr := p.traceMStar()
	r1, r2, err := Radii(delta, cp.SigmaR, tr, cp.M)
	if err != nil {
		return nil, err
	}
	a := &PZAnalysis{Delta: delta, M: cp.M, SigmaR: cp.SigmaR, TraceM: tr, Dist2: cp.Dist * cp.Dist, R1: r1, R2: r2}
	switch {
	case a.Dist2 >= r2:
		a.Case, a.Theta, a.Bound = PZFar, 0, 1
	case a.Dist2 < r1:
		a.Case, a.Theta, a.Bound = PZNear, 1, 0
	default:
		a.Case = PZBand
		a.Theta = (r2 - a.Dist2) / (r2 - r1)
		a.Bound, _ = PZBound(a.Theta, cp.M)
	}
	a.NCM = -cp.LambdaN / (cp.SigmaR * cp.SigmaR * (1 + delta))
	a.ThetaNCM = (1 - a.NCM) * (1 + delta) * (1 + delta) * float64(cp.M)
	switch {
	case a.ThetaNCM < 0:
		a.BoundNCM = 1
	case a.ThetaNCM > 1:
		a.BoundNCM = 0
	default:
		a.BoundNCM, _ = PZBound(a.ThetaNCM, cp.M)
	}
	return a, nil
}

// MaxSamples bounds the Monte Carlo sample counts (SampleS, MonteCarloEFS).
const MaxSamples = 100_000_000

// SampleS draws samples independent values of S_𝒜(P, Q) = Σ_i ⟨A_i,P⟩⟨A_i,Q⟩:
// each sample is a fresh draw of m sensing matrices from the Gaussian
// ensemble (eq. gaussian_ensemble, n×n, entries drawn as in NewGaussianOperator),
// with P = u vᵀ + v uᵀ, Q = u uᵀ for one pair of orthonormal u, v drawn
// (seeded) at the start. Cost O(samples·m·n²): n must lie in
// [2, MaxDenseSize], samples in [1, MaxSamples] and m ≥ 1. ctx is checked
// every 1024 samples.
func SampleS(ctx context.Context, n, m, samples int, seed uint64) ([]float64, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	if m < 1 {
		return nil, fmt.Errorf("%w: SampleS with m = %d, want m ≥ 1", ErrNoMeasurements, m)
	}
	if n < 2 || n > MaxDenseSize || samples < 1 || samples > MaxSamples {
		return nil, fmt.Errorf("%w: SampleS needs n in [2, %d] and samples in [1, %d], got n = %d, samples = %d", ErrBadParameter, MaxDenseSize, MaxSamples, n, samples)
	}
	if m > MaxSamples {
		return nil, fmt.Errorf("%w: SampleS with m = %d measurements, more than MaxSamples = %d", ErrTooLarge, m, MaxSamples)
	}
	rng := randstream.New(seed, randstream.PZSamples)
	// Random orthonormal u, v by Gram–Schmidt on Gaussian vectors.
	u, v := make([]float64, n), make([]float64, n)
	for i := range u {
		u[i], v[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	normalize(u)
	d := 0.0
	for i := range u {
		d += u[i] * v[i]
	}
	for i := range v {
		v[i] -= d * u[i]
	}
	normalize(v)
	sd := 1 / math.Sqrt(float64(m))
	so := 1 / math.Sqrt(2*float64(m))
	out := make([]float64, samples)
	for s := range out {
		if s%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("sod: SampleS stopped at sample %d: %w", s, err)
			}
		}
		S := 0.0
		for i := 0; i < m; i++ {
			if i&0xffff == 0xffff { // a large m: check ctx within the sample too
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("sod: SampleS stopped at sample %d: %w", s, err)
				}
			}
			// ⟨A,P⟩ = 2 uᵀAv and ⟨A,Q⟩ = uᵀAu, accumulated entry by entry.
			psi, omega := 0.0, 0.0
			for j := 0; j < n; j++ {
				a := sd * rng.NormFloat64()
				psi += 2 * a * u[j] * v[j]
				omega += a * u[j] * u[j]
				for k := j + 1; k < n; k++ {
					a := so * rng.NormFloat64()
					psi += 2 * a * (u[j]*v[k] + u[k]*v[j])
					omega += 2 * a * u[j] * u[k]
				}
			}
			S += psi * omega
		}
		out[s] = S
	}
	return out, nil
}

func normalize(x []float64) {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	s = math.Sqrt(s)
	for i := range x {
		x[i] /= s
	}
}

// MCEstimate is a Monte Carlo probability estimate with its standard error
// √(p(1−p)/N).
type MCEstimate struct {
	P, StdErr float64
	Samples   int
}

// MonteCarloEFS estimates P(EFS > 1) = P(NCM + S²/(2(1+δ)²) > 1) under the
// Gaussian ensemble with n×n sensing matrices, holding NCM fixed as the
// paper's case analysis does, from samples draws of SampleS (seeded). Set
// it beside PZBound with θ = (1 − NCM)(1+δ)² m. ctx stops the sampling as
// in SampleS.
func MonteCarloEFS(ctx context.Context, n, m int, delta, ncm float64, samples int, seed uint64) (MCEstimate, error) {
	if !(delta >= 0 && delta < 1) {
		return MCEstimate{}, fmt.Errorf("%w: δ = %v", ErrDelta, delta)
	}
	if !isFinite(ncm) {
		return MCEstimate{}, fmt.Errorf("%w: NCM = %v", ErrBadParameter, ncm)
	}
	s, err := SampleS(ctx, n, m, samples, seed)
	if err != nil {
		return MCEstimate{}, err
	}
	hit := 0
	for _, v := range s {
		if ncm+v*v/(2*(1+delta)*(1+delta)) > 1 {
			hit++
		}
	}
	pr := float64(hit) / float64(samples)
	return MCEstimate{P: pr, StdErr: math.Sqrt(pr * (1 - pr) / float64(samples)), Samples: samples}, nil
}
