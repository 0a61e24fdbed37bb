package experiments

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
)

// SaveStudy writes the cells of res to path with encoding/gob (which keeps
// NaN and ±Inf, unlike JSON), so that later notebook cells, each a separate
// program in GoNB, can plot a study without running it again. The
// configuration is not saved.
func SaveStudy(path string, res *StudyResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(res.Cells); err != nil {
		f.Close()
		return fmt.Errorf("saving the study to %s: %w", path, err)
	}
	return f.Close()
}

// LoadStudy reads a study written by SaveStudy (Config is left zero),
// checked as an argument: a path that is not a regular file (a FIFO, a
// device, a directory) is refused before it is opened, as is a file over
// MaxStudyFileBytes, data after the gob value, and cells that no study
// writes (validateStudyCells: n in [2, MaxStudyN], ε > 0, each (n, ε)
// once, trials with indices 0, 1, …, counts equal to the trials').
// Errors name the file.
func LoadStudy(path string) (*StudyResult, error) {
	b, err := readStudyFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no saved study (run the study first): %w", err)
	}
	if err != nil {
		return nil, err
	}
	res, err := parseStudy(b)
	if err != nil {
		return nil, fmt.Errorf("reading the study from %s: %w", path, err)
	}
	return res, nil
}

// parseStudy is LoadStudy on the file's bytes.
func parseStudy(b []byte) (*StudyResult, error) {
	r := bytes.NewReader(b)
	res := &StudyResult{}
	if err := gob.NewDecoder(r).Decode(&res.Cells); err != nil {
		return nil, fmt.Errorf("%w: not a saved study: %v", ErrBadExperiment, err)
	}
	if r.Len() > 0 {
		return nil, fmt.Errorf("%w: %d bytes after the saved study", ErrBadExperiment, r.Len())
	}
	if err := validateStudyCells(res.Cells); err != nil {
		return nil, err
	}
	return res, nil
}

// validateStudyCells checks the cells of a saved study, whose settings
// are not saved: each cell a distinct (n, ε) with n in [2, MaxStudyN] and
// ε finite > 0, and validateCells on each (trial indices 0, 1, …, counts
// equal to the trials'; the rank, not saved either, from a stored point).
func validateStudyCells(cells []StudyCell) error {
	type key struct {
		n   int
		eps float64
	}
	seen := map[key]bool{}
	for i, c := range cells {
		if c.N < 2 || c.N > MaxStudyN || !(c.Eps > 0) || math.IsInf(c.Eps, 0) || seen[key{c.N, c.Eps}] {
			return fmt.Errorf("%w: cell %d: n = %d, ε = %v, want n in [2, %d], ε finite > 0, each (n, ε) once", ErrBadExperiment, i, c.N, c.Eps, MaxStudyN)
		}
		seen[key{c.N, c.Eps}] = true
		rank := 1
		for _, tr := range c.Trials {
			if len(tr.GDX) > 0 && len(tr.GDX)%c.N == 0 {
				rank = len(tr.GDX) / c.N
			}
		}
		set := StudySettings{Sizes: []int{c.N}, Epsilons: []float64{c.Eps}, Trials: len(c.Trials), Rank: rank}
		if err := validateCells(set, []StudyCell{c}, nil); err != nil {
			return fmt.Errorf("cell %d: %w", i, err)
		}
	}
	return nil
}

// EscapeTally counts the escape rounds of all trials by the kind of the
// escape point and whether it lowered h (keys such as
// "γ-type, lowered h: true"), and the trials that GD + SOD solved and GD did
// not in which some escape point raised h (rescues that were restarts, not
// descent steps).
func (r *StudyResult) EscapeTally() (kinds map[string]int, ascentRescues int) {
	if r == nil {
		panic(fmt.Errorf("%w: StudyResult.EscapeTally on a nil result", ErrBadExperiment))
	}
	kinds = map[string]int{}
	for _, c := range r.Cells {
		for _, t := range c.Trials {
			raised := false
			for _, e := range t.Escapes {
				kinds[fmt.Sprintf("%s-type, lowered h: %v", e.Kind, e.Descent)]++
				raised = raised || !e.Descent
			}
			if raised && t.SODSuccess && !t.GDSuccess {
				ascentRescues++
			}
		}
	}
	return kinds, ascentRescues
}

// Cell returns the cell of size n and perturbation ε (nil if the study has
// none).
func (r *StudyResult) Cell(n int, eps float64) *StudyCell {
	if r == nil {
		panic(fmt.Errorf("%w: StudyResult.Cell on a nil result", ErrBadExperiment))
	}
	for i := range r.Cells {
		if c := &r.Cells[i]; c.N == n && math.Abs(c.Eps-eps) < 1e-12 {
			return c
		}
	}
	return nil
}
