package reproducecli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
)

// benchArgs is a quick suite: the paper's three instances and a PMC cell,
// every method, 2 trials.
func benchArgs(out string, extra ...string) []string {
	return append([]string{"bench", "-out", out, "-quiet", "-families", "paper,pmc", "-pmc-sizes", "12", "-pmc-eps", "0.15", "-per-cell", "2", "-trials", "2"}, extra...)
}

func runBenchOK(t *testing.T, args []string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("%q: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

func benchOutputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, f := range []string{"bench-results.json", "bench-results.csv", "bench-instances.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		m[f] = b
	}
	return m
}

func sameOutputs(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	for f, w := range want {
		if !bytes.Equal(got[f], w) {
			t.Errorf("%s: %s differs from the uninterrupted run's", what, f)
		}
	}
}

func TestBenchResumeAndMerge(t *testing.T) {
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a")
	out := runBenchOK(t, benchArgs(a))
	if !strings.Contains(out, "multi-step-sod") || !strings.Contains(out, "certified instances") {
		t.Fatalf("no table:\n%s", out)
	}
	want := benchOutputs(t, a)

	// Interrupted: keep the header and a third of the runs plus half a
	// line, remove the outputs, run the same command again.
	b := filepath.Join(tmp, "b")
	runBenchOK(t, benchArgs(b))
	jp := filepath.Join(b, "bench-journal.jsonl")
	j, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(j, []byte("\n"))
	keep := 1 + (len(lines)-2)/3
	cut := append(bytes.Join(lines[:keep], nil), lines[keep][:25]...)
	if err := os.WriteFile(jp, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bench-results.json", "bench-results.csv", "bench-instances.json"} {
		os.Remove(filepath.Join(b, f))
	}
	out = runBenchOK(t, benchArgs(b))
	if !strings.Contains(out, "resuming") {
		t.Errorf("no resume message:\n%s", out)
	}
	sameOutputs(t, "resumed run", benchOutputs(t, b), want)

	// The same command with another suite refuses the journal.
	var o, e bytes.Buffer
	if err := run(context.Background(), benchArgs(b, "-seed", "9"), &o, &e); err == nil || exitCode(err) != 1 {
		t.Errorf("another suite on the same journal: %v", err)
	}

	// Three shards, merged.
	c := filepath.Join(tmp, "c")
	for k := range 3 {
		runBenchOK(t, benchArgs(c, "-shard", []string{"0/3", "1/3", "2/3"}[k]))
	}
	d := filepath.Join(tmp, "d")
	runBenchOK(t, []string{"bench", "merge", "-out", d, c})
	sameOutputs(t, "merged shards", benchOutputs(t, d), want)

	// A missing shard is refused (exit 1).
	os.Remove(filepath.Join(c, "bench-journal-1-of-3.jsonl"))
	if err := run(context.Background(), []string{"bench", "merge", "-out", filepath.Join(tmp, "e"), c}, &o, &e); err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "missing") {
		t.Errorf("merge without shard 1: %v", err)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"bench", "-methods", "multi-step-sod,multi-step-sod"},
		{"bench", "-methods", "sod-line-search+l-3,sod-line-search+L-3"},
		{"bench", "-methods", "sod-line-search+l-3+L-5"},
		{"bench", "-method", "sod-line-search:l=3;L=5"},
		{"bench", "-method", "perturbed-gd:seed=1,2"},
		{"bench", "-method", "single-step-sod:delta=1.5"},
		{"bench", "-families", "paper,bogus"},
		{"bench", "-pmc-sizes", "20,20"},
		{"bench", "-shard", "3/3"},
		{"bench", "-instances-only", "-shard", "0/2"},
		{"bench", "-trials", "0"},
		{"bench", "extra"},
		{"bench", "-out", ""},
		{"bench", "-gauss-n", "3", "-gauss-r", "4"},
		{"bench", "merge"},
		{"bench", "merge", filepath.Join(dir, "nothing-here")},
	} {
		var o, e bytes.Buffer
		err := run(context.Background(), append(args[:len(args):len(args)], "-quiet"), &o, &e)
		if args[1] == "merge" {
			err = run(context.Background(), args, &o, &e)
		}
		if exitCode(err) != 2 {
			t.Errorf("%q: %v (exit %d), want a usage error (exit 2)", args, err, exitCode(err))
		}
	}
	if _, err := os.Stat("bench-out"); !os.IsNotExist(err) {
		t.Error("a usage error created ./bench-out")
	}
}

// TestMethodFlags: -methods and -method give canonical names, each
// configuration once: a grid adds only what is not listed yet, and both
// spellings (+k-v and :k=v, any case) of a setting are one method.
func TestMethodFlags(t *testing.T) {
	var ms []string
	l := methodList{p: &ms}
	if err := l.Set("sod-line-search,perturbed-gd+tthres-10,single-step-sod+Delta-0.3"); err != nil {
		t.Fatal(err)
	}
	g := methodGrid{p: &ms}
	for _, grid := range []string{"sod-line-search:L=3,5,7", "perturbed-gd:t_thres=10,20", "single-step-sod:delta=0.3"} {
		if err := g.Set(grid); err != nil {
			t.Fatalf("-method %s: %v", grid, err)
		}
	}
	want := []string{"sod-line-search", "perturbed-gd+t_thres-10", "single-step-sod+delta-0.3", "sod-line-search+l-3", "sod-line-search+l-7", "perturbed-gd+t_thres-20"}
	if !slices.Equal(ms, want) {
		t.Errorf("methods %q, want %q", ms, want)
	}
	err := l.Set("sod-line-search+l-3,sod-line-search+L-3")
	if err == nil || !strings.Contains(err.Error(), `"sod-line-search+l-3" and "sod-line-search+L-3"`) {
		t.Errorf("two spellings of one configuration: %v", err)
	}
}

// TestBenchInstancesOnly: -instances-only writes bench-instances.json (the
// instances a full run of the same suite writes, byte for byte but the
// environment's date) and bench-instances.md (copied to -results-md) with
// the families table and every certificate, runs no method and writes no
// journal.
func TestBenchInstancesOnly(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	md := filepath.Join(tmp, "page.md")
	out := runBenchOK(t, benchArgs(a, "-instances-only", "-results-md", md))
	if !strings.Contains(out, "no method run") || !strings.Contains(out, "family pmc: 2 certified instances") {
		t.Errorf("output:\n%s", out)
	}
	for _, f := range []string{"bench-journal.jsonl", "bench-results.json", "bench-summary.md"} {
		if _, err := os.Stat(filepath.Join(a, f)); !os.IsNotExist(err) {
			t.Errorf("-instances-only wrote %s (%v)", f, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(a, escapebench.InstancesPageFile))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := os.ReadFile(md); err != nil || !bytes.Equal(c, page) {
		t.Errorf("-results-md: %v, or not the same bytes as %s", err, escapebench.InstancesPageFile)
	}
	for _, want := range []string{"## Families", "## Certificates", "| pmc | 12 |", "pmc n=12 ε=0.15 #1", "-instances-only", "wall time of the command"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("bench-instances.md lacks %q:\n%s", want, page)
		}
	}
	runBenchOK(t, benchArgs(b))
	if g, w := instancesOf(t, filepath.Join(a, "bench-instances.json")), instancesOf(t, filepath.Join(b, "bench-instances.json")); g != w {
		t.Errorf("-instances-only's instances differ from a full run's:\n%s\n%s", g, w)
	}
}

// instancesOf returns the instances and dropped points of an instances
// file as JSON, without its environment.
func instancesOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := escapebench.ReadInstancesJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal([]any{f.Instances, f.Dropped})
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}
