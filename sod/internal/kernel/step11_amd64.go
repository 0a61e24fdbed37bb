//go:build !noasm && !amd64.v3

package kernel

// Lane11: sod's gradient descent uses the one-pass step (descend11). It
// does where the pass is tested equal to the two-pass step to the bit:
// amd64 without fused multiply–add (GOAMD64 v1, v2), where Go rounds every
// operation as written.
const Lane11 = true

// step11SSE2 is Step11Go in SSE2 (step11_amd64.s).
//
//go:noescape
func step11SSE2(next, x, z []float64, k *Coef11, out *Sums11)

// Step11 is the pass over row pairs: step11SSE2 (the kernel's loads are
// bounded by len(x), which Step11 checks against next and z).
func Step11(next, x, z []float64, k *Coef11, out *Sums11) {
	n := len(x) &^ 1
	if len(next) < n || len(z) < n {
		panic("kernel: Step11: short next or z")
	}
	step11SSE2(next, x[:n], z, k, out)
}

// Step11Alt is Step11 for z = (1, 0, 1, 0, …)ᵀ (see Step11AltGo): the assembly kernel.
func Step11Alt(next, x, z []float64, k *Coef11, out *Sums11) { Step11(next, x, z, k, out) }
