package main

import (
	"fmt"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
)

// benchSpec is the suite a journal belongs to (its first line): a resumed
// run or a merge must have the same.
type benchSpec struct {
	Families   []string                   `json:"families"`
	Methods    []string                   `json:"methods"`
	Trials     int                        `json:"trials"`
	PerCell    int                        `json:"per_cell"`
	Seed       uint64                     `json:"seed"`
	PMCCells   []escapebench.PMCCell      `json:"pmc_cells"`
	PMCIter    int                        `json:"pmc_iter"` // 0: max(20000, 30n) per cell
	PMCStart   string                     `json:"pmc_start"`
	GaussCells []escapebench.GaussianCell `json:"gauss_cells"`
	GaussTries int                        `json:"gauss_tries"`
	MaxIter    int                        `json:"max_iter"`
	MaxEscapes int                        `json:"max_escapes"`
}

// The limits of the cell flags.
const (
	benchPMCMaxN   = 100_000
	benchGaussMaxN = 200
	benchGaussMaxM = 10_000
	benchGaussMaxR = 10
)

func parsePMCCell(s string) (escapebench.PMCCell, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return escapebench.PMCCell{}, fmt.Errorf("want n:ε or n:ε:points, e.g. 1000:0.02 or 10000:0.001:2")
	}
	n, err := parseIntIn(parts[0], 3, benchPMCMaxN, "a size n")
	if err != nil {
		return escapebench.PMCCell{}, fmt.Errorf("n: %w", err)
	}
	eps, err := parseFloatIn(parts[1], 0, 1, true)
	if err != nil {
		return escapebench.PMCCell{}, fmt.Errorf("ε: %w", err)
	}
	c := escapebench.PMCCell{N: int(n), Eps: eps}
	if len(parts) == 3 {
		k, err := parseIntIn(parts[2], 1, 1000, "a number of points")
		if err != nil {
			return escapebench.PMCCell{}, fmt.Errorf("points: %w", err)
		}
		c.Points = int(k)
	}
	return c, nil
}

func parseGaussCell(s string) (escapebench.GaussianCell, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return escapebench.GaussianCell{}, fmt.Errorf("want n:m:r, e.g. 20:45:1")
	}
	var v [3]int64
	for i, lim := range []struct {
		what     string
		min, max int64
	}{{"a size n", 2, benchGaussMaxN}, {"a measurement count m", 1, benchGaussMaxM}, {"a rank r", 1, benchGaussMaxR}} {
		x, err := parseIntIn(parts[i], lim.min, lim.max, lim.what)
		if err != nil {
			return escapebench.GaussianCell{}, fmt.Errorf("%s: %w", []string{"n", "m", "r"}[i], err)
		}
		v[i] = x
	}
	if v[2] > v[0] {
		return escapebench.GaussianCell{}, fmt.Errorf("rank r = %d exceeds n = %d", v[2], v[0])
	}
	return escapebench.GaussianCell{N: int(v[0]), M: int(v[1]), R: int(v[2])}, nil
}

// benchProfiles are the suites of -profile: "default", the benchmark of
// the README (its time is on the last line of sod/escapebench/RESULTS.md),
// and "quick", a short suite for CI and
// notebooks (a few seconds).
var benchProfiles = []string{"default", "quick"}

// defaultBenchSpec is the default suite: the paper's three instances; PMC
// (random-signs starts) from n = 20 to n = 10⁴ with ε small enough that
// the starts stall at spurious points (n = 10³: ε ≤ 0.02; n = 10⁴: ε ≈
// 0.001–0.002), 2 points per cell at n = 10⁴ (4 elsewhere), where a run
// of random-restart takes 15 to 30 s; Gaussian sensing at n = 20 (r = 1, 2) and n = 40 with
// m from nr to near 2.5nr, where the spurious points disappear
// (escapebench.GaussianFamily); every method; 20 trials.
func defaultBenchSpec() benchSpec {
	ms := []string{}
	for _, m := range escapebench.BuiltinMethods() {
		ms = append(ms, m.Name)
	}
	ro := escapebench.DefaultRunOptions()
	return benchSpec{Families: benchFamilyNames, Methods: ms, Trials: 20, PerCell: 4, Seed: 1,
		PMCCells:   []escapebench.PMCCell{{N: 20, Eps: 0.15}, {N: 20, Eps: 0.1}, {N: 100, Eps: 0.1}, {N: 100, Eps: 0.05}, {N: 1000, Eps: 0.02}, {N: 1000, Eps: 0.01}, {N: 10000, Eps: 0.002, Points: 2}, {N: 10000, Eps: 0.001, Points: 2}},
		PMCStart:   escapebench.StartRandomSigns.String(),
		GaussCells: []escapebench.GaussianCell{{N: 20, M: 20, R: 1}, {N: 20, M: 30, R: 1}, {N: 20, M: 45, R: 1}, {N: 20, M: 40, R: 2}, {N: 20, M: 60, R: 2}, {N: 40, M: 100, R: 1}},
		GaussTries: 40,
		MaxIter:    ro.MaxIter, MaxEscapes: ro.MaxEscapes}
}

