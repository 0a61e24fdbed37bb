package main

import (
	"bufio"
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/template"
)

// The report subcommand: `reproduce report` computes every value the paper
// prints that the workbench reproduces or refutes and prints the reproduction
// report (Markdown) on standard output. The committed notebooks/REPRODUCTION.md
// is exactly its output (a test in this package keeps the two equal).
//
// Computation and prose live apart: report_values.go computes every value
// and every verdict into a reportValues (plain data; the paper's printed
// values come from package sod/paper), report_format.go writes numbers, and
// the templates report.md.tmpl (the value tables) and report_text.md (the
// conventions and findings) write the sentences and tables around them.
// Rewording the report means editing those two templates.

//go:embed report.md.tmpl report_text.md
var reportTemplates embed.FS

// reportFile is where the report is committed, relative to the repository root.
const reportFile = "notebooks/REPRODUCTION.md"

// regenerate is the command that rewrites the committed report.
const regenerate = "go run ./sod/cmd/reproduce report > " + reportFile

func init() {
	registerSubcommand(&subcommand{
		name:  "report",
		usage: "report",
		about: "print the reproduction report (Markdown, as committed in " + reportFile + ") on stdout",
		run:   runReport,
	})
}

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "usage: reproduce report")
		fmt.Fprintln(stdout, "\nPrints the reproduction report on standard output: every value the paper prints that the")
		fmt.Fprintln(stdout, "workbench reproduces or refutes, computed on this run, with its status and evidence, then the")
		fmt.Fprintln(stdout, "conventions and findings. The output is deterministic; the committed copy is "+reportFile+":")
		fmt.Fprintln(stdout, "  "+regenerate)
		return err
	}
	if err != nil {
		return &usageError{err: err, usage: "usage: reproduce report"}
	}
	if len(pos) > 0 {
		return &usageError{err: fmt.Errorf("report takes no arguments (got %q)", strings.Join(pos, " ")), usage: "usage: reproduce report"}
	}
	v, err := buildReport(ctx)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	w := bufio.NewWriter(stdout)
	if _, err := writeReport(w, v); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return w.Flush()
}

// statusCount counts the rows of one value table (a section) by verdict.
type statusCount struct {
	ID, Title                              string
	Reproduces, Differs, Fails, NotPrinted int
}

// Rows is the number of rows counted.
func (c statusCount) Rows() int { return c.Reproduces + c.Differs + c.Fails + c.NotPrinted }

// tally collects the sections and verdicts the template writes, in order.
type tally struct{ sections []*statusCount }

// section starts a value table: its anchor and heading.
func (t *tally) section(id, title string) string {
	t.sections = append(t.sections, &statusCount{ID: id, Title: title})
	return `<a id="` + id + `"></a>` + "\n### " + title
}

// status counts a verdict in the current section and writes it.
func (t *tally) status(s string) (string, error) {
	if len(t.sections) == 0 {
		return "", fmt.Errorf("status %q outside a section", s)
	}
	c := t.sections[len(t.sections)-1]
	switch s {
	case "reproduces":
		c.Reproduces++
	case "differs":
		c.Differs++
	case "fails":
		c.Fails++
	case "not printed":
		c.NotPrinted++
		return "not printed", nil
	default:
		return "", fmt.Errorf("unknown status %q", s)
	}
	return "**" + s + "**", nil
}

// total sums the counts of all sections.
func (t *tally) total() statusCount {
	var s statusCount
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
		"mark": endMark, "final": finalText, "cell": cell,
	}
	return template.New("report").Funcs(funcs).ParseFS(reportTemplates, "report.md.tmpl", "report_text.md")
}

// writeReport writes the report of v, and returns the counts of its
// value tables.
func writeReport(w io.Writer, v *reportValues) ([]*statusCount, error) {
	var t tally
	tmpl, err := parseReport(&t)
	if err != nil {
		return nil, err
	}
	var values strings.Builder
	if err := tmpl.ExecuteTemplate(&values, "values", v); err != nil {
		return nil, err
	}
	doc := struct {
		Regenerate string
		Total      statusCount
		Sections   []*statusCount
		Values     string // the value tables
		V          *reportValues
	}{regenerate, t.total(), t.sections, values.String(), v}
	return t.sections, tmpl.ExecuteTemplate(w, "report", doc)
}

// cell escapes the characters that would break a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
