package sod

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// NegGradLineSearch proposes X̂ − α ∇h(X̂)/‖∇h(X̂)‖_F for α in
// Alphas·max(‖X̂‖_F, 1) (default as RandomLineSearch): the negative-gradient
// line search of paper section 6.3. At an exact critical point (∇h = 0) it
// proposes nothing. Its zero value is its default (hence no constructor);
// its settings table (Params) has the key alphas.
type NegGradLineSearch struct {
	// Alphas are the step lengths along −∇h/‖∇h‖_F, in units of
	// max(‖X̂‖_F, 1), each finite and > 0; nil means 16 log-spaced values
	// from 0.01 to 10.
	Alphas []float64
}

var (
	_ Escaper      = (*NegGradLineSearch)(nil)
	_ Validator    = (*NegGradLineSearch)(nil)
	_ Configurable = (*NegGradLineSearch)(nil)
)

// Params implements Configurable: the key alphas.
func (s *NegGradLineSearch) Params() []Param {
	if s == nil {
		return nil
	}
	return []Param{
		floatsParam("alphas", "step lengths in units of max(‖X̂‖_F, 1), finite > 0, joined by '_' (unset: 16 log-spaced from 0.01 to 10)", &s.Alphas),
	}
}

// Name implements Escaper.
func (s *NegGradLineSearch) Name() string { return "negative-gradient line search" }

// Validate checks the settings: Alphas finite > 0, at most MaxCandidates.
func (s *NegGradLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil NegGradLineSearch", ErrBadParameter)
	}
	return checkAlphas("negative-gradient line search", s.Alphas, 1)
}

// Propose implements Escaper.
func (s *NegGradLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	n, r := st.X.Dims()
	g := mat.NewDense(n, r, nil)
	st.P.Grad(g, st.X)
	gn := mat.Norm(g, 2)
	if gn == 0 || !isFinite(gn) {
		return nil, nil
	}
	g.Scale(-1/gn, g)
	return lineCandidates(st.X, g, s.Alphas, "−∇h"), nil
}
