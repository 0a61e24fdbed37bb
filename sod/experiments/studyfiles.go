package experiments

import (
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/internal/strictio"
)

// The study's files (ReadStudyShard's JSON, LoadStudy's gob) are read as
// arguments are checked: a path that is not a regular file is refused
// before it is opened (strictio), a shard file is exactly one JSON object
// in the writer's spelling (no key twice, no unknown key, nothing after
// it), and the content must be what a study writes (validateSettings,
// validateCells), with an error wrapping ErrBadExperiment naming the
// file and the problem.

// MaxStudyFileBytes bounds the size of a study file ReadStudyShard and
// LoadStudy read (1 GiB).
const MaxStudyFileBytes = 1 << 30

// validate checks settings read from a file: the ranges StudyConfig's
// validation accepts and a known truth.
func (s StudySettings) validate() error {
	if s.Truth != "alternating" && s.Truth != "custom" {
		return fmt.Errorf("%w: study truth %q, want alternating or custom", ErrBadExperiment, s.Truth)
	}
	if s.Escaper == "" {
		return fmt.Errorf("%w: study settings name no escaper", ErrBadExperiment)
	}
	cfg := StudyConfig{Sizes: s.Sizes, Epsilons: s.Epsilons, Trials: s.Trials, Rank: s.Rank, Seed: s.Seed,
		InitScale: s.InitScale, StepScale: s.StepScale, Step: s.Step, MaxIter: s.MaxIter, GradTol: s.GradTol,
		SuccessTol: s.SuccessTol, MaxEscapes: s.MaxEscapes, TraceEvery: s.TraceEvery, DensePath: s.DensePath, Workers: 1}
	if s.Rank < 1 || s.TraceEvery < 1 {
		return fmt.Errorf("%w: study rank %d, trace_every %d, want ≥ 1", ErrBadExperiment, s.Rank, s.TraceEvery)
	}
	return cfg.validate()
}

// validateCells checks cells read from a file: each a size and ε of the
// settings in order (ε varying fastest), trials with distinct indices in
// [0, Trials) (all of them when shard is nil, else those of the shard),
// counts ≥ 0, distances ≥ 0 (or NaN, a diverged run), a stored point of
// n·r numbers, and cell counts equal to the trials' (countCell).
func validateCells(set StudySettings, cells []StudyCell, shard *batch.Shard) error {
	ncell := len(set.Sizes) * len(set.Epsilons)
	if len(cells) != ncell {
		return fmt.Errorf("%w: %d cells, the settings have %d sizes × %d ε = %d", ErrBadExperiment, len(cells), len(set.Sizes), len(set.Epsilons), ncell)
	}
	for c, cell := range cells {
		n, eps := set.Sizes[c/len(set.Epsilons)], set.Epsilons[c%len(set.Epsilons)]
		if cell.N != n || cell.Eps != eps {
			return fmt.Errorf("%w: cell %d is n = %d, ε = %v; the settings put n = %d, ε = %v there", ErrBadExperiment, c, cell.N, cell.Eps, n, eps)
		}
		seen := map[int]bool{}
		want := set.Trials
		if shard != nil {
			want = 0
			for t := range set.Trials {
				if batch.InShard(c*set.Trials+t, shard.K, shard.N) {
					want++
				}
			}
		}
		if len(cell.Trials) != want {
			return fmt.Errorf("%w: cell %d (n = %d, ε = %v) has %d trials, want %d", ErrBadExperiment, c, n, eps, len(cell.Trials), want)
		}
		for i, tr := range cell.Trials {
			if err := tr.validate(n * set.Rank); err != nil {
				return fmt.Errorf("%w: cell %d (n = %d, ε = %v), trial %d: %v", ErrBadExperiment, c, n, eps, i, err)
			}
			if tr.Index >= set.Trials || seen[tr.Index] || (shard != nil && !batch.InShard(c*set.Trials+tr.Index, shard.K, shard.N)) || (shard == nil && tr.Index != i) {
				return fmt.Errorf("%w: cell %d (n = %d, ε = %v): trial index %d is repeated, out of [0, %d) or not this file's", ErrBadExperiment, c, n, eps, tr.Index, set.Trials)
			}
			seen[tr.Index] = true
		}
		counted := cell
		countCell(&counted)
		if counted.GDSuccesses != cell.GDSuccesses || counted.SODSuccesses != cell.SODSuccesses || counted.Escapes != cell.Escapes || counted.EscapeDescent != cell.EscapeDescent || counted.EscapeErrors != cell.EscapeErrors {
			return fmt.Errorf("%w: cell %d (n = %d, ε = %v): its counts (%d, %d, %d, %d, %d) are not those of its trials (%d, %d, %d, %d, %d)", ErrBadExperiment, c, n, eps,
				cell.GDSuccesses, cell.SODSuccesses, cell.Escapes, cell.EscapeDescent, cell.EscapeErrors, counted.GDSuccesses, counted.SODSuccesses, counted.Escapes, counted.EscapeDescent, counted.EscapeErrors)
		}
	}
	return nil
}

// validate checks one stored trial of a cell whose points have nr numbers.
func (tr StudyTrial) validate(nr int) error {
	dist := func(v float64) bool { return v >= 0 || math.IsNaN(v) }
	switch {
	case tr.Index < 0:
		return fmt.Errorf("index %d, want ≥ 0", tr.Index)
	case !dist(tr.GDDist) || !dist(tr.SODDist):
		return fmt.Errorf("distances %v (GD), %v (GD+SOD), want ≥ 0", tr.GDDist, tr.SODDist)
	case tr.GDIter < 0 || tr.SODIter < 0:
		return fmt.Errorf("iterations %d (GD), %d (GD+SOD), want ≥ 0", tr.GDIter, tr.SODIter)
	case tr.GDX != nil && len(tr.GDX) != nr:
		return fmt.Errorf("GD's point has %d numbers, want n·r = %d", len(tr.GDX), nr)
	case len(tr.GD.Iter) != len(tr.GD.Dist) || len(tr.SOD.Iter) != len(tr.SOD.Dist):
		return fmt.Errorf("a trajectory with %d/%d iterations for %d/%d distances", len(tr.GD.Iter), len(tr.SOD.Iter), len(tr.GD.Dist), len(tr.SOD.Dist))
	}
	for _, v := range append(append([]float64{}, tr.GD.Dist...), tr.SOD.Dist...) {
		if !dist(v) {
			return fmt.Errorf("a trajectory distance %v, want ≥ 0", v)
		}
	}
	for i, e := range tr.Escapes {
		if e.Round < 0 || e.Iter < 0 || e.T < 0 || e.L < 0 {
			return fmt.Errorf("escape %d: round %d, iteration %d, t %d, l %d, want ≥ 0", i, e.Round, e.Iter, e.T, e.L)
		}
	}
	return nil
}

// readStudyFile reads a study file, refusing what is not a regular file.
func readStudyFile(path string) ([]byte, error) {
	return strictio.ReadRegular(path, MaxStudyFileBytes)
}
