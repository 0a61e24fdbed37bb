package escapebench

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Spec names a suite built from the built-in families (FamilyNames) and
// methods (BuiltinMethods) with their settings: the serialisable form of
// a Suite. It is the header of a journal (JournalHeader), so that a
// resumed run or a merge continues the same suite, and what the command
// `reproduce bench` parses its flags into. DefaultSpec is the benchmark
// of RESULTS.md, QuickSpec a suite of a few seconds.
type Spec struct {
	Families   []string       `json:"families"` // some of FamilyNames
	Methods    []string       `json:"methods"`  // names of BuiltinMethods
	Trials     int            `json:"trials"`
	PerCell    int            `json:"per_cell"`
	Seed       uint64         `json:"seed"`
	PMCCells   []PMCCell      `json:"pmc_cells"`
	PMCIter    int            `json:"pmc_iter"`  // 0: max(20000, 30n) per cell
	PMCStart   string         `json:"pmc_start"` // a PMCStart's String
	GaussCells []GaussianCell `json:"gauss_cells"`
	GaussTries int            `json:"gauss_tries"`
	// PMCRankCells are the cells of "pmc-rank" (PMCRankFamily, each of
	// rank ≥ 2; start PMCStart, 0 steps: its default); NoisyCells and
	// NoiseSigma those of "gaussian-noisy" (NoisyGaussianFamily, with
	// GaussTries draws per point).
	PMCRankCells []PMCCell      `json:"pmc_rank_cells,omitempty"`
	NoisyCells   []GaussianCell `json:"noisy_cells,omitempty"`
	NoiseSigma   float64        `json:"noise_sigma,omitempty"`
	MaxIter      int            `json:"max_iter"`
	MaxEscapes   int            `json:"max_escapes"`
	// Exec are the external methods (ExecCommand, PROTOCOL.md), each
	// named in Methods by its Name.
	Exec []ExecCommand `json:"exec,omitempty"`
}

// FamilyNames returns the names of the built-in families of a Spec:
// "paper" (PaperFamily), "pmc" (PMCFamily), "pmc-rank" (PMCRankFamily),
// "gaussian" (GaussianFamily) and "gaussian-noisy"
// (NoisyGaussianFamily).
func FamilyNames() []string {
	return []string{"paper", "pmc", "pmc-rank", "gaussian", "gaussian-noisy"}
}

// DefaultSpec is the default suite, the benchmark of RESULTS.md (its time
// is under its at-a-glance table): the paper's three instances; PMC
// (random-signs starts) from n = 20 to n = 10⁴ with ε small enough that
// the starts stall at spurious points (n = 10³: ε ≤ 0.02; n = 10⁴: ε ≈
// 0.001–0.002), 2 points per cell at n = 10⁴ (4 elsewhere), where a run of
// random-restart takes 3 to 11 s of CPU (median 3.5 s); Gaussian sensing
// at n = 20 (r = 1, 2) and n = 40 with m from nr to near 2.5nr, where the
// spurious points disappear (GaussianFamily); PMC at truth rank 3 and 5
// (PMCRankFamily, n = 100 and 200, 2 points per cell); Gaussian sensing
// with noise σ = 0.01 at n = 20 (NoisyGaussianFamily); every built-in method, and
// the SOD methods judged after a GD probe too (WithJudge); 20 trials.
func DefaultSpec() Spec {
	ms := []string{}
	for _, m := range BuiltinMethods() {
		ms = append(ms, m.Name)
	}
	// SOD judged both ways (WithJudge): by raw h, the paper's rule, and
	// after a gradient descent probe of its best candidate, random
	// restart's rule.
	for _, m := range []string{"single-step-sod", "multi-step-sod", "sod-line-search", "exact-subspace-sod"} {
		ms = append(ms, m+ProbeSuffix)
	}
	to := DefaultTrialOptions()
	return Spec{Families: FamilyNames(), Methods: ms, Trials: 20, PerCell: 4, Seed: 1,
		PMCCells:     []PMCCell{{N: 20, Eps: 0.15}, {N: 20, Eps: 0.1}, {N: 100, Eps: 0.1}, {N: 100, Eps: 0.05}, {N: 1000, Eps: 0.02}, {N: 1000, Eps: 0.01}, {N: 10000, Eps: 0.002, Points: 2}, {N: 10000, Eps: 0.001, Points: 2}},
		PMCStart:     StartRandomSigns.String(),
		GaussCells:   []GaussianCell{{N: 20, M: 20, R: 1}, {N: 20, M: 30, R: 1}, {N: 20, M: 45, R: 1}, {N: 20, M: 40, R: 2}, {N: 20, M: 60, R: 2}, {N: 40, M: 100, R: 1}},
		GaussTries:   40,
		PMCRankCells: []PMCCell{{N: 100, Eps: 0.1, Points: 2, R: 3}, {N: 200, Eps: 0.1, Points: 2, R: 3}, {N: 100, Eps: 0.1, Points: 2, R: 5}, {N: 200, Eps: 0.1, Points: 2, R: 5}},
		NoisyCells:   []GaussianCell{{N: 20, M: 30, R: 1}, {N: 20, M: 45, R: 1}, {N: 20, M: 60, R: 2}},
		NoiseSigma:   DefaultNoiseSigma,
		MaxIter:      to.MaxIter, MaxEscapes: to.MaxEscapes}
}

