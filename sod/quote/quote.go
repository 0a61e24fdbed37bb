// Package quote holds the workbench's one escaping function per output
// format for text that comes from callers (family, method and instance
// names, titles, labels, exercise messages): Markdown for inline Markdown
// such as a table cell, HTMLText for HTML element content and quoted attribute
// values, CSV for a text field of a CSV file, and Line for text that must
// stay on its line (the "# key: value" comments before a CSV header). Every writer of the
// workbench that puts caller text into one of these formats calls the
// function of that format (sod/escapebench's CSV, Markdown and summary
// page writers, sod/reproduction's report, sod/figures' benchmark report,
// the widgets), and a test fills every text field of every writer's input
// by reflection and checks the output's structure.
//
// JavaScript inside a <script> element has its own escapers in widgets
// (jsString, scriptJSON), the only writer of that context.
package quote

import (
	"html"
	"strings"
	"unicode"
)

// Markdown escapes s for inline Markdown (CommonMark and GitHub tables),
// such as a table cell: the characters that would start a construct
// (emphasis, code, a link, HTML, an entity, strikethrough, math in
// Jupyter) or end the cell are backslash-escaped, and every line break
// (LF, CR, U+2028, U+2029) becomes a space, so that the text stays one
// cell of one row. An underscore between two letters or digits stays as
// it is (CommonMark never reads it as emphasis: "λ_n").
func Markdown(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch r {
		case '\n', '\r', '\u2028', '\u2029':
			b.WriteByte(' ')
			continue
		case '_':
			if i > 0 && i+1 < len(rs) && isAlnum(rs[i-1]) && isAlnum(rs[i+1]) {
				break
			}
			b.WriteByte('\\')
		case '\\', '`', '*', '[', ']', '<', '&', '|', '~', '$':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Line makes s one line of a line-oriented text, such as a "# key: value"
// comment line before a CSV header: every line break (LF, CR — which
// spreadsheets and many CSV readers take as the end of a record —, VT,
// FF, NEL, U+2028, U+2029) and every other control character becomes a
// space, so that s can neither end its line nor start another.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// HTMLText escapes s for HTML element content or a quoted attribute value
// (&, <, >, " and ').
func HTMLText(s string) string { return html.EscapeString(s) }

// CSV makes s safe as a text field of a CSV file opened in a spreadsheet:
// a field starting with '=', '+', '-', '@', a tab or a carriage return is
// read as a formula there, so it gets a leading apostrophe (the OWASP
// advice); the quoting of commas, quotes and line breaks is encoding/csv's
// job, which every CSV writer of the workbench uses. Numbers are written
// by their writers, not passed through CSV.
func CSV(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
