package reproducecli

import (
	"fmt"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
)

// benchProfiles are the suites of -profile: "default"
// (escapebench.DefaultSpec, the benchmark of the README), "quick"
// (escapebench.QuickSpec, a few seconds) and "large"
// (escapebench.LargeSpec, PMC up to n = 10⁵), each from
// escapebench.ProfileSpec.
var benchProfiles = escapebench.ProfileNames()

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
