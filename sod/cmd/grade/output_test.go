package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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

// TestGradesCSVReadBack: messages a notebook provokes (a panic's 200,000-byte message, a CR that
// would start a row, terminal escapes, a NUL, invalid UTF-8) and names with control characters
// are escaped and cut (csvField), and Python's csv module, with its default settings, reads
// grades.csv back: every row, with the escaped text.
func TestGradesCSVReadBack(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	huge := strings.Repeat("\x1b[2J\r\n\"boom\",", 20000)
	outcomes := []outcome{
		{Student: "alice", Notebook: "99-fixture.ipynb", Rows: []row{{"99.1", true, "correct"}, {"99.2", false, "answer992(0.5) panicked: " + huge}}},
		{Student: "bob\rmallory", Notebook: "99-fixture.ipynb", Rows: []row{{"99.1", false, "a\x00b\x7fc\u0085d \xff\\"}, {"99.2", false, "line\nbreak\ttab"}}},
	}
	dir := t.TempDir()
	o, err := openOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := writeResults(o, outcomes); err != nil {
		t.Fatal(err)
	}
	script := `import csv, json, sys
print(json.dumps(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))`
	b, err := exec.Command(python, "-c", script, filepath.Join(dir, "grades.csv")).CombinedOutput()
	if err != nil {
		t.Fatalf("Python's csv cannot read grades.csv: %v: %s", err, b)
	}
	var rows [][]string
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 {
		t.Fatalf("Python's csv reads %d rows, want 5 (a header and 4 grades)", len(rows))
	}
	cut := rows[2][4]
	if len(cut) > maxMessageBytes+64 || !strings.HasPrefix(cut, `answer992(0.5) panicked: \x1b[2J\r\n"boom",`) ||
		!strings.HasSuffix(cut, fmt.Sprintf("… (cut: %d bytes in all)", len("answer992(0.5) panicked: ")+len(huge))) {
		t.Errorf("the panic's message is %d bytes: %.120q…", len(cut), cut)
	}
	for i, want := range map[int][2]string{3: {`bob\rmallory`, `a\x00b\x7fc\x85d ` + "\uFFFD" + `\\`}, 4: {`bob\rmallory`, `line\nbreak\ttab`}} {
		if rows[i][0] != want[0] || rows[i][4] != want[1] {
			t.Errorf("row %d = %q, want student %q and message %q", i, rows[i], want[0], want[1])
		}
	}
}
