package randstream_test

import (
	"fmt"

	"sodworkbench.org/workbench/sod/randstream"
)

// A function that draws takes a uint64 seed and makes its generator from
// the seed and its own named stream; the same seed gives the same draws.
func ExampleNew() {
	a := randstream.New(42, randstream.RIPSamples)
	b := randstream.New(42, randstream.RIPSamples)
	c := randstream.New(42, randstream.RIPStarts) // another stream: other draws
	x, y, z := a.Float64(), b.Float64(), c.Float64()
	fmt.Println(randstream.RIPSamples, x == y, x == z)
	// Output:
	// rip-samples true false
}

// An indexed family gives one stream per item, here per escape round.
func ExampleNewIndexed() {
	r0 := randstream.NewIndexed(7, randstream.RestartRounds, 0)
	r1 := randstream.NewIndexed(7, randstream.RestartRounds, 1)
	fmt.Println(randstream.RestartRounds, r0.Uint64() != r1.Uint64())
	// Output:
	// restart-rounds true
}