// QuickSpec is a suite of a few seconds (CI's, `reproduce bench -profile
// quick`): DefaultSpec's families and methods at small sizes, 2 points per
// cell (pmc-rank: one point at r = 3; no gaussian-noisy), 3 trials.
func QuickSpec() Spec {
	s := DefaultSpec()
	s.Trials, s.PerCell = 3, 2
	s.PMCCells = []PMCCell{{N: 20, Eps: 0.15}, {N: 100, Eps: 0.05}}
	s.GaussCells = []GaussianCell{{N: 20, M: 30, R: 1}}
	s.PMCRankCells = []PMCCell{{N: 40, Eps: 0.15, Points: 1, R: 3}}
	// gaussian-noisy (its reference descents double the quick suite's
	// CPU) is left to the default suite and the tests.
	s.Families = slices.DeleteFunc(s.Families, func(f string) bool { return f == "gaussian-noisy" })
	s.NoisyCells, s.NoiseSigma = nil, 0
	return s
}

// LargeSpec is the large profile (`reproduce bench -profile large`): PMC
// at n = 10⁵ (rank 1, one point at ε = 0.0002, ε scaled as from n = 10³
// to 10⁴) and of rank 3 and 5 at n = 10³ (ε = 0.05, 2 points each), the
// methods that escape PMC in the default suite (multi-step SOD and the SOD
// line search, both judged both ways), the negative-gradient line search,
// gradient descent alone and random restarts, 3 trials. The instances stay
// in O(n·r) memory (the structured path, no n×n array; about 100 MiB at
// n = 10⁵) and λ_min comes from Lanczos, but time grows as n²: finding a
// point at n = 10⁵ takes max(20000, 30n) = 3·10⁶ gradient steps of O(n)
// each, and each run's phase as many, so the profile takes hours per core.
// Its instances alone (GenerateInstances, `reproduce bench -profile large
// -instances-only`) cost far less: RESULTS-large.md has them and their time.
func LargeSpec() Spec {
	s := DefaultSpec()
	s.Families = []string{"pmc", "pmc-rank"}
	s.Methods = []string{"multi-step-sod", "sod-line-search", "multi-step-sod" + ProbeSuffix, "sod-line-search" + ProbeSuffix, "neg-grad-line-search", "gd-alone", "random-restart"}
	s.Trials = 3
	s.PMCCells = []PMCCell{{N: 100_000, Eps: 0.0002, Points: 1}}
	s.PMCRankCells = []PMCCell{{N: 1000, Eps: 0.05, Points: 2, R: 3}, {N: 1000, Eps: 0.05, Points: 2, R: 5}}
	s.GaussCells, s.NoisyCells, s.NoiseSigma = nil, nil, 0
	return s
}

// ProfileNames returns the names of the suites ProfileSpec knows:
// "default", "quick" and "large".
func ProfileNames() []string { return []string{"default", "quick", "large"} }

// ProfileSpec returns the suite a profile names (DefaultSpec, QuickSpec,
// LargeSpec); an unknown name is an error wrapping ErrBadBench naming it
// and the known ones.
func ProfileSpec(name string) (Spec, error) {
	switch name {
	case "default":
		return DefaultSpec(), nil
	case "quick":
		return QuickSpec(), nil
	case "large":
		return LargeSpec(), nil
	}
	return Spec{}, fmt.Errorf("%w: unknown profile %q, want one of %s", ErrBadBench, name, strings.Join(ProfileNames(), ", "))
}

