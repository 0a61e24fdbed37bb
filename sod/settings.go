package sod

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The settings of an escaper, in one table. Every built-in escaper lists
// its settings in a Params method, beside its type: one Param per
// knob, with its canonical key, the other spellings accepted for it, what
// it does (range, and what zero means) and the two conversions between
// the field and text. That table is the single source for
//
//   - listing the settings (EscaperParams: a results table, a file);
//   - parsing them from text (Configure: "l=3", the benchmark's
//     "sod-line-search+l-3" and "sod-line-search:l=3,5,7");
//   - naming a configuration (the canonical key and value text);
//   - recording what ran (the values are read back from the escaper).
//
// The zero value of every built-in escaper is its documented default, so
// a setting left at zero lists its default value, and text that sets a
// value equal to the default names the same configuration.

// Param is one entry of an escaper's table of settings, bound to one
// escaper value: Value reads the field, Set writes it.
type Param struct {
	// Key is the canonical key: snake case, ASCII ("l", "rho", "t_thres").
	Key string
	// Aliases are other spellings Configure accepts for Key. Keys are
	// compared case-insensitively and without '_' as well, so "TThres",
	// "tthres" and "t_thres" are one key.
	Aliases []string
	// Doc says what the setting does, its range and what zero means.
	Doc string

	get func() string
	set func(string) error
}

// Value returns the setting's value as text in the form Set parses (the
// default when the field is zero); "" means unset with no value to list
// (a nil list whose default is described in Doc).
func (s Param) Value() string {
	if s.get == nil {
		return ""
	}
	return s.get()
}

// Set parses text into the setting's field. It checks only the form of
// the text (a number, a list, a name); the range is the escaper's
// Validate's, which Configure calls after setting every key.
func (s Param) Set(text string) error {
	if s.set == nil {
		return fmt.Errorf("%w: setting %q cannot be set", ErrBadParameter, s.Key)
	}
	if err := s.set(strings.TrimSpace(text)); err != nil {
		return fmt.Errorf("%w: setting %s = %q: %v", ErrBadParameter, s.Key, text, err)
	}
	return nil
}

// Configurable is an Escaper with a table of settings. Every built-in
// escaper implements it; an Escaper written in a notebook need not (it is
// then listed with no settings and cannot be configured from text).
type Configurable interface {
	Escaper
	// Params returns the escaper's table, bound to the receiver, in a
	// fixed order (the order of names and listings).
	Params() []Param
}

// KeyValue is one setting given as text, "key=value" or the benchmark's
// "+key-value".
type KeyValue struct{ Key, Value string }

// foldKey is the one rule by which keys are compared: case and '_' do
// not count ("TThres", "tthres", "t_thres" are one key).
func foldKey(k string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(k), "_", ""))
}

// FindParam returns the setting of esc that key names: its canonical
// Key or one of its Aliases, compared case-insensitively and without
// '_'. An escaper without a table, or a key it does not have, is an error
// wrapping ErrBadParameter that names the key and the keys accepted.
func FindParam(esc Escaper, key string) (Param, error) {
	c, ok := esc.(Configurable)
	if !ok || esc == nil {
		return Param{}, fmt.Errorf("%w: escaper %T has no settings table (it does not implement Configurable); setting %q", ErrBadParameter, esc, key)
	}
	ss := c.Params()
	f := foldKey(key)
	for _, s := range ss {
		if foldKey(s.Key) == f {
			return s, nil
		}
		for _, a := range s.Aliases {
			if foldKey(a) == f {
				return s, nil
			}
		}
	}
	keys := make([]string, len(ss))
	for i, s := range ss {
		keys[i] = s.Key
	}
	return Param{}, fmt.Errorf("%w: %s has no setting %q (its keys: %s)", ErrBadParameter, esc.Name(), key, strings.Join(keys, ", "))
}

// Configure sets esc's settings from text, then checks them all with
// esc's Validate: each key is resolved once (FindParam), a setting
// given twice under any spellings is refused naming both ("l" and "L"),
// and a value that does not parse or is out of range is refused naming
// the key, the value and what is accepted. On error esc may be partly
// set: configure a fresh value.
func Configure(esc Escaper, kvs ...KeyValue) error {
	given := map[string]string{}
	for _, kv := range kvs {
		s, err := FindParam(esc, kv.Key)
		if err != nil {
			return err
		}
		if prev, dup := given[s.Key]; dup {
			return fmt.Errorf("%w: %s setting %s given twice, as %q and %q", ErrBadParameter, esc.Name(), s.Key, prev, kv.Key+"="+kv.Value)
		}
		given[s.Key] = kv.Key + "=" + kv.Value
		if err := s.Set(kv.Value); err != nil {
			return err
		}
	}
	return validateEscaper(esc)
}

// NewParam is an entry of the table of settings of your own escaper (a
// Configurable): get returns the field's value as text in the form set
// parses (its default when the field is zero, so that text setting the
// default names the same configuration), set parses text into the field,
// checking its form only (the range is the escaper's Validate's, which
// Configure calls, if it has one). The built-in escapers' entries are
// made the same way.
func NewParam(key, doc string, get func() string, set func(string) error, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases, get: get, set: set}
}

