package experiments

import (
	"context"
	"errors"
	"math"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func TestRunVariantComparison(t *testing.T) {
	boom := errors.New("boom")
	failing := sod.EscapeFunc("failing", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, boom })
	cfg := DefaultVariantComparisonConfig()
	cfg.Instances = sod.PaperInstances()[:1] // the basic example
	cfg.Variants = func(in sod.Instance) ([]sod.Escaper, error) { return DefaultVariants(in, 0.5), nil }
	cfg.Extra = []sod.Escaper{failing}
	res, err := RunVariantComparison(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Rows
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 7 built-in variants + 1", len(rows))
	}
	byName := map[string]VariantRow{}
	for _, r := range rows {
		byName[r.Variant] = r
		// An accepted candidate lowers h, or (perturbed GD) lowers h after its probe steps: Ratio is h(X̌)/h(X̂) itself.
		if r.Accepted == "" && !math.IsNaN(r.Ratio) || r.Accepted != "" && !(r.Ratio > 0 && r.Lowering > 0) {
			t.Errorf("%s: accepted %q with h ratio %v", r.Variant, r.Accepted, r.Ratio)
		}
		if r.Lowering > r.Candidates {
			t.Errorf("%s: %d of %d candidates lower h", r.Variant, r.Lowering, r.Candidates)
		}
	}
	if r := byName["failing"]; r.Run.Outcome != sod.EscapeError || !errors.Is(r.Run.Err, boom) {
		t.Errorf("a failing variant: outcome %q, error %v", r.Run.Outcome, r.Run.Err)
	}
	ms := rows[1] // the paper's multi-step SOD at (l, t) = (3, 40): escapes the basic example
	if ms.Run.Outcome != sod.Solved || ms.Lowering == 0 || ms.Dist > 0.02 {
		t.Errorf("%s: outcome %s, %d lowering, distance %v", ms.Variant, ms.Run.Outcome, ms.Lowering, ms.Dist)
	}
	cfg.Variants = func(sod.Instance) ([]sod.Escaper, error) { return nil, boom }
	if _, err := RunVariantComparison(context.Background(), cfg, nil); !errors.Is(err, boom) {
		t.Errorf("a variants function that fails: %v", err)
	}
}

func TestVariantComparisonConfigValidate(t *testing.T) {
	for name, mod := range map[string]func(*VariantComparisonConfig){
		"no instances": func(c *VariantComparisonConfig) { c.Instances = nil },
		"nil problem":  func(c *VariantComparisonConfig) { c.Instances = []sod.Instance{{Name: "empty"}} },
		"nil Variants": func(c *VariantComparisonConfig) { c.Variants = nil },
		"nil extra":    func(c *VariantComparisonConfig) { c.Extra = []sod.Escaper{nil} },
	} {
		cfg := DefaultVariantComparisonConfig()
		mod(&cfg)
		if _, err := RunVariantComparison(context.Background(), cfg, nil); !errors.Is(err, ErrBadExperiment) {
			t.Errorf("%s: %v, want ErrBadExperiment", name, err)
		}
	}
	//lint:ignore SA1012 a nil context is the bad input under test
	if _, err := RunVariantComparison(nil, DefaultVariantComparisonConfig(), nil); !errors.Is(err, ErrBadExperiment) {
		t.Errorf("nil context: %v, want ErrBadExperiment", err)
	}
}
