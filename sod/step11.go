package sod

import "math"

// This file holds the kernel of the one-pass step of gradient descent on
// the structured path at r = k = 1 with the PMC parity layout (the
// study's instances; structured.go): its coefficients, its sums and its
// pure-Go form. The step11 of the platform's file (step11_amd64.go with
// step11_amd64.s, step11_noasm.go, step11_other.go) runs it; pass11 and
// descend11 (gdlane.go) use it.
//
// A step X_{j+1} = X_j + α∇h(X_j) needs ∇h(X_j), whose rows
// (gradRowO11, gradRowU11) depend on X_j only through four Gram sums
// (coef11). So one pass over the rows that knows X_j's sums computes each
// row of ∇h(X_j), the row of X_{j+1}, and X_{j+1}'s sums for the next
// pass: h, ‖XXᵀ − M*‖_F and the stored gradient are left out, because GD
// needs them only where it reports them. Every row and every sum is the
// same floating-point operation, on the same operands, in the same order,
// as in gram11 and finish11, so the iterates are those of the two-pass
// step to the last bit (TestStep11Kernel, TestGDLaneBitExact).

// step11Coef are the coefficients of a pass: m_xU, m_xO, m_zU, m_zO (each
// pair in the order U, O of a row pair), α twice, c, a spare slot, and
// the flush threshold τ twice (flushBelow, or 0 for no flush; see
// flushTiny). The amd64 kernel loads them as vectors of two.
type step11Coef [10]float64

// step11Sums are a pass's sums in the order ss_U, ss_O, (x_{j+1}ᵀx_{j+1})_U,
// (…)_O, (x_{j+1}ᵀz)_U, (…)_O: ss is the sum of squares of ∇h(X_j)'s
// entries of the block, the others are X_{j+1}'s Gram entries.
type step11Sums [6]float64

// step11Go is the pass over row pairs (U row 2t, O row 2t + 1) of x, with
// z interleaved the same way (masked.zPair), storing X_{j+1} in next. It
// is the kernel where no assembly is used and the reference of the
// assembly (TestStep11Kernel). Each new coordinate whose magnitude is
// below τ = k[8] is stored as +0 before it enters the sums (flushTiny).
func step11Go(next, x, z []float64, k *step11Coef, out *step11Sums) {
	mxU, mxO, mzU, mzO, alpha, c, tau := k[0], k[1], k[2], k[3], k[4], k[6], k[8]
	n := len(x) &^ 1
	next, z = next[:n], z[:n]
	var ssU, ssO, xxU, xxO, xzU, xzO float64
	for i := 0; i < n; i += 2 {
		xu, xo, zu, zo := x[i], x[i+1], z[i], z[i+1]
		g := gradRowO11(xo, zo, mxO, mzO)
		ssO += g * g
		xo += alpha * g
		if math.Abs(xo) < tau {
			xo = 0
		}
		next[i+1] = xo
		xxO += xo * xo
		xzO += xo * zo
		g = gradRowU11(xu, zu, mxU, mzU, c)
		ssU += g * g
		xu += alpha * g
		if math.Abs(xu) < tau {
			xu = 0
		}
		next[i] = xu
		xxU += xu * xu
		xzU += xu * zu
	}
	*out = step11Sums{ssU, ssO, xxU, xxO, xzU, xzO}
}
