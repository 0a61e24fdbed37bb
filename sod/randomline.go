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
//
// Its zero value is the workbench's random line search
// (DefaultRandomLineSearch with seed 0); its settings table (Params) has
// the keys directions, alphas and seed.
type RandomLineSearch struct {
	// Directions is the number of random directions per round, in [1,
	// MaxCandidates]. Zero means 4.
	Directions int
	// Alphas are the step lengths along each direction, in units of
	// max(‖X̂‖_F, 1), each finite and > 0; nil means 16 log-spaced values
	// from 0.01 to 10.
	Alphas []float64
	// Seed seeds the directions' generator (math/rand/v2 PCG), any value;
	// zero is the seed 0. The same Seed gives the same run.
	Seed uint64

	rng *rand.Rand
}

// defaultRandomDirections is RandomLineSearch.Directions' zero.
const defaultRandomDirections = 4

var (
	_ Escaper      = (*RandomLineSearch)(nil)
	_ Validator    = (*RandomLineSearch)(nil)
	_ Configurable = (*RandomLineSearch)(nil)
)

// DefaultRandomLineSearch returns the random line search with 4 random
// directions per round and the default step lengths (Alphas nil), drawn
// from the stream of seed: its zero value with Seed = seed.
func DefaultRandomLineSearch(seed uint64) *RandomLineSearch {
	return &RandomLineSearch{Seed: seed}
}

// Params implements Configurable: the keys directions, alphas and seed,
// documented as the fields.
func (s *RandomLineSearch) Params() []Param {
	if s == nil {
		return nil
	}
	return []Param{
		intParam("directions", "random directions per round, in [1, MaxCandidates] (0: 4)", &s.Directions, defaultRandomDirections),
		floatsParam("alphas", "step lengths in units of max(‖X̂‖_F, 1), finite > 0, joined by '_' (unset: 16 log-spaced from 0.01 to 10)", &s.Alphas),
		uint64Param("seed", "seed of the directions' generator (0: seed 0)", &s.Seed),
	}
}

// Name implements Escaper.
func (s *RandomLineSearch) Name() string {
	if s == nil {
		return "nil RandomLineSearch"
	}
	return fmt.Sprintf("random line search (seed=%d)", s.Seed)
}

// Validate checks the settings (zero ones stand for their defaults):
// Directions in [1, MaxCandidates], Alphas finite > 0, and Directions ×
// len(Alphas) at most MaxCandidates.
func (s *RandomLineSearch) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil RandomLineSearch", ErrBadParameter)
	}
	if s.Directions < 0 || s.Directions > MaxCandidates {
		return fmt.Errorf("%w: random line search Directions = %d, want in [0, MaxCandidates = %d]", ErrBadParameter, s.Directions, MaxCandidates)
	}
	return checkAlphas("random line search", s.Alphas, orDefault(s.Directions, defaultRandomDirections))
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
	k := orDefault(s.Directions, defaultRandomDirections)
	n, r := st.X.Dims()
	var out []Candidate
	for d := 0; d < k; d++ {
		dir := gaussianMatrix(s.rng, n, r)
		dir.Scale(1/mat.Norm(dir, 2), dir)
		out = append(out, lineCandidates(st.X, dir, s.Alphas, fmt.Sprintf("random dir %d", d))...)
	}
	return out, nil
}