// Suite returns the suite s names, with DefaultTrialOptions but for
// MaxIter and MaxEscapes. A method name (with a judge suffix and
// settings, ResolveMethod) is looked up in extra (your own methods, named
// in s.Methods so that the journal's header records them) before
// BuiltinMethods; methods are resolved here, once per suite, and two
// names of one configuration ("sod-line-search+l-3",
// "sod-line-search+L-3") are one method, run and counted once under its
// canonical name. An unknown family, method or PMC start is an
// error wrapping ErrBadBench naming it and the known ones, as is
// anything Suite.Validate refuses.
func (s Spec) Suite(extra ...Method) (Suite, error) {
	var start PMCStart
	known := []string{}
	for _, st := range []PMCStart{StartSmallRandom, StartOneFlip, StartRandomSigns} {
		known = append(known, st.String())
		if st.String() == s.PMCStart {
			start = st
		}
	}
	if !slices.Contains(known, s.PMCStart) {
		return Suite{}, fmt.Errorf("%w: PMC start %q, want one of %s", ErrBadBench, s.PMCStart, strings.Join(known, ", "))
	}
	fams := map[string]Family{"paper": PaperFamily{},
		"pmc":            PMCFamily{Cells: s.PMCCells, MaxIter: s.PMCIter, Start: start},
		"pmc-rank":       PMCRankFamily{Cells: s.PMCRankCells, Start: start},
		"gaussian":       GaussianFamily{Cells: s.GaussCells, Tries: s.GaussTries},
		"gaussian-noisy": NoisyGaussianFamily{GaussianFamily: GaussianFamily{Cells: s.NoisyCells, Tries: s.GaussTries}, Sigma: s.NoiseSigma}}
	su := Suite{PerCell: s.PerCell, Trials: s.Trials, Seed: s.Seed, TrialOptions: DefaultTrialOptions()}
	su.TrialOptions.MaxIter, su.TrialOptions.MaxEscapes = s.MaxIter, s.MaxEscapes
	for _, f := range s.Families {
		if fams[f] == nil {
			return Suite{}, fmt.Errorf("%w: unknown family %q, want some of %s", ErrBadBench, f, strings.Join(FamilyNames(), ", "))
		}
		if err := s.checkCells(f); err != nil {
			return Suite{}, err
		}
		su.Families = append(su.Families, fams[f])
	}
	for _, c := range s.Exec {
		m, err := c.Method()
		if err != nil {
			return Suite{}, err
		}
		extra = append(extra, m)
	}
	given := map[string]string{}
	for _, name := range s.Methods {
		m, err := ResolveMethod(name, extra...)
		if err != nil {
			return Suite{}, err
		}
		if _, dup := given[m.Name]; dup {
			continue // another name of a configuration already listed: one method, run once
		}
		given[m.Name] = name
		su.Methods = append(su.Methods, m)
	}
	return su, su.Validate()
}

// checkCells refuses, before any work, cells the family f would refuse
// when it generates: a cell out of range, a rank that belongs to the
// other PMC family, a family without cells, a σ out of range.
func (s Spec) checkCells(f string) error {
	switch f {
	case "pmc", "pmc-rank":
		cells, rank, flag := s.PMCCells, false, "-pmc-cells n:ε[:points]"
		if f == "pmc-rank" {
			cells, rank, flag = s.PMCRankCells, true, "-pmc-rank-cells n:ε[:points]:rK"
		}
		if len(cells) == 0 {
			return fmt.Errorf("%w: family %s has no cells (%s)", ErrBadBench, f, flag)
		}
		for _, c := range cells {
			if err := c.Validate(); err != nil {
				return err
			}
			if (c.R > 1) != rank {
				return fmt.Errorf("%w: %s cell %v has rank %d: the family pmc is rank 1 (-pmc-cells), pmc-rank rank 2 to %d (-pmc-rank-cells)", ErrBadBench, f, c, c.rank(), MaxPMCCellRank)
			}
		}
	case "gaussian", "gaussian-noisy":
		cells, flag := s.GaussCells, "-gauss-cells"
		if f == "gaussian-noisy" {
			cells, flag = s.NoisyCells, "-noisy-cells"
		}
		if len(cells) == 0 {
			return fmt.Errorf("%w: family %s has no cells (%s n:m:r)", ErrBadBench, f, flag)
		}
		for _, c := range cells {
			if err := c.Validate(); err != nil {
				return err
			}
		}
		if !(s.NoiseSigma >= 0 && s.NoiseSigma <= MaxNoiseSigma) {
			return fmt.Errorf("%w: noise σ = %v, want a number in (0, %g] (0: %g)", ErrBadBench, s.NoiseSigma, MaxNoiseSigma, DefaultNoiseSigma)
		}
	}
	return nil
}

