package escapebench

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// TestDefaultSpec: the default suite is every family, every method, 20
// trials, PMC up to n = 10⁴ and Gaussian cells with r = 1 and 2; the quick
// suite is a subset of sizes; both build valid suites.
func TestDefaultSpec(t *testing.T) {
	s := DefaultSpec()
	if !slices.Equal(s.Families, FamilyNames()) || len(s.Methods) != len(BuiltinMethods())+4 || s.Trials != 20 {
		t.Errorf("default suite: families %v, %d methods, %d trials", s.Families, len(s.Methods), s.Trials)
	}
	for _, m := range BuiltinMethods() {
		if !slices.Contains(s.Methods, m.Name) {
			t.Errorf("default suite lacks %s", m.Name)
		}
	}
	// SOD judged both ways.
	for _, m := range []string{"single-step-sod", "multi-step-sod", "sod-line-search", "exact-subspace-sod"} {
		if !slices.Contains(s.Methods, m+ProbeSuffix) {
			t.Errorf("default suite lacks %s", m+ProbeSuffix)
		}
	}
	maxN := 0
	for _, c := range s.PMCCells {
		maxN = max(maxN, c.N)
	}
	if maxN != 10000 {
		t.Errorf("default PMC sizes up to %d, want 10⁴", maxN)
	}
	ranks := map[int]bool{}
	for _, c := range s.GaussCells {
		ranks[c.R] = true
	}
	if !ranks[1] || !ranks[2] {
		t.Errorf("default Gaussian ranks %v, want 1 and 2", ranks)
	}
	q := QuickSpec()
	if q.Trials >= s.Trials || len(q.PMCCells) >= len(s.PMCCells) {
		t.Errorf("quick suite not smaller: %+v", q)
	}
	for _, sp := range []Spec{s, q} {
		su, err := sp.Suite()
		if err != nil || len(su.Families) != len(sp.Families) || len(su.Methods) != len(sp.Methods) || su.TrialOptions.MaxIter != sp.MaxIter {
			t.Errorf("Suite(): %d families, %d methods, %v", len(su.Families), len(su.Methods), err)
		}
	}
}

// ProfileSpec knows the profiles of ProfileNames and refuses others
// naming them; every profile has PMC at rank 3, all but quick at rank 5
// too, the default noisy Gaussian sensing; the large profile has PMC at
// n = 10⁵.
func TestProfileSpec(t *testing.T) {
	for _, name := range ProfileNames() {
		s, err := ProfileSpec(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := s.Suite(); err != nil {
			t.Errorf("%s: Suite: %v", name, err)
		}
		ranks := map[int]bool{}
		for _, c := range s.PMCRankCells {
			ranks[c.R] = true
		}
		if !ranks[3] || !ranks[5] && name != "quick" || name == "default" && (s.NoiseSigma != DefaultNoiseSigma || len(s.NoisyCells) == 0) {
			t.Errorf("%s: pmc-rank ranks %v, noisy cells %v σ %v: want ranks 3 and 5 and noisy cells", name, ranks, s.NoisyCells, s.NoiseSigma)
		}
	}
	l := LargeSpec()
	maxN := 0
	for _, c := range l.PMCCells {
		maxN = max(maxN, c.N)
	}
	if maxN != 100_000 {
		t.Errorf("large profile PMC up to n = %d, want 10⁵", maxN)
	}
	for _, bad := range []string{"", "Large", "huge", "default "} {
		if _, err := ProfileSpec(bad); !errors.Is(err, ErrBadBench) || !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("ProfileSpec(%q) = %v, want ErrBadBench naming it", bad, err)
		}
	}
}

// An unknown name in a Spec is refused, naming it.
func TestSpecSuiteErrors(t *testing.T) {
	for _, c := range []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Families = []string{"paper", "bogus"} }, `"bogus"`},
		{func(s *Spec) { s.Methods = []string{"nope"} }, `"nope"`},
		{func(s *Spec) { s.PMCStart = "sideways" }, `"sideways"`},
		{func(s *Spec) { s.Trials = -1 }, "Trials = -1"},
		{func(s *Spec) { s.Families = []string{"pmc-ranks"} }, `"pmc-ranks"`},
	} {
		s := QuickSpec()
		c.edit(&s)
		if _, err := s.Suite(); !errors.Is(err, ErrBadBench) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want ErrBadBench naming %s", err, c.want)
		}
	}
}

// A user's method joins a Spec by name.
func TestSpecSuiteExtra(t *testing.T) {
	mine := EscaperMethod("mine", nil, func(CertifiedInstance, uint64) sod.Escaper { return &sod.NegGradLineSearch{} })
	s := QuickSpec()
	s.Methods = []string{"gd-alone", "mine"}
	su, err := s.Suite(mine)
	if err != nil || len(su.Methods) != 2 || su.Methods[1].Name != "mine" {
		t.Fatalf("%v, %v", su.Methods, err)
	}
	if _, err := s.Suite(); !errors.Is(err, ErrBadBench) || !strings.Contains(err.Error(), `"mine"`) {
		t.Errorf("without the method: %v", err)
	}
}
