package quote_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/quote"
)

// TestExperimentsCSVEscapesText fills every text field of every result
// with CSV tables (by reflection, as TestWritersEscapeEveryTextField) and
// checks the files experiments.WriteResultFiles writes: each parses as
// CSV with the header's number of fields, and no text cell starts a
// spreadsheet formula.
func TestExperimentsCSVEscapesText(t *testing.T) {
	results := map[string]interface{ CSVTables() []experiments.CSVTable }{
		"AblationWithScans":  filled[*experiments.AblationWithScans](),
		"BasicExampleResult": filled[*experiments.BasicExampleResult](),
		"CaseStudyResult":    filled[*experiments.CaseStudyResult](),
		"QNNResult":          filled[*experiments.QNNResult](),
		"StudyResult":        filled[*experiments.StudyResult](),
	}
	text := 0 // cells that hold the caller text
	for name, r := range results {
		dir := t.TempDir()
		tables := r.CSVTables()
		if err := experiments.WriteResultFiles(dir, "r", experiments.FormatCSV, nil, tables); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, tb := range tables {
			f, err := os.Open(filepath.Join(dir, "r_"+tb.Name+".csv"))
			if err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil {
				t.Fatalf("%s, table %s: no CSV: %v", name, tb.Name, err)
			}
			for _, rec := range recs {
				for _, c := range rec {
					if strings.Contains(c, "alert") {
						text++
					}
					if _, err := strconv.ParseFloat(c, 64); err != nil && c != quote.CSV(c) {
						t.Errorf("%s, table %s: cell %q starts a formula", name, tb.Name, c)
					}
				}
			}
		}
	}
	if text == 0 {
		t.Error("no table holds a text field: the test checks nothing")
	}
}