// Setting is one parameter of a suite, as the reports show it.
type Setting struct{ Name, Value string }

// Settings lists s's parameters in words, in the order the reports
// (bench-summary.md, bench-report.html) show them.
func (s Spec) Settings() []Setting {
	join := func(xs []string) string { return strings.Join(xs, ", ") }
	set := []Setting{{Name: "families", Value: join(s.Families)}}
	if slices.Contains(s.Families, "pmc") {
		iter := strconv.Itoa(s.PMCIter)
		if s.PMCIter == 0 {
			iter = "max(20000, 30n)"
		}
		set = append(set, Setting{Name: "pmc", Value: fmt.Sprintf("cells n:ε[:points] %s; start %s; %s GD steps to find a point",
			CellList(s.PMCCells), s.PMCStart, iter)})
	}
	if slices.Contains(s.Families, "pmc-rank") {
		set = append(set, Setting{Name: "pmc-rank", Value: fmt.Sprintf("cells n:ε[:points]:rK %s (truth rank = search rank K); start %s; max(100000, 300n) GD steps to find a point",
			CellList(s.PMCRankCells), s.PMCStart)})
	}
	if slices.Contains(s.Families, "gaussian") {
		set = append(set, Setting{Name: "gaussian", Value: fmt.Sprintf("cells n:m:r %s; up to %d draws per point", CellList(s.GaussCells), s.GaussTries)})
	}
	if slices.Contains(s.Families, "gaussian-noisy") {
		set = append(set, Setting{Name: "gaussian-noisy", Value: fmt.Sprintf("cells n:m:r %s; noise e_i ~ N(0, σ²) i.i.d., σ = %g; success and certificate measured to the reference minimum (GD from the truth on the noisy h); up to %d draws per point",
			CellList(s.NoisyCells), orDefault(s.NoiseSigma, DefaultNoiseSigma), s.GaussTries)})
	}
	set = append(set, Setting{Name: "methods", Value: join(s.Methods)})
	for _, c := range s.Exec {
		set = append(set, Setting{Name: "external method " + c.Name, Value: strings.Join(c.Argv, " ") + " (protocol " + strconv.Itoa(ExecProtocol) + ", PROTOCOL.md)"})
	}
	return append(set,
		Setting{Name: "points per family cell", Value: strconv.Itoa(s.PerCell)},
		Setting{Name: "trials per (instance, seeded method)", Value: strconv.Itoa(s.Trials) + " (deterministic methods run once per instance)"},
		Setting{Name: "seed", Value: strconv.FormatUint(s.Seed, 10)},
		Setting{Name: "GD steps per phase", Value: strconv.Itoa(s.MaxIter)},
		Setting{Name: "escape rounds per run", Value: strconv.Itoa(s.MaxEscapes)},
		Setting{Name: "targets (first hits recorded)", Value: targetList(DefaultTargets())},
		Setting{Name: "cost unit", Value: fmt.Sprintf("∇h-equivalents: ∇h evaluation 1, h evaluation %g, Hessian–vector product %g, eigen-solve %g", DefaultCostWeights.H, DefaultCostWeights.HessVec, DefaultCostWeights.Eigen)},
	)
}

// CellList joins cells (PMCCell, GaussianCell) with commas, in the form
// of reproduce bench's -pmc-cells and -gauss-cells: "20:0.15,100:0.1".
func CellList[T fmt.Stringer](cs []T) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return strings.Join(out, ",")
}

// targetList joins targets' names with "; ".
func targetList(ts []Target) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.String())
	}
	return strings.Join(out, "; ")
}

// Run builds the suite s names (Suite, with your own methods in extra) and
// runs it (RunSuite).
func (s Spec) Run(ctx context.Context, opt RunOptions, extra ...Method) (*SuiteRun, error) {
	suite, err := s.Suite(extra...)
	if err != nil {
		return nil, err
	}
	return RunSuite(ctx, suite, opt)
}
