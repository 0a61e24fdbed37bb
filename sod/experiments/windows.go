package experiments

import (
	"fmt"

	"sodworkbench.org/workbench/sod"
)

// EscapeWindows computes the data of the paper's Fig. "ablation": for every
// lifting order l in cfg.Ls, ρ_min, K_l and the dominance windows U_β
// (the b-term dominates: β-type escape point) and U_γ (the c-term: γ-type
// point) of the closed-form TPGD at cfg.XHat, for cfg.Rho and cfg.Eta. It is
// Ablation without the cells (cfg.Ts, cfg.GDStep and cfg.GDIter are not
// used), so it takes microseconds.
func EscapeWindows(cfg AblationConfig) (*AblationResult, error) {
	if cfg.Problem == nil {
		d := DefaultAblationConfig()
		cfg.Problem, cfg.XHat = d.Problem, d.XHat
	}
	if cfg.XHat == nil || len(cfg.Ls) == 0 {
		return nil, fmt.Errorf("%w: escape windows need X̂ and at least one l", sod.ErrBadParameter)
	}
	cp, err := sod.AnalyzeCritical(cfg.Problem, cfg.XHat, cfg.Critical)
	if err != nil {
		return nil, err
	}
	res := &AblationResult{HHat: cp.H, LambdaN: cp.LambdaN, SigmaR: cp.SigmaR, Un: append([]float64(nil), cp.Un.RawVector().Data...)}
	for _, l := range cfg.Ls {
		cf, err := sod.NewTPGDFromCritical(cp, l, cfg.Rho, cfg.Eta)
		if err != nil {
			return nil, err
		}
		row := AblationRow{L: l, RhoMin: cf.RhoMin(), K: cf.K(), UBeta: cf.UBeta(), UGamma: cf.UGamma()}
		row.UBetaS, row.UGamS = row.UBeta.String(), row.UGamma.String()
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}
