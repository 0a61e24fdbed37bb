package escapebench

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func TestMethodGrid(t *testing.T) {
	names, err := ExpandMethodGrid("sod-line-search+probe:l=3,5;rho=0.5")
	want := []string{"sod-line-search+probe+l-3+rho-0.5", "sod-line-search+probe+l-5+rho-0.5"}
	if err != nil || !slices.Equal(names, want) {
		t.Fatalf("ExpandMethodGrid = %q, %v; want %q", names, err, want)
	}
	m, err := ResolveMethod(names[1])
	if err != nil {
		t.Fatal(err)
	}
	// l = 5 is the line search's default: the canonical name drops it.
	if m.Name != "sod-line-search+probe+rho-0.5" || m.Judge != JudgeProbe || m.Params["l"] != "5" || m.Params["rho"] != "0.5" {
		t.Errorf("resolved %q judge %v params %v", m.Name, m.Judge, m.Params)
	}
	e, err := m.New(CertifiedInstance{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ls := e.(*probeBest).inner.(*sod.SODLineSearch)
	if ls.L != 5 || ls.Rho != 0.5 {
		t.Errorf("escaper L = %d, ρ = %v, want 5 and 0.5", ls.L, ls.Rho)
	}
	if err := sod.CheckIdentifier("method", names[0]); err != nil {
		t.Errorf("grid name %q is not an identifier: %v", names[0], err)
	}
	for _, c := range []struct{ name, want string }{
		{"sod-line-search+zz-1", `no setting "zz"`},
		{"sod-line-search+l-x", `l = "x"`},
		{"sod-line-search+l-4", "got 4"}, // its Validate refuses an even l
		{"sod-line-search+l-3+L-5", `"l=3" and "L=5"`},
		{"perturbed-gd+t_thres-3+tthres-5", `"t_thres=3" and "tthres=5"`},
		{"perturbed-gd+seed-3", "chosen per run"},
		{"random-line-search+Seed-3", "chosen per run"},
		{"gd-alone+l-3", "no settings table"},
		{"random-restart+probe", "already judged"},
		{"no-such-method", "unknown method"},
		{"sod-line-search+l", "neither a judge"},
		{"sod-line-search+l-3+probe", "neither a judge"}, // the judge comes first
	} {
		_, err := ResolveMethod(c.name)
		// ErrBadBench for what escapebench finds, sod.ErrBadParameter for what the escaper's Validate (sod) refuses
		if !(errors.Is(err, ErrBadBench) || errors.Is(err, sod.ErrBadParameter)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ResolveMethod(%q) = %v, want an error mentioning %q", c.name, err, c.want)
		}
	}
	for _, bad := range []string{":l=3", "sod-line-search:l", "sod-line-search:l=3;l=4", "sod-line-search:l=,", "sod-line-search:l=1e+3"} {
		if _, err := ExpandMethodGrid(bad); !errors.Is(err, ErrBadBench) {
			t.Errorf("ExpandMethodGrid(%q) = %v, want ErrBadBench", bad, err)
		}
	}
}

// otherValue is, per settings key of the built-in methods, a valid value
// that differs from every built-in's default. A key of a built-in without
// an entry fails TestSettingsBothSpellings: a new setting gets its row.
var otherValue = map[string]string{
	"l": "7", "t": "20", "rho": "0.5", "eta": "0.05", "ts": "10_100", "t_decades": "4", "t_per_decade": "2",
	"kinds": "beta", "growth_q": "1.5", "force": "gamma", "delta": "0.3", "grad_tol": "0.0001",
	"exact_line": "true", "both_signs": "(flipped)", "radius": "0.2", "t_thres": "10", "samples": "3", "directions": "2", "alphas": "0.5_2",
}

// TestSettingsBothSpellings: for every built-in method and every key of its
// escaper's table, the "+key-value" name (in the key's canonical form,
// in capitals and without '_') and the grid "base:key=value" resolve to
// one canonical name, the escaper that runs has the value, and a result
// records it read back from that escaper; a value equal to the default
// names the base method itself.
func TestSettingsBothSpellings(t *testing.T) {
	in := CertifiedInstance{}
	for _, b := range BuiltinMethods() {
		if b.configure == nil {
			continue
		}
		esc, err := b.New(in, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range esc.(sod.Configurable).Params() {
			if slices.Contains(b.perRunKeys, s.Key) {
				continue
			}
			v, ok := otherValue[s.Key]
			if !ok {
				t.Errorf("%s: key %s has no row in otherValue", b.Name, s.Key)
				continue
			}
			if s.Key == "both_signs" {
				v = strconv.FormatBool(s.Value() != "true")
			}
			want := b.Name + "+" + s.Key + "-" + v
			grid, err := ExpandMethodGrid(b.Name + ":" + strings.ToUpper(s.Key) + "=" + v)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range append(grid, want, b.Name+"+"+strings.ToUpper(s.Key)+"-"+v, b.Name+"+"+strings.ReplaceAll(s.Key, "_", "")+"-"+v) {
				m, err := ResolveMethod(name)
				if err != nil {
					t.Errorf("ResolveMethod(%q): %v", name, err)
					continue
				}
				if m.Name != want {
					t.Errorf("ResolveMethod(%q).Name = %q, want %q", name, m.Name, want)
				}
				e, err := m.New(in, 1)
				if err != nil {
					t.Fatal(err)
				}
				if got := sod.EscaperParams(e)[s.Key]; got != v {
					t.Errorf("%s: the escaper has %s = %q, want %q", name, s.Key, got, v)
				}
				if got := recordedParams(m, e); got[s.Key] != v || len(got) != len(sod.EscaperParams(e))-len(m.perRunKeys) {
					t.Errorf("%s: recorded %v, want %s = %s and the escaper's keys only", name, got, s.Key, v)
				}
			}
			if def := s.Value(); def != "" {
				m, err := ResolveMethod(b.Name + "+" + s.Key + "-" + def)
				if err != nil || m.Name != b.Name {
					t.Errorf("%s set to its default %s: name %q, %v; want %q", s.Key, def, m.Name, err, b.Name)
				}
			}
		}
	}
}

// TestIssueSpellings: the cases of the report, and their neighbours.
func TestIssueSpellings(t *testing.T) {
	// A documented key is accepted.
	m, err := ResolveMethod("single-step-sod+delta-0.3")
	if err != nil || m.Name != "single-step-sod+delta-0.3" {
		t.Errorf("single-step-sod+delta-0.3: %q, %v", m.Name, err)
	}
	names, err := ExpandMethodGrid("single-step-sod:delta=0.3")
	if err != nil || len(names) != 1 {
		t.Fatalf("grid: %v, %v", names, err)
	}
	if m2, err := ResolveMethod(names[0]); err != nil || m2.Name != m.Name {
		t.Errorf("single-step-sod:delta=0.3 resolves to %q, %v", m2.Name, err)
	}
	// What a result records is the escaper's: t_thres 10, no "tthres".
	m, err = ResolveMethod("perturbed-gd+tthres-10")
	if err != nil {
		t.Fatal(err)
	}
	e, _ := m.New(CertifiedInstance{}, 99)
	rec := recordedParams(m, e)
	if rec["t_thres"] != "10" || rec["tthres"] != "" || rec["seed"] != "" || m.Name != "perturbed-gd+t_thres-10" {
		t.Errorf("perturbed-gd+tthres-10: %q records %v", m.Name, rec)
	}
	if pg := e.(*sod.PerturbedGD); pg.TThres != 10 || pg.Seed != 99 {
		t.Errorf("the escaper that runs: %+v", pg)
	}
	// Judged the other way, the record is still the inner escaper's.
	m, err = ResolveMethod("sod-line-search+probe+L-3")
	if err != nil {
		t.Fatal(err)
	}
	e, _ = m.New(CertifiedInstance{}, 0)
	if rec := recordedParams(m, e); rec["l"] != "3" || m.Name != "sod-line-search+probe+l-3" {
		t.Errorf("%q records %v", m.Name, rec)
	}
	// Two names of one configuration are one method in a suite.
	s := QuickSpec()
	s.Methods = []string{"sod-line-search+l-3", "sod-line-search+L-3", "sod-line-search+l-5", "sod-line-search"}
	su, err := s.Suite()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range su.Methods {
		got = append(got, m.Name)
	}
	if want := []string{"sod-line-search+l-3", "sod-line-search"}; !slices.Equal(got, want) {
		t.Errorf("suite methods %q, want %q", got, want)
	}
	// The multi-step method takes the paper's (l, t) unless its name sets
	// l or t; "l-5" is its default, so it still does.
	paper := CertifiedInstance{StallPoint: StallPoint{L: 7, T: 33500}}
	for name, want := range map[string][2]string{
		"multi-step-sod":      {"7", "33500"},
		"multi-step-sod+l-5":  {"7", "33500"},
		"multi-step-sod+l-3":  {"3", "auto"},
		"multi-step-sod+t-99": {"5", "99"},
	} {
		m, err := ResolveMethod(name)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := m.New(paper, 0)
		if rec := recordedParams(m, e); rec["l"] != want[0] || rec["t"] != want[1] {
			t.Errorf("%s on a paper instance records l = %s, t = %s; want %s, %s", name, rec["l"], rec["t"], want[0], want[1])
		}
	}
}
