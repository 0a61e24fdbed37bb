package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteResultsNoFollow: links planted in the output folder (grades.csv to /dev/null or to a
// file elsewhere, a student's executed/ folder to a folder elsewhere, the output folder itself)
// are replaced or refused, never written through.
func TestWriteResultsNoFollow(t *testing.T) {
	dir := t.TempDir()
	out, elsewhere := filepath.Join(dir, "out"), filepath.Join(dir, "elsewhere")
	for _, d := range []string{filepath.Join(out, "executed"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(elsewhere, "victim.txt")
	if err := os.WriteFile(victim, []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(out, "grades.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(out, "summary.txt")); err != nil {
		t.Fatal(err)
	}
	o, err := openOut(out)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	outcomes := []outcome{{Student: "alice", Notebook: "99-fixture.ipynb", Rows: []row{{"99.1", true, "correct"}}, Executed: []byte("{}")}}
	if err := writeResults(o, outcomes); err != nil {
		t.Fatal(err)
	}
	if err := o.write("summary.txt", []byte("summary")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"grades.csv", "summary.txt"} {
		st, err := os.Lstat(filepath.Join(out, f))
		if err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s is not a regular file after writing: %v %v", f, st, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "untouched" {
		t.Errorf("written through a link: %s holds %q", victim, b)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "grades.csv")); !strings.Contains(string(b), "alice,99-fixture.ipynb,99.1,true,correct") {
		t.Errorf("grades.csv:\n%s", b)
	}

	// A student's folder in executed/ replaced by a link: refused.
	if err := os.Symlink(elsewhere, filepath.Join(out, "executed", "bob")); err != nil {
		t.Fatal(err)
	}
	err = writeResults(o, []outcome{{Student: "bob", Notebook: "victim.txt", Executed: []byte("overwritten")}})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("writing through executed/bob, a link: error %v, want a refusal naming the link", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "untouched" {
		t.Errorf("written through a link: %s holds %q", victim, b)
	}

	// The output folder itself a link: refused.
	link := filepath.Join(dir, "out-link")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	if _, err := openOut(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("openOut of a link: %v, want a refusal", err)
	}
}
