package sod_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// escaperRow is one row of the escaper table: how to get the escaper's
// zero value (or, for an unexported type, the function that builds it
// with zero arguments), and the listing its documented defaults give,
// written here by hand from the types' docs.
type escaperRow struct {
	typ      string // the type's name in package sod
	zero     func() sod.Escaper
	defaults map[string]string // nil: no settings table
}

func escaperRows() []escaperRow {
	sod5 := map[string]string{"l": "5", "rho": "0.1", "eta": "0.1"}
	with := func(base map[string]string, kv ...string) map[string]string {
		m := maps.Clone(base)
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	return []escaperRow{
		{"SODLineSearch", func() sod.Escaper { return &sod.SODLineSearch{} },
			with(sod5, "t_decades", "8", "t_per_decade", "4", "kinds", "beta_gamma", "both_signs", "false", "growth_q", "0")},
		{"MultiStepSOD", func() sod.Escaper { return &sod.MultiStepSOD{} },
			with(sod5, "t", "auto", "force", "none", "both_signs", "false")},
		{"ExactSubspaceSOD", func() sod.Escaper { return &sod.ExactSubspaceSOD{} },
			with(sod5, "t", "1000", "both_signs", "false")},
		{"SingleStepSOD", func() sod.Escaper { return &sod.SingleStepSOD{} },
			map[string]string{"delta": "0", "rho": "0", "grad_tol": "0.001", "exact_line": "false"}},
		{"PerturbedGD", func() sod.Escaper { return &sod.PerturbedGD{} },
			map[string]string{"radius": "0.1", "t_thres": "50", "samples": "10", "seed": "0"}},
		{"RandomLineSearch", func() sod.Escaper { return &sod.RandomLineSearch{} },
			map[string]string{"directions": "4", "seed": "0"}},
		{"NegGradLineSearch", func() sod.Escaper { return &sod.NegGradLineSearch{} }, map[string]string{}},
		{"autoTEscaper", func() sod.Escaper { return sod.MultiStepAutoT(0, 0, 0, sod.AutoT(1)) }, sod5},
		{"funcEscaper", func() sod.Escaper {
			return sod.EscapeFunc("none", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, nil })
		}, nil},
	}
}

// parseSod parses the package's non-test Go files (every build).
func parseSod(t *testing.T, fset *token.FileSet, mode parser.Mode) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// escaperTypes lists the types of package sod that have a Propose method
// (every Escaper of the package), by parsing its files.
func escaperTypes(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range parseSod(t, token.NewFileSet(), 0) {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "Propose" {
				continue
			}
			rt := fd.Recv.List[0].Type
			if st, ok := rt.(*ast.StarExpr); ok {
				rt = st.X
			}
			out = append(out, rt.(*ast.Ident).Name)
		}
	}
	sort.Strings(out)
	return out
}

// TestZeroValueEscapers: the zero value of every escaper of package sod
// is valid, lists its documented defaults, and runs (RunEscape on the
// basic example) with them. A new escaper type without a row here fails.
func TestZeroValueEscapers(t *testing.T) {
	rows := escaperRows()
	var have []string
	for _, r := range rows {
		have = append(have, r.typ)
	}
	for _, typ := range escaperTypes(t) {
		if !slices.Contains(have, typ) {
			t.Errorf("escaper type %s (it has a Propose method) has no row in escaperRows: add its zero value and documented defaults", typ)
		}
	}
	p, x := sod.BasicExampleProblem(), sod.BasicExampleXHat()
	for _, r := range rows {
		t.Run(r.typ, func(t *testing.T) {
			esc := r.zero()
			if err := sod.ValidateEscaper(esc); err != nil {
				t.Fatalf("zero value refused: %v", err)
			}
			if r.defaults != nil {
				if _, ok := esc.(sod.Configurable); !ok {
					t.Fatalf("%T has no settings table", esc)
				}
				if got := sod.EscaperParams(esc); !maps.Equal(got, r.defaults) {
					t.Errorf("zero value lists %v, its documented defaults are %v", got, r.defaults)
				}
			}
			run, err := sod.RunEscape(t.Context(), p, x, esc, sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 200}}})
			if err != nil || run.Err != nil {
				t.Fatalf("RunEscape with the zero value: %v, %v", err, run.Err)
			}
			if len(run.Escapes) == 0 {
				t.Errorf("no escape round ran")
			}
		})
	}
}

