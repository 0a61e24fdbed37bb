package reproduction

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/template"

	"sodworkbench.org/workbench/sod/quote"
)

// Computation and prose live apart: the section files (realworld.go, …)
// compute every value and every verdict into a Report, format.go writes
// numbers, and the templates report.md.tmpl (the value tables) and
// report_text.md (the conventions and findings) write the sentences and
// tables around them. Rewording the report means editing those two
// templates.

//go:embed report.md.tmpl report_text.md
var reportTemplates embed.FS

// File is where the report is committed, relative to the repository root.
const File = "notebooks/REPRODUCTION.md"

// RegenerateCommand is the command, run from the repository root, that
// rewrites File; the report names it in its header.
const RegenerateCommand = "go run ./sod/cmd/reproduce report > " + File

// A Status is the verdict of one row of a value table.
type Status int

// The statuses, as the report defines them.
const (
	Reproduces Status = iota + 1 // the value rounds to the paper's printed digits, or the paper's claim holds on its instance
	Differs                      // a printed value the workbench gets otherwise
	Fails                        // a claim of the paper that does not hold on its own instance
	NotPrinted                   // a quantity the paper's claims rest on without printing it
)

var statusWords = []string{Reproduces: "reproduces", Differs: "differs", Fails: "fails", NotPrinted: "not printed"}

// String returns the status as the report writes it ("reproduces", …).
func (s Status) String() string {
	if s < Reproduces || int(s) >= len(statusWords) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusWords[s]
}

// SectionCount counts the rows of one value table by status.
type SectionCount struct {
	Section                                Section
	Title                                  string // the table's heading
	Reproduces, Differs, Fails, NotPrinted int
}

// Rows is the number of rows counted.
func (c SectionCount) Rows() int { return c.Reproduces + c.Differs + c.Fails + c.NotPrinted }

// Count returns the number of rows with status s (0 for an unknown s).
func (c SectionCount) Count(s Status) int {
	switch s {
	case Reproduces:
		return c.Reproduces
	case Differs:
		return c.Differs
	case Fails:
		return c.Fails
	case NotPrinted:
		return c.NotPrinted
	}
	return 0
}

// ID is the section's anchor in the report.
func (c SectionCount) ID() string { return c.Section.String() }

// tally collects the sections and verdicts the template writes, in order.
type tally struct{ sections []*SectionCount }

// section starts a value table: its anchor and heading.
func (t *tally) section(id, title string) (string, error) {
	s := Section(0)
	for _, x := range AllSections() {
		if x.String() == id {
			s = x
		}
	}
	if s == 0 {
		return "", fmt.Errorf("unknown section %q", id)
	}
	t.sections = append(t.sections, &SectionCount{Section: s, Title: title})
	return `<a id="` + id + `"></a>` + "\n### " + title, nil
}

// status counts a verdict in the current section and writes it.
func (t *tally) status(word string) (string, error) {
	if len(t.sections) == 0 {
		return "", fmt.Errorf("status %q outside a section", word)
	}
	c := t.sections[len(t.sections)-1]
	switch word {
	case Reproduces.String():
		c.Reproduces++
	case Differs.String():
		c.Differs++
	case Fails.String():
		c.Fails++
	case NotPrinted.String():
		c.NotPrinted++
		return word, nil
	default:
		return "", fmt.Errorf("unknown status %q", word)
	}
	return "**" + word + "**", nil
}

// total sums the counts of all sections.
func (t *tally) total() SectionCount {
	var s SectionCount
	for _, c := range t.sections {
		s.Reproduces += c.Reproduces
		s.Differs += c.Differs
		s.Fails += c.Fails
		s.NotPrinted += c.NotPrinted
	}
	return s
}

// notebooks are the notebooks cited as evidence, by number.
var notebooks = map[string]string{
	"01": "01-matrix-sensing-and-rip.ipynb",
	"02": "02-single-step-sod.ipynb",
	"03": "03-paley-zygmund.ipynb",
	"04": "04-tensor-lifting-and-tpgd.ipynb",
	"05": "05-case-basic-example.ipynb",
	"06": "06-case-pmc.ipynb",
	"07": "07-case-real-world-and-ablation.ipynb",
	"08": "08-success-rates.ipynb",
	"09": "09-quadratic-network.ipynb",
}

// nbLink is a link to a notebook section, "[07 · The ablation table](07-….ipynb)".
func nbLink(num, section string) (string, error) {
	file, ok := notebooks[num]
	if !ok {
		return "", fmt.Errorf("no notebook %q", num)
	}
	return "[" + num + " · " + section + "](" + file + ")", nil
}

// parseReport parses the report's templates with the functions they use;
// t receives the sections and verdicts as they are written.
func parseReport(t *tally) (*template.Template, error) {
	funcs := template.FuncMap{
		"section": t.section, "status": t.status, "nb": nbLink,
		"f3": f3, "f4": f4, "f6": f6, "fixed": fixed, "g3": g3, "g4": g4, "sci": sci,
		"g":    func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) },
		"vec":  func(x []float64, dec int) string { return vec(x, func(v float64) string { return fixed(v, dec) }) },
		"ints": ints, "gs": gs, "set": func(list string) string { return "{" + strings.Trim(list, "()") + "}" },
		"printed": paperText, "like": likePrinted, "diff": diffText, "interval": intervalText,
		"mark": endMark, "final": finalText, "md": md,
	}
	return template.New("report").Funcs(funcs).ParseFS(reportTemplates, "report.md.tmpl", "report_text.md")
}

// WriteMarkdown writes the reproduction report of r (Markdown, as
// committed in File): a summary of the statuses, the value tables, then
// the conventions and findings. r must hold every section (Compute with
// the zero Options).
func (r *Report) WriteMarkdown(w io.Writer) error {
	_, err := r.render(w)
	return err
}

// Summary returns the counts of the value tables' rows by status, section
// by section, as the summary at the top of the report states them.
func (r *Report) Summary() ([]SectionCount, error) { return r.render(io.Discard) }

// render writes the report of r to w and returns the counts of its value
// tables.
func (r *Report) render(w io.Writer) ([]SectionCount, error) {
	if r == nil {
		return nil, errors.New("reproduction: nil *Report (use Compute)")
	}
	if w == nil {
		return nil, errors.New("reproduction: nil writer")
	}
	if m := r.missing(); len(m) > 0 {
		return nil, fmt.Errorf("reproduction: the report lacks the sections %v; compute them all (Options.Sections nil)", m)
	}
	var t tally
	tmpl, err := parseReport(&t)
	if err != nil {
		return nil, err
	}
	var values strings.Builder
	if err := tmpl.ExecuteTemplate(&values, "values", r); err != nil {
		return nil, err
	}
	doc := struct {
		Regenerate string
		Total      SectionCount
		Sections   []*SectionCount
		Values     string // the value tables
		V          *Report
	}{RegenerateCommand, t.total(), t.sections, values.String(), r}
	if err := tmpl.ExecuteTemplate(w, "report", doc); err != nil {
		return nil, err
	}
	counts := make([]SectionCount, len(t.sections))
	for i, c := range t.sections {
		counts[i] = *c
	}
	return counts, nil
}

// md writes v (its fmt.Sprint text) for inline Markdown, such as a table
// cell, escaped by quote.Markdown.
func md(v any) string { return quote.Markdown(fmt.Sprint(v)) }
