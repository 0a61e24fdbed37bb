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
//
// Its zero value is the line search with l = DefaultLiftingOrder,
// ρ = DefaultSODRho, η = DefaultSODEta, the t grid 10^0 … 10^8 with four
// points per decade, both directions and one sign; its settings table
// (Params) has the keys l, rho, eta, ts, t_decades, t_per_decade, kinds,
// both_signs and growth_q.
type SODLineSearch struct {
	// L is the lifting order l, odd and ≥ 3. Zero means DefaultLiftingOrder.
	L int
	// Rho is the paper's ρ ∈ (0, 1), the weight of the escape direction in
	// w_escape = a + ρ b (eq. w_escape). Zero means DefaultSODRho.
	Rho float64
	// Eta is the TPGD step η ∈ (0, 1) of the closed form (lowered per point
	// by GrowthQ). Zero means DefaultSODEta.
	Eta float64
	// Ts is the grid of simulated step counts, each ≥ 0, at most
	// MaxCandidates/4 of them; nil means the log grid of TDecades and
	// TPerDecade.
	Ts []int64
	// TDecades is the number of decades of the default grid, 10^0 …
	// 10^TDecades, in [1, 18]; zero means 8. Used only when Ts is nil.
	TDecades int
	// TPerDecade is the number of points per decade of the default grid
	// (rounded to integers, duplicates dropped), in [1, 1000]; zero means
	// 4. Used only when Ts is nil.
	TPerDecade int
	// Kinds are the directions searched, each KindBeta or KindGamma; nil
	// means both β and γ.
	Kinds []EscapeKind
	// BothSigns also proposes the mirrored point −X̌ of each candidate.
	// False (zero) proposes only X̌.
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
	// AutoT for t. Zero means off (a fixed η).
	GrowthQ float64
}

var (
	_ Escaper      = (*SODLineSearch)(nil)
	_ Validator    = (*SODLineSearch)(nil)
	_ Configurable = (*SODLineSearch)(nil)
)

// DefaultSODLineSearch returns the workbench's SOD line search: the zero
// value (l = 5, ρ = η = 0.1 as the paper's case studies, the default t
// grid, both directions, a fixed η) with both signs.
func DefaultSODLineSearch() *SODLineSearch {
	return &SODLineSearch{BothSigns: true}
}

// Params implements Configurable: the keys l, rho, eta, ts, t_decades,
// t_per_decade, kinds, both_signs and growth_q, documented as the fields.
func (s *SODLineSearch) Params() []Param {
	if s == nil {
		return nil
	}
	return []Param{
		intParam("l", "lifting order l, odd ≥ 3 (0: DefaultLiftingOrder)", &s.L, DefaultLiftingOrder),
		floatParam("rho", "ρ ∈ (0, 1), weight of the escape direction (0: DefaultSODRho)", &s.Rho, DefaultSODRho, "ρ"),
		floatParam("eta", "TPGD step η ∈ (0, 1) (0: DefaultSODEta)", &s.Eta, DefaultSODEta, "η"),
		int64sParam("ts", "grid of simulated step counts t ≥ 0, joined by '_' (unset: the log grid of t_decades, t_per_decade)", &s.Ts),
		intParam("t_decades", "decades of the default t grid, 10^0 … 10^t_decades, in [1, 18] (0: 8)", &s.TDecades, defaultTDecades),
		intParam("t_per_decade", "points per decade of the default t grid, in [1, 1000] (0: 4)", &s.TPerDecade, defaultTPerDecade),
		kindsParam("kinds", "directions searched, beta and/or gamma joined by '_' (unset: both)", &s.Kinds, []EscapeKind{KindBeta, KindGamma}),
		boolParam("both_signs", "also propose the mirrored points −X̌ (false: X̌ only)", &s.BothSigns),
		floatParam("growth_q", "cap Q > 1 on the closed form's growth factor, lowering η per point (0: off)", &s.GrowthQ, 0),
	}
}