// TestDefaultConstructorsAreZeroValues: each Default constructor is the
// zero value with the settings its doc names.
func TestDefaultConstructorsAreZeroValues(t *testing.T) {
	for _, c := range []struct {
		got, want sod.Escaper
	}{
		{sod.DefaultSODLineSearch(), &sod.SODLineSearch{BothSigns: true}},
		{sod.DefaultMultiStepSOD(7, 33500), &sod.MultiStepSOD{L: 7, T: 33500}},
		{sod.DefaultExactSubspaceSOD(), &sod.ExactSubspaceSOD{BothSigns: true}},
		{sod.DefaultPerturbedGD(3), &sod.PerturbedGD{Seed: 3}},
		{sod.DefaultRandomLineSearch(4), &sod.RandomLineSearch{Seed: 4}},
		{sod.DefaultSingleStepSOD(0.5), &sod.SingleStepSOD{Options: sod.SingleStepOptions{Delta: 0.5}}},
	} {
		if g, w := sod.EscaperParams(c.got), sod.EscaperParams(c.want); !maps.Equal(g, w) {
			t.Errorf("%T: Default lists %v, the zero value with its settings %v", c.got, g, w)
		}
	}
	// Explicit defaults list as zeros do: one configuration, one listing.
	if g, w := sod.EscaperParams(&sod.SODLineSearch{L: 5, Rho: 0.1, Eta: 0.1}), sod.EscaperParams(&sod.SODLineSearch{}); !maps.Equal(g, w) {
		t.Errorf("explicit defaults list %v, zeros %v", g, w)
	}
}

