package quote_test

import (
	"bytes"
	"encoding/csv"
	"io"
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/sod/quote"
	"sodworkbench.org/workbench/widgets"
)

// hostile is caller text that breaks every format it is not escaped for:
// a formula start and a field separator (CSV), a cell separator, a bare
// CR, a line break, emphasis, code and a link (Markdown), and an element
// and an entity (HTML and Markdown).
const hostile = "=1+1|x\r|y\n<script>alert(1)</script>*_`[a](b)&amp;$\u2028z\vw"

// fill sets every exported string of v (struct fields, slice and map
// elements, through pointers, to a depth) to hostile, giving an empty
// slice one element and a nil pointer a value, so that each writer gets
// caller text everywhere it takes some.
func fill(v reflect.Value, depth int) {
	if depth > 6 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(hostile)
		}
	case reflect.Pointer:
		if v.IsNil() && v.CanSet() && v.Type().Elem().Kind() == reflect.Struct {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if !v.IsNil() {
			fill(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 && v.CanSet() {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String {
			if v.IsNil() && v.CanSet() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			v.SetMapIndex(reflect.ValueOf(hostile).Convert(v.Type().Key()), reflect.ValueOf(hostile).Convert(v.Type().Elem()))
		}
	}
}

// filled returns a T with every text field hostile.
func filled[T any]() T {
	var x T
	fill(reflect.ValueOf(&x).Elem(), 0)
	return x
}

// TestWritersEscapeEveryTextField fills every text field of the input of
// every writer of CSV, Markdown or HTML by reflection and checks that the
// output keeps its structure: every CSV record has the header's number of
// fields and no text field starts a formula; every Markdown table row has
// its table's number of cells and no raw HTML; the HTML holds no element
// from the text.
func TestWritersEscapeEveryTextField(t *testing.T) {
	runs := []*escapebench.TrialResult{filled[*escapebench.TrialResult]()}
	sums, err := escapebench.Summarize(runs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sums {
		fill(reflect.ValueOf(&sums[i]).Elem(), 0)
	}
	csvWriters := map[string]func(io.Writer) error{
		"WriteResultsCSV": func(w io.Writer) error { return escapebench.WriteResultsCSV(w, filled[escapebench.Env](), runs) },
		"WriteTimingsCSV": func(w io.Writer) error { return escapebench.WriteTimingsCSV(w, filled[escapebench.Env](), runs) },
	}
	for name, write := range csvWriters {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Every physical line before the header (a line ends at LF, CR,
		// U+2028 or U+2029 for some reader or other) is an Env comment.
		lines := strings.FieldsFunc(b.String(), func(r rune) bool {
			return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\v' || r == '\f' || r == '\u0085'
		})
		for _, l := range lines {
			if strings.HasPrefix(l, "family,") {
				break
			}
			if !strings.HasPrefix(l, "# ") {
				t.Errorf("%s: a line before the header is no comment: %q", name, l)
			}
		}
		cr := csv.NewReader(&b)
		cr.Comment = '#' // the Env lines
		recs, err := cr.ReadAll()
		if err != nil {
			t.Fatalf("%s: output is no CSV: %v", name, err)
		}
		if len(recs) != 2 {
			t.Errorf("%s: %d records, want a header and one run", name, len(recs))
		}
		for _, rec := range recs[1:] {
			if len(rec) != len(recs[0]) {
				t.Errorf("%s: a record has %d fields, the header %d", name, len(rec), len(recs[0]))
			}
			for _, f := range rec {
				if strings.Contains(f, "alert") && f != quote.CSV(f) {
					t.Errorf("%s: text field %q starts a formula", name, f)
				}
			}
		}
	}
	mdWriters := map[string]func(io.Writer) error{
		"WriteSummaryMarkdown": func(w io.Writer) error { return escapebench.WriteSummaryMarkdown(w, sums) },
		"WriteSummaryPage": func(w io.Writer) error {
			spec := filled[escapebench.Spec]()
			sr := filled[*escapebench.SuiteRun]()
			sr.Runs = runs
			as := []escapebench.FamilyAnalysis{filled[escapebench.FamilyAnalysis]()}
			return escapebench.WriteSummaryPage(w, spec, sr, sums, as, filled[escapebench.PageInfo]())
		},
	}
	for name, write := range mdWriters {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkMarkdown(t, name, b.String())
	}
	if _, err := widgets.AssetsDir(); err != nil {
		t.Logf("figures.WriteBenchReport not checked: %v", err)
		return
	}
	rep := filled[figures.BenchReport]()
	rep.Runs, rep.Summaries = runs, sums
	var b bytes.Buffer
	if err := figures.WriteBenchReport(&b, rep); err != nil {
		t.Fatalf("WriteBenchReport: %v", err)
	}
	if strings.Contains(b.String(), "<script>alert") {
		t.Errorf("WriteBenchReport: the caller's <script> element is in the page")
	}
}

// checkMarkdown checks every table of md: each row has the cells of the
// table's first row, and no line holds raw HTML from the text.
func checkMarkdown(t *testing.T, name, md string) {
	t.Helper()
	cells := func(line string) int {
		n := 0
		for i := 0; i < len(line); i++ {
			switch {
			case line[i] == '\\':
				i++
			case line[i] == '|':
				n++
			}
		}
		return n
	}
	if open, shut := strings.Count(md, "<!--"), strings.Count(md, "-->"); open != shut {
		t.Errorf("%s: %d comment openings, %d closings: the text ends a comment", name, open, shut)
	}
	want := 0
	for _, line := range strings.Split(md, "\n") {
		if strings.Contains(line, "\r") {
			t.Errorf("%s: a bare CR in %q", name, line)
		}
		if strings.Contains(strings.ReplaceAll(line, `\<`, ""), "<script") {
			t.Errorf("%s: raw HTML in %q", name, line)
		}
		if !strings.HasPrefix(line, "|") {
			want = 0
			continue
		}
		if want == 0 {
			want = cells(line)
		} else if got := cells(line); got != want {
			t.Errorf("%s: row with %d cell separators, the table has %d: %q", name, got, want, line)
		}
	}
}
