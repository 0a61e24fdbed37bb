package escapebench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file that is not a journal, or holds a line that is not a run record,
// is refused with an error naming the file (and the line).
func TestReadJournalErrors(t *testing.T) {
	dir := t.TempDir()
	head := `{"bench":{"families":["paper"],"methods":["gd-alone"],"trials":1,"per_cell":1,"seed":1,"pmc_cells":null,"pmc_iter":0,"pmc_start":"random-signs","gauss_cells":null,"gauss_tries":1,"max_iter":3000,"max_escapes":3},"shard_k":0,"shard_n":0}`
	for name, c := range map[string]struct{ text, want string }{
		"empty":      {"", "not a bench journal"},
		"no header":  {`{"result":{}}` + "\n", "not a bench journal"},
		"bad record": {head + "\n" + `{"oops":1}` + "\n", "line 2: not a run record"},
		"not json":   {head + "\nhello\n", "line 2"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadJournal(path); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming %s and %q", name, err, path, c.want)
		}
	}
	// A header alone (a run interrupted before its first result) is a
	// journal without runs, not complete.
	path := filepath.Join(dir, "head")
	os.WriteFile(path, []byte(head+"\n"), 0o644)
	if j, err := ReadJournal(path); err != nil || len(j.Runs()) != 0 || j.Complete() {
		t.Errorf("header only: %v, %v", j, err)
	}
}
