package reproduction

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestOptionsValidate: a section out of range or listed twice is refused
// before any work, with the value and the accepted range.
func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		sections []Section
		want     string // "" for valid
	}{
		{nil, ""},
		{[]Section{}, ""},
		{AllSections(), ""},
		{[]Section{SectionQNN, SectionBasic}, ""},
		{[]Section{0}, "section 0 (Section(0)) out of range: want one of 1 (real-world), 2 (ablation)"},
		{[]Section{SectionQNN + 1}, "section 9 (Section(9)) out of range"},
		{[]Section{-1}, "section -1 (Section(-1)) out of range"},
		{[]Section{SectionPMC, SectionBasic, SectionPMC}, "section pmc listed twice"},
	} {
		err := Options{Sections: tc.sections}.Validate()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Validate(%v) = %v, want %q", tc.sections, err, tc.want)
		}
		if tc.want == "" {
			continue
		}
		// Compute refuses the same options before any work, even on a
		// context that is already done.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Compute(ctx, Options{Sections: tc.sections}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compute(%v) = %v, want %q", tc.sections, err, tc.want)
		}
	}
	//lint:ignore SA1012 a nil context is the bad input under test
	if _, err := Compute(nil, Options{}); err == nil || !strings.Contains(err.Error(), "nil context") { //nolint:staticcheck
		t.Errorf("Compute(nil) = %v, want a nil-context error", err)
	}
}

// TestSectionStrings: every section's String is the anchor of its table in
// the report, in order.
func TestSectionStrings(t *testing.T) {
	_, counts, _ := generatedReport(t)
	all := AllSections()
	if len(counts) != len(all) {
		t.Fatalf("%d tables in the report, %d sections", len(counts), len(all))
	}
	for i, s := range all {
		if counts[i].Section != s || counts[i].ID() != s.String() {
			t.Errorf("table %d: section %v (%s), want %v", i, counts[i].Section, counts[i].ID(), s)
		}
	}
	total := 0
	for _, c := range counts {
		for _, s := range []Status{Reproduces, Differs, Fails, NotPrinted} {
			total += c.Count(s)
		}
		if c.Count(0) != 0 {
			t.Errorf("%s: Count(0) = %d", c.ID(), c.Count(0))
		}
	}
	if rows := len(reportRows(generatedMarkdown(t))); total != rows {
		t.Errorf("the counts sum to %d, the value tables have %d rows", total, rows)
	}
	for _, tc := range []struct {
		s    Status
		want string
	}{{Reproduces, "reproduces"}, {Differs, "differs"}, {Fails, "fails"}, {NotPrinted, "not printed"}, {0, "Status(0)"}, {99, "Status(99)"}} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("Status(%d).String() = %q, want %q", int(tc.s), got, tc.want)
		}
	}
}

func generatedMarkdown(t *testing.T) string {
	_, _, md := generatedReport(t)
	return md
}

// TestWriteMarkdownPartial: a report with sections missing, and a nil
// writer, are errors that name the problem, not a half-written report.
func TestWriteMarkdownPartial(t *testing.T) {
	r, err := Compute(context.Background(), Options{Sections: []Section{SectionSingleStep}})
	if err != nil {
		t.Fatal(err)
	}
	if r.SingleStep == nil || r.RealWorld != nil || r.Study != nil {
		t.Fatalf("computed %+v, want only the single-step section", r)
	}
	var b bytes.Buffer
	err = r.WriteMarkdown(&b)
	if err == nil || !strings.Contains(err.Error(), "lacks the sections [real-world ablation pmc basic paley-zygmund study qnn]") || b.Len() > 0 {
		t.Errorf("WriteMarkdown of a partial report: %v, %d bytes written", err, b.Len())
	}
	if _, err := r.Summary(); err == nil {
		t.Error("Summary of a partial report: no error")
	}
	full, _, _ := generatedReport(t)
	if err := full.WriteMarkdown(nil); err == nil || !strings.Contains(err.Error(), "nil writer") {
		t.Errorf("WriteMarkdown(nil) = %v", err)
	}
}

// TestMarkdownEscaping checks md on hand-made text, then that text reaching
// the report from the computed values goes through it: a condition name
// and a case's escape kind holding Markdown are written escaped.
func TestMarkdownEscaping(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"‖X̂X̂ᵀ−M*‖²", `‖X̂X̂ᵀ−M\*‖²`},
		{"U_β premise −λ_n > √(m(1+δ)/2) Ξ σ_r", "U_β premise −λ_n > √(m(1+δ)/2) Ξ σ_r"},
		{"_a_ b_", `\_a\_ b\_`},
		{"a|b", `a\|b`},
		{"two\nlines\r", "two lines "},
		{"<script>alert(1)</script>", `\<script>alert(1)\</script>`},
		{"[link](javascript:x) ![img](x)", `\[link\](javascript:x) !\[img\](x)`},
		{"`code` **bold** ~~s~~ $x$ &amp; \\", "\\`code\\` \\*\\*bold\\*\\* \\~\\~s\\~\\~ \\$x\\$ \\&amp; \\\\"},
		{"(2006.1736, +∞)", "(2006.1736, +∞)"},
	} {
		if got := md(tc.in); got != tc.want {
			t.Errorf("md(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	v, _, _ := generatedReport(t)
	r := *v
	rw := *r.RealWorld
	rw.Conditions = append(rw.Conditions[:0:0], rw.Conditions...)
	rw.Conditions[0].Name = "evil | <b>x</b> *y*"
	rw.Case.Kind = "[k](http://x)"
	r.RealWorld = &rw
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`| evil \| \<b>x\</b> \*y\* (δ₁, l = 5) |`, `\[k\](http://x)-type point`} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not contain %q", want)
		}
	}
	for _, bad := range []string{"<b>", "](http://x)", "*y*"} {
		if regexp.MustCompile(`(^|[^\\])` + regexp.QuoteMeta(bad)).MatchString(out) {
			t.Errorf("the report contains %q unescaped", bad)
		}
	}
}