// Helpers that build the table's entries. A numeric field's zero value
// stands for def: Value lists def, and Set stores the parsed value as
// given (setting the default explicitly is the same configuration).

func intParam(key, doc string, p *int, def int, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return strconv.Itoa(orDefault(*p, def)) },
		set: func(s string) error {
			v, err := parseInt(s, math.MinInt, math.MaxInt)
			*p = int(v)
			return err
		}}
}

func int64Param(key, doc string, p *int64, def int64, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return strconv.FormatInt(orDefault(*p, def), 10) },
		set: func(s string) error {
			v, err := parseInt(s, math.MinInt64, math.MaxInt64)
			*p = v
			return err
		}}
}

func uint64Param(key, doc string, p *uint64, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return strconv.FormatUint(*p, 10) },
		set: func(s string) error {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return fmt.Errorf("want an integer in [0, 2⁶⁴−1]")
			}
			*p = v
			return nil
		}}
}

func floatParam(key, doc string, p *float64, def float64, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return formatSettingFloat(orDefault(*p, def)) },
		set: func(s string) error {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fmt.Errorf("want a number")
			}
			*p = v
			return nil
		}}
}

func boolParam(key, doc string, p *bool, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return strconv.FormatBool(*p) },
		set: func(s string) error {
			v, err := strconv.ParseBool(s)
			if err != nil {
				return fmt.Errorf("want true or false")
			}
			*p = v
			return nil
		}}
}

// listSep separates the values of a list setting in text ("1_10_100"):
// a character that needs no quoting in a method name (CheckIdentifier)
// and is not the grid's ','.
const listSep = "_"

func int64sParam(key, doc string, p *[]int64, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return joinList(*p, func(v int64) string { return strconv.FormatInt(v, 10) }) },
		set: func(s string) error {
			v, err := splitList(s, func(t string) (int64, error) { return parseInt(t, math.MinInt64, math.MaxInt64) })
			*p = v
			return err
		}}
}

func floatsParam(key, doc string, p *[]float64, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return joinList(*p, formatSettingFloat) },
		set: func(s string) error {
			v, err := splitList(s, func(t string) (float64, error) {
				x, err := strconv.ParseFloat(t, 64)
				if err != nil {
					return 0, fmt.Errorf("want numbers joined by %q", listSep)
				}
				return x, nil
			})
			*p = v
			return err
		}}
}

// kindWords are the words of an EscapeKind in settings: ASCII first (the
// form Value writes), then String's.
var kindWords = map[string]EscapeKind{"none": KindNone, "beta": KindBeta, "gamma": KindGamma, "β": KindBeta, "γ": KindGamma}

func kindWord(k EscapeKind) string {
	switch k {
	case KindNone:
		return "none"
	case KindBeta:
		return "beta"
	case KindGamma:
		return "gamma"
	}
	return k.String()
}

func parseKind(s string) (EscapeKind, error) {
	k, ok := kindWords[strings.ToLower(s)]
	if !ok {
		return 0, fmt.Errorf("want none, beta or gamma")
	}
	return k, nil
}

func kindParam(key, doc string, p *EscapeKind, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string { return kindWord(*p) },
		set: func(s string) error {
			k, err := parseKind(s)
			*p = k
			return err
		}}
}

func kindsParam(key, doc string, p *[]EscapeKind, def []EscapeKind, aliases ...string) Param {
	return Param{Key: key, Doc: doc, Aliases: aliases,
		get: func() string {
			if *p == nil {
				return joinList(def, kindWord)
			}
			return joinList(*p, kindWord)
		},
		set: func(s string) error {
			v, err := splitList(s, parseKind)
			*p = v
			return err
		}}
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// parseInt reads an integer in [lo, hi], also written as 1e4.
func parseInt(s string, lo, hi int64) (int64, error) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil && v >= lo && v <= hi {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < float64(lo) || f >= float64(hi) {
		return 0, fmt.Errorf("want an integer in [%d, %d]", lo, hi)
	}
	return int64(f), nil
}

// formatSettingFloat writes x as strconv 'g' −1 does (the shortest exact
// form), with the exponent's plus sign dropped (1e6 is "1e06" there,
// "1e6" here), so that the text needs no quoting in a method name.
func formatSettingFloat(x float64) string {
	return strings.Replace(strconv.FormatFloat(x, 'g', -1, 64), "e+", "e", 1)
}

func joinList[T any](xs []T, f func(T) string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = f(x)
	}
	return strings.Join(s, listSep)
}

func splitList[T any](s string, f func(string) (T, error)) ([]T, error) {
	if s == "" {
		return nil, fmt.Errorf("want a value or values joined by %q", listSep)
	}
	parts := strings.Split(s, listSep)
	if len(parts) > MaxCandidates {
		return nil, fmt.Errorf("%d values, more than MaxCandidates = %d", len(parts), MaxCandidates)
	}
	out := make([]T, len(parts))
	for i, t := range parts {
		v, err := f(strings.TrimSpace(t))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
