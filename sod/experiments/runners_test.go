package experiments

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/batch"
)

// TestRunnersConvention checks the one shape every experiment runner has,
// RunX(ctx, cfg, prog): a nil ctx and a bad config are refused with an
// error wrapping ErrBadExperiment that names the bad value, before any
// progress report; a cancelled ctx stops the run with context.Canceled.
func TestRunnersConvention(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	type runner func(ctx context.Context, prog batch.ProgressFunc) error
	tests := []struct {
		name     string
		good     runner // the default config
		bad      runner // a config whose Validate fails
		badValue string // what the error must name
	}{
		{"RunBasicExample",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunBasicExample(ctx, DefaultBasicExampleConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultBasicExampleConfig()
				c.Starts = MaxBasicStarts + 1
				_, err := RunBasicExample(ctx, c, prog)
				return err
			}, "Starts = 101"},
		{"RunBasicFromStart",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunBasicFromStart(ctx, DefaultBasicFromStartConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultBasicFromStartConfig()
				c.Step = math.NaN()
				_, err := RunBasicFromStart(ctx, c, prog)
				return err
			}, "Step = NaN"},
		{"RunCaseStudy",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunCaseStudy(ctx, RealWorldCaseStudyConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := RealWorldCaseStudyConfig()
				c.T = 0
				_, err := RunCaseStudy(ctx, c, prog)
				return err
			}, "t = 0"},
		{"RunDeltaSweep",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunDeltaSweep(ctx, DefaultDeltaSweepConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultDeltaSweepConfig()
				c.Epsilons = []float64{1.5}
				_, err := RunDeltaSweep(ctx, c, prog)
				return err
			}, "ε = 1.5"},
		{"RunPZCurve",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunPZCurve(ctx, DefaultPZCurveConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultPZCurveConfig()
				c.Delta = 1
				_, err := RunPZCurve(ctx, c, prog)
				return err
			}, "δ = 1"},
		{"RunQNN",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunQNN(ctx, DefaultQNNConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultQNNConfig()
				c.Width = 0
				_, err := RunQNN(ctx, c, prog)
				return err
			}, "Width = 0"},
		{"RunQNNScan",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunQNNScan(ctx, DefaultQNNScanConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultQNNScanConfig()
				c.HessTol = -1
				_, err := RunQNNScan(ctx, c, prog)
				return err
			}, "HessTol = -1"},
		{"RunVariantComparison",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunVariantComparison(ctx, DefaultVariantComparisonConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultVariantComparisonConfig()
				c.Instances = nil
				_, err := RunVariantComparison(ctx, c, prog)
				return err
			}, "at least one instance"},
		{"RunAblation",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultAblationConfig()
				c.Ls, c.Ts = []int{3}, []int64{1000}
				_, err := RunAblation(ctx, c, prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultAblationConfig()
				c.Ls = nil
				_, err := RunAblation(ctx, c, prog)
				return err
			}, ""},
		{"RunEscapeWindows",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunEscapeWindows(ctx, DefaultAblationConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultAblationConfig()
				c.Ls = nil
				_, err := RunEscapeWindows(ctx, c, prog)
				return err
			}, ""},
		{"RunDescentScan",
			func(ctx context.Context, prog batch.ProgressFunc) error {
				_, err := RunDescentScan(ctx, DefaultDescentScanConfig(), prog)
				return err
			},
			func(ctx context.Context, prog batch.ProgressFunc) error {
				c := DefaultDescentScanConfig()
				c.Ts = nil
				_, err := RunDescentScan(ctx, c, prog)
				return err
			}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reports := 0
			prog := func(batch.Progress) { reports++ }
			if err := tc.good(nil, prog); !errors.Is(err, ErrBadExperiment) || !strings.Contains(err.Error(), "needs a context") {
				t.Errorf("nil ctx: %v, want ErrBadExperiment naming the context", err)
			}
			if err := tc.bad(context.Background(), prog); !errors.Is(err, ErrBadExperiment) || !strings.Contains(err.Error(), tc.badValue) {
				t.Errorf("bad config: %v, want ErrBadExperiment naming %q", err, tc.badValue)
			}
			if reports != 0 {
				t.Errorf("%d progress reports before the refusals, want 0", reports)
			}
			if err := tc.good(canceled, prog); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled ctx: %v, want context.Canceled", err)
			}
		})
	}
}
