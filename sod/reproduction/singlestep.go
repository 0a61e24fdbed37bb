package reproduction

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod"
)

// single-step SOD: the Case 1 recipe

// SingleStepValues are the report's values of the paper's Case 1 recipe on the seeded Gaussian
// instance of notebook 02 (sod.GaussianSpuriousInstance).
type SingleStepValues struct {
	H0, HGood, HMirror, Rho float64 // h(X̂), h(X̂ + ρ*u_nq_rᵀ), h(−X̂ + ρ*u_nq_rᵀ), ρ*
	MirrorLowers            bool
}

func computeSingleStep(ctx context.Context) (*SingleStepValues, error) {
	v := &SingleStepValues{}
	in, err := sod.GaussianSpuriousInstance()
	if err != nil {
		return nil, err
	}
	var ss *sod.SingleStepResult
	for _, flip := range []bool{false, true} {
		ss, err = sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), Critical: sod.CriticalOptions{FlipUn: flip}})
		if err != nil {
			return nil, err
		}
		if ss.CP.Euu > 0 {
			break
		}
	}
	if !(ss.CP.Euu > 0) {
		return nil, fmt.Errorf("single-step: no sign of u_n gives ⟨E, u_n u_nᵀ⟩ > 0")
	}
	v.Rho = ss.Exact.BestRho
	v.H0, v.HGood, v.HMirror = in.P.H(in.XHat), in.P.H(ss.CP.LinePoint(1, v.Rho)), in.P.H(ss.CP.LinePoint(-1, v.Rho))
	v.MirrorLowers = v.HMirror < v.H0
	return v, nil
}
