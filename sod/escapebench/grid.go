package escapebench

import (
	"fmt"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod"
)

// A method's name in a Spec (and on reproduce bench's command line) is
//
//	base[+probe|+raw-h][+key-value…]
//
// base a built-in method (or one of Spec.Suite's extra methods), the
// suffix its judging rule if not its own (WithJudge), and each +key-value
// a setting of its escaper: key one of the escaper's settings table
// (sod.Configurable: l, rho, eta, delta, t_thres, growth_q, …; case and
// '_' do not count, so "L" and "tthres" name l and t_thres), value (no
// '+') in the form the table parses. "sod-line-search+l-3" is the SOD line
// search with L = 3, a method of its own in every table. Such a name
// passes sod.CheckIdentifier when its values do (digits, '.', '-', '_',
// letters: "rho-0.5", "eta-1e-3", "ts-10_100"). ExpandMethodGrid writes
// the grid form of the command line as such names.
//
// A configuration has one name: ResolveMethod names the method it returns
// canonically — the canonical key and value text of each setting that
// differs from the base method's, in the order of the escaper's table —
// so "sod-line-search+L-3" is "sod-line-search+l-3" and
// "sod-line-search+l-5" (l = 5 is its default) is "sod-line-search", and
// Spec.Suite counts two names of one configuration once.

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
// for the form), looking base up in extra first, then BuiltinMethods, and
// named canonically (see above). The settings are resolved here, once:
// the escaper is configured by its table (sod.Configure) and every run
// gets a copy of that configuration. An unknown base, judge or key, a
// setting given twice (under any spellings: both are named), a setting a
// run chooses (a seeded method's seed), a value that does not parse or
// that the escaper's Validate refuses, or settings on a method without a
// settings table, is an error wrapping ErrBadBench that names it
// and what is accepted, found before any run.
func ResolveMethod(name string, extra ...Method) (Method, error) {
	segs := strings.Split(name, "+")
	base := segs[0]
	judge := JudgingRule(-1)
	var kvs []sod.KeyValue
	for _, seg := range segs[1:] {
		switch {
		case (seg == "probe" || seg == "raw-h") && judge < 0 && len(kvs) == 0:
			judge = JudgeProbe
			if seg == "raw-h" {
				judge = JudgeRawH
			}
		default:
			k, v, ok := strings.Cut(seg, "-")
			if !ok || k == "" || v == "" {
				return Method{}, fmt.Errorf("%w: method %q: %q is neither a judge (probe or raw-h, first) nor a setting key-value", ErrBadBench, name, seg)
			}
			kvs = append(kvs, sod.KeyValue{Key: k, Value: v})
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
	var suffix []string
	if len(kvs) > 0 {
		if m.configure == nil {
			return Method{}, fmt.Errorf("%w: method %q: %s has no settings table (a method of your own takes its settings in Go, in its constructor)", ErrBadBench, name, base)
		}
		cm, sfx, err := m.configure(kvs)
		if err != nil {
			return Method{}, fmt.Errorf("method %q: %w", name, err)
		}
		m, suffix = cm, sfx
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
	for _, s := range suffix {
		m.Name += "+" + s
	}
	return m, nil
}

// builtin makes m a method whose runs use escapers of type E configured
// as cfg: each run gets a copy of cfg, with what the run chooses set by
// perRun (the trial's seed, the instance's (l, t)). perRunKeys are the
// settings perRun always sets, which a name may not set. describe, if not
// nil, amends the method's Params (the description of the settings a run
// chooses). m.configure returns the method configured by settings text
// and the canonical name's settings suffix.
func builtin[E any, P interface {
	*E
	sod.Configurable
}](m Method, cfg E, perRunKeys []string, perRun func(e P, in CertifiedInstance, seed uint64), describe func(params map[string]string)) Method {
	m.New = func(in CertifiedInstance, seed uint64) (sod.Escaper, error) {
		e := P(new(E))
		*e = cfg
		if perRun != nil {
			perRun(e, in, seed)
		}
		return e, nil
	}
	m.Params = sod.EscaperParams(P(&cfg))
	for _, k := range perRunKeys {
		m.Params[k] = "trial"
	}
	if describe != nil {
		describe(m.Params)
	}
	m.perRunKeys = perRunKeys
	m.configure = func(kvs []sod.KeyValue) (Method, []string, error) {
		c := cfg
		for _, kv := range kvs {
			if s, err := sod.FindParam(P(&c), kv.Key); err == nil && slices.Contains(perRunKeys, s.Key) {
				return Method{}, nil, fmt.Errorf("%w: setting %s is chosen per run (the trial's seed, from Suite.Seed)", ErrBadBench, kv.Key)
			}
		}
		if err := sod.Configure(P(&c), kvs...); err != nil {
			return Method{}, nil, err
		}
		was := sod.EscaperParams(P(&cfg))
		var suffix []string
		for _, s := range P(&c).Params() {
			if v := s.Value(); v != was[s.Key] {
				suffix = append(suffix, s.Key+"-"+v)
			}
		}
		return builtin(m, c, perRunKeys, perRun, describe), suffix, nil
	}
	return m
}
