package sod

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
)

// EscaperParams lists the settings of esc for a results table or file,
// derived from its exported fields by reflection, so that a listing cannot
// drift from the values that run: the key is the field name in snake case
// (TThres → "t_thres", BothSigns → "both_signs"), the fields of a nested
// struct field (SingleStepSOD.Options) are listed as if they were esc's
// own, and a field at its zero value (every built-in escaper documents
// what that zero means) is left out. Values: floats as strconv.FormatFloat
// with 'g' and −1 (the shortest exact form), integers in decimal, bools
// as "true"/"false", a fmt.Stringer (EscapeKind) by its String; a slice as
// its values joined by ", " when it has at most 4 of them and otherwise as
// "first..last (N values)", e.g. "1..1e12 (97 values)". An escaper that is
// not a struct or a pointer to one, or has no exported field (EscapeFunc's,
// an Escaper written in a notebook with unexported fields), gives an empty
// map. The map is never nil.
func EscaperParams(esc Escaper) map[string]string {
	out := map[string]string{}
	if esc == nil {
		return out
	}
	v := reflect.ValueOf(esc)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return out
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		addParams(out, "", v)
	}
	return out
}

// addParams adds the exported, non-zero fields of the struct v to out,
// descending into nested struct fields. A key already taken (a nested
// field named like an outer one) is prefixed with the nested field's key
// and a dot.
func addParams(out map[string]string, prefix string, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if !f.IsExported() || fv.IsZero() {
			continue
		}
		key := snakeCase(f.Name)
		if _, taken := out[key]; taken && prefix != "" {
			key = prefix + "." + key
		}
		if fv.Kind() == reflect.Struct && !fv.Type().Implements(stringerType) {
			addParams(out, key, fv)
			continue
		}
		out[key] = paramValue(fv, false)
	}
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

// paramValue formats one field value; inSlice compacts integers as floats
// do ("1e12"), for the ends of a summarised grid.
func paramValue(v reflect.Value, inSlice bool) string {
	if v.Type().Implements(stringerType) {
		return v.Interface().(fmt.Stringer).String()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if inSlice {
			return compactInt(float64(v.Int()))
		}
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if inSlice {
			return compactInt(float64(v.Uint()))
		}
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.String:
		return v.String()
	case reflect.Slice, reflect.Array:
		n := v.Len()
		if n > 4 {
			return fmt.Sprintf("%s..%s (%d values)", paramValue(v.Index(0), true), paramValue(v.Index(n-1), true), n)
		}
		s := make([]string, n)
		for i := range s {
			s[i] = paramValue(v.Index(i), true)
		}
		return strings.Join(s, ", ")
	case reflect.Struct:
		return fmt.Sprintf("%+v", v.Interface())
	}
	// A pointer, map, function, channel or interface: its address or
	// contents would make the listing differ between equal runs.
	return "set (" + v.Type().String() + ")"
}

// compactInt formats an integer of a grid as FormatFloat 'g' −1 does, with
// the exponent's plus sign dropped: 1000 → "1000", 10¹² → "1e12".
func compactInt(x float64) string {
	return strings.Replace(strconv.FormatFloat(x, 'g', -1, 64), "e+", "e", 1)
}

// snakeCase turns a Go field name into a parameter key: every capital
// starts a word, so "TThres" is "t_thres", "GrowthQ" is "growth_q" and
// "BothSigns" is "both_signs".
func snakeCase(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
