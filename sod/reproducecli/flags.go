package reproducecli

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Flag values that check their range as they are parsed, so that a bad
// value is a usage error naming the value and the accepted range, reported
// before anything runs. The flag package adds `invalid value "v" for flag
// -name:` in front of the messages below.

// maxListLen bounds every list flag.
const maxListLen = 64

// intFlag is an int flag whose value must lie in [min, max].
type intFlag struct {
	p        *int
	min, max int
}

func (f intFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.Itoa(*f.p)
}

func (f intFlag) Set(s string) error {
	v, err := parseIntIn(s, int64(f.min), int64(f.max), "an integer")
	if err != nil {
		return err
	}
	*f.p = int(v)
	return nil
}

// parseIntIn parses an integer in [min, max]; it accepts a float spelling
// of an integer (2e6) and names the range in every error.
func parseIntIn(s string, min, max int64, what string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if ferr != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("want %s in [%d, %d]", what, min, max)
		}
		// float64(max) may round up to 2⁶³, which int64 cannot hold.
		if f < float64(min) || f > float64(max) || f >= 0x1p63 || f < -0x1p63 {
			return 0, fmt.Errorf("%v is out of range: want %s in [%d, %d]", s, what, min, max)
		}
		v = int64(f)
	}
	if v < min || v > max {
		return 0, fmt.Errorf("%d is out of range: want %s in [%d, %d]", v, what, min, max)
	}
	return v, nil
}

// uint64Flag is a uint64 flag (a seed): any value in [0, 2⁶⁴−1].
type uint64Flag struct{ p *uint64 }

func (f uint64Flag) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.FormatUint(*f.p, 10)
}

func (f uint64Flag) Set(s string) error {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return errors.New("want an integer in [0, 18446744073709551615]")
	}
	*f.p = v
	return nil
}

// floatFlag is a float64 flag whose value must be finite and lie in
// [min, max] (or (min, max] when openMin).
type floatFlag struct {
	p        *float64
	min, max float64
	openMin  bool
}

func (f floatFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

func (f floatFlag) Set(s string) error {
	v, err := parseFloatIn(s, f.min, f.max, f.openMin)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}

func floatRange(min, max float64, openMin bool) string {
	if openMin {
		return fmt.Sprintf("(%g, %g]", min, max)
	}
	return fmt.Sprintf("[%g, %g]", min, max)
}

func parseFloatIn(s string, min, max float64, openMin bool) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("want a number in %s", floatRange(min, max, openMin))
	}
	if math.IsNaN(v) || v < min || v > max || (openMin && v == min) {
		return 0, fmt.Errorf("%v is out of range: want a number in %s", v, floatRange(min, max, openMin))
	}
	return v, nil
}

// listFlag is a comma-separated list flag of at most maxListLen values,
// each parsed and checked by parse; an empty list and a value listed twice
// (a size, ε, l or t run twice) are refused.
type listFlag[T comparable] struct {
	p     *[]T
	parse func(string) (T, error)
}

func (f listFlag[T]) String() string {
	if f.p == nil {
		return ""
	}
	s := make([]string, len(*f.p))
	for i, v := range *f.p {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ",")
}

func (f listFlag[T]) Set(s string) error {
	var out []T
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if len(out) == maxListLen {
			return fmt.Errorf("more than %d values", maxListLen)
		}
		v, err := f.parse(e)
		if err != nil {
			return fmt.Errorf("%q: %w", e, err)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return errors.New("empty list; want one or more comma-separated values")
	}
	for i, v := range out {
		if slices.Contains(out[:i], v) {
			return fmt.Errorf("%v listed twice; want distinct values", v)
		}
	}
	*f.p = out
	return nil
}

func intList(p *[]int, min, max int) listFlag[int] {
	return listFlag[int]{p: p, parse: func(s string) (int, error) {
		v, err := parseIntIn(s, int64(min), int64(max), "an integer")
		return int(v), err
	}}
}

func int64List(p *[]int64, min, max int64) listFlag[int64] {
	return listFlag[int64]{p: p, parse: func(s string) (int64, error) {
		return parseIntIn(s, min, max, "an integer")
	}}
}

func floatList(p *[]float64, min, max float64, openMin bool) listFlag[float64] {
	return listFlag[float64]{p: p, parse: func(s string) (float64, error) {
		return parseFloatIn(s, min, max, openMin)
	}}
}

// enumFlag is a string flag with a fixed set of values.
type enumFlag struct {
	p       *string
	allowed []string
}

func (f enumFlag) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

func (f enumFlag) Set(s string) error {
	if !slices.Contains(f.allowed, s) {
		return fmt.Errorf("want one of %s", strings.Join(f.allowed, ", "))
	}
	*f.p = s
	return nil
}
