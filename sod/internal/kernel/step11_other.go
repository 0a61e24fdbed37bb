//go:build (!amd64 && !wasm) || amd64.v3

package kernel

// Lane11: off amd64 and wasm (arm64, riscv64, …) and at GOAMD64=v3 Go
// may fuse a multiply and an add, not necessarily alike in the one-pass and the
// two-pass step, so gradient descent keeps the two-pass step, whose
// iterates are tested.
const Lane11 = false

// Step11 is the pass over row pairs: Step11Go.
func Step11(next, x, z []float64, k *Coef11, out *Sums11) { Step11Go(next, x, z, k, out) }

// Step11Alt is Step11 for z = (1, 0, 1, 0, …)ᵀ (see Step11AltGo): Step11Go (Lane11 is off: gradient descent does not take the pass here).
func Step11Alt(next, x, z []float64, k *Coef11, out *Sums11) { Step11Go(next, x, z, k, out) }
