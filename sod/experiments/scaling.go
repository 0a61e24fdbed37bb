package experiments

import (
	"fmt"
	"math"
	"sort"
)

// This file holds the study beyond the paper's range of n (the paper stops
// at n = 80): the success rates of GD and GD + SOD as n grows at fixed ε,
// made affordable by the structured PMC path (sod.NewProblem: O(n) per GD
// step, no n×n array).
//
// What it shows on the study's instances (z = (1, 0, 1, 0, …), r = 1): GD's
// failures vanish as n grows. The reason is visible in the critical-point
// equation. A sign pattern x_i = s_i a_i on the m = ⌈n/2⌉ odd (1-based)
// coordinates, zero elsewhere, is a critical point of h when
//
//	(1 − ε²) a_i² = 1 − ε² − ε²(‖x‖² − s_i S/a_i),  S = Σ_i x_i,
//
// so to first order (a_i ≈ 1), a_i² ≈ 1 − ε²(m − s_i S)/(1 − ε²). For a
// balanced pattern (S ≈ 0) this needs ε²m < 1 − ε², i.e.
// n < SignPatternBound(ε) = 2(1 − ε²)/ε² (198 for ε = 0.10, 87 for
// ε = 0.15). Numerically (TestSignPatternBound), the balanced patterns are
// spurious local minima (positive definite Hessian, far from M*) up to
// just below that bound and are not minima above it, and patterns with a
// smaller minority stop being minima at smaller n. So beyond the bound GD
// has no sign-pattern minimum to fall into; GD's success rate rises well
// before it, as the remaining minima's basins shrink.

// SignPatternBound returns 2(1 − ε²)/ε², the size from which the study's
// instance has no balanced sign pattern as a critical point (see above),
// for 0 < ε < 1 (≤ 0 for ε ≥ 1: every size). A NaN, infinite or
// non-positive ε is refused with an error wrapping ErrBadExperiment.
func SignPatternBound(eps float64) (float64, error) {
	if !(eps > 0) || math.IsInf(eps, 0) {
		return 0, fmt.Errorf("%w: SignPatternBound needs a finite ε > 0, got %v", ErrBadExperiment, eps)
	}
	return 2 * (1/(eps*eps) - 1), nil // this form cannot give Inf − Inf
}

// ScalingStudyConfig returns the study beyond the paper's range: sizes
// 40·2^k up to maxN (40, 80, 160, …), ε ∈ {0.15, 0.10, 0.05} and the given
// trials per cell, with every other setting of DefaultStudyConfig.
func ScalingStudyConfig(maxN, trials int) (StudyConfig, error) {
	if maxN < 40 || maxN > MaxStudyN {
		return StudyConfig{}, fmt.Errorf("%w: largest size %d, want 40 ≤ n ≤ %d", ErrBadExperiment, maxN, MaxStudyN)
	}
	cfg := DefaultStudyConfig()
	cfg.Sizes = nil
	for n := 40; n <= maxN; n *= 2 {
		cfg.Sizes = append(cfg.Sizes, n)
	}
	cfg.Epsilons = []float64{0.15, 0.10, 0.05}
	cfg.Trials = trials
	return cfg, cfg.Validate()
}

// Transition is, for one ε of a study, the smallest n at which GD
// succeeded in at least half of the trials (N = 0 if at none), with
// ε²n there and SignPatternBound(ε).
type Transition struct {
	Eps      float64
	N        int
	Coupling float64 // ε²·N
	Bound    float64 // SignPatternBound(ε)
}

// GDTransitions returns the Transition of every ε of the study, in the
// order the ε first appear.
func (r *StudyResult) GDTransitions() []Transition {
	if r == nil {
		panic(fmt.Errorf("%w: StudyResult.GDTransitions on a nil result", ErrBadExperiment))
	}
	var out []Transition
	seen := map[float64]bool{}
	for _, c := range r.Cells {
		if seen[c.Eps] {
			continue
		}
		seen[c.Eps] = true
		var cells []StudyCell
		for _, d := range r.Cells {
			if d.Eps == c.Eps {
				cells = append(cells, d)
			}
		}
		sort.Slice(cells, func(i, j int) bool { return cells[i].N < cells[j].N })
		t := Transition{Eps: c.Eps}
		if b, err := SignPatternBound(c.Eps); err == nil { // a study's ε is finite and > 0
			t.Bound = b
		}
		for _, d := range cells {
			if len(d.Trials) > 0 && 2*d.GDSuccesses >= len(d.Trials) {
				t.N, t.Coupling = d.N, c.Eps*c.Eps*float64(d.N)
				break
			}
		}
		out = append(out, t)
	}
	return out
}
