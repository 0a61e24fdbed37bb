package experiments

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSaveLoadStudy(t *testing.T) {
	res := &StudyResult{Cells: []StudyCell{{N: 40, Eps: 0.1, GDSuccesses: 1, SODSuccesses: 2, Escapes: 3, EscapeDescent: 2, Trials: []StudyTrial{
		{Index: 0, GDDist: math.Inf(1), SODDist: math.NaN(), SODSuccess: true, Escapes: []EscapeSummary{{Kind: "γ", Descent: false}}},
		{Index: 1, GDSuccess: true, SODSuccess: true, Escapes: []EscapeSummary{{Kind: "γ", Descent: true}, {Kind: "β", Descent: true}}},
	}}, {N: 50, Eps: 0.15}}}
	path := filepath.Join(t.TempDir(), "study.gob")
	if err := SaveStudy(path, res); err != nil {
		t.Fatal(err)
	}
	got, err := LoadStudy(path)
	if err != nil {
		t.Fatal(err)
	}
	tr := got.Cells[0].Trials[0]
	if len(got.Cells) != 2 || !math.IsInf(tr.GDDist, 1) || !math.IsNaN(tr.SODDist) || !reflect.DeepEqual(got.Cells[1], res.Cells[1]) {
		t.Errorf("round trip lost data: %+v", got.Cells)
	}
	kinds, rescues := got.EscapeTally()
	want := map[string]int{"γ-type, lowered h: false": 1, "γ-type, lowered h: true": 1, "β-type, lowered h: true": 1}
	if !reflect.DeepEqual(kinds, want) || rescues != 1 {
		t.Errorf("tally %v, %d rescues; want %v, 1", kinds, rescues, want)
	}
	if c := got.Cell(50, 0.15); c == nil || c.N != 50 {
		t.Errorf("Cell(50, 0.15) = %v", c)
	}
	if c := got.Cell(60, 0.15); c != nil {
		t.Errorf("Cell(60, 0.15) = %v, want nil", c)
	}
	if _, err := LoadStudy(filepath.Join(t.TempDir(), "none.gob")); err == nil || !strings.Contains(err.Error(), "run the study first") {
		t.Errorf("a missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadStudy(path); err == nil {
		t.Error("garbage was read as a study")
	}
}
