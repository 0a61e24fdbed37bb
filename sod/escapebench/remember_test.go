package escapebench_test

import (
	"context"
	"fmt"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
)

// TestRemember (and Spec.Run): a run kept for a spec comes back equal in a later call (another cell), a
// different spec has none, and outside a session nothing is kept.
func TestRemember(t *testing.T) {
	t.Setenv("SOD_RESULT_CACHE", t.TempDir())
	spec := escapebench.QuickSpec()
	spec.Families, spec.Methods, spec.Trials, spec.PerCell = []string{"paper"}, []string{"sod-line-search"}, 1, 1
	run, err := spec.Run(context.Background(), escapebench.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := escapebench.Remember(spec, run); err != nil {
		t.Fatal(err)
	}
	back, err := escapebench.Remembered(spec)
	if err != nil {
		t.Fatal(err)
	}
	s1, err1 := escapebench.Summarize(run.Runs)
	s2, err2 := escapebench.Summarize(back.Runs)
	if err1 != nil || err2 != nil || fmt.Sprint(s1) != fmt.Sprint(s2) || len(back.Instances) != len(run.Instances) {
		t.Errorf("the remembered run differs: %v %v\n%v\n%v", err1, err2, s1, s2)
	}
	spec.Seed++
	if _, err := escapebench.Remembered(spec); err == nil {
		t.Error("another spec has a remembered run")
	}
	t.Setenv("SOD_RESULT_CACHE", "off")
	spec.Seed--
	if _, err := escapebench.Remembered(spec); err == nil {
		t.Error("SOD_RESULT_CACHE=off still gives a run back")
	}
}