// The default t grid of SODLineSearch: 10^0 … 10^8, four points per decade.
const (
	defaultTDecades   = 8
	defaultTPerDecade = 4
)

// eff returns s with its zero settings replaced by their defaults.
func (s *SODLineSearch) eff() SODLineSearch {
	e := *s
	e.L = orDefault(e.L, DefaultLiftingOrder)
	e.Rho = orDefault(e.Rho, DefaultSODRho)
	e.Eta = orDefault(e.Eta, DefaultSODEta)
	e.TDecades = orDefault(e.TDecades, defaultTDecades)
	e.TPerDecade = orDefault(e.TPerDecade, defaultTPerDecade)
	return e
}

// Name implements Escaper.
func (s *SODLineSearch) Name() string {
	if s == nil {
		return "nil SODLineSearch"
	}
	e := s.eff()
	return fmt.Sprintf("SOD line search (l=%d, ρ=%g, η=%g)", e.L, e.Rho, e.Eta)
}

// Validate checks the settings (zero ones stand for their defaults): l,
// ρ, η (CheckTPGDParams), GrowthQ finite > 1 or 0, every t of Ts ≥ 0,
// TDecades in [1, 18], TPerDecade in [1, 1000], Kinds β or γ, and at most
// MaxCandidates candidates.
func (s *SODLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil SODLineSearch", ErrBadParameter)
	}
	e := s.eff()
	if err := CheckTPGDParams(e.L, e.Rho, e.Eta); err != nil {
		return err
	}
	if e.GrowthQ != 0 && !(e.GrowthQ > 1 && !math.IsInf(e.GrowthQ, 0)) {
		return fmt.Errorf("%w: SOD line search growth factor Q = %v, want finite > 1 (or 0: off)", ErrBadParameter, e.GrowthQ)
	}
	if e.TDecades < 1 || e.TDecades > 18 {
		return fmt.Errorf("%w: SOD line search TDecades = %d, want in [1, 18] (0: %d)", ErrBadParameter, e.TDecades, defaultTDecades)
	}
	if e.TPerDecade < 1 || e.TPerDecade > 1000 {
		return fmt.Errorf("%w: SOD line search TPerDecade = %d, want in [1, 1000] (0: %d)", ErrBadParameter, e.TPerDecade, defaultTPerDecade)
	}
	if e.Ts != nil && len(e.Ts) == 0 {
		return fmt.Errorf("%w: SOD line search Ts is empty (nil: the default grid)", ErrBadParameter)
	}
	if e.Kinds != nil && len(e.Kinds) == 0 {
		return fmt.Errorf("%w: SOD line search Kinds is empty (nil: β and γ)", ErrBadParameter)
	}
	steps := len(e.Ts)
	if e.Ts == nil {
		steps = e.TDecades*e.TPerDecade + 1
	}
	if 2*steps*max(len(e.Kinds), 2) > MaxCandidates {
		return fmt.Errorf("%w: SOD line search with %d steps × %d kinds, more than MaxCandidates = %d candidates", ErrTooLarge, steps, max(len(e.Kinds), 2), MaxCandidates)
	}
	for _, t := range e.Ts {
		if t < 0 {
			return errNegativeT(t)
		}
	}
	for _, k := range e.Kinds {
		if err := checkKind("SOD line search", k, false); err != nil {
			return err
		}
	}
	return nil
}

// logStepGrid returns 10^0 … 10^decades with perDecade points per decade
// (rounded, duplicates dropped).
func logStepGrid(decades, perDecade int) []int64 {
	var ts []int64
	last := int64(-1)
	for k := 0; k <= decades*perDecade; k++ {
		t := int64(math.Round(math.Pow(10, float64(k)/float64(perDecade))))
		if t != last {
			ts = append(ts, t)
			last = t
		}
	}
	return ts
}

// Propose implements Escaper.
func (sp *SODLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := sp.Validate(); err != nil {
		return nil, err
	}
	s := sp.eff()
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
		ts = logStepGrid(s.TDecades, s.TPerDecade)
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
