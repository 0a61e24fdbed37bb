package experiments

import (
	"fmt"
)

// checkDistinct refuses a list with a repeated value (a size or ε given
// twice would run the same cell twice and key two results alike). The
// error wraps ErrBadExperiment and names the value and both positions.
func checkDistinct[T comparable](what string, xs []T) error {
	seen := make(map[T]int, len(xs))
	for i, x := range xs {
		if j, ok := seen[x]; ok {
			return fmt.Errorf("%w: %s %v given twice (positions %d and %d), want distinct values", ErrBadExperiment, what, x, j, i)
		}
		seen[x] = i
	}
	return nil
}
