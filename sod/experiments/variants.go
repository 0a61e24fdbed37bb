package experiments

import (
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
)

// VariantRow is one escape variant run once from one instance's spurious
// point (a row of the variant-comparison table).
type VariantRow struct {
	Case, Variant string
	Run           *sod.EscapeRun
	Candidates    int     // candidates proposed in the first escape round
	Lowering      int     // of which lower h
	Accepted      string  // label of the accepted candidate, "" if none
	Ratio         float64 // h(X̌)/h(X̂) of the accepted candidate, NaN if none
	Dist          float64 // ‖XXᵀ − M*‖_F at the end of the run
}

// DefaultVariantOptions are the options of the comparison: GD (step 0.1,
// at most 3000 steps, ‖∇h‖ ≤ 1e-10), one escape round, solved at
// ‖XXᵀ − M*‖_F ≤ 0.02.
func DefaultVariantOptions() sod.EscapeOptions {
	return sod.EscapeOptions{GD: sod.GDOptions{Step: 0.1, MaxIter: 3000, GradTol: 1e-10}, MaxEscapes: 1, TargetDist: 0.02}
}

// DefaultVariants returns the built-in escape variants compared on instance
// in: single-step SOD with RIP constant delta (section 4), the paper's
// multi-step SOD at the instance's (l, t) (section 5), the SOD line search
// (section 6.3), SOD on the exact lifted dynamics (not the paper's),
// perturbed GD (Jin et al.), a random and a negative-gradient line search.
func DefaultVariants(in sod.Instance, delta float64) []sod.Escaper {
	return []sod.Escaper{
		&sod.SingleStepSOD{Options: sod.SingleStepOptions{Delta: delta}},
		&sod.MultiStepSOD{L: in.L, T: in.T, Rho: 0.1, Eta: 0.1},
		&sod.SODLineSearch{L: 5, Rho: 0.1, Eta: 0.1, BothSigns: true},
		&sod.ExactSubspaceSOD{L: 5, T: 1000, Rho: 0.1, Eta: 0.1, BothSigns: true},
		&sod.PerturbedGD{Radius: 0.1, TThres: 50, Samples: 10, Seed: 1},
		&sod.RandomLineSearch{Directions: 4, Seed: 1},
		&sod.NegGradLineSearch{},
	}
}

// CompareVariants runs sod.RunEscape from every instance's X̂ with every
// variant that variants(in) returns (an error there stops the comparison),
// with options opt. A variant's own
// failure is not an error here: it is in Row.Run.Err (Outcome
// "escape-error") and must be shown. Progress is reported per run.
func CompareVariants(insts []sod.Instance, variants func(sod.Instance) ([]sod.Escaper, error), opt sod.EscapeOptions, prog ProgressFunc) ([]VariantRow, error) {
	var rows []VariantRow
	lists := make([][]sod.Escaper, len(insts))
	total := 0
	for i, in := range insts {
		var err error
		if lists[i], err = variants(in); err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		total += len(lists[i])
	}
	for i, in := range insts {
		for _, v := range lists[i] {
			run, err := sod.RunEscape(in.P, in.XHat, v, opt)
			if err != nil {
				return nil, err
			}
			row := VariantRow{Case: in.Name, Variant: v.Name(), Run: run, Ratio: math.NaN(), Dist: in.P.DistStar(run.X)}
			if len(run.Escapes) > 0 {
				e := run.Escapes[0]
				row.Candidates = len(e.Candidates)
				for _, c := range e.Candidates {
					if c.Descent {
						row.Lowering++
					}
				}
				if e.Accepted >= 0 {
					row.Accepted = e.Candidates[e.Accepted].Label
					row.Ratio = e.Candidates[e.Accepted].H / e.HFrom
				}
			}
			rows = append(rows, row)
			prog.report("escape variants", len(rows), total)
		}
	}
	return rows, nil
}
