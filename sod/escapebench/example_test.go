package escapebench_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
)

// The paper's basic example: x̂ = (0, 1/√2) passes the second-order test
// with λ_min(∇²h) = 0, a degenerate point (h is quartic along e₁).
func ExampleCertify() {
	p := sod.BasicExampleProblem()
	c, err := escapebench.Certify(context.Background(), p, sod.BasicExampleXHat(), escapebench.CertifyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: ‖∇h‖ < 1e-12 %v, |λ_min| < 1e-12 %v, h = %.3f, dist = %.3f\n", c.Kind, c.GradNorm < 1e-12, math.Abs(c.MinHessEig) < 1e-12, c.H, c.Dist)
	// Output: degenerate: ‖∇h‖ < 1e-12 true, |λ_min| < 1e-12 true, h = 0.375, dist = 1.118
}

func ExampleWilson() {
	lo, hi, err := escapebench.Wilson(18, 20)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("18/20: [%.3f, %.3f]\n", lo, hi)
	_, _, err = escapebench.Wilson(5, 3)
	fmt.Println(err)
	// Output:
	// 18/20: [0.699, 0.972]
	// escapebench: parameter out of range: Wilson interval of k = 5 successes in n = 3 trials, want 0 ≤ k ≤ n
}

// A user's escape variant measured against two built-ins on the paper's
// instances.
func ExampleRunSuite() {
	mine := escapebench.EscaperMethod("mine", map[string]string{"alphas": "default"}, func(escapebench.CertifiedInstance, uint64) sod.Escaper {
		return &sod.NegGradLineSearch{}
	})
	var methods []escapebench.Method
	for _, m := range escapebench.BuiltinMethods() {
		if m.Name == "sod-line-search" || m.Name == "gd-alone" {
			methods = append(methods, m)
		}
	}
	s := escapebench.Suite{Families: []escapebench.Family{escapebench.PaperFamily{}}, Methods: append(methods, mine), Trials: 1, TrialOptions: escapebench.DefaultTrialOptions()}
	sr, err := escapebench.RunSuite(context.Background(), s, escapebench.RunOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ss, err := escapebench.Summarize(sr.Runs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range ss {
		fmt.Printf("%-16s %d/%d escaped, 95%% interval [%.2f, %.2f]\n", m.Method, m.Successes, m.Trials, m.RateLo, m.RateHi)
	}
	// Output:
	// gd-alone         0/3 escaped, 95% interval [0.00, 0.56]
	// mine             1/3 escaped, 95% interval [0.06, 0.79]
	// sod-line-search  3/3 escaped, 95% interval [0.44, 1.00]
}

// A suite named by a Spec, run with a journal: every finished run is in
// the file at once, so the same call with ResumeJournal after an
// interruption runs only the missing ones.
func ExampleResumeJournal() {
	spec := escapebench.QuickSpec()
	spec.Families, spec.Methods = []string{"paper"}, []string{"sod-line-search", "gd-alone"}
	suite, err := spec.Suite()
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "bench")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	j, err := escapebench.ResumeJournal(filepath.Join(dir, "bench-journal.jsonl"), escapebench.JournalHeader{Bench: spec})
	if err != nil {
		fmt.Println(err)
		return
	}
	sr, err := escapebench.RunSuite(context.Background(), suite, escapebench.RunOptions{Journal: j})
	j.Close()
	if err != nil {
		fmt.Println(err)
		return
	}
	back, err := escapebench.ReadJournal(j.Path())
	fmt.Println(len(sr.Runs), "runs;", len(back.Runs()), "in the journal; complete:", back.Complete(), err)
	// Output: 6 runs; 6 in the journal; complete: true <nil>
}
