// Package kernel holds the performance kernels of package sod that
// export nothing of the paper: the one-pass step of gradient descent on
// the structured path at r = k = 1 with the PMC parity layout (Step11,
// in SSE2 assembly on amd64 and its pure-Go twin Step11Go, which also runs
// under WebAssembly, where Go fuses no multiply-add), the rows of
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
// and TestGDLaneBitExact).
package kernel
