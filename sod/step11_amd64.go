//go:build !noasm && !amd64.v3

package sod

// step11Lane: gradient descent uses the one-pass step (descend11). It
// does where the pass is tested equal to the two-pass step to the bit:
// amd64 without fused multiply–add (GOAMD64 v1, v2), where Go rounds every
// operation as written.
const step11Lane = true

// step11SSE2 is step11Go in SSE2 (step11_amd64.s).
//
//go:noescape
func step11SSE2(next, x, z []float64, k *step11Coef, out *step11Sums)

// step11 is the pass over row pairs: step11SSE2 (the kernel's loads are
// bounded by len(x), which step11 checks against next and z).
func step11(next, x, z []float64, k *step11Coef, out *step11Sums) {
	n := len(x) &^ 1
	if len(next) < n || len(z) < n {
		panic("sod: step11: short next or z")
	}
	step11SSE2(next, x[:n], z, k, out)
}
