package notebooksetup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRun(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root := t.TempDir()
	write(t, filepath.Join(root, "wb", "go.mod"), "module sodworkbench.org/workbench\n\ngo 1.26\n")
	write(t, filepath.Join(root, "wb", "notebooks", "sub", "x.ipynb"), "{}")
	write(t, filepath.Join(root, "other", "go.mod"), "module example.com/other\n")
	cells := filepath.Join(root, "cells")
	write(t, filepath.Join(cells, "go.mod"), "module gonb_cells\n\ngo 1.26\n")

	var out strings.Builder
	if err := Run(&out, filepath.Join(root, "wb", "notebooks", "sub"), cells); err != nil {
		t.Fatal(err)
	}
	if want := "workbench module: " + filepath.Join(root, "wb") + "\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	b, _ := os.ReadFile(filepath.Join(cells, "go.mod"))
	for _, want := range []string{"require sodworkbench.org/workbench v0.0.0-00010101000000-000000000000", "replace sodworkbench.org/workbench => " + filepath.Join(root, "wb")} {
		if !strings.Contains(string(b), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, b)
		}
	}
	if err := Run(&out, filepath.Join(root, "wb", "notebooks"), cells); err != nil {
		t.Errorf("running it again: %v", err)
	}

	for _, tc := range []struct{ name, nb, cells, want string }{
		{"outside the module", filepath.Join(root, "other"), cells, "not inside the workbench module"},
		{"no kernel", filepath.Join(root, "wb"), "", "GONB_TMP_DIR is not set"},
		{"no cells' module", filepath.Join(root, "wb"), filepath.Join(root, "wb", "notebooks"), "the cells' module"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Run(&out, tc.nb, tc.cells); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
