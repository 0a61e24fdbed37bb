package experiments

import (
	"context"
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
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
	return sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 3000}, GradTol: 1e-10}, MaxEscapes: 1, TargetDist: 0.02}
}

// DefaultVariants returns the built-in escape variants compared on instance
// in, each with its sod defaults: single-step SOD with RIP constant delta
// (section 4), the paper's multi-step SOD at the instance's (l, t)
// (section 5), the SOD line search (section 6.3), SOD on the exact lifted
// dynamics (not the paper's), perturbed GD (Jin et al.), a random and a
// negative-gradient line search; the seeded ones with seed 1.
func DefaultVariants(in sod.Instance, delta float64) []sod.Escaper {
	return []sod.Escaper{
		sod.DefaultSingleStepSOD(delta),
		sod.DefaultMultiStepSOD(in.L, in.T),
		sod.DefaultSODLineSearch(),
		sod.DefaultExactSubspaceSOD(),
		sod.DefaultPerturbedGD(1),
		sod.DefaultRandomLineSearch(1),
		&sod.NegGradLineSearch{},
	}
}

// ExactRIPVariants returns DefaultVariants(in, δ) with δ the exact RIP
// constant of the instance's operator (sod.RIPExact; capped at 0.999, since
// single-step SOD needs δ < 1): the default of
// VariantComparisonConfig.Variants.
func ExactRIPVariants(in sod.Instance) ([]sod.Escaper, error) {
	if err := in.P.Validate(); err != nil {
		return nil, fmt.Errorf("ExactRIPVariants: instance %q: %w", in.Name, err)
	}
	rip, err := sod.RIPExact(in.P.Op)
	if err != nil {
		return nil, err
	}
	return DefaultVariants(in, math.Min(rip.Delta, 0.999)), nil
}

// VariantComparisonConfig configures RunVariantComparison.
type VariantComparisonConfig struct {
	// Instances are the spurious points to escape from (default: the
	// paper's three case studies, sod.PaperInstances).
	Instances []sod.Instance
	// Variants returns the escape variants run from an instance's X̂
	// (default ExactRIPVariants); an error there stops the comparison.
	Variants func(sod.Instance) ([]sod.Escaper, error)
	// Extra variants (your own) run after Variants' on every instance.
	Extra []sod.Escaper
	// Escape are the options of every run (default DefaultVariantOptions).
	Escape sod.EscapeOptions
}

// DefaultVariantComparisonConfig returns the comparison of the built-in
// variants on the paper's three case studies.
func DefaultVariantComparisonConfig() VariantComparisonConfig {
	return VariantComparisonConfig{Instances: sod.PaperInstances(), Variants: ExactRIPVariants, Escape: DefaultVariantOptions()}
}

// VariantComparisonResult holds one row per (instance, variant), instances
// in the order of the config, variants in the order Variants returns them
// followed by Extra.
type VariantComparisonResult struct {
	Rows []VariantRow
}

// Validate checks c: at least one instance, each with a problem and a
// start X̂, a Variants function, and no nil Extra variant. The error wraps
// ErrBadExperiment and names the bad value.
func (c VariantComparisonConfig) Validate() error {
	if len(c.Instances) == 0 {
		return fmt.Errorf("%w: variant comparison needs at least one instance, got none", ErrBadExperiment)
	}
	for i, in := range c.Instances {
		if in.P == nil || in.XHat == nil {
			return fmt.Errorf("%w: variant comparison instance %d (%q) has no problem or no X̂", ErrBadExperiment, i, in.Name)
		}
	}
	if c.Variants == nil {
		return fmt.Errorf("%w: variant comparison Variants is nil (use ExactRIPVariants)", ErrBadExperiment)
	}
	for i, in := range c.Instances {
		if err := in.P.Validate(); err != nil {
			return fmt.Errorf("variant comparison instance %d (%q): %w", i, in.Name, err)
		}
		if err := in.P.CheckX(in.XHat); err != nil {
			return fmt.Errorf("variant comparison instance %d (%q) X̂: %w", i, in.Name, err)
		}
	}
	for i, e := range c.Extra {
		if e == nil {
			return fmt.Errorf("%w: variant comparison Extra[%d] is nil", ErrBadExperiment, i)
		}
		if err := sod.ValidateEscaper(e); err != nil {
			return fmt.Errorf("variant comparison Extra[%d] (%s): %w", i, e.Name(), err)
		}
	}
	if err := c.Escape.Validate(); err != nil {
		return fmt.Errorf("variant comparison Escape: %w", err)
	}
	return nil
}

// RunVariantComparison runs sod.RunEscape from every instance's X̂ with every
// variant of cfg.Variants(in) and cfg.Extra, with options cfg.Escape. A
// variant's own failure is not an error here: it is in Row.Run.Err
// (Outcome "escape-error") and must be shown. cfg is checked by Validate
// before any work; ctx stops the comparison early with an error wrapping
// ctx.Err(); prog (may be nil) is told after every run.
//
// It is for prototyping a variant (notebook 10): one run per point, shown
// in full. To measure a variant — success rates with 95 % intervals, oracle
// cost and convergence bands over many certified spurious points and seeded
// trials, resumable and sharded — use the benchmark, escapebench.RunSuite
// (notebook 11).
func RunVariantComparison(ctx context.Context, cfg VariantComparisonConfig, prog batch.ProgressFunc) (*VariantComparisonResult, error) {
	if err := checkContext(ctx, "RunVariantComparison"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	insts, opt := cfg.Instances, cfg.Escape
	variants := func(in sod.Instance) ([]sod.Escaper, error) {
		vs, err := cfg.Variants(in)
		return append(vs, cfg.Extra...), err
	}
	var rows []VariantRow
	lists := make([][]sod.Escaper, len(insts))
	total := 0
	for i, in := range insts {
		var err error
		if lists[i], err = variants(in); err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		for _, v := range lists[i] { // every variant's settings, before any run
			if err := sod.ValidateEscaper(v); err != nil {
				return nil, fmt.Errorf("%s: variant: %w", in.Name, err)
			}
		}
		total += len(lists[i])
	}
	for i, in := range insts {
		for _, v := range lists[i] {
			run, err := sod.RunEscape(ctx, in.P, in.XHat, v, opt)
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
			prog.Report("escape variants", len(rows), total)
		}
	}
	return &VariantComparisonResult{Rows: rows}, nil
}
