package grading

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadRefusesBadID: Read checks the id by the identifier rule before
// opening anything, so an id such as "../x" never reads a file outside the
// export folder, and a nil Exports is an error, not a panic.
func TestReadRefusesBadID(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "export")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A well-formed answer outside the folder, where "../x" points.
	export("99.1", seed, 42)(t, root)
	if err := os.Rename(filepath.Join(root, "99.1.json"), filepath.Join(root, "x.json")); err != nil {
		t.Fatal(err)
	}
	e, err := OpenExports(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, id := range []string{"../x", "..", "", "/etc/passwd", "99.1/../../x", "7.1", "99.1 ", "x"} {
		if a, err := e.Read(id); !errors.Is(err, ErrBadGrading) {
			t.Errorf("Read(%q) = %v, %v; want an error wrapping ErrBadGrading", id, a, err)
		}
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
	var nilExports *Exports
	if _, err := nilExports.Read("99.1"); !errors.Is(err, ErrBadGrading) {
		t.Errorf("(*Exports)(nil).Read = %v, want ErrBadGrading", err)
	}
}
