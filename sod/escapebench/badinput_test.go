package escapebench_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/escapebench"
)

// TestBadInputs: each bad value a new user might pass gets an error
// wrapping escapebench.ErrBadBench that names the value and the accepted
// range (the substring want), before any work; never a panic, a NaN or a
// silent substitution.
func TestBadInputs(t *testing.T) {
	// lowerOwners are the cases whose value is checked by a lower package,
	// which owns the error: names by sod.CheckIdentifier, shards by batch.
	lowerOwners := map[string]error{
		"FuncFamily path name":    sod.ErrBadParameter,
		"method name with a path": sod.ErrBadParameter,
		"Shard 5 of 0":            batch.ErrBadBatch,
	}
	ctx := context.Background()
	points := func(context.Context, uint64, int) ([]escapebench.StallPoint, error) { return nil, nil }
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"Wilson k > n", func() error { _, _, err := escapebench.Wilson(5, 3); return err }, "k = 5 successes in n = 3 trials, want 0 ≤ k ≤ n"},
		{"Wilson k < 0", func() error { _, _, err := escapebench.Wilson(-1, 3); return err }, "k = -1"},
		{"Wilson n < 0", func() error { _, _, err := escapebench.Wilson(0, -2); return err }, "n = -2"},
		{"Quantile q < 0", func() error { _, err := escapebench.Quantile([]float64{1, 2, 3}, -0.5); return err }, "q = -0.5, want 0 ≤ q ≤ 1"},
		{"Quantile q > 1", func() error { _, err := escapebench.Quantile([]float64{1, 2, 3}, 1.5); return err }, "q = 1.5"},
		{"Quantile q NaN", func() error { _, err := escapebench.Quantile([]float64{1, 2, 3}, math.NaN()); return err }, "q = NaN"},
		{"Quantile no data", func() error { _, err := escapebench.Quantile(nil, 0.5); return err }, "no data"},
		{"Quantile NaN data", func() error { _, err := escapebench.Quantile([]float64{1, math.NaN()}, 0.5); return err }, "xs[1]"},
		{"Certify nil ctx", func() error {
			_, err := escapebench.Certify(nilCtx(), sod.RealWorldProblem(), sod.RealWorldXHat(), escapebench.CertifyOptions{})
			return err
		}, "Certify needs a context"},
		{"Instances nil ctx", func() error {
			_, err := escapebench.Instances(nilCtx(), escapebench.PaperFamily{}, 1, 1, escapebench.CertifyOptions{})
			return err
		}, "Instances needs a context"},
		{"FuncFamily nil f", func() error {
			_, err := escapebench.Instances(ctx, escapebench.FuncFamily("user", nil), 1, 1, escapebench.CertifyOptions{})
			return err
		}, `family "user": nil generator function`},
		{"FuncFamily path name", func() error {
			_, err := escapebench.Instances(ctx, escapebench.FuncFamily("../x", points), 1, 1, escapebench.CertifyOptions{})
			return err
		}, `family name "../x": want 1 to`},
		{"Gaussian r = 0", func() error {
			_, err := escapebench.Instances(ctx, escapebench.GaussianFamily{Cells: []escapebench.GaussianCell{{N: 5, M: 10, R: 0}}}, 1, 1, escapebench.CertifyOptions{})
			return err
		}, "r = 0, want an integer in [1, min(n, 10)]"},
		{"Gaussian r > n", func() error {
			_, err := escapebench.Instances(ctx, escapebench.GaussianFamily{Cells: []escapebench.GaussianCell{{N: 3, M: 10, R: 4}}}, 1, 1, escapebench.CertifyOptions{})
			return err
		}, "r = 4"},
		{"PMC ε NaN", func() error {
			_, err := escapebench.Instances(ctx, escapebench.PMCFamily{Cells: escapebench.PMCGrid([]int{5}, []float64{math.NaN()})}, 1, 1, escapebench.CertifyOptions{})
			return err
		}, "ε = NaN, want a number in (0, 1]"},
		{"PMC n = 2", func() error {
			_, err := escapebench.Instances(ctx, escapebench.PMCFamily{Cells: []escapebench.PMCCell{{N: 2, Eps: 0.1}}}, 1, 1, escapebench.CertifyOptions{})
			return err
		}, "n = 2, want an integer in [3, 100000]"},
		{"EscaperMethod nil constructor", func() error {
			_, err := escapebench.RunTrial(ctx, paperInstance(t), escapebench.EscaperMethod("user", nil, nil), 0, 1, escapebench.DefaultTrialOptions())
			return err
		}, `method "user": nil escaper constructor`},
		{"EscaperMethod constructor returning nil", func() error {
			m := escapebench.EscaperMethod("user", nil, func(escapebench.CertifiedInstance, uint64) sod.Escaper { return nil })
			_, err := escapebench.RunTrial(ctx, paperInstance(t), m, 0, 1, escapebench.DefaultTrialOptions())
			return err
		}, "returned nil"},
		{"method name with a path", func() error {
			m := escapebench.BuiltinMethods()[0]
			m.Name = "a/b"
			return escapebench.Suite{Families: []escapebench.Family{escapebench.PaperFamily{}}, Methods: []escapebench.Method{m}, PerCell: 1, Trials: 1}.Validate()
		}, `method name "a/b"`},
		{"Shard 5 of 0", func() error {
			s := escapebench.Suite{Families: []escapebench.Family{escapebench.PaperFamily{}}, Methods: escapebench.BuiltinMethods()[:1], PerCell: 1, Trials: 1, TrialOptions: escapebench.DefaultTrialOptions()}
			_, err := escapebench.RunSuite(ctx, s, escapebench.RunOptions{Shard: batch.Shard{K: 5, N: 0}})
			return err
		}, "shard 5/0, want 0 ≤ k < N"},
		{"GenerateInstances nil ctx", func() error {
			s := escapebench.Suite{Families: []escapebench.Family{escapebench.PaperFamily{}}, Methods: escapebench.BuiltinMethods()[:1], PerCell: 1, Trials: 1, TrialOptions: escapebench.DefaultTrialOptions()}
			_, err := escapebench.GenerateInstances(nilCtx(), s, nil)
			return err
		}, "GenerateInstances needs a context"},
		{"GenerateInstances no method", func() error {
			_, err := escapebench.GenerateInstances(ctx, escapebench.Suite{Families: []escapebench.Family{escapebench.PaperFamily{}}, PerCell: 1, Trials: 1, TrialOptions: escapebench.DefaultTrialOptions()}, nil)
			return err
		}, "a suite needs at least one family and one method"},
		{"Canonical nil run", func() error { _, err := escapebench.Canonical([]*escapebench.TrialResult{nil}); return err }, "run 0 is nil"},
		{"MergeJournals nil journal", func() error { _, err := escapebench.MergeJournals([]*escapebench.Journal{nil}); return err }, "journal 0 is nil"},
	} {
		err := tc.call()
		want := escapebench.ErrBadBench
		if o, ok := lowerOwners[tc.name]; ok {
			want = o
		}
		if !errors.Is(err, want) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %v naming %q", tc.name, err, want, tc.want)
		}
	}
}

// nilCtx returns a nil context (a variable, so vet does not object).
func nilCtx() context.Context { return nil }

// paperInstance returns a certified instance of the paper's family.
func paperInstance(t *testing.T) escapebench.CertifiedInstance {
	t.Helper()
	fi, err := escapebench.Instances(context.Background(), escapebench.PaperFamily{}, 1, 1, escapebench.CertifyOptions{})
	if err != nil || len(fi.Instances) == 0 {
		t.Fatalf("paper instances: %v", err)
	}
	return fi.Instances[0]
}
