package grading

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead: whatever bytes the export folder holds for an exercise, Read
// returns an answer for that exercise or an error; never a panic, never an
// answer for another id. The seeds are real exports and their mutations.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	for _, h := range []struct {
		id     string
		answer any
	}{{"99.1", 42}, {"99.1", 41}, {"99.2", func(x float64) float64 { return x * x }}} {
		if _, err := capture(func() { HandIn(dir, h.id, seed, h.answer) }); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, fileName(h.id)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(h.id, b)
	}
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"id":"99.1"}`, `{"id":"../x"}`, `{"id":"99.1","value":1e999}`, `{"id":"99.1","x":1}`, `{"id":"99.1"}{"id":"99.2"}`} {
		f.Add("99.1", []byte(s))
	}
	f.Fuzz(func(t *testing.T, id string, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		dir := t.TempDir()
		if ValidID(id) {
			if err := os.WriteFile(filepath.Join(dir, fileName(id)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		e, err := OpenExports(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		a, err := e.Read(id)
		if err != nil {
			return
		}
		if a == nil || a.ID != id {
			t.Fatalf("Read(%q) of %q = %+v, want an answer for %s", id, data, a, id)
		}
		if _, err := json.Marshal(a); err != nil {
			t.Fatalf("Read(%q) gave an answer that does not encode: %v", id, err)
		}
		_, _ = e.Grade(id, seed) // a malformed export is a failed Result, never a panic
	})
}
