package reproduction

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/paper"
)

// repoRoot is the repository root, from this package's directory.
const repoRoot = "../.."

var (
	reportOnce   sync.Once
	reportVals   *Report
	reportCounts []SectionCount
	reportMD     string
	reportErr    error
)

// generatedReport builds the report once for all the tests of this file:
// its values, the counts of its value tables and its text.
func generatedReport(t *testing.T) (*Report, []SectionCount, string) {
	t.Helper()
	reportOnce.Do(func() {
		reportVals, reportErr = Compute(context.Background(), Options{})
		if reportErr == nil {
			var b bytes.Buffer
			reportCounts, reportErr = reportVals.render(&b)
			reportMD = b.String()
		}
	})
	if reportErr != nil {
		t.Fatal(reportErr)
	}
	return reportVals, reportCounts, reportMD
}

// reportRow is one row of a value table of the report, split into its
// cells: quantity, paper (where), workbench, status, evidence.
type reportRow struct {
	section                             string
	what, paper, ours, status, evidence string
}

// reportRows returns the rows of the report's value tables, with the
// section (anchor id) of each.
func reportRows(md string) []reportRow {
	var rows []reportRow
	section := ""
	anchor := regexp.MustCompile(`^<a id="([a-z0-9-]+)"></a>$`)
	for _, line := range strings.Split(md, "\n") {
		if m := anchor.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if !strings.HasPrefix(line, "| ") || !strings.Contains(line, "`Test") {
			continue
		}
		c := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
		if len(c) != 5 {
			continue
		}
		for i := range c {
			c[i] = strings.ReplaceAll(c[i], `\|`, "|")
		}
		rows = append(rows, reportRow{section, c[0], c[1], c[2], c[3], c[4]})
	}
	return rows
}

