package widgets

import (
	"fmt"
	"strings"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// Cell is one cell of a Table. Paper, if not empty, is the value printed in
// the paper for the same cell: it is shown under Text, and the cell is
// highlighted when Mismatch is set.
type Cell struct {
	Text     string
	Paper    string
	Mismatch bool
}

// Table is an HTML table for notebooks, such as the paper's ablation table.
type Table struct {
	Caption string
	Header  []string
	Rows    [][]Cell
	Notes   []string // footnotes under the table
}

// HTML returns the table as a self-contained HTML fragment (inline styles,
// no script). All text is HTML-escaped.
func (t Table) HTML() (string, error) {
	if len(t.Header) == 0 {
		return "", fmt.Errorf("widgets: Table %q: no header", t.Caption)
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Header) {
			return "", fmt.Errorf("widgets: Table %q: row %d has %d cells, header has %d", t.Caption, i, len(r), len(t.Header))
		}
	}
	var b strings.Builder
	b.WriteString(`<table class="sodw-table" style="border-collapse:collapse;font-size:13px;margin:6px 0;">`)
	if t.Caption != "" {
		fmt.Fprintf(&b, `<caption style="caption-side:top;font-weight:bold;padding:4px;text-align:left;">%s</caption>`, escapeHTML(t.Caption))
	}
	b.WriteString("<thead><tr>")
	for _, h := range t.Header {
		fmt.Fprintf(&b, `<th style="border-bottom:2px solid #444;padding:4px 10px;text-align:center;">%s</th>`, escapeHTML(h))
	}
	b.WriteString("</tr></thead><tbody>")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for _, c := range r {
			style := "border-bottom:1px solid #ddd;padding:4px 10px;text-align:right;font-variant-numeric:tabular-nums;"
			title := ""
			if c.Mismatch {
				style += "background:#fff3bf;"
				title = ` title="differs from the paper's printed value"`
			}
			fmt.Fprintf(&b, `<td style="%s"%s>%s`, style, title, escapeHTML(c.Text))
			if c.Paper != "" {
				fmt.Fprintf(&b, `<br><span style="color:#868e96;font-size:11px;">paper: %s</span>`, escapeHTML(c.Paper))
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	for _, n := range t.Notes {
		fmt.Fprintf(&b, `<div style="font-size:11px;color:#495057;">%s</div>`, escapeHTML(n))
	}
	return b.String(), nil
}

// DisplayTable shows the table in the current GoNB cell and waits with
// gonbui.Sync, and returns any error: the form for programs (a notebook
// uses Show; the kinds of output and their entry points are listed in the
// package doc). Outside a notebook it builds
// the HTML, reporting any error, and shows nothing.
func DisplayTable(t Table) error {
	h, err := t.HTML()
	if err != nil {
		return err
	}
	if frontend.IsNotebook() {
		frontend.DisplayHTML(h)
		frontend.Sync()
	}
	return nil
}
