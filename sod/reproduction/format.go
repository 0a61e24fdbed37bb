package reproduction

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
)

// How the report writes numbers (the template's functions; see report.go).

// likePrinted formats x with two more digits than the printed p.
func likePrinted(x float64, p paper.Printed) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	if p.Scientific() {
		sig := int(math.Round(math.Log10(math.Abs(p.Value())/p.Unit()))) + 1
		return sci(x, sig+2)
	}
	return strconv.FormatFloat(x, 'f', p.Decimals()+2, 64)
}

// sci formats x with sig significant digits as "m·10^e".
func sci(x float64, sig int) string {
	s := strconv.FormatFloat(x, 'e', sig-1, 64)
	i := strings.IndexByte(s, 'e')
	e, _ := strconv.Atoi(s[i+1:])
	return s[:i] + "·10" + sup(e)
}

// sup writes an integer with superscript digits: −5 → "⁻⁵".
func sup(e int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	d := []rune(digits)
	var b strings.Builder
	if e < 0 {
		b.WriteRune('⁻')
		e = -e
	}
	for _, c := range strconv.Itoa(e) {
		b.WriteRune(d[c-'0'])
	}
	return b.String()
}

// paperText renders a printed number as the paper typesets it: "4.08e6" →
// "4.08·10⁶", "-1" → "−1"; a mark as it is.
func paperText(p paper.Printed) string {
	text := string(p)
	if !p.IsNumber() {
		return text
	}
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		e, _ := strconv.Atoi(text[i+1:])
		text = text[:i] + "·10" + sup(e)
	}
	return strings.Replace(text, "-", "−", 1)
}

func f6(x float64) string { return fixed(x, 6) }
func f4(x float64) string { return fixed(x, 4) }
func f3(x float64) string { return fixed(x, 3) }

// fixed formats x with dec decimals, with the minus sign − and without a
// sign on a value that rounds to zero.
func fixed(x float64, dec int) string {
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return strings.Replace(s, "-", "−", 1)
}
func g3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
func g4(x float64) string { return strings.Replace(strconv.FormatFloat(x, 'g', 4, 64), "-", "−", 1) }

func vec(x []float64, f func(float64) string) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = f(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func ints(x []int) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = strconv.Itoa(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func gs(x []float64) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// infty writes an interval of sod.StepInterval.String with +∞ for +Inf.
func infty(s string) string { return strings.ReplaceAll(s, "+Inf", "+∞") }

// diffText is "x − v (relative %)".
func diffText(x, v float64) string {
	d := x - v
	s := strconv.FormatFloat(d, 'g', 2, 64)
	if v != 0 {
		s += fmt.Sprintf(" (%.2g %%)", 100*d/v)
	}
	return strings.ReplaceAll(s, "-", "−")
}

// intervalText writes a computed interval with 4 decimals: "∅",
// "(2006.1736, +∞)".
func intervalText(u sod.StepInterval) string {
	if u.Empty() {
		return "∅"
	}
	hi := "+∞"
	if !math.IsInf(u.Hi, 1) {
		hi = strconv.FormatFloat(u.Hi, 'f', 4, 64)
	}
	return "(" + strconv.FormatFloat(u.Lo, 'f', 4, 64) + ", " + hi + ")"
}

// endMark writes the paper's X_final entry as the report's tables do: "+",
// "−", "✗¹" or "✗²".
func endMark(e paper.Endpoint) string {
	switch e {
	case paper.EndPlusZ:
		return "+"
	case paper.EndMinusZ:
		return "−"
	}
	return e.String()
}

// finalText writes where GD from an escape point ended
// (experiments.AblationCell.Final): "+", "−", "nan", "other", or "✗¹" when
// there was no point.
func finalText(final experiments.GDEnd) string {
	switch final {
	case experiments.GDEndMinusZ:
		return "−"
	case experiments.GDEndNone:
		return string(paper.Undefined)
	}
	return final.String()
}
