package reproducecli

import (
	"context"
	"flag"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
)

func init() {
	registerExperiment(&experiment{name: "qnn", about: "the quadratic neural network on Iris (Fig. quadratic_nn)", order: 4, seed: true, setup: setupQNN})
}

func setupQNN(fs *flag.FlagSet, c *common) func() (runFunc, error) {
	return func() (runFunc, error) {
		cfg := experiments.DefaultQNNConfig()
		if c.seedSet {
			cfg.Seed = c.seed
		}
		return func(ctx context.Context) error { return runQNN(ctx, c, cfg) }, nil
	}
}

func runQNN(ctx context.Context, c *common, cfg experiments.QNNConfig) error {
	r, err := experiments.RunQNN(ctx, cfg, c.progress())
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "  GD stagnates at step %d (h = %.4f)\n", r.StallIter, r.StallH)
	for i, curves := range [][]experiments.LossCurve{r.Optimizers, r.Searches} { // panels (a) and (b)
		for _, curve := range curves {
			fmt.Fprintf(c.stdout, "  (%c) %-34s final h %.4f, accuracy %.2f %s\n", 'a'+i, curve.Name, curve.FinalH, curve.Accuracy, curve.Outcome)
		}
	}
	return c.write("qnn", r, r.CSVTables())
}