// TestSettingsTables: for every escaper with a table, every key is
// accepted in its canonical form, in capitals and without '_', a value
// read back (Value) sets the same configuration (Set), and the listing
// follows a field set from text.
func TestSettingsTables(t *testing.T) {
	for _, r := range escaperRows() {
		if r.defaults == nil {
			continue
		}
		esc := r.zero().(sod.Configurable)
		for _, s := range esc.Params() {
			if s.Key == "" || s.Doc == "" {
				t.Errorf("%s: a setting without key or doc: %+v", r.typ, s)
			}
			for _, spelling := range []string{s.Key, strings.ToUpper(s.Key), strings.ReplaceAll(s.Key, "_", "")} {
				got, err := sod.FindParam(esc, spelling)
				if err != nil || got.Key != s.Key {
					t.Errorf("%s: FindParam(%q) = %q, %v; want %q", r.typ, spelling, got.Key, err, s.Key)
				}
			}
			if v := s.Value(); v != "" {
				before := sod.EscaperParams(esc)
				fresh := r.zero()
				if err := sod.Configure(fresh, sod.KeyValue{Key: s.Key, Value: v}); err != nil {
					t.Errorf("%s: Configure(%s=%s), its own listed value: %v", r.typ, s.Key, v, err)
				} else if got := sod.EscaperParams(fresh); !maps.Equal(got, before) {
					t.Errorf("%s: %s=%s lists %v, want %v", r.typ, s.Key, v, got, before)
				}
			}
		}
	}
	for _, c := range []struct {
		esc       sod.Escaper
		kv        []sod.KeyValue
		key, want string
	}{
		{&sod.SODLineSearch{}, []sod.KeyValue{{"L", "3"}}, "l", "3"},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"growthq", "1.5"}}, "growth_q", "1.5"},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"ts", "10_1000"}}, "ts", "10_1000"},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"kinds", "β"}}, "kinds", "beta"},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"eta", "1e-7"}}, "eta", "1e-07"},
		{&sod.MultiStepSOD{}, []sod.KeyValue{{"t", "1e6"}}, "t", "1000000"},
		{&sod.MultiStepSOD{}, []sod.KeyValue{{"force", "gamma"}}, "force", "gamma"},
		{&sod.MultiStepSOD{L: 7, T: 9}, []sod.KeyValue{{"t", "auto"}}, "t", "auto"},
		{&sod.SingleStepSOD{}, []sod.KeyValue{{"delta", "0.3"}}, "delta", "0.3"},
		{&sod.SingleStepSOD{}, []sod.KeyValue{{"δ", "0.3"}}, "delta", "0.3"},
		{&sod.SingleStepSOD{}, []sod.KeyValue{{"ExactLine", "true"}}, "exact_line", "true"},
		{&sod.PerturbedGD{}, []sod.KeyValue{{"tthres", "10"}}, "t_thres", "10"},
		{&sod.PerturbedGD{}, []sod.KeyValue{{"TThres", "10"}}, "t_thres", "10"},
		{&sod.RandomLineSearch{}, []sod.KeyValue{{"alphas", "0.5_2"}}, "alphas", "0.5_2"},
		{&sod.NegGradLineSearch{}, []sod.KeyValue{{"alphas", "0.1"}}, "alphas", "0.1"},
		{&sod.ExactSubspaceSOD{}, []sod.KeyValue{{"t", "20"}}, "t", "20"},
		{sod.MultiStepAutoT(0, 0, 0, sod.AutoT(1)), []sod.KeyValue{{"l", "7"}}, "l", "7"},
	} {
		if err := sod.Configure(c.esc, c.kv...); err != nil {
			t.Errorf("%T Configure(%v): %v", c.esc, c.kv, err)
			continue
		}
		if got := sod.EscaperParams(c.esc)[c.key]; got != c.want {
			t.Errorf("%T Configure(%v): %s lists %q, want %q", c.esc, c.kv, c.key, got, c.want)
		}
	}
}

// TestConfigureRefuses: a key given twice under two spellings (both named),
// an unknown key, text that does not parse and a value out of range are
// refused, naming them.
func TestConfigureRefuses(t *testing.T) {
	for _, c := range []struct {
		esc  sod.Escaper
		kv   []sod.KeyValue
		want []string
	}{
		{&sod.SODLineSearch{}, []sod.KeyValue{{"l", "3"}, {"L", "5"}}, []string{`"l=3"`, `"L=5"`, "twice"}},
		{&sod.PerturbedGD{}, []sod.KeyValue{{"t_thres", "3"}, {"tthres", "5"}}, []string{`"t_thres=3"`, `"tthres=5"`}},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"zz", "1"}}, []string{`no setting "zz"`, "growth_q"}},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"l", "x"}}, []string{`l = "x"`, "integer"}},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"l", "4"}}, []string{"4"}},
		{&sod.SODLineSearch{}, []sod.KeyValue{{"kinds", "delta"}}, []string{"beta or gamma"}},
		{&sod.SingleStepSOD{}, []sod.KeyValue{{"delta", "1.5"}}, []string{"1.5"}},
		{&sod.MultiStepSOD{}, []sod.KeyValue{{"both_signs", "yes"}}, []string{"true or false"}},
		{&sod.PerturbedGD{}, []sod.KeyValue{{"seed", "-1"}}, []string{"seed"}},
		{sod.EscapeFunc("f", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, nil }), []sod.KeyValue{{"l", "3"}}, []string{"no settings table"}},
	} {
		err := sod.Configure(c.esc, c.kv...)
		if err == nil || !(errors.Is(err, sod.ErrBadParameter) || errors.Is(err, sod.ErrDelta)) {
			t.Errorf("%T Configure(%v) = %v, want an error", c.esc, c.kv, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%T Configure(%v) = %v, want it to mention %s", c.esc, c.kv, err, w)
			}
		}
	}
}

