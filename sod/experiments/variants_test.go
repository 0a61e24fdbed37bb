package experiments

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func TestCompareVariants(t *testing.T) {
	insts := sod.PaperInstances()[:1] // the basic example
	boom := errors.New("boom")
	failing := sod.EscapeFunc("failing", func(*sod.EscapeContext) ([]sod.Candidate, error) { return nil, boom })
	rows, err := CompareVariants(insts, func(in sod.Instance) ([]sod.Escaper, error) {
		return append(DefaultVariants(in, 0.5), failing), nil
	}, DefaultVariantOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
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
	if r := byName["failing"]; r.Run.Outcome != "escape-error" || !errors.Is(r.Run.Err, boom) {
		t.Errorf("a failing variant: outcome %q, error %v", r.Run.Outcome, r.Run.Err)
	}
	ms := rows[1] // the paper's multi-step SOD at (l, t) = (3, 40): escapes the basic example
	if ms.Run.Outcome != "solved" || ms.Lowering == 0 || ms.Dist > 0.02 {
		t.Errorf("%s: outcome %s, %d lowering, distance %v", ms.Variant, ms.Run.Outcome, ms.Lowering, ms.Dist)
	}
	if _, err := CompareVariants(insts, func(sod.Instance) ([]sod.Escaper, error) { return nil, boom }, DefaultVariantOptions(), nil); !errors.Is(err, boom) {
		t.Errorf("a variants function that fails: %v", err)
	}
}

// The paper's multi-step SOD and the SOD line search from the real-world spurious point.
func ExampleCompareVariants() {
	insts := sod.PaperInstances()[2:]
	rows, err := CompareVariants(insts, func(in sod.Instance) ([]sod.Escaper, error) {
		return DefaultVariants(in, 0.89834)[1:3], nil
	}, DefaultVariantOptions(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%s: %d candidates, %d lower h, outcome %s\n", r.Variant, r.Candidates, r.Lowering, r.Run.Outcome)
	}
	// Output:
	// multi-step SOD (l=5, t=150000, ρ=0.1, η=0.1): 1 candidates, 0 lower h, outcome no-descent
	// SOD line search (l=5, ρ=0.1, η=0.1): 132 candidates, 6 lower h, outcome solved
}
