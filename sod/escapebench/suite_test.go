package escapebench

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// quickSuite is a small suite: the paper family and a PMC cell, every
// built-in method, 2 trials.
func quickSuite(workers int) Suite {
	return Suite{
		Families: []Family{PaperFamily{}, PMCFamily{Sizes: []int{16}, Epsilons: []float64{0.15}}},
		Methods:  BuiltinMethods(), PerCell: 3, Trials: 2, Seed: 3, Run: DefaultRunOptions(), Workers: workers,
	}
}

func resultBytes(t *testing.T, rs []*TrialResult) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteResultsJSON(&b, rs); err != nil {
		t.Fatal(err)
	}
	if err := WriteResultsCSV(&b, rs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSuiteResumeAndShards(t *testing.T) {
	ctx := context.Background()
	var journal bytes.Buffer
	fr, err := RunSuite(ctx, quickSuite(2), batch.Shard{}, nil, &journal, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := fr.Runs
	if len(fr.Instances) < 4 || len(fr.Instances)+len(fr.Dropped) != 6 {
		t.Fatalf("%d instances, %d dropped; want 3 paper + 3 PMC points in all", len(fr.Instances), len(fr.Dropped))
	}
	want := resultBytes(t, full)
	if len(full) < 20 {
		t.Fatalf("only %d runs", len(full))
	}

	// One worker gives the same bytes.
	one, err := RunSuite(ctx, quickSuite(1), batch.Shard{}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultBytes(t, one.Runs), want) {
		t.Error("1 worker and 2 workers differ")
	}

	// Interrupted: the journal cut after a third of its lines, in the
	// middle of the next one. Resuming runs only the missing runs.
	lines := bytes.SplitAfter(journal.Bytes(), []byte("\n"))
	cut := append(bytes.Join(lines[:len(lines)/3], nil), lines[len(lines)/3][:20]...)
	done, err := ReadJournal(bytes.NewReader(cut))
	if err != nil || len(done) != len(lines)/3 {
		t.Fatalf("ReadJournal of a cut journal: %d runs, %v", len(done), err)
	}
	var more bytes.Buffer
	resumed, err := RunSuite(ctx, quickSuite(2), batch.Shard{}, done, &more, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultBytes(t, resumed.Runs), want) {
		t.Error("resumed run differs from the uninterrupted one")
	}
	if n := bytes.Count(more.Bytes(), []byte("\n")); n != len(full)-len(done) {
		t.Errorf("resume ran %d runs, want %d", n, len(full)-len(done))
	}

	// Three shards merged equal one run.
	var all []*TrialResult
	for k := range 3 {
		var j bytes.Buffer
		if _, err := RunSuite(ctx, quickSuite(2), batch.Shard{K: k, N: 3}, nil, &j, nil); err != nil {
			t.Fatal(err)
		}
		rs, err := ReadJournal(&j)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, rs...)
	}
	if !bytes.Equal(resultBytes(t, all), want) {
		t.Error("merged shards differ from one run")
	}
}

func TestSuiteValidate(t *testing.T) {
	ms := BuiltinMethods()
	for _, c := range []struct {
		name string
		s    Suite
	}{
		{"no family", Suite{Methods: ms}},
		{"duplicate method", Suite{Families: []Family{PaperFamily{}}, Methods: append(ms, ms[0]), Run: DefaultRunOptions()}},
		{"duplicate family", Suite{Families: []Family{PaperFamily{}, PaperFamily{}}, Methods: ms, Run: DefaultRunOptions()}},
		{"negative trials", Suite{Families: []Family{PaperFamily{}}, Methods: ms, Trials: -1, Run: DefaultRunOptions()}},
		{"zero run options", Suite{Families: []Family{PaperFamily{}}, Methods: ms}},
		{"negative weight", Suite{Families: []Family{PaperFamily{}}, Methods: []Method{{Name: "w", Weight: -1, New: ms[0].New}}, Run: DefaultRunOptions()}},
		{"NaN weight", Suite{Families: []Family{PaperFamily{}}, Methods: []Method{{Name: "w", Weight: math.NaN(), New: ms[0].New}}, Run: DefaultRunOptions()}},
	} {
		if _, err := RunSuite(context.Background(), c.s, batch.Shard{}, nil, nil, nil); !errors.Is(err, sod.ErrBadParameter) {
			t.Errorf("%s: %v, want ErrBadParameter", c.name, err)
		}
	}
	if _, err := RunSuite(context.Background(), quickSuite(1), batch.Shard{K: 3, N: 3}, nil, nil, nil); !errors.Is(err, sod.ErrBadParameter) {
		t.Errorf("shard 3/3: %v", err)
	}
}

// A user escaper runs beside the built-ins, with its name and parameters
// recorded.
func TestEscaperMethod(t *testing.T) {
	mine := EscaperMethod("mine", map[string]string{"alpha": "1"}, func(in CertifiedInstance, seed uint64) sod.Escaper {
		return &sod.NegGradLineSearch{}
	})
	s := Suite{Families: []Family{PaperFamily{}}, Methods: []Method{mine}, Run: DefaultRunOptions()}
	sr, err := RunSuite(context.Background(), s, batch.Shard{}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs := sr.Runs; len(rs) != 3 || rs[0].Method != "mine" || rs[0].Params["alpha"] != "1" {
		t.Fatalf("%v", rs)
	}
}

// A deterministic method runs once per instance whatever Trials; a seeded
// one Trials times.
func TestDeterministicMethodsRunOnce(t *testing.T) {
	det := EscaperMethod("det", nil, func(CertifiedInstance, uint64) sod.Escaper { return &sod.NegGradLineSearch{} })
	det.Seeded = false
	seeded := EscaperMethod("seeded", nil, func(_ CertifiedInstance, seed uint64) sod.Escaper {
		return &sod.RandomLineSearch{Directions: 1, Seed: seed}
	})
	s := Suite{Families: []Family{PaperFamily{}}, Methods: []Method{det, seeded}, Trials: 3, Run: DefaultRunOptions()}
	sr, err := RunSuite(context.Background(), s, batch.Shard{}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range sr.Runs {
		count[r.Method]++
	}
	if count["det"] != 3 || count["seeded"] != 9 {
		t.Fatalf("runs per method %v, want det 3 (one per instance), seeded 9", count)
	}
}

// A method with MaxN is not run on larger instances, in a one-process run
// and in shards alike (job indices count scheduled runs only).
func TestMethodMaxN(t *testing.T) {
	small := EscaperMethod("small", nil, func(CertifiedInstance, uint64) sod.Escaper { return &sod.NegGradLineSearch{} })
	small.Seeded, small.MaxN = false, 2
	every := EscaperMethod("any", nil, func(CertifiedInstance, uint64) sod.Escaper { return &sod.NegGradLineSearch{} })
	every.Seeded = false
	s := Suite{Families: []Family{PaperFamily{}}, Methods: []Method{small, every}, Run: DefaultRunOptions()}
	sr, err := RunSuite(context.Background(), s, batch.Shard{}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, in := range sr.Instances {
		want["any"]++
		if in.N <= 2 {
			want["small"]++
		}
	}
	got := map[string]int{}
	for _, r := range sr.Runs {
		got[r.Method]++
	}
	if want["small"] == 0 || want["small"] == want["any"] || got["small"] != want["small"] || got["any"] != want["any"] {
		t.Fatalf("runs per method %v, want %v", got, want)
	}
	var shards []*TrialResult
	for k := range 2 {
		sh, err := RunSuite(context.Background(), s, batch.Shard{K: k, N: 2}, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, sh.Runs...)
	}
	merged, err := Canonical(shards)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultBytes(t, merged), resultBytes(t, sr.Runs)) {
		t.Error("merged shards differ from one run")
	}
	bad := small
	bad.MaxN = -1
	if err := (Suite{Families: []Family{PaperFamily{}}, Methods: []Method{bad}}).Validate(); !errors.Is(err, sod.ErrBadParameter) {
		t.Errorf("MaxN = -1: got %v, want ErrBadParameter", err)
	}
}
