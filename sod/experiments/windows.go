package experiments

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// RunEscapeWindows computes the data of the paper's Fig. "ablation": for
// every lifting order l in cfg.Ls, ρ_min, K_l and the dominance windows U_β
// (the b-term dominates: β-type escape point) and U_γ (the c-term: γ-type
// point) of the closed-form TPGD at cfg.XHat, for cfg.Rho and cfg.Eta. It is
// RunAblation without the cells (cfg.Ts, cfg.GDStep and cfg.GDIter are not
// used; the rest is checked before any work as by AblationConfig.Validate),
// so it takes microseconds; ctx is checked once per l.
func RunEscapeWindows(ctx context.Context, cfg AblationConfig, prog batch.ProgressFunc) (*AblationResult, error) {
	if err := checkContext(ctx, "RunEscapeWindows"); err != nil {
		return nil, err
	}
	p, xhat, err := cfg.problem()
	if err != nil {
		return nil, err
	}
	if len(cfg.Ls) == 0 {
		return nil, fmt.Errorf("%w: escape windows need at least one l, got none", ErrBadExperiment)
	}
	for _, l := range cfg.Ls {
		if err := sod.CheckTPGDParams(l, cfg.Rho, cfg.Eta); err != nil {
			return nil, err
		}
	}
	cp, err := sod.AnalyzeCritical(p, xhat, cfg.Critical)
	if err != nil {
		return nil, err
	}
	res := &AblationResult{HHat: cp.H, LambdaN: cp.LambdaN, SigmaR: cp.SigmaR, Un: append([]float64(nil), cp.Un.RawVector().Data...)}
	for i, l := range cfg.Ls {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("experiments: escape windows stopped before l=%d: %w", l, err)
		}
		cf, err := sod.NewTPGDFromCritical(cp, l, cfg.Rho, cfg.Eta)
		if err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, newAblationOrder(l, cf))
		prog.Report("escape windows", i+1, len(cfg.Ls))
	}
	return res, nil
}
