//go:build wasm

package kernel

// Lane11: WebAssembly (the live book's interpreter) has no fused
// multiply-add for Go to use, so Go rounds Step11Go's operations as
// written, as in the two-pass step, and gradient descent takes the
// one-pass lane (sod's gdlane.go), whose iterates equal the two-pass
// step's to the last bit (TestGDLaneBitExact, run under GOOS=js
// GOARCH=wasm).
const Lane11 = true

// Step11 is the pass over row pairs: Step11Go.
func Step11(next, x, z []float64, k *Coef11, out *Sums11) { Step11Go(next, x, z, k, out) }

// Step11Alt is Step11 for z = (1, 0, 1, 0, …)ᵀ (see Step11AltGo): Step11AltGo, which does not read z.
func Step11Alt(next, x, z []float64, k *Coef11, out *Sums11) { Step11AltGo(next, x, k, out) }
