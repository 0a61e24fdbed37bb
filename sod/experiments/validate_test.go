package experiments

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// TestConfigsRefuseBeforeWork: each config refuses, in Validate and so
// before any work or progress report, the kinds of bad setting of issue
// "validation by principle": negative worker counts, repeated sizes or ε,
// a Truth of the wrong shape, and escaper settings the escaper's own
// Validate refuses (which used to surface only as an escape-error outcome).
// An escaper's settings, escape options and problems are checked by sod,
// whose sentinel the error wraps; the rest by this package (ErrBadExperiment).
func TestConfigsRefuseBeforeWork(t *testing.T) {
	study := func(edit func(*StudyConfig)) func() error {
		return func() error {
			c := DefaultStudyConfig()
			edit(&c)
			_, err := RunStudy(context.Background(), c, func(batch.Progress) { panic("progress before validation") })
			return err
		}
	}
	badEsc := &sod.RandomLineSearch{Alphas: []float64{math.NaN()}}
	for _, tc := range []struct {
		name string
		run  func() error
		is   error
		want string
	}{
		{"study workers -1", study(func(c *StudyConfig) { c.Workers = -1 }), ErrBadExperiment, "-1 workers"},
		{"study sizes repeated", study(func(c *StudyConfig) { c.Sizes = []int{40, 50, 40} }), ErrBadExperiment, "study size n 40 given twice"},
		{"study ε repeated", study(func(c *StudyConfig) { c.Epsilons = []float64{0.1, 0.1} }), ErrBadExperiment, "given twice"},
		{"study Truth wrong shape", study(func(c *StudyConfig) {
			c.Truth = func(n int) (*mat.Dense, error) { return mat.NewDense(3, 1, []float64{1, 0, 1}), nil }
		}), ErrBadExperiment, "Truth(40) is 3×1"},
		{"study Truth nil", study(func(c *StudyConfig) { c.Truth = func(int) (*mat.Dense, error) { return nil, nil } }), ErrBadExperiment, "no matrix"},
		{"study escaper", study(func(c *StudyConfig) { c.Escaper = badEsc }), sod.ErrBadParameter, "Alphas[0] = NaN"},
		{"study MultiStepAutoT l", study(func(c *StudyConfig) { c.Escaper = sod.MultiStepAutoT(4, 0.1, 0.1, sod.AutoT(1.1)) }), sod.ErrBadParameter, "odd and ≥ 3, got 4"},
		{"study MultiStepAutoT nil rule", study(func(c *StudyConfig) { c.Escaper = sod.MultiStepAutoT(3, 0.1, 0.1, nil) }), sod.ErrBadParameter, "nil TRule"},
		{"variant comparison Extra escaper", func() error {
			c := DefaultVariantComparisonConfig()
			c.Extra = []sod.Escaper{&sod.SODLineSearch{L: 3, Rho: 0.1, Eta: 0.1, GrowthQ: 0.5}}
			_, err := RunVariantComparison(context.Background(), c, nil)
			return err
		}, sod.ErrBadParameter, "growth factor Q = 0.5"},
		{"variant comparison AcceptRule", func() error {
			c := DefaultVariantComparisonConfig()
			c.Escape.Accept = sod.AcceptRule(99)
			_, err := RunVariantComparison(context.Background(), c, nil)
			return err
		}, sod.ErrBadParameter, "Accept = 99"},
		{"basic example escaper", func() error {
			c := DefaultBasicExampleConfig()
			c.Escaper = &sod.MultiStepSOD{L: 3, T: 10, Rho: 0.1, Eta: 0.1, Force: sod.EscapeKind(99)}
			_, err := RunBasicExample(context.Background(), c, nil)
			return err
		}, sod.ErrBadParameter, "escape kind 99"},
		{"case study l", func() error {
			c := RealWorldCaseStudyConfig()
			c.L = 4
			_, err := RunCaseStudy(context.Background(), c, nil)
			return err
		}, sod.ErrBadParameter, "odd and ≥ 3, got 4"},
		{"QNN width", func() error {
			c := DefaultQNNConfig()
			c.Width = 1 << 40
			_, err := RunQNN(context.Background(), c, nil)
			return err
		}, ErrBadExperiment, "Width = 1099511627776"},
		{"δ sweep sizes repeated", func() error {
			c := DefaultDeltaSweepConfig()
			c.Sizes = []int{3, 3}
			_, err := RunDeltaSweep(context.Background(), c, nil)
			return err
		}, ErrBadExperiment, "given twice"},
		{"SignPatternBound NaN", func() error { _, err := SignPatternBound(math.NaN()); return err }, ErrBadExperiment, "got NaN"},
		{"LineFloor nil problem", func() error { _, err := LineFloor(nil, mat.NewDense(2, 1, nil)); return err }, sod.ErrBadParameter, "nil problem"},
	} {
		err := tc.run()
		if !errors.Is(err, tc.is) || !strings.Contains(fmt_(err), tc.want) {
			t.Errorf("%s: %v, want an error wrapping %v containing %q", tc.name, err, tc.is, tc.want)
		}
	}
}

func fmt_(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
