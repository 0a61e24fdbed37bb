package escapebench

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod"
)

// A method's name in a Spec (and on reproduce bench's command line) is
//
//	base[+probe|+raw-h][+key-value…]
//
// base a built-in method (or one of Spec.Suite's extra methods), the
// suffix its judging rule if not its own (WithJudge), and each +key-value
// a setting of its escaper: key an exported field of the escaper in snake
// case as sod.EscaperParams lists it (l, rho, eta, delta, growth_q, …),
// value (no '+') parsed for the field's type. "sod-line-search+l-3" is
// the SOD line search with L = 3, a method of its own in every table.
// Such a name passes sod.CheckIdentifier when its values do (digits,
// '.', '-', letters: "rho-0.5", "eta-1e-3"). ExpandMethodGrid writes the
// grid form of the command line as such names.

// MaxGridMethods bounds the methods one grid expands to.
const MaxGridMethods = 100

// ExpandMethodGrid expands "base[+judge]:key=v1,v2;key2=w1,…" into the
// names of the product of the values, in order (the last key varying
// fastest): "sod-line-search:l=3,5" gives "sod-line-search+l-3" and
// "sod-line-search+l-5". A spec without ":" is the name itself. Values
// are not checked here (ResolveMethod does).
func ExpandMethodGrid(spec string) ([]string, error) {
	base, grid, ok := strings.Cut(spec, ":")
	if base == "" {
		return nil, fmt.Errorf("%w: method grid %q: want base[:key=v1,v2;key2=…], e.g. sod-line-search:l=3,5,7", ErrBadBench, spec)
	}
	if !ok {
		return []string{base}, nil
	}
	names := []string{base}
	seen := map[string]bool{}
	for _, part := range strings.Split(grid, ";") {
		key, vals, ok := strings.Cut(part, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" || vals == "" || seen[key] || strings.ContainsAny(key, "+-") {
			return nil, fmt.Errorf("%w: method grid %q: part %q, want key=v1,v2 with each key once", ErrBadBench, spec, part)
		}
		seen[key] = true
		var next []string
		for _, n := range names {
			for _, v := range strings.Split(vals, ",") {
				if v = strings.TrimSpace(v); v == "" || strings.Contains(v, "+") {
					return nil, fmt.Errorf("%w: method grid %q: empty value or a value with '+' in %q", ErrBadBench, spec, part)
				}
				next = append(next, n+"+"+key+"-"+v)
			}
		}
		if len(next) > MaxGridMethods {
			return nil, fmt.Errorf("%w: method grid %q gives more than %d methods", ErrBadBench, spec, MaxGridMethods)
		}
		names = next
	}
	return names, nil
}

// ResolveMethod returns the method a name denotes (see ExpandMethodGrid
// for the form), looking base up in extra first, then BuiltinMethods. An
// unknown base, judge or key, or a value that does not parse, is an
// error wrapping ErrBadBench that names it and what is accepted,
// found before any run.
func ResolveMethod(name string, extra ...Method) (Method, error) {
	segs := strings.Split(name, "+")
	base := segs[0]
	judge := JudgingRule(-1)
	var keys []string
	set := map[string]string{}
	for _, seg := range segs[1:] {
		switch {
		case (seg == "probe" || seg == "raw-h") && judge < 0 && len(keys) == 0:
			judge = JudgeProbe
			if seg == "raw-h" {
				judge = JudgeRawH
			}
		default:
			k, v, ok := strings.Cut(seg, "-")
			if !ok || k == "" || v == "" {
				return Method{}, fmt.Errorf("%w: method %q: %q is neither a judge (probe or raw-h, first) nor a setting key-value", ErrBadBench, name, seg)
			}
			if _, dup := set[k]; dup {
				return Method{}, fmt.Errorf("%w: method %q sets %q twice", ErrBadBench, name, k)
			}
			keys = append(keys, k)
			set[k] = v
		}
	}
	var m Method
	var known []string
	found := false
	for _, c := range append(append([]Method{}, extra...), BuiltinMethods()...) {
		known = append(known, c.Name)
		if c.Name == base && !found {
			m, found = c, true
		}
	}
	if !found {
		return Method{}, fmt.Errorf("%w: unknown method %q, want one of %s (optionally with %s or %s and +key-value settings)", ErrBadBench, base, strings.Join(known, ", "), ProbeSuffix, RawHSuffix)
	}
	if len(set) > 0 {
		// Check the settings now on an escaper built for a zero instance
		// (the built-ins' constructors do not look at it), so that a bad
		// key fails before any run.
		if err := checkSettings(m, set); err != nil {
			return Method{}, fmt.Errorf("method %q: %w", name, err)
		}
		inner := m.New
		m.New = func(in CertifiedInstance, seed uint64) (sod.Escaper, error) {
			e, err := inner(in, seed)
			if err != nil {
				return nil, err
			}
			return e, applySettings(e, set)
		}
		ps := map[string]string{}
		for k, v := range m.Params {
			ps[k] = v
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps[k] = set[k]
		}
		m.Params = ps
	}
	if judge >= 0 {
		if judge == m.Judge {
			return Method{}, fmt.Errorf("%w: method %q: %s is already judged by %v (drop the suffix)", ErrBadBench, name, base, judge)
		}
		jm, err := WithJudge(m, judge)
		if err != nil {
			return Method{}, err
		}
		m = jm
	}
	m.Name = name
	return m, nil
}

// checkSettings applies set to an escaper of m built for a zero
// instance, recovering from a constructor that needs a real one.
func checkSettings(m Method, set map[string]string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: cannot check settings %v on method %q without an instance: %v", ErrBadBench, set, m.Name, v)
		}
	}()
	e, err := m.New(CertifiedInstance{}, 0)
	if err != nil {
		return err
	}
	if err := applySettings(e, set); err != nil {
		return err
	}
	return validateInner(e)
}

// applySettings sets e's exported fields named by set's keys (snake case:
// "growth_q" is GrowthQ) to the parsed values.
func applySettings(e sod.Escaper, set map[string]string) error {
	v := reflect.ValueOf(e)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("%w: escaper %T has no settable fields", ErrBadBench, e)
	}
	s := v.Elem()
	var fields []string
	for i := range s.NumField() {
		if s.Type().Field(i).IsExported() {
			fields = append(fields, s.Type().Field(i).Name)
		}
	}
	for key, val := range set {
		var f reflect.Value
		for _, name := range fields {
			if strings.EqualFold(strings.ReplaceAll(key, "_", ""), name) {
				f = s.FieldByName(name)
			}
		}
		if !f.IsValid() {
			return fmt.Errorf("%w: %s has no setting %q (its exported fields: %s)", ErrBadBench, e.Name(), key, strings.Join(fields, ", "))
		}
		bad := func(err error) error {
			return fmt.Errorf("%w: %s setting %s = %q: want a %v (%v)", ErrBadBench, e.Name(), key, val, f.Type(), err)
		}
		switch f.Kind() {
		case reflect.Int, reflect.Int64, reflect.Int32:
			x, err := strconv.ParseInt(val, 10, 64)
			if err != nil || f.OverflowInt(x) {
				return bad(err)
			}
			f.SetInt(x)
		case reflect.Float64:
			x, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return bad(err)
			}
			f.SetFloat(x)
		case reflect.Bool:
			x, err := strconv.ParseBool(val)
			if err != nil {
				return bad(err)
			}
			f.SetBool(x)
		default:
			return fmt.Errorf("%w: %s setting %q of type %v cannot be set from text", ErrBadBench, e.Name(), key, f.Type())
		}
	}
	return nil
}