// TestReportUpToDate fails when the committed notebooks/REPRODUCTION.md is
// not exactly what `reproduce report` prints, so a stale report cannot land.
func TestReportUpToDate(t *testing.T) {
	_, _, got := generatedReport(t)
	b, err := os.ReadFile(filepath.Join(repoRoot, File))
	if err != nil {
		t.Fatalf("%v\nGenerate it: %s", err, RegenerateCommand)
	}
	committed := string(b)
	if committed == got {
		return
	}
	cl, gl := strings.Split(committed, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(cl) || i < len(gl); i++ {
		var c, g string
		if i < len(cl) {
			c = cl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if c != g {
			t.Errorf("%s is stale: line %d differs\ncommitted: %q\ngenerated: %q\n"+
				"Regenerate it from the repository root:\n  %s", File, i+1, c, g, RegenerateCommand)
			return
		}
	}
}

// TestReportEvidence checks that every test the report names as evidence
// exists in the repository, every notebook section it links to exists, and
// every row names at least one test and a notebook.
func TestReportEvidence(t *testing.T) {
	_, _, md := generatedReport(t)
	funcs := testFuncs(t)
	names := regexp.MustCompile("`((?:Test|Example|Fuzz|Benchmark)[A-Za-z0-9_]*)`").FindAllStringSubmatch(md, -1)
	if len(names) < 50 {
		t.Fatalf("only %d test names in the report", len(names))
	}
	for _, m := range names {
		if !funcs[m[1]] {
			t.Errorf("the report names %s, which is no test function in the repository", m[1])
		}
	}
	links := regexp.MustCompile(`\[(\d\d) · ([^\]]+)\]\((\d\d-[^)]+\.ipynb)\)`).FindAllStringSubmatch(md, -1)
	if len(links) < 50 {
		t.Fatalf("only %d notebook links in the report", len(links))
	}
	headings := map[string][]string{}
	for _, m := range links {
		file, section := m[3], m[2]
		if m[1] != file[:2] {
			t.Errorf("link %q: number %s, file %s", m[0], m[1], file)
		}
		h, ok := headings[file]
		if !ok {
			h = notebookHeadings(t, filepath.Join(repoRoot, "notebooks", file))
			headings[file] = h
		}
		found := false
		for _, x := range h {
			found = found || strings.HasPrefix(x, section)
		}
		if !found {
			t.Errorf("the report links to section %q of %s, which has no heading starting so (headings: %q); "+
				"update the evidence in sod/reproduction and regenerate: %s", section, file, h, RegenerateCommand)
		}
	}
	rows := reportRows(md)
	if len(rows) < 50 {
		t.Fatalf("only %d rows in the value tables", len(rows))
	}
	evidence := regexp.MustCompile("^`(?:Test|Example)[A-Za-z0-9_]*`(?:, `(?:Test|Example)[A-Za-z0-9_]*`)*; \\[\\d\\d · [^\\]]+\\]\\(\\d\\d-[^)]+\\.ipynb\\)$")
	for _, r := range rows {
		if !evidence.MatchString(r.evidence) {
			t.Errorf("%s: row %q: evidence %q is not tests and one notebook section", r.section, r.what, r.evidence)
		}
	}
}

// testFuncs returns the names of the test, example, fuzz and benchmark
// functions in the repository's _test.go files.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	re := regexp.MustCompile(`(?m)^func ((?:Test|Example|Fuzz|Benchmark)[A-Za-z0-9_]*)\(`)
	out := map[string]bool{}
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != repoRoot || d.Name() == "node_modules" || d.Name() == "out") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				out[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// notebookHeadings returns the Markdown headings of a notebook, without the
// leading #s.
func notebookHeadings(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("evidence notebook: %v", err)
		return nil
	}
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, c := range nb.Cells {
		if c.CellType != "markdown" {
			continue
		}
		var lines []string
		if err := json.Unmarshal(c.Source, &lines); err != nil {
			var s string
			if err := json.Unmarshal(c.Source, &s); err != nil {
				t.Fatalf("%s: cell source: %v", path, err)
			}
			lines = []string{s}
		}
		for _, l := range strings.Split(strings.Join(lines, ""), "\n") {
			if strings.HasPrefix(l, "#") {
				out = append(out, strings.TrimSpace(strings.TrimLeft(l, "#")))
			}
		}
	}
	return out
}

// findRow returns the row of section id whose quantity starts with what.
func findRow(t *testing.T, md, id, what string) reportRow {
	t.Helper()
	for _, r := range reportRows(md) {
		if r.section == id && strings.HasPrefix(r.what, what) {
			return r
		}
	}
	t.Fatalf("no row %q in section %s", what, id)
	return reportRow{}
}

// TestReportRealWorldQuantities computes m, λ_n, σ_r, |⟨E, u_n u_nᵀ⟩| and Ξ²
// of the real-world case at the printed x̂ directly from the six sensing
// matrices (explicit sums and gonum's eigensolvers, not sod.AnalyzeCritical)
// and checks the report's rows against them.
func TestReportRealWorldQuantities(t *testing.T) {
	_, _, md := generatedReport(t)
	p := sod.RealWorldProblem()
	x := sod.RealWorldXHat()
	_, m := p.Op.Dims()
	As := make([]*mat.SymDense, m)
	for i := range As {
		var err error
		if As[i], err = sod.SensingMatrix(p.Op, i); err != nil {
			t.Fatal(err)
		}
	}
	// b = 𝒜(zzᵀ) with z = e₁, M = x̂x̂ᵀ, ∇f(M) = Σ_i (⟨A_i, M⟩ − b_i) A_i.
	var M mat.Dense
	M.Mul(x, x.T())
	inner := func(A *mat.SymDense, B mat.Matrix) float64 {
		s := 0.0
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				s += A.At(j, k) * B.At(j, k)
			}
		}
		return s
	}
	gradF := mat.NewSymDense(3, nil)
	xi2 := 0.0
	for _, A := range As {
		gradF.AddSym(gradF, scaleSym(inner(A, &M)-A.At(0, 0), A))
		var es mat.EigenSym
		if !es.Factorize(A, false) {
			t.Fatal("eigen")
		}
		for _, v := range es.Values(nil) {
			xi2 = math.Max(xi2, v*v)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(gradF, true) {
		t.Fatal("eigen")
	}
	lambdaN := es.Values(nil)[0]
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	un := mat.Col(nil, 0, &vecs)
	sigma := mat.Norm(x, 2) // rank 1: σ_r = ‖x̂‖, v_r = x̂/‖x̂‖
	vr := mat.Col(nil, 0, x)
	for i := range vr {
		vr[i] /= sigma
	}
	P := mat.NewDense(3, 3, nil)
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			P.Set(j, k, un[j]*vr[k]+vr[j]*un[k])
		}
	}
	E := mat.NewSymDense(3, nil)
	for _, A := range As {
		E.AddSym(E, scaleSym(inner(A, P), A))
	}
	u := mat.NewVecDense(3, un)
	euu := math.Abs(mat.Inner(u, E, u))
	for _, tc := range []struct {
		what string
		want string
	}{
		{"m (number", strconv.Itoa(len(paper.RealWorldMatrices()))},
		{"λ_n", f6(lambdaN)},
		{"σ_r", f6(sigma)},
		{"|⟨E, u_n u_nᵀ⟩|", f6(euu)},
		{"Ξ²", f6(xi2)},
	} {
		if r := findRow(t, md, "real-world", tc.what); r.ours != tc.want {
			t.Errorf("%s: report %q, computed directly %q", tc.what, r.ours, tc.want)
		}
	}
	if m != len(paper.RealWorldMatrices()) {
		t.Errorf("m = %d, the paper prints %d matrices", m, len(paper.RealWorldMatrices()))
	}
}