// quickBenchSpec is -profile quick: every family and method at small
// sizes, 2 points per cell, 3 trials.
func quickBenchSpec() benchSpec {
	s := defaultBenchSpec()
	s.Trials, s.PerCell = 3, 2
	s.PMCCells = []escapebench.PMCCell{{N: 20, Eps: 0.15}, {N: 100, Eps: 0.05}}
	s.GaussCells = []escapebench.GaussianCell{{N: 20, M: 30, R: 1}}
	return s
}

func (s benchSpec) suite(workers int) escapebench.Suite {
	pmc := escapebench.PMCFamily{Cells: s.PMCCells, MaxIter: s.PMCIter, Start: pmcStarts[s.PMCStart]}
	gauss := escapebench.GaussianFamily{Cells: s.GaussCells, Tries: s.GaussTries}
	fams := map[string]escapebench.Family{"paper": escapebench.PaperFamily{}, "pmc": pmc, "gaussian": gauss}
	byName := map[string]escapebench.Method{}
	for _, m := range escapebench.BuiltinMethods() {
		byName[m.Name] = m
	}
	su := escapebench.Suite{PerCell: s.PerCell, Trials: s.Trials, Seed: s.Seed, Workers: workers, Run: escapebench.DefaultRunOptions()}
	su.Run.MaxIter, su.Run.MaxEscapes = s.MaxIter, s.MaxEscapes
	for _, f := range s.Families {
		su.Families = append(su.Families, fams[f])
	}
	for _, m := range s.Methods {
		su.Methods = append(su.Methods, byName[m])
	}
	return su
}

// profileArg returns the value of -profile in args ("default" if absent),
// read before the other flags so that they amend the profile's suite
// whatever their order.
func profileArg(args []string) (string, error) {
	p := "default"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "profile" {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag needs an argument: -profile")
			}
			i++
			val = args[i]
		}
		p = val
	}
	for _, q := range benchProfiles {
		if p == q {
			return p, nil
		}
	}
	return "", fmt.Errorf("invalid value %q for flag -profile: want one of %s", p, strings.Join(benchProfiles, ", "))
}

func cellsString[T fmt.Stringer](cs []T) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return strings.Join(out, ",")
}

// productCells replaces spec's cells by the products of the shorthand
// flags: -pmc-sizes × -pmc-eps (both needed) and -gauss-n × -gauss-m ×
// -gauss-r (all three needed), which exclude -pmc-cells and -gauss-cells.
func productCells(spec *benchSpec, set map[string]bool, pmcSizes []int, pmcEps []float64, gaussN, gaussM, gaussR []int) error {
	if set["pmc-sizes"] || set["pmc-eps"] {
		if set["pmc-cells"] {
			return fmt.Errorf("-pmc-cells and -pmc-sizes/-pmc-eps both given; want the cells, or the sizes and perturbations")
		}
		if !set["pmc-sizes"] || !set["pmc-eps"] {
			return fmt.Errorf("-pmc-sizes and -pmc-eps go together (their product is the PMC cells)")
		}
		spec.PMCCells = nil
		for _, n := range pmcSizes {
			for _, e := range pmcEps {
				spec.PMCCells = append(spec.PMCCells, escapebench.PMCCell{N: n, Eps: e})
			}
		}
	}
	if set["gauss-n"] || set["gauss-m"] || set["gauss-r"] {
		if set["gauss-cells"] {
			return fmt.Errorf("-gauss-cells and -gauss-n/-gauss-m/-gauss-r both given; want the cells, or n, m and r")
		}
		if !set["gauss-n"] || !set["gauss-m"] || !set["gauss-r"] {
			return fmt.Errorf("-gauss-n, -gauss-m and -gauss-r go together (their product is the Gaussian cells)")
		}
		spec.GaussCells = nil
		for _, n := range gaussN {
			for _, m := range gaussM {
				for _, r := range gaussR {
					if r > n {
						return fmt.Errorf("-gauss-r %d exceeds -gauss-n %d", r, n)
					}
					spec.GaussCells = append(spec.GaussCells, escapebench.GaussianCell{N: n, M: m, R: r})
				}
			}
		}
	}
	return nil
}
