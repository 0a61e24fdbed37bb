package sod

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SODLineSearch is SOD used as a deterministic line search over the β and
// γ directions (paper section 6.3): the candidate points c_β(t) u_n q_rᵀ and
// c_γ(t) E X̂ for every t of a grid, whatever the dominance intervals. The
// driver then keeps the one with the lowest h. With BothSigns the mirrored
// points −X̌ are proposed too (the sign of u_n q_rᵀ is arbitrary).
type SODLineSearch struct {
	L        int
	Rho, Eta float64
	// Ts is the grid of simulated step counts; nil means 10^0 … 10^8 with
	// four points per decade.
	Ts []int64
	// Kinds are the directions searched; nil means both β and γ.
	Kinds     []EscapeKind
	BothSigns bool
	// GrowthQ, if > 0 (it must then exceed 1), lowers η at each stalled
	// point to η = min(Eta, (GrowthQ − 1)/(−λ_n)^l), so that the closed
	// form's growth factor Q = 1 − ηλ_n^l is at most GrowthQ. The β
	// coefficient c_β(t) = (ρQ^t)^{1/l} (eq. x_check_beta) then grows by at
	// most GrowthQ^{1/l} from one t to the next, and the t grid is a line
	// search with that resolution. With a fixed η and a strongly negative
	// λ_n, Q = 1 + η(−λ_n)^l is huge (≈ 4000 for η = 0.1, λ_n = −34,
	// l = 3: the quadratic network's spurious minimum) and already t = 1
	// overshoots every useful scale. The paper fixes no η for its line
	// search (section 6.3); this is the workbench's rule, like
	// AutoT for t.
	GrowthQ float64
}

var (
	_ Escaper   = (*SODLineSearch)(nil)
	_ Validator = (*SODLineSearch)(nil)
)

// DefaultSODLineSearch returns the workbench's SOD line search: l = 5,
// ρ = η = 0.1 (as the paper's case studies), both signs, the default t grid
// (Ts nil: 10^0 … 10^8, four points per decade), both directions (Kinds
// nil) and a fixed η (GrowthQ 0).
func DefaultSODLineSearch() *SODLineSearch {
	return &SODLineSearch{L: 5, Rho: 0.1, Eta: 0.1, BothSigns: true}
}

// Name implements Escaper.
func (s *SODLineSearch) Name() string {
	if s == nil {
		return "nil SODLineSearch"
	}
	return fmt.Sprintf("SOD line search (l=%d, ρ=%g, η=%g)", s.L, s.Rho, s.Eta)
}

// Validate checks the settings: l, ρ, η (CheckTPGDParams), GrowthQ finite
// > 1 or 0, every t of Ts ≥ 0, Kinds β or γ, and at most MaxCandidates
// candidates.
func (s *SODLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil SODLineSearch", ErrBadParameter)
	}
	if err := CheckTPGDParams(s.L, s.Rho, s.Eta); err != nil {
		return err
	}
	if s.GrowthQ != 0 && !(s.GrowthQ > 1 && !math.IsInf(s.GrowthQ, 0)) {
		return fmt.Errorf("%w: SOD line search growth factor Q = %v, want finite > 1 (or 0: off)", ErrBadParameter, s.GrowthQ)
	}
	if s.Ts != nil && len(s.Ts) == 0 {
		return fmt.Errorf("%w: SOD line search Ts is empty (nil: the default grid)", ErrBadParameter)
	}
	if s.Kinds != nil && len(s.Kinds) == 0 {
		return fmt.Errorf("%w: SOD line search Kinds is empty (nil: β and γ)", ErrBadParameter)
	}
	if 2*len(s.Ts)*max(len(s.Kinds), 2) > MaxCandidates {
		return fmt.Errorf("%w: SOD line search with %d steps × %d kinds, more than MaxCandidates = %d candidates", ErrTooLarge, len(s.Ts), len(s.Kinds), MaxCandidates)
	}
	for _, t := range s.Ts {
		if t < 0 {
			return errNegativeT(t)
		}
	}
	for _, k := range s.Kinds {
		if err := checkKind("SOD line search", k, false); err != nil {
			return err
		}
	}
	return nil
}

// defaultStepGrid returns 10^0 … 10^8 with four points per decade.
func defaultStepGrid() []int64 {
	var ts []int64
	last := int64(-1)
	for k := 0; k <= 32; k++ {
		t := int64(math.Round(math.Pow(10, float64(k)/4)))
		if t != last {
			ts = append(ts, t)
			last = t
		}
	}
	return ts
}

// Propose implements Escaper.
func (s *SODLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	if !(cp.LambdaN < 0) {
		return nil, nil
	}
	eta := s.Eta
	if s.GrowthQ > 0 {
		// (Q − 1)/(−λ_n)^l in the log domain; it only ever lowers η.
		if e := math.Exp(math.Log(s.GrowthQ-1) - float64(s.L)*math.Log(-cp.LambdaN)); e > 0 && e < eta {
			eta = e
		}
	}
	cf, err := NewTPGDFromCritical(cp, s.L, s.Rho, eta)
	if err != nil {
		return nil, err
	}
	ts := s.Ts
	if ts == nil {
		ts = defaultStepGrid()
	}
	kinds := s.Kinds
	if kinds == nil {
		kinds = []EscapeKind{KindBeta, KindGamma}
	}
	var out []Candidate
	for _, kind := range kinds {
		for _, t := range ts {
			if t < 0 {
				return nil, errNegativeT(t)
			}
			x, err := forcedEscapePoint(cf, cp, t, kind)
			if errors.Is(err, ErrScaleOverflow) {
				continue
			} else if err != nil {
				return nil, err
			}
			if mat.Norm(x, 2) == 0 {
				continue
			}
			sel := cf.Select(t)
			info := &MultiStepInfo{ClosedForm: cf, Critical: cp, T: t, Kind: kind, InInterval: sel == kind}
			out = append(out, Candidate{X: x, Label: fmt.Sprintf("%v t=%d", kind, t), Data: info})
			if s.BothSigns {
				var nx mat.Dense
				nx.Scale(-1, x)
				out = append(out, Candidate{X: &nx, Label: fmt.Sprintf("−%v t=%d", kind, t), Data: info})
			}
		}
	}
	return out, nil
}
