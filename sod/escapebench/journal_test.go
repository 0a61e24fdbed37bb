package escapebench

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
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

// journalLines is a valid journal of one paper run (format 2), as lines,
// for the tests to edit.
func journalLines(t testing.TB) (head, run string) {
	t.Helper()
	e := testEnv
	h := JournalHeader{Format: JournalFormat, Bench: QuickSpec(), Env: &e}
	hb, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	r := &TrialResult{Family: "paper", Instance: "basic", Method: "gd-alone", Params: map[string]string{}, Outcome: sod.Solved, Success: true, H: 0.5, Dist: 0.01,
		Cost: Cost{EvalCounts: sod.EvalCounts{Grad: 10}}, Hits: []Hit{{Target: 0, EvalCounts: sod.EvalCounts{Grad: 3}}}, Trace: []TracePoint{{Grad: 0, H: 1, Dist: 2}}}
	rb, err := json.Marshal(Record{Result: r, CPUNs: 5, WallNs: 7})
	if err != nil {
		t.Fatal(err)
	}
	return string(hb), string(rb)
}

// TestReadJournalRefuses: every line is checked as an argument: a run
// twice with different results (accepted before, and resumed by
// reproduce bench -shard 0/1), a key twice, an unknown key, data after a
// record, impossible counts, a family the suite lacks, lines after the
// completion line, a format from the future. The same run twice is kept
// once; a format-1 header (no format, no env) still reads.
func TestReadJournalRefuses(t *testing.T) {
	head, run := journalLines(t)
	other := strings.Replace(run, `"success":true`, `"success":false`, 1)
	dir := t.TempDir()
	for name, c := range map[string]struct{ text, want string }{
		"conflicting duplicate": {head + "\n" + run + "\n" + other + "\n", "lines 2 and 3 hold run paper / basic / gd-alone / trial 0 with different results"},
		"key twice":             {head + "\n" + strings.Replace(run, `{"result":{`, `{"result":{"trial":3,`, 1) + "\n", `line 2: not a run record (key "trial" given twice`},
		"header key twice":      {strings.Replace(head, `{`, `{"shard_k":0,`, 1) + "\n", `key "shard_k" given twice`},
		"unknown key":           {head + "\n" + strings.Replace(run, `"cpu_ns"`, `"cpu_ms":1,"cpu_ns"`, 1) + "\n", `unknown field "cpu_ms"`},
		"trailing data":         {head + "\n" + run + " {}\n", "line 2: not a run record (data after the JSON value"},
		"header trailing":       {head + "x\n", "data after the JSON value"},
		"negative count":        {head + "\n" + strings.Replace(run, `"grad":10`, `"grad":-10`, 1) + "\n", "line 2"},
		"negative wall":         {head + "\n" + strings.Replace(run, `"wall_ns":7`, `"wall_ns":-7`, 1) + "\n", "wall time"},
		"unknown family":        {head + "\n" + strings.Replace(run, `"family":"paper"`, `"family":"zoo"`, 1) + "\n", `family "zoo"`},
		"after completion":      {head + "\n" + `{"complete":1}` + "\n" + run + "\n", "after the completion line"},
		"negative completion":   {head + "\n" + `{"complete":-1}` + "\n", "not a completion line"},
		"future format":         {strings.Replace(head, `"format":2`, `"format":3`, 1) + "\n", "journal format 3"},
		"no methods":            {strings.Replace(head, `"methods":[`, `"methods":[],"x":[`, 1) + "\n", "not a bench journal"},
		"bad shard":             {strings.Replace(head, `"shard_k":0`, `"shard_k":5`, 1) + "\n", "line 1"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadJournal(path); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming %s and %q", name, err, path, c.want)
		}
	}
	path := filepath.Join(dir, "twice")
	os.WriteFile(path, []byte(head+"\n"+run+"\n"+run+"\n"+`{"complete":1}`+"\n"), 0o644)
	if j, err := ReadJournal(path); err != nil || len(j.Runs()) != 1 || !j.Complete() || j.Header.Env == nil || *j.Header.Env != testEnv {
		t.Errorf("the same run twice: %v, %v", j, err)
	}
	// Format 1: the header had neither format nor env.
	var h map[string]any
	json.Unmarshal([]byte(head), &h)
	delete(h, "format")
	delete(h, "env")
	old, _ := json.Marshal(h)
	os.WriteFile(path, []byte(string(old)+"\n"+run+"\n"), 0o644)
	if j, err := ReadJournal(path); err != nil || len(j.Runs()) != 1 || j.Header.Format != 0 || j.Header.Env != nil {
		t.Errorf("format 1: %+v, %v", j, err)
	}
}

// FuzzReadJournal: whatever parseJournal accepts, the journal writer
// (CreateJournal, append, finish) writes back as a journal that reads back
// to the same header (in the current format), runs and completion; anything else is an error
// wrapping ErrBadBench, never a panic.
func FuzzReadJournal(f *testing.F) {
	head, run := journalLines(f)
	f.Add(head + "\n" + run + "\n" + `{"complete":1}` + "\n")
	f.Add(head + "\n" + run + "\n" + strings.Replace(run, `"success":true`, `"success":false`, 1) + "\n")
	f.Add(head + "\n" + run + " x\n")
	f.Add(head + "\n" + strings.Replace(run, `"grad":10`, `"grad":-10`, 1) + "\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		j, err := parseJournal([]byte(s))
		if err != nil {
			if !errors.Is(err, ErrBadBench) {
				t.Fatalf("error %v does not wrap ErrBadBench", err)
			}
			return
		}
		path := filepath.Join(dir, "j.jsonl")
		w, err := CreateJournal(path, j.Header)
		if err != nil {
			t.Fatalf("accepted, but CreateJournal refuses its header: %v", err)
		}
		for _, r := range j.runs {
			if err := w.append(r); err != nil {
				t.Fatal(err)
			}
		}
		if j.complete >= 0 {
			w.finish(j.complete)
		}
		w.Close()
		back, err := ReadJournal(path)
		if err != nil {
			b, _ := os.ReadFile(path)
			t.Fatalf("the writer's journal does not read back: %v\n%s", err, b)
		}
		// The writer writes the current format, with the current Env if
		// the header had none (format 1).
		want := j.Header
		want.Format = JournalFormat
		if want.Env == nil {
			want.Env = back.Header.Env
		}
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(back.Header)
		if !bytes.Equal(a, b) || back.complete != j.complete || len(back.runs) != len(j.runs) {
			t.Fatalf("read back %s, %d runs, complete %d; want %s, %d, %d", b, len(back.runs), back.complete, a, len(j.runs), j.complete)
		}
		for i := range j.runs {
			x, _ := json.Marshal(Record{Result: j.runs[i], CPUNs: int64(j.runs[i].Cost.CPU), WallNs: int64(j.runs[i].Cost.Wall)})
			y, _ := json.Marshal(Record{Result: back.runs[i], CPUNs: int64(back.runs[i].Cost.CPU), WallNs: int64(back.runs[i].Cost.Wall)})
			if !bytes.Equal(x, y) {
				t.Fatalf("run %d: read back %s, want %s", i, y, x)
			}
		}
	})
}
