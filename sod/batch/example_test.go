package batch_test

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod/batch"
)

// Shard 1 of 3 of ten jobs, on a pool of two workers: each job writes its
// own slot, so the result does not depend on the workers.
func ExampleForEach() {
	shard := batch.Shard{K: 1, N: 3}
	var mine []int
	for j := range 10 {
		if shard.Holds(j) {
			mine = append(mine, j)
		}
	}
	squares := make([]int, len(mine))
	err := batch.ForEach(context.Background(), len(mine), batch.Pool{Workers: 2}, func(i int) error {
		squares[i] = mine[i] * mine[i]
		return nil
	})
	fmt.Println(mine, squares, err)
	// Output: [1 4 7] [1 16 49] <nil>
}
