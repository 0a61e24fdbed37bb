package reproducecli

import (
	"context"
	"flag"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
)

func init() {
	registerExperiment(&experiment{name: "basic", about: "the basic example (Fig. 2): GD, SGD and GD+SOD on a 2-D landscape", order: 0, seed: true, setup: setupBasic})
}

func setupBasic(fs *flag.FlagSet, c *common) func() (runFunc, error) {
	return func() (runFunc, error) {
		cfg := experiments.DefaultBasicExampleConfig()
		cfg.Seed = c.seed
		return func(ctx context.Context) error { return runBasic(ctx, c, cfg) }, nil
	}
}

func runBasic(ctx context.Context, c *common, cfg experiments.BasicExampleConfig) error {
	r, err := experiments.RunBasicExample(ctx, cfg, c.progress())
	if err != nil {
		return err
	}
	for _, p := range r.Paths {
		fmt.Fprintf(c.stdout, "  start %d %-6s ends at (%.4f, %.4f), ‖xxᵀ−M*‖ = %.3g\n", p.Start, p.Method, p.X[len(p.X)-1], p.Y[len(p.Y)-1], p.Final)
	}
	return c.write("basic", r, r.CSVTables())
}
