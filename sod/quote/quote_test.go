package quote_test

import (
	"testing"

	"sodworkbench.org/workbench/sod/quote"
)

func TestMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"λ_n and x_1", "λ_n and x_1"},
		{"_x_", `\_x\_`},
		{"a|b\r| c", `a\|b \| c`},
		{"line\nbreak\u2028here", "line break here"},
		{"<script>", `\<script>`},
		{"*bold* `code` [l](u) ~s~ $m$ &amp;", `\*bold\* \` + "`" + `code\` + "`" + ` \[l\](u) \~s\~ \$m\$ \&amp;`},
		{`back\slash`, `back\\slash`},
	} {
		if got := quote.Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHTML(t *testing.T) {
	if got, want := quote.HTMLText(`<a href="x">'&'</a>`), "&lt;a href=&#34;x&#34;&gt;&#39;&amp;&#39;&lt;/a&gt;"; got != want {
		t.Errorf("HTML = %q, want %q", got, want)
	}
}

func TestCSV(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"pmc", "pmc"}, {"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"}, {"+1", "'+1"}, {"-x", "'-x"},
		{"@SUM(A1)", "'@SUM(A1)"}, {"\tx", "'\tx"}, {"\rx", "'\rx"}, {"", ""}, {"a=b", "a=b"},
	} {
		if got := quote.CSV(c.in); got != c.want {
			t.Errorf("CSV(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestLine: no line break or control character survives; other text is
// kept.
func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"Intel(R) Xeon\r=cmd|calc":                          "Intel(R) Xeon =cmd|calc",
		"a\nb\r\nc\u2028d\u2029e\u0085f\vg\fh\x00i\x1b[31m": "a b  c d e f g h i [31m",
		"λ_n ≤ 0.58, plain":                                 "λ_n ≤ 0.58, plain",
	} {
		if got := quote.Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}
