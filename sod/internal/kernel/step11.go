package kernel

import "math"

// This file holds the kernel of the one-pass step of gradient descent on
// the structured path at r = k = 1 with the PMC parity layout (the
// study's instances; sod's structured.go): its coefficients, its sums and
// its pure-Go form. The Step11 of the platform's file (step11_amd64.go
// with step11_amd64.s, step11_noasm.go, step11_other.go) runs it; sod's
// pass11 and descend11 (gdlane.go) use it.
//
// A step X_{j+1} = X_j + α∇h(X_j) needs ∇h(X_j), whose rows
// (GradRowO11, GradRowU11) depend on X_j only through four Gram sums
// (sod's coef11). So one pass over the rows that knows X_j's sums computes each
// row of ∇h(X_j), the row of X_{j+1}, and X_{j+1}'s sums for the next
// pass: h, ‖XXᵀ − M*‖_F and the stored gradient are left out, because GD
// needs them only where it reports them. Every row and every sum is the
// same floating-point operation, on the same operands, in the same order,
// as in sod's gram11 and finish11, so the iterates are those of the two-pass
// step to the last bit (TestStep11Kernel, TestGDLaneBitExact).

// Coef11 are the coefficients of a pass: m_xU, m_xO, m_zU, m_zO (each
// pair in the order U, O of a row pair), α twice, c, a spare slot, and
// the flush threshold τ twice (FlushBelow, or 0 for no flush; see
// Flush). The amd64 kernel loads them as vectors of two.
type Coef11 [10]float64

// Sums11 are a pass's sums in the order ss_U, ss_O, (x_{j+1}ᵀx_{j+1})_U,
// (…)_O, (x_{j+1}ᵀz)_U, (…)_O: ss is the sum of squares of ∇h(X_j)'s
// entries of the block, the others are X_{j+1}'s Gram entries.
type Sums11 [6]float64

// Step11Go is the pass over row pairs (U row 2t, O row 2t + 1) of x, with
// z interleaved the same way (sod's masked.zPair), storing X_{j+1} in next. It
// is the kernel where no assembly is used and the reference of the
// assembly (TestStep11). Each new coordinate whose magnitude is
// below τ = k[8] is stored as +0 before it enters the sums (Flush).
func Step11Go(next, x, z []float64, k *Coef11, out *Sums11) {
	mxU, mxO, mzU, mzO, alpha, c, tau := k[0], k[1], k[2], k[3], k[4], k[6], k[8]
	n := len(x) &^ 1
	var ssU, ssO, xxU, xxO, xzU, xzO float64
	for i := 0; i < n; i += 2 {
		// One bounds check per slice and pair, not per entry: WebAssembly,
		// where this loop runs, pays for each (1.8× per pass under node, AMD EPYC).
		xp, zp, np := x[i:i+2:i+2], z[i:i+2:i+2], next[i:i+2:i+2]
		xu, xo, zu, zo := xp[0], xp[1], zp[0], zp[1]
		g := GradRowO11(xo, zo, mxO, mzO)
		ssO += g * g
		xo += alpha * g
		if math.Abs(xo) < tau {
			xo = 0
		}
		np[1] = xo
		xxO += xo * xo
		xzO += xo * zo
		g = GradRowU11(xu, zu, mxU, mzU, c)
		ssU += g * g
		xu += alpha * g
		if math.Abs(xu) < tau {
			xu = 0
		}
		np[0] = xu
		xxU += xu * xu
		xzU += xu * zu
	}
	*out = Sums11{ssU, ssO, xxU, xxO, xzU, xzO}
}

// Step11AltGo is Step11Go for z = (1, 0, 1, 0, …)ᵀ, the PMC study's truth
// (z_U = 1, z_O = +0 in every row pair; the caller checks the bits), with
// z not read: the same operations on the same operands in the same order,
// rewritten by exact identities (1·v = v; the product +0·m_zO, the same in
// every row, formed once), so next and out are Step11Go's to the last bit
// (TestStep11AltBitExact). x_oᵀz_O, a sum of +0·x_o, is +0 unless a stored
// x_o is not finite (then NaN): Σ x_o² tells, and where it is not finite
// the sum is formed as Step11Go forms it, from next.
func Step11AltGo(next, x []float64, k *Coef11, out *Sums11) {
	mxU, mxO, mzU, mzO, alpha, c, tau := k[0], k[1], k[2], k[3], k[4], k[6], k[8]
	n := len(x) &^ 1
	zero := 0.0
	zmO := zero * mzO // z_o·m_zO in every O row
	var ssU, ssO, xxU, xxO, xzU float64
	for i := 0; i < n; i += 2 {
		xp, np := x[i:i+2:i+2], next[i:i+2:i+2]
		xu, xo := xp[0], xp[1]
		g := 2 * (xo*mxO - zmO) // GradRowO11(xo, 0, mxO, mzO)
		ssO += g * g
		xo += alpha * g
		if math.Abs(xo) < tau {
			xo = 0
		}
		np[1] = xo
		xxO += xo * xo
		g = 2 * (xu*mxU - mzU + c*(xu*xu-1)*xu) // GradRowU11(xu, 1, mxU, mzU, c)
		ssU += g * g
		xu += alpha * g
		if math.Abs(xu) < tau {
			xu = 0
		}
		np[0] = xu
		xxU += xu * xu
		xzU += xu
	}
	xzO := 0.0
	if math.IsInf(xxO, 0) || math.IsNaN(xxO) {
		for i := 1; i < n; i += 2 {
			xzO += next[i] * zero
		}
	}
	*out = Sums11{ssU, ssO, xxU, xxO, xzU, xzO}
}

// GradRowO11 and GradRowU11 are row i of ∇h at r = k = 1 (x = x_i, z =
// z_i) for i ∈ O and i ∈ U, with sod's coef11 factors m_x, m_z:
// 2(x m_x − z m_z), plus 2c(x² − z²)x = 2c D_ii x_i on U. sod's finish11
// and the one-pass step (Step11Go, sod's pass11) use these; the SSE2
// kernel performs the same operations.
func GradRowO11(x, z, mx, mz float64) float64 { return 2 * (x*mx - z*mz) }

// GradRowU11 is row i ∈ U of ∇h (see GradRowO11).
func GradRowU11(x, z, mx, mz, c float64) float64 {
	return 2 * (x*mx - z*mz + c*(x*x-z*z)*x)
}

// FlushBelow is the flush threshold of gradient descent's step (sod's
// package doc, "Overflow and subnormal numbers"): a coordinate of an
// iterate whose magnitude is below 2⁻²⁵⁰ ≈ 5.5e-76 is stored as +0, so
// that every coordinate is zero or at least 2⁻²⁵⁰, and its square
// (≥ 2⁻⁵⁰⁰), cube and fourth power (≥ 2⁻¹⁰⁰⁰; D_ii² = x_i⁴ where
// z_i = 0) are normal numbers (≥ 2⁻¹⁰²²).
const FlushBelow = 0x1p-250

// Flush returns +0 when |v| < tau, else v: the rule of every step, with
// tau = FlushBelow (0 turns it off).
func Flush(v, tau float64) float64 {
	if math.Abs(v) < tau {
		return 0
	}
	return v
}
