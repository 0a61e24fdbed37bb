package reproducecli

import (
	"context"
	"flag"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
)

// Ranges of the ablation flags.
const (
	minL, maxL = 3, 99
	minT, maxT = 1, 1e15
)

func init() {
	registerExperiment(&experiment{name: "ablation", about: "the ablation table (appendix): U_β, U_γ, ρ_min and the escape per (l, t)", order: 3, setup: setupAblation})
}

func setupAblation(fs *flag.FlagSet, c *common) func() (runFunc, error) {
	cfg := experiments.DefaultAblationConfig()
	fs.Var(listFlag[int]{p: &cfg.Ls, parse: parseL}, "ls", fmt.Sprintf("ablation: `list` of lifting orders, odd, each in [%d, %d]", minL, maxL))
	fs.Var(int64List(&cfg.Ts, minT, maxT), "ts", fmt.Sprintf("ablation: `list` of step counts, integers in [%d, %d] (2e6 is accepted)", minT, int64(maxT)))
	return func() (runFunc, error) {
		return func(ctx context.Context) error { return runAblation(ctx, c, cfg) }, nil
	}
}

// parseL parses a lifting order: odd, in [minL, maxL].
func parseL(s string) (int, error) {
	v, err := parseIntIn(s, minL, maxL, "an odd integer")
	if err == nil && v%2 == 0 {
		err = fmt.Errorf("%d is even: want an odd integer in [%d, %d]", v, minL, maxL)
	}
	return int(v), err
}

func runAblation(ctx context.Context, c *common, cfg experiments.AblationConfig) error {
	r, err := experiments.RunAblationWithScans(ctx, cfg, c.progress())
	if err != nil {
		return err
	}
	for _, row := range r.Rows {
		fmt.Fprintf(c.stdout, "  l=%d ρ_min=%.3f U_β=%s U_γ=%s\n", row.L, row.RhoMin, row.UBetaS, row.UGamS)
		for _, cell := range row.Cells {
			fmt.Fprintf(c.stdout, "    t=%-8d %-4s d̂=%-10.4g d*=%-10.4g ratio=%-7.4g h(X̌)=%-10.4g descent=%-5v final=%s\n", cell.T, cell.Kind, cell.DHat, cell.DStar, cell.Ratio, cell.HCheck, cell.Descent, cell.Final)
		}
	}
	fmt.Fprintf(c.stdout, "  cells with h(X̌) < h(X̂): %d\n", r.DescentCells)
	return c.write("ablation", r, r.CSVTables())
}
