package sod

import (
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
)

// This file holds GradientDescent's convergence and overflow test on
// ‖∇h‖_F (gd.go, gdlane.go).

// gradNorm is ‖∇h(X_k)‖_F for one iterate of GradientDescent (g holds
// ∇h(X_k)). The value GD reports is kernel.FrobNorm's, the squares summed in row
// order: a chain of dependent additions that costs as much as the rest
// of a structured r = 1 step. So it is computed only where it is
// reported (trace points, the result); each step's convergence and
// overflow tests are decided from ss, the same squares summed in the
// kernel's order, whenever ss is so far from the threshold that no order
// of summation could decide otherwise.
type gradNorm struct {
	g     *mat.Dense
	ss    float64 // the squares of g's entries summed in some order; < 0: not known
	v     float64
	known bool
}

// value returns ‖g‖_F as kernel.FrobNorm computes it.
func (n *gradNorm) value() float64 {
	if !n.known {
		n.v, n.known = kernel.FrobNorm(n.g), true
	}
	return n.v
}

// ssMargin bounds the relative difference of two sums of the same N
// squares in different orders, 2γ_N = 2Nu/(1 − Nu) with u = 2⁻⁵³ (Higham,
// Accuracy and Stability, §4.2), for N up to 10⁹ entries; 1e-6 leaves
// room for the rounding of √ and of t².
const ssMargin = 1e-6

// within reports whether ‖g‖_F is finite and ≤ t, from ss when it
// decides the question (ss in kernel.FrobNorm's plain range and outside
// t²(1 ± ssMargin)), else from value.
func (n *gradNorm) within(t float64) bool {
	if !n.known {
		if within, ok := ssDecides(n.ss, t, len(n.g.RawMatrix().Data)); ok {
			return within
		}
	}
	v := n.value()
	return isFinite(v) && v <= t
}

// ssDecides reports whether the norm whose N squares sum to ss in some
// order is ≤ t, and whether ss decides it: ss in kernel.FrobNorm's plain range,
// N ≤ 10⁹, and ss outside t²(1 ± ssMargin).
func ssDecides(ss, t float64, N int) (within, ok bool) {
	if !(ss >= 1e-280 && ss <= 1e280) || N > 1e9 {
		return false, false
	}
	t2 := t * t
	switch {
	case ss < t2*(1-ssMargin):
		return true, true
	case ss > t2*(1+ssMargin):
		return false, true
	}
	return false, false
}

// overLimit reports whether h or ‖∇h‖_F (gn) is not finite or exceeds
// the divergence limit: GradientDescent's test of every iterate.
func overLimit(h float64, gn *gradNorm, limit float64) bool {
	return !isFinite(h) || h > limit || !gn.within(limit)
}
