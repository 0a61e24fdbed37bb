package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBwrapProblem checks the sandbox probe against stand-ins for bwrap: none on PATH, one that
// cannot create namespaces (as in a container), and one that works.
func TestBwrapProblem(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string // the stand-in bwrap; "" for none
		want   string // in the reason; "" for a usable sandbox
	}{
		{"missing", "", "bwrap not found"},
		{"no namespaces", "echo 'bwrap: No permissions to create new namespace' >&2; exit 1", "No permissions to create new namespace"},
		{"silent failure", "exit 1", "exit status 1"},
		{"works", "exit 0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.script != "" {
				if err := os.WriteFile(filepath.Join(dir, "bwrap"), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("PATH", dir)
			got := bwrapProblem(context.Background())
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("bwrapProblem() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSandboxBwrapRefused: asked for bwrap where it cannot sandbox, the grader stops with the
// reason before it grades anything, rather than running unsandboxed.
func TestSandboxBwrapRefused(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	subs := filepath.Join(dir, "subs", "alice")
	for _, d := range []string{bin, subs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "bwrap"), []byte("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	nb, err := os.ReadFile(filepath.Join("testdata", "submissions", "good", "99-fixture.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(subs, "99-fixture.ipynb"), nb, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out strings.Builder
	err = run(context.Background(), []string{"-source", "testdata/instructor", "-sandbox", "bwrap", "-o", filepath.Join(dir, "out"), filepath.Join(dir, "subs")}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "setting up uid map: Permission denied") {
		t.Fatalf("grade -sandbox bwrap with a broken bwrap: error %v, want the probe's reason", err)
	}
	if strings.Contains(out.String(), "grading") {
		t.Errorf("it started grading: %s", out.String())
	}
}
