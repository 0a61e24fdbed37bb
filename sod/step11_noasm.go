//go:build amd64 && noasm && !amd64.v3

package sod

// step11Lane: with the noasm tag the pass is step11Go, whose operations
// Go rounds as written on amd64 below v3.
const step11Lane = true

func step11(next, x, z []float64, k *step11Coef, out *step11Sums) { step11Go(next, x, z, k, out) }
