package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// writeProg writes a small module with a local package into dir.
func writeProg(t *testing.T, dir, msg string) {
	t.Helper()
	for name, body := range map[string]string{
		"go.mod":     "module example.org/prog\n\ngo 1.24\n",
		"main.go":    "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.org/prog/lib\"\n)\n\nfunc main() { fmt.Println(lib.Msg()) }\n",
		"lib/lib.go": "package lib\n\nfunc Msg() string { return \"" + msg + "\" }\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// build runs `go build -trimpath -x` in dir with env, and returns the number of compiler runs.
func build(t *testing.T, dir string, env ...string) int {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-x", "-o", filepath.Join(dir, "prog"), ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GOFLAGS=", "GOTOOLCHAIN=local", "GO111MODULE=on"}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
	run, err := exec.Command(filepath.Join(dir, "prog")).Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s prints %q", dir, strings.TrimSpace(string(run)))
	return strings.Count(string(out), "/compile ")
}

// TestTwoLayers fills a shared cache with an ordinary build in one folder, then builds the same
// program from another folder (another student's) through gocache: nothing is compiled again,
// and the shared layer is not written to. A changed package is compiled into the student's
// layer only.
func TestTwoLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the standard library once (-short)")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "gocache")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building gocache: %v\n%s", err, out)
	}
	shared, mine := filepath.Join(tmp, "shared"), filepath.Join(tmp, "alice")
	a, b := filepath.Join(tmp, "teacher", "prog"), filepath.Join(tmp, "alice", "home", "prog")
	writeProg(t, a, "hello")
	writeProg(t, b, "hello")
	if n := build(t, a, "GOCACHE="+shared); n == 0 {
		t.Fatal("the first build compiled nothing: is GOCACHE honoured?")
	}
	before := files(t, shared)
	prog := "GOCACHEPROG=" + bin + " -ro " + shared + " -rw " + mine
	if n := build(t, b, prog); n != 0 {
		t.Errorf("the student's build ran the compiler %d times, want 0 (all from the shared layer)", n)
	}
	writeProg(t, b, "changed")
	if n := build(t, b, prog); n != 2 {
		t.Errorf("after changing one package the build ran the compiler %d times, want 2 (it and main, which imports it)", n)
	}
	if after := files(t, shared); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("the shared layer changed: %d files before, %d after", len(before), len(after))
	}
	if len(files(t, mine)) == 0 {
		t.Error("nothing was written to the student's layer")
	}
}
