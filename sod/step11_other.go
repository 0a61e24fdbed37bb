//go:build !amd64 || amd64.v3

package sod

// step11Lane: off amd64 (arm64, wasm, …) and at GOAMD64=v3 Go may fuse a
// multiply and an add, not necessarily alike in the one-pass and the
// two-pass step, so gradient descent keeps the two-pass step, whose
// iterates are tested.
const step11Lane = false

func step11(next, x, z []float64, k *step11Coef, out *step11Sums) { step11Go(next, x, z, k, out) }
