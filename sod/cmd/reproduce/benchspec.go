package main

import (
	"fmt"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
)

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

// benchProfiles are the suites of -profile: "default"
// (escapebench.DefaultSpec, the benchmark of the README) and "quick"
// (escapebench.QuickSpec, a few seconds).
var benchProfiles = []string{"default", "quick"}

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

// productCells replaces spec's cells by the products of the shorthand
// flags: -pmc-sizes × -pmc-eps (both needed) and -gauss-n × -gauss-m ×
// -gauss-r (all three needed), which exclude -pmc-cells and -gauss-cells.
func productCells(spec *escapebench.Spec, set map[string]bool, pmcSizes []int, pmcEps []float64, gaussN, gaussM, gaussR []int) error {
	if set["pmc-sizes"] || set["pmc-eps"] {
		if set["pmc-cells"] {
			return fmt.Errorf("-pmc-cells and -pmc-sizes/-pmc-eps both given; want the cells, or the sizes and perturbations")
		}
		if !set["pmc-sizes"] || !set["pmc-eps"] {
			return fmt.Errorf("-pmc-sizes and -pmc-eps go together (their product is the PMC cells)")
		}
		spec.PMCCells = escapebench.PMCGrid(pmcSizes, pmcEps)
	}
	if set["gauss-n"] || set["gauss-m"] || set["gauss-r"] {
		if set["gauss-cells"] {
			return fmt.Errorf("-gauss-cells and -gauss-n/-gauss-m/-gauss-r both given; want the cells, or n, m and r")
		}
		if !set["gauss-n"] || !set["gauss-m"] || !set["gauss-r"] {
			return fmt.Errorf("-gauss-n, -gauss-m and -gauss-r go together (their product is the Gaussian cells)")
		}
		for _, r := range gaussR {
			if n := slices.Min(gaussN); r > n {
				return fmt.Errorf("-gauss-r %d exceeds -gauss-n %d", r, n)
			}
		}
		spec.GaussCells = escapebench.GaussianGrid(gaussN, gaussM, gaussR)
	}
	return nil
}
