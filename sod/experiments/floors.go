package experiments

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// LineFloor returns min over c > 0 of h(c·D), by brute force: h on
// 12001 log-spaced c from 10⁻⁶ to 10⁶, then 2001 points around the best one
// (±10⁻³ in log₁₀ c). Since h(cD) = h(−cD), this is the minimum over every
// real c ≠ 0. It uses no closed form, so it is an independent check of
// QNNMinimum.BetaBest and GammaBest. p must be a valid problem and D a
// finite n×r direction (else an error wrapping the sod sentinel).
func LineFloor(p *sod.Problem, D mat.Matrix) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	if err := p.CheckX(D); err != nil {
		return 0, fmt.Errorf("LineFloor direction: %w", err)
	}
	var x mat.Dense
	hAt := func(c float64) float64 { x.Scale(c, D); return p.H(&x) }
	best, bestLog := math.Inf(1), 0.0
	for k := -6000; k <= 6000; k++ {
		lc := float64(k) / 1000
		if h := hAt(math.Pow(10, lc)); h < best {
			best, bestLog = h, lc
		}
	}
	for k := -1000; k <= 1000; k++ {
		if h := hAt(math.Pow(10, bestLog+float64(k)*1e-6)); h < best {
			best = h
		}
	}
	return best, nil
}

// SODFloors returns, at X̂, the brute-force minima (LineFloor) of h on the
// two lines every SOD escape point lies on, whatever l, t, ρ, η: the β line
// c·u_n q_rᵀ (eq. x_check_beta) and the γ line c·E X̂ (eq. x_check_gamma),
// with the critical-point analysis they come from. No SOD candidate at X̂
// has h below min(beta, gamma).
func SODFloors(p *sod.Problem, xhat mat.Matrix) (beta, gamma float64, cp *sod.CriticalPoint, err error) {
	cp, err = sod.AnalyzeCritical(p, xhat, sod.CriticalOptions{SkipHessian: true})
	if err != nil {
		return 0, 0, nil, err
	}
	var ub mat.Dense
	ub.Outer(1, cp.Un, cp.Qr)
	if beta, err = LineFloor(p, &ub); err != nil {
		return 0, 0, nil, err
	}
	if gamma, err = LineFloor(p, cp.EX); err != nil {
		return 0, 0, nil, err
	}
	return beta, gamma, cp, nil
}

// ScaleMeasurements returns W (n×r, from the row-major w) with the rows of
// the four Iris measurements multiplied by k and the bias row (the last,
// when the problem has one) kept: the same network for features scaled by
// 1/k. n must be 4 (no bias) or 5.
func ScaleMeasurements(w []float64, n, r int, k float64) (*mat.Dense, error) {
	if (n != 4 && n != 5) || r < 1 || len(w) != n*r {
		return nil, fmt.Errorf("%w: W has %d entries, want n·r with n = 4 or 5 (got n = %d, r = %d)", ErrBadExperiment, len(w), n, r)
	}
	out := mat.NewDense(n, r, append([]float64(nil), w...))
	for i := range 4 {
		for j := range r {
			out.Set(i, j, k*out.At(i, j))
		}
	}
	return out, nil
}