// optionTypes are the option structs of package sod whose exported fields
// TestFieldsDocumented checks, beside every escaper type.
var optionTypes = []string{"GDOptions", "Iteration", "EscapeOptions", "CriticalOptions", "SingleStepOptions", "SGDOptions", "AdamOptions", "Minibatch"}

// zeroWords: a field's doc says what zero means.
var zeroWords = regexp.MustCompile(`(?i)\bzero\b|\bnil\b|\bfalse\b|\b0\b|default|\bdisables?\b`)

// TestFieldsDocumented: every exported field of sod's option and escaper
// types has a doc comment that says what zero means (names "zero", "nil",
// "false", "0" or its default). Embedded option structs are checked as
// types of their own.
func TestFieldsDocumented(t *testing.T) {
	fset := token.NewFileSet()
	files := parseSod(t, fset, parser.ParseComments)
	check := map[string]bool{}
	for _, n := range optionTypes {
		check[n] = true
	}
	for _, n := range escaperTypes(t) {
		check[n] = true
	}
	found, fields, bad := map[string]bool{}, 0, 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !check[ts.Name.Name] {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			found[ts.Name.Name] = true
			for _, fl := range st.Fields.List {
				for _, name := range fl.Names {
					if !name.IsExported() {
						continue
					}
					fields++
					doc := fl.Doc.Text() + fl.Comment.Text()
					switch {
					case strings.TrimSpace(doc) == "":
						bad++
						t.Errorf("%s.%s (%s) has no doc comment", ts.Name.Name, name.Name, fset.Position(fl.Pos()))
					case !zeroWords.MatchString(doc):
						bad++
						t.Errorf("%s.%s (%s): its doc does not say what zero means: %q", ts.Name.Name, name.Name, fset.Position(fl.Pos()), doc)
					}
				}
			}
			return true
		})
	}
	for n := range check {
		if !found[n] && n != "funcEscaper" {
			t.Errorf("type %s not found", n)
		}
	}
	t.Logf("%d exported fields of %d option and escaper types, %d without a doc saying what zero means", fields, len(found), bad)
}

// userScale is an escaper of one's own whose table is made with NewParam.
type userScale struct{ scale string }

func (*userScale) Name() string { return "user-scale" }
func (*userScale) Propose(context.Context, *sod.EscapeState) ([]sod.Candidate, error) {
	return nil, nil
}
func (u *userScale) Params() []sod.Param {
	return []sod.Param{
		sod.NewParam("scale", "a word", func() string { return u.scale }, func(s string) error {
			if s == "bad" {
				return errors.New("want a word other than bad")
			}
			u.scale = s
			return nil
		}, "s"),
		sod.NewParam("fixed", "cannot be set", nil, nil),
	}
}

// NewParam makes a table Configure and FindParam use as a built-in one's:
// keys and aliases, the form checked by set, and an entry without get or
// set listing no value and refusing text.
func TestNewParam(t *testing.T) {
	u := &userScale{}
	if err := sod.Configure(u, sod.KeyValue{Key: "S", Value: "big"}); err != nil || u.scale != "big" {
		t.Fatalf("Configure S=big: %v, scale %q", err, u.scale)
	}
	if got := sod.EscaperParams(u)["scale"]; got != "big" {
		t.Errorf("EscaperParams scale = %q, want big", got)
	}
	for _, kv := range []sod.KeyValue{{Key: "scale", Value: "bad"}, {Key: "fixed", Value: "1"}, {Key: "speed", Value: "1"}} {
		if err := sod.Configure(&userScale{}, kv); !errors.Is(err, sod.ErrBadParameter) {
			t.Errorf("Configure %s=%s: %v, want ErrBadParameter", kv.Key, kv.Value, err)
		}
	}
	if p, err := sod.FindParam(u, "fixed"); err != nil || p.Value() != "" {
		t.Errorf("fixed: %v, value %q", err, p.Value())
	}
}
