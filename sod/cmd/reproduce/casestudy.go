package main

import (
	"context"
	"flag"
	"fmt"

	"sodworkbench.org/workbench/sod/experiments"
)

func init() {
	registerExperiment(&experiment{name: "pmc", about: "the PMC case study (Fig. exp2): GD, the escape, the lifted panels", order: 1,
		setup: func(fs *flag.FlagSet, c *common) func() (runFunc, error) { return prepareCase(c, "pmc") }})
	registerExperiment(&experiment{name: "realworld", about: "the real-world case study (Fig. exp3)", order: 2,
		setup: func(fs *flag.FlagSet, c *common) func() (runFunc, error) { return prepareCase(c, "realworld") }})
}

func prepareCase(c *common, name string) func() (runFunc, error) {
	return func() (runFunc, error) {
		cfg := experiments.PMCCaseStudyConfig()
		if name == "realworld" {
			cfg = experiments.RealWorldCaseStudyConfig()
		}
		return func(ctx context.Context) error { return runCase(ctx, c, name, cfg) }, nil
	}
}

func runCase(ctx context.Context, c *common, name string, cfg experiments.CaseStudyConfig) error {
	r, err := experiments.RunCaseStudy(ctx, cfg, c.progress())
	if err != nil {
		return err
	}
	n := len(r.Dist)
	fmt.Fprintf(c.stdout, "  X̂ = %.4f, h(X̂) = %.4g, λ_n = %.4g; %s-type escape at l=%d, t=%d: h(X̌) = %.4g (descent %v)\n",
		r.XHat, r.HHat, r.LambdaN, r.Kind, cfg.L, cfg.T, r.HCheck, r.Descent)
	fmt.Fprintf(c.stdout, "  ‖XXᵀ−M*‖: %.4g before the escape, %.4g at the end; U_β = %s, U_γ = %s\n", r.Dist[r.EscapeAt-1], r.Dist[n-1], r.UBeta, r.UGamma)
	curves := [][]string{{"iter", "h", "grad_norm", "dist", "x"}}
	for k := range r.Iter {
		curves = append(curves, []string{itoa(r.Iter[k]), ftoa(r.H[k]), ftoa(r.GradNorm[k]), ftoa(r.Dist[k]), joinF(r.Path[k])})
	}
	L := r.Lifted
	lifted := [][]string{{"t", "closed_log10_hl", "closed_log10_a", "closed_log10_b", "closed_log10_c", "exact_log10_hl", "exact_log10_a", "exact_log10_b", "exact_log10_c"}}
	for k := range L.T {
		lifted = append(lifted, []string{ftoa(L.T[k]), ftoa(L.CloseHL[k]), ftoa(L.CloseA[k]), ftoa(L.CloseB[k]), ftoa(L.CloseC[k]),
			ftoa(L.ExactHL[k]), ftoa(L.ExactA[k]), ftoa(L.ExactB[k]), ftoa(L.ExactC[k])})
	}
	return c.write(name, r, map[string][][]string{"curves": curves, "lifted": lifted})
}
