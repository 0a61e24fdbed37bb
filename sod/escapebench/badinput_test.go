package escapebench_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
)

// TestBadInputs: each bad value a new user might pass gets an error
// wrapping sod.ErrBadParameter that names the value and the accepted
// range (the substring want), before any work; never a panic, a NaN or a
// silent substitution.
func TestBadInputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"Wilson k > n", func() error { _, _, err := escapebench.Wilson(5, 3); return err }, "k = 5 successes in n = 3 trials, want 0 ≤ k ≤ n"},
		{"Wilson k < 0", func() error { _, _, err := escapebench.Wilson(-1, 3); return err }, "k = -1"},
		{"Wilson n < 0", func() error { _, _, err := escapebench.Wilson(0, -2); return err }, "n = -2"},
		{"Quantile q < 0", func() error { _, err := escapebench.Quantile([]float64{1, 2, 3}, -0.5); return err }, "q = -0.5, want 0 ≤ q ≤ 1"},
		{"Quantile q > 1", func() error { _, err := escapebench.Quantile([]float64{1, 2, 3}, 1.5); return err }, "q = 1.5"},
		{"Quantile q NaN", func() error { _, err := escapebench.Quantile([]float64{1, 2, 3}, math.NaN()); return err }, "q = NaN"},
		{"Quantile no data", func() error { _, err := escapebench.Quantile(nil, 0.5); return err }, "no data"},
		{"Quantile NaN data", func() error { _, err := escapebench.Quantile([]float64{1, math.NaN()}, 0.5); return err }, "xs[1]"},
	} {
		err := tc.call()
		if !errors.Is(err, sod.ErrBadParameter) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want sod.ErrBadParameter naming %q", tc.name, err, tc.want)
		}
	}
	_ = context.Background
}
