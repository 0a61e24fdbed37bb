//go:build amd64 && noasm && !amd64.v3

package kernel

// Lane11: with the noasm tag the pass is Step11Go, whose operations
// Go rounds as written on amd64 below v3.
const Lane11 = true

// Step11 is the pass over row pairs: Step11Go.
func Step11(next, x, z []float64, k *Coef11, out *Sums11) { Step11Go(next, x, z, k, out) }

// Step11Alt is Step11 for z = (1, 0, 1, 0, …)ᵀ (see Step11AltGo): Step11AltGo, which does not read z.
func Step11Alt(next, x, z []float64, k *Coef11, out *Sums11) { Step11AltGo(next, x, k, out) }
