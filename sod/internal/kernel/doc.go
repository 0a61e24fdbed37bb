// Package kernel holds the performance kernels of package sod that
// export nothing of the paper: the one-pass step of gradient descent on
// the structured path at r = k = 1 with the PMC parity layout (Step11,
// in SSE2 assembly on amd64 and its pure-Go twin Step11Go, which also runs
// under WebAssembly, where Go fuses no multiply-add; Step11Alt, which for
// the study's truth z = (1, 0, 1, 0, …)ᵀ does not read z), the rows of
// ∇h it computes (GradRowO11, GradRowU11), and the flush of tiny
// coordinates that keeps subnormal numbers out of gradient descent's
// arithmetic (FlushBelow, Flush; sod's package doc states the rule); the
// tall-skinny QR of the streaming kernels for any rank (Gather,
// QRFold, tsqr.go), which folds chunks of a block's rows [x_i z_i] into
// its s×s R factor; the row passes of those kernels for any rank
// (Shape's GradRows, HessSums and HessRows, rows.go), which write ∇h and
// the Hessian–vector product from a block's Gram products; and the
// helpers on dense matrices they share with sod (Contiguous, FrobNorm,
// SumSquares, AxpyDense, floats.go).
//
// The formulas are those of sod's structured path (structured.go): with
// O the rows whose entries are all observed, U the others, c = 1 − ε²,
// row i of ∇h at r = k = 1 is 2(x_i m_x − z_i m_z) on O and
// 2(x_i m_x − z_i m_z + c(x_i² − z_i²)x_i) on U, with m_x, m_z the Gram
// sums of sod's coef11. Every operation is one IEEE 754 operation in a
// fixed order, so sod's two-pass step and this pass take the same
// iterates to the last bit where Lane11 is true (sod's TestStep11Kernel
// and TestGDLaneBitExact). The specialised paths (unrolled ranks, fused
// gathers, Step11Alt) make the operations of their plain twins in the same
// order, or ones equal by exact identities (1·v = v), and their tests hold
// them to the plain twins bit for bit (TestGradRowsBitExact,
// TestGatherRank33BitExact, TestStep11AltBitExact): WebAssembly, with no
// assembly, gains from them, and results do not depend on the path.
package kernel
