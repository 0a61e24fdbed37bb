package sod

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/randstream"
)

// RandomLineSearch proposes X̂ + α D along Directions random unit (Frobenius)
// directions D, for α in Alphas·max(‖X̂‖_F, 1) (default 16 log-spaced values
// from 0.01 to 10). It is the random line search of paper section 6.3.
type RandomLineSearch struct {
	Directions int // default 1
	Alphas     []float64
	Seed       uint64

	rng *rand.Rand
}

var (
	_ Escaper   = (*RandomLineSearch)(nil)
	_ Validator = (*RandomLineSearch)(nil)
)

// DefaultRandomLineSearch returns the random line search with 4 random
// directions per round and the default step lengths (Alphas nil), drawn
// from the stream of seed.
func DefaultRandomLineSearch(seed uint64) *RandomLineSearch {
	return &RandomLineSearch{Directions: 4, Seed: seed}
}

// Name implements Escaper.
func (s *RandomLineSearch) Name() string {
	if s == nil {
		return "nil RandomLineSearch"
	}
	return fmt.Sprintf("random line search (seed=%d)", s.Seed)
}

// Validate checks the settings: Directions ≥ 0, Alphas finite > 0, and
// Directions × len(Alphas) at most MaxCandidates.
func (s *RandomLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil RandomLineSearch", ErrBadParameter)
	}
	if s.Directions < 0 || s.Directions > MaxCandidates {
		return fmt.Errorf("%w: random line search Directions = %d, want in [0, MaxCandidates = %d]", ErrBadParameter, s.Directions, MaxCandidates)
	}
	return checkAlphas("random line search", s.Alphas, max(s.Directions, 1))
}

// Propose implements Escaper.
func (s *RandomLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	if s.rng == nil {
		s.rng = randstream.New(s.Seed, randstream.RandomDirections)
	}
	k := s.Directions
	if k == 0 {
		k = 1
	}
	n, r := st.X.Dims()
	var out []Candidate
	for d := 0; d < k; d++ {
		dir := gaussianMatrix(s.rng, n, r)
		dir.Scale(1/mat.Norm(dir, 2), dir)
		out = append(out, lineCandidates(st.X, dir, s.Alphas, fmt.Sprintf("random dir %d", d))...)
	}
	return out, nil
}