func scaleSym(s float64, A *mat.SymDense) *mat.SymDense {
	var out mat.SymDense
	out.ScaleSym(s, A)
	return &out
}

// TestReportStudySection recounts the success-rate rows from the study's
// table and checks the statuses the report gives its claims against the
// counts (the section is built from a fresh study run).
func TestReportStudySection(t *testing.T) {
	_, _, md := generatedReport(t)
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| ([0-9.]+) \| (\d+)/(\d+) \| (\d+)/(\d+) \| (\d+) \| (\d+) \|$`).FindAllStringSubmatch(md, -1)
	grid := paper.SuccessStudy()
	if len(rows) != len(grid.Sizes)*len(grid.Epsilons) {
		t.Fatalf("%d study cells in the report, want the paper's %d (%d sizes × %d ε)", len(rows), len(grid.Sizes)*len(grid.Epsilons), len(grid.Sizes), len(grid.Epsilons))
	}
	atoi := func(s string) int {
		n := 0
		for _, c := range s {
			n = 10*n + int(c-'0')
		}
		return n
	}
	gd := map[string][]int{}
	gdTot, sodTot, rounds, lowered := 0, 0, 0, 0
	for _, r := range rows {
		if atoi(r[4]) != grid.Trials || atoi(r[6]) != grid.Trials {
			t.Errorf("n=%s ε=%s: %s and %s trials, the paper runs %d", r[1], r[2], r[4], r[6], grid.Trials)
		}
		gd[r[2]] = append(gd[r[2]], atoi(r[3]))
		gdTot += atoi(r[3])
		sodTot += atoi(r[5])
		rounds += atoi(r[7])
		lowered += atoi(r[8])
		if atoi(r[8]) > atoi(r[7]) {
			t.Errorf("n=%s ε=%s: %s of %s rounds lowered h", r[1], r[2], r[8], r[7])
		}
	}
	wantStatus := func(what string, holds bool) {
		t.Helper()
		r := findRow(t, md, "study", what)
		want := "**fails**"
		if holds {
			want = "**reproduces**"
		}
		if !strings.HasPrefix(r.status, want) {
			t.Errorf("%q: status %v, the counts say %v", what, r.status, want)
		}
	}
	wantStatus("SOD raises", sodTot > gdTot)
	rising := false
	for _, c := range gd {
		for i := 1; i < len(c); i++ {
			rising = rising || c[i] > c[i-1]
		}
	}
	wantStatus("rates fall as n grows", !rising)
	wantStatus("every escape lowers h", lowered == rounds)
}

// TestPrintedPrecision checks how the report writes a computed value beside
// a printed one, on hand-made cases.
func TestPrintedPrecision(t *testing.T) {
	for _, tc := range []struct {
		x       float64
		printed paper.Printed
		pretty  string
		typeset string
	}{
		{1.0767, "1.08", "1.0767", "1.08"},
		{114.198, "114.22", "114.1980", "114.22"},
		{4.0815e6, "4.08e6", "4.08150·10⁶", "4.08·10⁶"},
		{9.94136e33, "9.94e33", "9.94136·10³³", "9.94·10³³"},
		{0.20813, "0.208", "0.20813", "0.208"},
		{0.60076, "0.600", "0.60076", "0.600"},
		{0.0435, "0.043", "0.04350", "0.043"},
		{0.9137, "1", "0.91", "1"},
		{-1, "-1", "-1.00", "−1"},
		{math.NaN(), paper.Unstable, "NaN", "✗²"},
	} {
		if got := likePrinted(tc.x, tc.printed); got != tc.pretty {
			t.Errorf("likePrinted(%v, %q) = %q, want %q", tc.x, tc.printed, got, tc.pretty)
		}
		if got := paperText(tc.printed); got != tc.typeset {
			t.Errorf("paperText(%q) = %q, want %q", tc.printed, got, tc.typeset)
		}
	}
	for _, tc := range []struct {
		x    float64
		dec  int
		want string
	}{{-0.00001, 4, "0.0000"}, {-1.5, 1, "−1.5"}, {2, 2, "2.00"}} {
		if got := fixed(tc.x, tc.dec); got != tc.want {
			t.Errorf("fixed(%v, %d) = %q, want %q", tc.x, tc.dec, got, tc.want)
		}
	}
}

// TestReportAblationCells checks the ablation section against the printed
// table independently of the template: a cell of the report differs exactly
// when a number does not round to the printed digits, the paper prints ✗²
// where a point is defined, or GD ends elsewhere — the cells REPRODUCTION.md
// F11 documents (l = 3: t = 33500 and 2·10⁶) and l = 7, t = 33500.
func TestReportAblationCells(t *testing.T) {
	v, _, md := generatedReport(t)
	var differ []string
	for _, o := range v.Ablation.Orders {
		for _, c := range o.Cells {
			if len(c.Diffs) > 0 {
				differ = append(differ, strconv.Itoa(c.Paper.L)+"/"+strconv.FormatInt(c.Paper.T, 10))
			}
		}
	}
	if got := strings.Join(differ, " "); got != "3/33500 3/2000000 7/33500" {
		t.Errorf("cells that differ: %s", got)
	}
	n := 0
	for _, r := range reportRows(md) {
		if r.section == "ablation" && strings.HasPrefix(r.what, "cell ") {
			n++
			if strings.HasPrefix(r.status, "**differs**") != slices.Contains(differ, strings.NewReplacer("cell l = ", "", ", t = ", "/").Replace(r.what)) {
				t.Errorf("%s: status %q", r.what, r.status)
			}
		}
	}
	if want := len(paper.AblationOrders()) * len(paper.AblationSteps()); n != want {
		t.Errorf("%d cell rows, the paper's table has %d", n, want)
	}
}

// TestReportCounts checks that the summary line states the counts of the
// rows below it.
func TestReportCounts(t *testing.T) {
	_, counts, md := generatedReport(t)
	want := map[string]*SectionCount{}
	for _, r := range reportRows(md) {
		c := want[r.section]
		if c == nil {
			c = &SectionCount{}
			want[r.section] = c
		}
		switch {
		case strings.HasPrefix(r.status, "**reproduces**"):
			c.Reproduces++
		case strings.HasPrefix(r.status, "**differs**"):
			c.Differs++
		case strings.HasPrefix(r.status, "**fails**"):
			c.Fails++
		case strings.HasPrefix(r.status, "not printed"):
			c.NotPrinted++
		default:
			t.Errorf("%s: row %q has status %q", r.section, r.what, r.status)
		}
	}
	var total SectionCount
	for _, c := range counts {
		w := want[c.ID()]
		if w == nil || c.Reproduces != w.Reproduces || c.Differs != w.Differs || c.Fails != w.Fails || c.NotPrinted != w.NotPrinted {
			t.Errorf("section %s: counted %+v, the table has %+v", c.ID(), c, w)
		}
		total.Reproduces += c.Reproduces
		total.Fails += c.Fails
	}
	if len(counts) != len(want) || total.Reproduces == 0 || total.Fails == 0 {
		t.Errorf("%d sections counted, %d in the report; totals %+v", len(counts), len(want), total)
	}
	for _, c := range counts {
		if !strings.Contains(md, fmt.Sprintf("| [%s](#%s) | %d | %d | %d | %d |", c.Title, c.ID(), c.Reproduces, c.Differs, c.Fails, c.NotPrinted)) {
			t.Errorf("the summary has no row for section %s with its counts", c.ID())
		}
	}
}

// TestReportLinked checks that readers find the report: the README links it
// on its first screen (first 25 lines) and notebook 00 links it.
func TestReportLinked(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 26)
	if len(lines) > 25 {
		lines = lines[:25]
	}
	if !strings.Contains(strings.Join(lines, "\n"), "("+File+")") {
		t.Errorf("README.md does not link %s in its first 25 lines", File)
	}
	nb, err := os.ReadFile(filepath.Join(repoRoot, "notebooks", "00-welcome.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\]\(REPRODUCTION\.md(#[a-z0-9-]+)?\)`).Match(nb) {
		t.Errorf("notebooks/00-welcome.ipynb has no Markdown link to REPRODUCTION.md")
	}
}
