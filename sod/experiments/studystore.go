package experiments

import (
	"encoding/gob"
	"fmt"
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

// LoadStudy reads a study written by SaveStudy (Config is left zero).
func LoadStudy(path string) (*StudyResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("no saved study (run the study first): %w", err)
	}
	defer f.Close()
	res := &StudyResult{}
	if err := gob.NewDecoder(f).Decode(&res.Cells); err != nil {
		return nil, fmt.Errorf("reading the study from %s: %w", path, err)
	}
	return res, nil
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
