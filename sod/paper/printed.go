package paper

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Printed is a number exactly as the paper prints it, in Go's float syntax
// ("1.08", "0.600", "4.08e6" for the paper's 4.08 × 10⁶), or one of the
// paper's marks: Undefined, Unstable, Infinity. Keeping the digits keeps the
// precision: a computed value reproduces a printed one when it rounds to it
// (Rounds).
type Printed string

// The marks of the paper's Table "ablation" and its intervals.
const (
	// Undefined is the paper's ✗¹: no escape point (t lies in neither
	// U_β nor U_γ).
	Undefined Printed = "✗¹"
	// Unstable is the paper's ✗²: "numerically unstable" (NaN).
	Unstable Printed = "✗²"
	// Infinity is the open right end +∞ of an interval.
	Infinity Printed = "+∞"
)

// numberSyntax is the form of a printed number: decimal digits, an
// optional sign, fraction and exponent ("1.08", "-0.5", "4.08e6"). Go's
// other float spellings ("NaN", "Inf", "0x1p3", "1_000", ".5") are no
// printed numbers.
var numberSyntax = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// IsNumber reports whether p is a printed number (numberSyntax, finite in
// float64) rather than a mark or other text.
func (p Printed) IsNumber() bool {
	if !numberSyntax.MatchString(string(p)) {
		return false
	}
	v, err := strconv.ParseFloat(string(p), 64)
	return err == nil && !math.IsInf(v, 0)
}

// Value returns the printed number, NaN for a mark or any text that is
// no printed number (IsNumber false), +Inf for Infinity.
func (p Printed) Value() float64 {
	if p == Infinity {
		return math.Inf(1)
	}
	if !p.IsNumber() {
		return math.NaN()
	}
	v, _ := strconv.ParseFloat(string(p), 64)
	return v
}

// Unit returns the unit of the last printed digit: 0.01 for "1.08", 1e4 for
// "4.08e6", 1 for "0"; NaN for a mark.
func (p Printed) Unit() float64 {
	if !p.IsNumber() {
		return math.NaN()
	}
	mant, exp := string(p), 0
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(mant[i+1:])
		mant = mant[:i]
	}
	return math.Pow(10, float64(exp-decimals(mant)))
}

// Decimals returns the number of digits printed after the decimal point of
// the mantissa ("0.600" → 3, "4.08e6" → 2, "0" → 0); −1 for a mark.
func (p Printed) Decimals() int {
	if !p.IsNumber() {
		return -1
	}
	mant := string(p)
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		mant = mant[:i]
	}
	return decimals(mant)
}

// Scientific reports whether the paper prints p as m × 10ᵉ.
func (p Printed) Scientific() bool { return p.IsNumber() && strings.ContainsAny(string(p), "eE") }

// Rounds reports whether x rounds to the printed number: |x − p| is at
// most half a unit of the last printed digit (with a relative slack of
// 1e-12 for the decimal representation). It is false for a mark and for a
// NaN x.
func (p Printed) Rounds(x float64) bool {
	if !p.IsNumber() || math.IsNaN(x) {
		return false
	}
	v := p.Value()
	return math.Abs(x-v) <= p.Unit()/2+1e-12*math.Abs(v)
}

// Bounds returns the interval of the values that print as p, [p − unit/2,
// p + unit/2]; NaNs for a mark.
func (p Printed) Bounds() (lo, hi float64) {
	v, u := p.Value(), p.Unit()
	return v - u/2, v + u/2
}

func decimals(mant string) int {
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		return len(mant) - i - 1
	}
	return 0
}

// PrintedInterval is an open interval of TPGD steps t as the paper prints
// it, "(Lo, Hi)" with Hi possibly Infinity. The zero value is the empty
// interval ∅.
type PrintedInterval struct {
	Lo, Hi Printed
}

// Empty reports whether the paper prints ∅ (the zero value).
func (iv PrintedInterval) Empty() bool { return iv.Lo == "" && iv.Hi == "" }

// String writes the interval as printed: "∅", "(26948.72, 33974.73)",
// "(2006.17, +∞)".
func (iv PrintedInterval) String() string {
	if iv.Empty() {
		return "∅"
	}
	return fmt.Sprintf("(%s, %s)", iv.Lo, iv.Hi)
}

// Contains reports whether t lies in the open interval as printed.
func (iv PrintedInterval) Contains(t float64) bool {
	return !iv.Empty() && t > iv.Lo.Value() && t < iv.Hi.Value()
}
