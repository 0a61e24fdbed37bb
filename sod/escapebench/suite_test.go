package escapebench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// quickSuite is a small suite: the paper family and a PMC cell, every
// built-in method, 2 trials.
func quickSuite() Suite {
	return Suite{
		Families: []Family{PaperFamily{}, PMCFamily{Sizes: []int{16}, Epsilons: []float64{0.15}}},
		Methods:  BuiltinMethods(), PerCell: 3, Trials: 2, Seed: 3, TrialOptions: DefaultTrialOptions(),
	}
}

// journal creates a journal of the quick suite and shard sh in dir.
func journal(t *testing.T, dir string, sh batch.Shard) *Journal {
	t.Helper()
	j, err := CreateJournal(filepath.Join(dir, fmt.Sprintf("j-%d-%d.jsonl", sh.K, sh.N)), JournalHeader{Bench: QuickSpec(), ShardK: sh.K, ShardN: sh.N})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// testEnv is the Env of the tests' files.
var testEnv = Env{Version: "test", Go: "go", OS: "os", Arch: "arch", CPU: "cpu", NumCPU: 1, GOMAXPROCS: 1, Date: "2026-01-01"}

func resultBytes(t *testing.T, rs []*TrialResult) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteResultsJSON(&b, testEnv, rs); err != nil {
		t.Fatal(err)
	}
	if err := WriteResultsCSV(&b, testEnv, rs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSuiteResumeAndShards(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	j := journal(t, dir, batch.Shard{})
	fr, err := RunSuite(ctx, quickSuite(), RunOptions{Workers: 2, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	full := fr.Runs
	if len(fr.Instances) < 4 || len(fr.Instances)+len(fr.Dropped) != 6 {
		t.Fatalf("%d instances, %d dropped; want 3 paper + 3 PMC points in all", len(fr.Instances), len(fr.Dropped))
	}
	want := resultBytes(t, full)
	if len(full) < 20 {
		t.Fatalf("only %d runs", len(full))
	}
	if back, err := ReadJournal(j.Path()); err != nil || !back.Complete() || len(back.Runs()) != len(full) {
		t.Fatalf("journal read back: %v, %v", back, err)
	}

	// One worker gives the same bytes.
	one, err := RunSuite(ctx, quickSuite(), RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultBytes(t, one.Runs), want) {
		t.Error("1 worker and 2 workers differ")
	}

	// Interrupted: the journal cut after a third of its lines, in the
	// middle of the next one. Resuming runs only the missing runs.
	b, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	keep := len(lines) / 3
	cut := append(bytes.Join(lines[:keep], nil), lines[keep][:20]...)
	if err := os.WriteFile(j.Path(), cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ResumeJournal(j.Path(), JournalHeader{Bench: DefaultSpec()}); err == nil || !strings.Contains(err.Error(), "another suite") {
		t.Errorf("resuming another suite's journal: %v", err)
	}
	rj, err := ResumeJournal(j.Path(), j.Header)
	if err != nil || len(rj.Runs()) != keep-1 || rj.Complete() {
		t.Fatalf("ResumeJournal of a cut journal: %v runs, %v", rj, err)
	}
	resumed, err := RunSuite(ctx, quickSuite(), RunOptions{Workers: 2, Journal: rj})
	if err != nil {
		t.Fatal(err)
	}
	rj.Close()
	if !bytes.Equal(resultBytes(t, resumed.Runs), want) {
		t.Error("resumed run differs from the uninterrupted one")
	}
	after, err := ReadJournal(rj.Path())
	if err != nil || !after.Complete() {
		t.Fatalf("resumed journal: %v", err)
	}
	if n := len(after.Runs()); n != len(full) {
		t.Errorf("resumed journal holds %d runs, want %d (each once)", n, len(full))
	}

	// Three shards merged equal one run; a missing or repeated shard is
	// refused.
	var js []*Journal
	for k := range 3 {
		sh := batch.Shard{K: k, N: 3}
		j := journal(t, dir, sh)
		if _, err := RunSuite(ctx, quickSuite(), RunOptions{Workers: 2, Shard: sh, Journal: j}); err != nil {
			t.Fatal(err)
		}
		j.Close()
		back, err := ReadJournal(j.Path())
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, back)
	}
	all, err := MergeJournals([]*Journal{js[2], js[0], js[1]})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultBytes(t, all), want) {
		t.Error("merged shards differ from one run")
	}
	// An unsharded run's journal is shard 0/1: merged alone it gives the
	// run's results (a report from any journal), beside shards it is of
	// another sharding.
	if one, err := MergeJournals([]*Journal{after}); err != nil || !bytes.Equal(resultBytes(t, one), want) {
		t.Errorf("merging an unsharded run's journal: %v", err)
	}
	for name, c := range map[string][]*Journal{"missing": {js[0], js[2]}, "given twice": {js[0], js[1], js[1], js[2]}, "another sharding": {after, js[0]}} {
		if _, err := MergeJournals(c); !errors.Is(err, ErrBadBench) || !strings.Contains(err.Error(), strings.Fields(name)[0]) {
			t.Errorf("merge with a shard %s: %v", name, err)
		}
	}
	// A journal of another shard than the run's is refused.
	if _, err := RunSuite(ctx, quickSuite(), RunOptions{Shard: batch.Shard{K: 1, N: 3}, Journal: journal(t, t.TempDir(), batch.Shard{})}); !errors.Is(err, ErrBadBench) {
		t.Errorf("journal of another shard: %v", err)
	}
}

// The writers take runs in canonical order and refuse any other.
func TestWritersNeedCanonicalOrder(t *testing.T) {
	a := &TrialResult{Family: "f", Instance: "i", Method: "a"}
	b := &TrialResult{Family: "f", Instance: "i", Method: "b"}
	for name, w := range map[string]func(io.Writer, Env, []*TrialResult) error{"json": WriteResultsJSON, "csv": WriteResultsCSV, "timings": WriteTimingsCSV} {
		if err := w(io.Discard, testEnv, []*TrialResult{a, b}); err != nil {
			t.Errorf("%s: canonical order refused: %v", name, err)
		}
		for _, rs := range [][]*TrialResult{{b, a}, {a, a}, {a, nil}} {
			if err := w(io.Discard, testEnv, rs); !errors.Is(err, ErrBadBench) {
				t.Errorf("%s: %d runs out of order: %v, want ErrBadBench", name, len(rs), err)
			}
		}
	}
}

func TestSuiteValidate(t *testing.T) {
	ms := BuiltinMethods()
	for _, c := range []struct {
		name string
		s    Suite
	}{
		{"no family", Suite{Methods: ms}},
		{"duplicate method", Suite{Families: []Family{PaperFamily{}}, Methods: append(ms, ms[0]), TrialOptions: DefaultTrialOptions()}},
		{"duplicate family", Suite{Families: []Family{PaperFamily{}, PaperFamily{}}, Methods: ms, TrialOptions: DefaultTrialOptions()}},
		{"negative trials", Suite{Families: []Family{PaperFamily{}}, Methods: ms, Trials: -1, TrialOptions: DefaultTrialOptions()}},
		{"zero run options", Suite{Families: []Family{PaperFamily{}}, Methods: ms}},
		{"negative weight", Suite{Families: []Family{PaperFamily{}}, Methods: []Method{{Name: "w", Weight: -1, New: ms[0].New}}, TrialOptions: DefaultTrialOptions()}},
		{"NaN weight", Suite{Families: []Family{PaperFamily{}}, Methods: []Method{{Name: "w", Weight: math.NaN(), New: ms[0].New}}, TrialOptions: DefaultTrialOptions()}},
	} {
		if _, err := RunSuite(context.Background(), c.s, RunOptions{}); !errors.Is(err, ErrBadBench) {
			t.Errorf("%s: %v, want ErrBadBench", c.name, err)
		}
	}
	if _, err := RunSuite(context.Background(), quickSuite(), RunOptions{Shard: batch.Shard{K: 3, N: 3}}); !errors.Is(err, batch.ErrBadBatch) {
		t.Errorf("shard 3/3: %v", err)
	}
	if _, err := RunSuite(context.Background(), quickSuite(), RunOptions{Workers: batch.MaxWorkers + 1}); !errors.Is(err, ErrBadBench) {
		t.Errorf("too many workers: %v", err)
	}
}

// A user escaper runs beside the built-ins, with its name and parameters
// recorded.
func TestEscaperMethod(t *testing.T) {
	mine := EscaperMethod("mine", map[string]string{"alpha": "1"}, func(in CertifiedInstance, seed uint64) sod.Escaper {
		return &sod.NegGradLineSearch{}
	})
	s := Suite{Families: []Family{PaperFamily{}}, Methods: []Method{mine}, TrialOptions: DefaultTrialOptions()}
	sr, err := RunSuite(context.Background(), s, RunOptions{})
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
	s := Suite{Families: []Family{PaperFamily{}}, Methods: []Method{det, seeded}, Trials: 3, TrialOptions: DefaultTrialOptions()}
	sr, err := RunSuite(context.Background(), s, RunOptions{})
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
	s := Suite{Families: []Family{PaperFamily{}}, Methods: []Method{small, every}, TrialOptions: DefaultTrialOptions()}
	sr, err := RunSuite(context.Background(), s, RunOptions{})
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
		sh, err := RunSuite(context.Background(), s, RunOptions{Shard: batch.Shard{K: k, N: 2}})
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
	if err := (Suite{Families: []Family{PaperFamily{}}, Methods: []Method{bad}}).Validate(); !errors.Is(err, ErrBadBench) {
		t.Errorf("MaxN = -1: got %v, want ErrBadBench", err)
	}
}
