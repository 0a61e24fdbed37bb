package widgets

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
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
	raw     string   // prebuilt HTML (DisplayGalleryItem)
}

// HTML returns the table as a self-contained HTML fragment (inline styles,
// no script). All text is HTML-escaped.
func (t Table) HTML() (string, error) {
	if t.raw != "" {
		return t.raw, nil
	}
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
		fmt.Fprintf(&b, `<caption style="caption-side:top;font-weight:bold;padding:4px;text-align:left;">%s</caption>`, html.EscapeString(t.Caption))
	}
	b.WriteString("<thead><tr>")
	for _, h := range t.Header {
		fmt.Fprintf(&b, `<th style="border-bottom:2px solid #444;padding:4px 10px;text-align:center;">%s</th>`, html.EscapeString(h))
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
			fmt.Fprintf(&b, `<td style="%s"%s>%s`, style, title, html.EscapeString(c.Text))
			if c.Paper != "" {
				fmt.Fprintf(&b, `<br><span style="color:#868e96;font-size:11px;">paper: %s</span>`, html.EscapeString(c.Paper))
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	for _, n := range t.Notes {
		fmt.Fprintf(&b, `<div style="font-size:11px;color:#495057;">%s</div>`, html.EscapeString(n))
	}
	return b.String(), nil
}

// withHTML returns a table that displays as the given, already built HTML.
func (t Table) withHTML(h string) Table {
	t.raw = h
	return t
}

// DisplayTable shows the table in the current GoNB cell (nothing outside a
// notebook) and waits with gonbui.Sync.
func DisplayTable(t Table) error {
	h, err := t.HTML()
	if err != nil {
		return err
	}
	if gonbui.IsNotebook {
		gonbui.DisplayHTML(h)
		gonbui.Sync()
	}
	return nil
}

// AblationRow is one row of the paper's ablation table (Appendix,
// "Hyperparameter Analysis of l and t", real-world case, ρ = η = 0.1):
// which window t falls in, whether X̌ is defined, the distances
// ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F (DHat) and ‖X̌X̌ᵀ − ZZᵀ‖_F (DStar), their ratio and where
// GD from X̌ ends. Paper holds the values as printed in the paper, if
// known ("" otherwise).
type AblationRow struct {
	L        int
	T        float64
	Interval string // "U_β", "U_γ" or "✗"
	Defined  bool
	DHat     float64
	DStar    float64
	Ratio    float64
	Final    string // "+Z", "−Z", "other", "NaN"
	Paper    AblationPaper
}

// AblationPaper holds one row of the paper's ablation table as printed.
type AblationPaper struct {
	Interval, DHat, DStar, Ratio, Final string
}

// AblationTable builds the ablation table. A number is flagged as a
// mismatch when, rounded to the number of decimals the paper prints, it
// differs from the paper's value; the paper's value is shown under ours.
func AblationTable(caption string, rows []AblationRow) Table {
	t := Table{Caption: caption,
		Header: []string{"l", "t", "interval", "X̌ defined", "‖X̂X̂ᵀ − X̌X̌ᵀ‖_F", "‖X̌X̌ᵀ − ZZᵀ‖_F", "ratio", "GD from X̌ ends at"},
		Notes:  []string{"Highlighted cells differ from the paper's printed value (shown in grey) after rounding to the printed digits."}}
	for _, r := range rows {
		def := "✗"
		if r.Defined {
			def = "✓"
		}
		num := func(v float64, paper string) Cell {
			c := Cell{Paper: paper}
			d := decimals(paper)
			if d < 0 {
				d = 3
			}
			c.Text = formatNum(v, d)
			if paper != "" {
				c.Mismatch = c.Text != strings.TrimSpace(paper)
			}
			return c
		}
		str := func(v, paper string) Cell {
			return Cell{Text: v, Paper: paper, Mismatch: paper != "" && paper != v}
		}
		t.Rows = append(t.Rows, []Cell{
			{Text: strconv.Itoa(r.L)}, {Text: strconv.FormatFloat(r.T, 'g', -1, 64)},
			str(r.Interval, r.Paper.Interval), {Text: def},
			num(r.DHat, r.Paper.DHat), num(r.DStar, r.Paper.DStar), num(r.Ratio, r.Paper.Ratio),
			str(r.Final, r.Paper.Final),
		})
	}
	return t
}

// decimals returns the number of digits after the decimal point of a
// printed number, or -1 if s is not a plain decimal number.
func decimals(s string) int {
	s = strings.TrimSpace(s)
	if _, err := strconv.ParseFloat(s, 64); err != nil || strings.ContainsAny(s, "eE") {
		return -1
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func formatNum(v float64, d int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "−∞"
	case math.Abs(v) >= 1e7 || (v != 0 && math.Abs(v) < 1e-4):
		return strconv.FormatFloat(v, 'e', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}
