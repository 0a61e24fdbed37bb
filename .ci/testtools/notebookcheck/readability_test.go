package notebookcheck

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Readability limits of a notebook's code cells (a code cell fits
// a screen and shows the paper's formula; machinery lives in the library).
const (
	maxCellLines      = 40  // non-blank lines of any one code cell
	maxMedianLines    = 12  // median non-blank lines per code cell
	maxBoilerplatePct = 3.0 // error boilerplate, % of all non-blank code lines
	minCodeCells      = 70  // over all notebooks: cells are split, not merged away
	boilerplateIssue  = "use must.M / must.M1 (github.com/janpfeifer/must): a failing call panics, which GoNB shows as an error and the headless run reports"
)

// readability holds the figures of one notebook's code cells (or of all notebooks).
type readability struct {
	Cells       int     // code cells
	Lines       int     // non-blank code lines
	Median      float64 // median non-blank lines per code cell
	Longest     int     // non-blank lines of the longest code cell
	LongestCell int     // its index in the notebook (-1 for a total)
	Boilerplate int     // error-boilerplate lines
	sizes       []int
}

// BoilerplatePct is the share of error-boilerplate lines in all non-blank code lines, in percent.
func (r readability) BoilerplatePct() float64 {
	if r.Lines == 0 {
		return 0
	}
	return 100 * float64(r.Boilerplate) / float64(r.Lines)
}

func (r readability) String() string {
	return fmt.Sprintf("%3d code cells, median %4.1f lines, longest %3d, boilerplate %4.1f%% (%d of %d lines)",
		r.Cells, r.Median, r.Longest, r.BoilerplatePct(), r.Boilerplate, r.Lines)
}

var (
	// errIfRe: `if err != nil {`, `if err := f(); err != nil {`, `if !ok(err) {` and the like.
	errIfRe = regexp.MustCompile(`^if\b.*(\berr\s*!=\s*nil|!ok\(.*\)).*\{$`)
	// errPrintRe: printing the error instead of failing: `fmt.Println(err)`, `fmt.Println("error:", err)`,
	// `ok(err)`, `ok(widgets.Display(chart))`.
	errPrintRe = regexp.MustCompile(`^(fmt\.Print(ln|f)?\((".*",\s*)?err\)|ok\(.*\))$`)
)

// measure computes the readability figures of a notebook. Error boilerplate is the
// `if err != nil {` / `fmt.Println(err)` / `return` pattern: a line that tests an error, a line
// that only prints it (or calls an ok(err) helper), and a bare `return` right after either.
func measure(nb *notebook) readability {
	r := readability{LongestCell: -1}
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		var lines []string
		for _, l := range strings.Split(c.source(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		for k, l := range lines {
			switch {
			case errIfRe.MatchString(l), errPrintRe.MatchString(l):
				r.Boilerplate++
			case l == "return" && k > 0 && (errIfRe.MatchString(lines[k-1]) || errPrintRe.MatchString(lines[k-1])):
				r.Boilerplate++
			}
		}
		r.Cells++
		r.Lines += len(lines)
		r.sizes = append(r.sizes, len(lines))
		if len(lines) > r.Longest {
			r.Longest, r.LongestCell = len(lines), i
		}
	}
	r.Median = median(r.sizes)
	return r
}

// add accumulates b into a total.
func (r readability) add(b readability) readability {
	r.Cells += b.Cells
	r.Lines += b.Lines
	r.Boilerplate += b.Boilerplate
	r.sizes = append(r.sizes, b.sizes...)
	r.Longest = max(r.Longest, b.Longest)
	r.LongestCell = -1
	r.Median = median(r.sizes)
	return r
}

func median(v []int) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return float64(s[len(s)/2])
	}
	return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
}

// problems returns the readability limits the notebook breaks.
func (r readability) problems(nb *notebook) []string {
	var probs []string
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		n := 0
		for _, l := range strings.Split(c.source(), "\n") {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
		if n > maxCellLines {
			probs = append(probs, fmt.Sprintf("%s: %d non-blank lines, more than %d (split the cell, or move machinery into the library)", c.label(i), n, maxCellLines))
		}
	}
	if r.Median > maxMedianLines {
		probs = append(probs, fmt.Sprintf("median code cell %.1f non-blank lines, more than %d", r.Median, maxMedianLines))
	}
	if r.BoilerplatePct() > maxBoilerplatePct {
		probs = append(probs, fmt.Sprintf("error boilerplate is %.1f%% of the code lines, more than %.0f%%: %s", r.BoilerplatePct(), maxBoilerplatePct, boilerplateIssue))
	}
	return probs
}

// TestNotebookReadability prints the readability figures of every notebook and of all of them
// together, and fails when a notebook breaks a limit: a code cell over maxCellLines non-blank
// lines, a median over maxMedianLines, error boilerplate over maxBoilerplatePct of its code
// lines; or when all notebooks together have fewer than minCodeCells code cells.
func TestNotebookReadability(t *testing.T) {
	var total readability
	var report strings.Builder
	for _, p := range notebookPaths(t) {
		nb, err := readNotebook(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		r := measure(nb)
		total = total.add(r)
		fmt.Fprintf(&report, "%-42s %s\n", name, r)
		for _, prob := range r.problems(nb) {
			t.Errorf("%s: %s", name, prob)
		}
	}
	fmt.Fprintf(&report, "%-42s %s", "all notebooks", total)
	t.Logf("readability (non-blank lines of code cells):\n%s", report.String())
	if total.Cells < minCodeCells {
		t.Errorf("all notebooks have %d code cells, fewer than %d: split long cells rather than merging them", total.Cells, minCodeCells)
	}
}

func TestMeasure(t *testing.T) {
	code := func(s string) cell { return cell{CellType: "code", Source: raw(s)} }
	nb := &notebook{Cells: []cell{
		{CellType: "markdown", Source: raw("# title\n\nif err != nil {\n\treturn\n}")}, // not code
		code("!*go mod edit -replace=x=y"),
		code("%%\nx, err := f()\nif err != nil {\n\tfmt.Println(err)\n\treturn\n}\n\nfmt.Println(x)\n"),
		code("%%\nif !ok(err) {\n\treturn\n}\nok(widgets.Display(c))\nif err := g(); err != nil {\n\tfmt.Println(\"error:\", err)\n}\nreturn"),
		code("%%\nx := must.M1(f())\nfmt.Println(x)"),
	}}
	r := measure(nb)
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"cells", float64(r.Cells), 4},
		{"lines", float64(r.Lines), 1 + 7 + 9 + 3},
		{"longest", float64(r.Longest), 9},
		{"longest cell", float64(r.LongestCell), 3},
		{"median", r.Median, 5},                        // sizes 1, 7, 8, 3
		{"boilerplate", float64(r.Boilerplate), 3 + 5}, // the last, unguarded return is not boilerplate
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	long := code(strings.Repeat("x := 1\n", maxCellLines+1))
	probs := strings.Join(measure(&notebook{Cells: []cell{long}}).problems(&notebook{Cells: []cell{long}}), "\n")
	for _, want := range []string{"41 non-blank lines", "median code cell 41.0"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems of a 41-line cell lack %q:\n%s", want, probs)
		}
	}
	if probs := strings.Join(r.problems(nb), "\n"); !strings.Contains(probs, "error boilerplate is 40.0%") {
		t.Errorf("problems lack the boilerplate share: %s", probs)
	}
}
