package experiments

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validShardJSON is shard 1 of 3 of a one-cell study, as WriteStudyShard
// writes it.
func validShardJSON(t testing.TB) string {
	t.Helper()
	sh := &StudyShard{Shard: 1, Shards: 3, Settings: validSettings(), Cells: []StudyCell{{N: 10, Eps: 0.1, GDSuccesses: 1, Escapes: 1,
		Trials: []StudyTrial{{Index: 1, GDSuccess: true, GDDist: 0.01, GDIter: 40, Escapes: []EscapeSummary{{Round: 1, Iter: 40, Kind: "β"}}, GD: Trajectory{Iter: []int{0, 40}, Dist: []float64{3, 0.01}}}}}}}
	b, err := json.Marshal(sh)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadStudyShardRefuses: a shard file is checked as an argument: a key
// twice, one in another case, data after the object, a trial twice or not
// this shard's, counts that are not the trials', settings out of range,
// a shard number out of range; and a FIFO or directory is refused
// unopened.
func TestReadStudyShardRefuses(t *testing.T) {
	ok := validShardJSON(t)
	dir := t.TempDir()
	for name, c := range map[string]struct{ text, want string }{
		"key twice":         {strings.Replace(ok, `{"shard":1,`, `{"shard":1,"shard":2,`, 1), `key "shard" given twice`},
		"key case":          {strings.Replace(ok, `"shards":3`, `"Shards":3`, 1), `key "Shards", which the format spells "shards"`},
		"trailing":          {ok + "{}", "data after the JSON value"},
		"trial twice":       {strings.Replace(ok, `"gd_successes":1,`, `"gd_successes":2,`, 1), "counts"},
		"not its trial":     {strings.Replace(ok, `"index":1`, `"index":2`, 1), "not this file's"},
		"trials out":        {strings.Replace(ok, `"trials":3`, `"trials":-3`, 1), "trials"},
		"shard out":         {strings.Replace(ok, `"shard":1`, `"shard":7`, 1), "shard 7 of 3"},
		"negative distance": {strings.Replace(ok, `"gd_dist":0.01`, `"gd_dist":-0.01`, 1), "distances"},
		"bad point":         {strings.Replace(ok, `"gd_x":null`, `"gd_x":[1,2]`, 1), "n·r = 10"},
		"bad eps":           {strings.Replace(ok, `"eps":[0.1]`, `"eps":[0]`, 1), "ε"},
		"truth":             {strings.Replace(ok, `"truth":"alternating"`, `"truth":"zebra"`, 1), "truth"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		os.WriteFile(path, []byte(c.text), 0o644)
		if _, err := ReadStudyShard(path); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) || !errors.Is(err, ErrBadExperiment) {
			t.Errorf("%s: %v, want an error naming the file and %q", name, err, c.want)
		}
	}
	path := filepath.Join(dir, "ok.json")
	os.WriteFile(path, []byte(ok), 0o644)
	if _, err := ReadStudyShard(path); err != nil {
		t.Errorf("valid shard: %v", err)
	}
	if _, err := ReadStudyShard(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := LoadStudy(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("LoadStudy of a directory: %v", err)
	}
	// MergeStudy refuses a shard holding one trial twice.
	var sh StudyShard
	json.Unmarshal([]byte(ok), &sh)
	sh.Shards, sh.Shard = 1, 0
	sh.Cells[0].Trials = []StudyTrial{{Index: 0}, {Index: 0}, {Index: 1}}
	if _, err := MergeStudy([]*StudyShard{&sh}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a trial twice: %v", err)
	}
}

// FuzzReadStudyShard: whatever parseStudyShard accepts, WriteStudyShard
// writes back, and that file reads back to the same bytes once written
// again; anything else is an error wrapping ErrBadExperiment.
func FuzzReadStudyShard(f *testing.F) {
	ok := validShardJSON(f)
	f.Add(ok)
	f.Add(strings.Replace(ok, `"index":1`, `"index":2`, 1))
	f.Add(ok + "{}")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := parseStudyShard([]byte(s))
		if err != nil {
			if !errors.Is(err, ErrBadExperiment) {
				t.Fatalf("error %v does not wrap ErrBadExperiment", err)
			}
			return
		}
		if err := WriteStudyShard(dir, sh); err != nil {
			t.Fatalf("accepted, but the writer refuses it: %v", err)
		}
		path := filepath.Join(dir, StudyShardFile(sh.Shard, sh.Shards))
		back, err := ReadStudyShard(path)
		if err != nil {
			t.Fatalf("the writer's file does not read back: %v", err)
		}
		a, _ := json.Marshal(sh)
		b, _ := json.Marshal(back)
		if !bytes.Equal(a, b) {
			t.Fatalf("read back %s, want %s", b, a)
		}
	})
}

// FuzzLoadStudy: whatever parseStudy accepts (gob), SaveStudy writes
// back to a file that loads to the same cells; anything else is an error
// wrapping ErrBadExperiment, never a panic or a huge allocation.
func FuzzLoadStudy(f *testing.F) {
	var b bytes.Buffer
	res := &StudyResult{Cells: []StudyCell{{N: 10, Eps: 0.1, GDSuccesses: 1, Trials: []StudyTrial{{Index: 0, GDSuccess: true, GDDist: 0.01}, {Index: 1, GDDist: 2}}}}}
	gob.NewEncoder(&b).Encode(res.Cells)
	f.Add(b.Bytes())
	f.Add(append(append([]byte{}, b.Bytes()...), 0))
	f.Add([]byte("not gob"))
	path := filepath.Join(f.TempDir(), "s.gob")
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := parseStudy(in)
		if err != nil {
			if !errors.Is(err, ErrBadExperiment) {
				t.Fatalf("error %v does not wrap ErrBadExperiment", err)
			}
			return
		}
		if err := SaveStudy(path, r); err != nil {
			t.Fatal(err)
		}
		back, err := LoadStudy(path)
		if err != nil {
			t.Fatalf("saved, does not load: %v", err)
		}
		var x, y bytes.Buffer
		gob.NewEncoder(&x).Encode(r.Cells)
		gob.NewEncoder(&y).Encode(back.Cells)
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Fatalf("loaded back other cells")
		}
	})
}
