package reproducecli

import (
	"context"
	"flag"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
)

func init() {
	registerExperiment(&experiment{name: "pmc", about: "the PMC case study (Fig. exp2): GD, the escape, the lifted panels", order: 1,
		setup: caseSetup("pmc", experiments.PMCCaseStudyConfig())})
	registerExperiment(&experiment{name: "realworld", about: "the real-world case study (Fig. exp3)", order: 2,
		setup: caseSetup("realworld", experiments.RealWorldCaseStudyConfig())})
}

// caseSetup is the setup of the case study cfg (no flags of its own),
// written as <out>/<name>.json and its tables.
func caseSetup(name string, cfg experiments.CaseStudyConfig) func(*flag.FlagSet, *common) func() (runFunc, error) {
	return func(_ *flag.FlagSet, c *common) func() (runFunc, error) {
		return func() (runFunc, error) {
			return func(ctx context.Context) error { return runCase(ctx, c, name, cfg) }, nil
		}
	}
}

func runCase(ctx context.Context, c *common, name string, cfg experiments.CaseStudyConfig) error {
	r, err := experiments.RunCaseStudy(ctx, cfg, c.progress())
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "  X̂ = %.4f, h(X̂) = %.4g, λ_n = %.4g; %s-type escape at l=%d, t=%d: h(X̌) = %.4g (descent %v)\n",
		r.XHat, r.HHat, r.LambdaN, r.Kind, cfg.L, cfg.T, r.HCheck, r.Descent)
	fmt.Fprintf(c.stdout, "  ‖XXᵀ−M*‖: %.4g before the escape, %.4g at the end; U_β = %s, U_γ = %s\n", r.Dist[r.EscapeAt-1], r.Dist[len(r.Dist)-1], r.UBeta, r.UGamma)
	return c.write(name, r, r.CSVTables())
}
