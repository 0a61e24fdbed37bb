package experiments

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteResultFiles writes a small result in each format and reads the
// files back; bad names and formats are refused before any file exists.
func TestWriteResultFiles(t *testing.T) {
	result := map[string]any{"a": 1.5, "b": []int{1, 2}}
	tables := []CSVTable{{"one", [][]string{{"x", "y"}, {"1", "a,b"}}}, {"two_2", [][]string{{"z"}}}}
	for _, tc := range []struct {
		format FileFormat
		files  []string
	}{
		{FormatJSONAndCSV, []string{"r.json", "r_one.csv", "r_two_2.csv"}},
		{FormatJSON, []string{"r.json"}},
		{FormatCSV, []string{"r_one.csv", "r_two_2.csv"}},
	} {
		dir := t.TempDir()
		if err := WriteResultFiles(dir, "r", tc.format, result, tables); err != nil {
			t.Fatalf("%v: %v", tc.format, err)
		}
		entries, _ := os.ReadDir(dir)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, tc.files) {
			t.Errorf("%v: files %v, want %v", tc.format, got, tc.files)
		}
		if tc.format != FormatCSV {
			var back map[string]any
			b, _ := os.ReadFile(filepath.Join(dir, "r.json"))
			if err := json.Unmarshal(b, &back); err != nil || back["a"] != 1.5 {
				t.Errorf("%v: r.json %s: %v", tc.format, b, err)
			}
		}
		if tc.format != FormatJSON {
			f, _ := os.Open(filepath.Join(dir, "r_one.csv"))
			rows, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil || len(rows) != 2 || rows[1][1] != "a,b" {
				t.Errorf("%v: r_one.csv %v: %v", tc.format, rows, err)
			}
		}
	}
	for _, tc := range []struct {
		dir, name string
		format    FileFormat
		tables    []CSVTable
		want      string
	}{
		{"", "r", FormatJSON, nil, "empty directory"},
		{"D", "", FormatJSON, nil, `result name ""`},
		{"D", "../r", FormatJSON, nil, `result name "../r"`},
		{"D", "r/x", FormatJSON, nil, `result name "r/x"`},
		{"D", "r", FileFormat(3), nil, "file format 3"},
		{"D", "r", FileFormat(-1), nil, "file format -1"},
		{"D", "r", FormatCSV, []CSVTable{{"ok", nil}, {"a/b", nil}}, `table name "a/b"`},
		{"D", "r", FormatCSV, []CSVTable{{"", nil}}, `table name ""`},
	} {
		dir := tc.dir
		if dir == "D" {
			dir = t.TempDir()
		}
		err := WriteResultFiles(dir, tc.name, tc.format, result, tc.tables)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WriteResultFiles(%q, %q, %v, %v) = %v, want %q", tc.dir, tc.name, tc.format, tc.tables, err, tc.want)
		}
		if entries, _ := os.ReadDir(dir); dir != "" && len(entries) > 0 {
			t.Errorf("%q: files written before the error: %v", tc.want, entries)
		}
	}
}

func TestParseFileFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want FileFormat
		err  bool
	}{{"both", FormatJSONAndCSV, false}, {"json", FormatJSON, false}, {"csv", FormatCSV, false}, {"xml", 0, true}, {"", 0, true}, {"JSON", 0, true}} {
		got, err := ParseFileFormat(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseFileFormat(%q) = %v, %v", tc.in, got, err)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
	if s := FileFormat(7).String(); s != "FileFormat(7)" {
		t.Errorf("FileFormat(7).String() = %q", s)
	}
	for _, f := range []FileFormat{FormatJSONAndCSV, FormatJSON, FormatCSV} {
		var back FileFormat = 99
		b, err := f.MarshalText()
		if err != nil || back.UnmarshalText(b) != nil || back != f {
			t.Errorf("%v: MarshalText %q, %v; read back %v", f, b, err, back)
		}
	}
	if _, err := FileFormat(7).MarshalText(); err == nil {
		t.Error("FileFormat(7).MarshalText: no error")
	}
	if f := FormatCSV; f.UnmarshalText([]byte("xml")) == nil || f != FormatCSV {
		t.Errorf("UnmarshalText(xml): no error or changed the value to %v", f)
	}
}

// TestStudyCSVTables counts the rows of the study's tables from the cells
// themselves: one summary row per cell, one trial row per trial, one
// trajectory row per recorded iterate of GD and of GD+SOD.
func TestStudyCSVTables(t *testing.T) {
	r := &StudyResult{Cells: []StudyCell{
		{N: 10, Eps: 0.1, Trials: []StudyTrial{{Index: 0, GD: Trajectory{Iter: []int{0, 5}, Dist: []float64{1, 0.5}}, SOD: Trajectory{Iter: []int{0}, Dist: []float64{1}}}}},
		{N: 12, Eps: 0.15, Trials: []StudyTrial{{Index: 0}, {Index: 1, GD: Trajectory{Iter: []int{3}, Dist: []float64{0.25}}}}},
	}}
	got := map[string]int{}
	for _, tb := range r.CSVTables() {
		got[tb.Name] = len(tb.Rows) - 1
	}
	if got["summary"] != 2 || got["trials"] != 3 || got["trajectories"] != 4 {
		t.Errorf("rows per table %v, want summary 2, trials 3, trajectories 4", got)
	}
}

// TestStudyShardFiles: a shard written by WriteStudyShard reads back equal;
// a file that is not a shard is an error naming it.
func TestStudyShardFiles(t *testing.T) {
	dir := t.TempDir()
	sh := &StudyShard{Shard: 1, Shards: 3, Settings: validSettings(), Cells: []StudyCell{{N: 10, Eps: 0.1, GDSuccesses: 1, Trials: []StudyTrial{{Index: 1, GDSuccess: true}}}}}
	if err := WriteStudyShard(dir, sh); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "study-shard-1-of-3.json")
	if m, _ := filepath.Glob(filepath.Join(dir, StudyShardPattern)); len(m) != 1 || m[0] != path || StudyShardFile(1, 3) != filepath.Base(path) {
		t.Fatalf("shard files %v, want %s", m, path)
	}
	back, err := ReadStudyShard(path)
	if err != nil || back.Shard != 1 || back.Shards != 3 || len(back.Cells) != 1 || back.Cells[0].Trials[0].Index != 1 || !back.Cells[0].Trials[0].GDSuccess {
		t.Errorf("read back %+v, %v", back, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"shard": 0, "bogus": 1}`), 0o644)
	if _, err := ReadStudyShard(bad); err == nil || !strings.Contains(err.Error(), "bad.json is not a study shard") {
		t.Errorf("ReadStudyShard(bad) = %v", err)
	}
	if err := WriteStudyShard(dir, nil); err == nil {
		t.Error("WriteStudyShard(nil): no error")
	}
	if err := WriteStudyShard("", sh); err == nil {
		t.Error(`WriteStudyShard(""): no error`)
	}
}

// validSettings are the settings of a study of one cell (n = 10, ε = 0.1)
// with 3 trials, as RunStudyShard records them.
func validSettings() StudySettings {
	return StudySettings{Sizes: []int{10}, Epsilons: []float64{0.1}, Trials: 3, Rank: 1, Truth: "alternating", Seed: 1, InitScale: 0.01, StepScale: 0.5,
		MaxIter: 100, GradTol: 1e-8, SuccessTol: 0.02, MaxEscapes: 3, Escaper: "multi-step-sod", TraceEvery: 10}
}
