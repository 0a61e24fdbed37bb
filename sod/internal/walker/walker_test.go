package walker_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/sod/grading"
	"sodworkbench.org/workbench/sod/internal/walker"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/plots"
)

// entry is one row of the generated table: the Go expression and its value.
type entry struct {
	name string
	fn   any
}

// TestTableFresh fails when table_gen_test.go no longer lists exactly the
// exported API of walker.Packages (run go generate ./sod/internal/walker).
func TestTableFresh(t *testing.T) {
	want, err := walker.Generate(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(walker.TableFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the exported API changed; run `go generate ./sod/internal/walker` and commit the result", walker.TableFile)
	}
	// Every allowlist entry names an entry point that still exists.
	names := map[string]bool{}
	for _, e := range table {
		names[e.name] = true
	}
	for _, m := range []map[string]string{shapePanics, operatorPanics, documentedPanics, documentedNaN, nilResults, todo} {
		for name := range m {
			if !names[name] {
				t.Errorf("allowlist entry %q is no exported entry point (renamed or removed?)", name)
			}
		}
	}
}

// TestEveryPackageWalked compares the walked packages with an independent
// listing, `go list ./...`: every package of the module must be walked,
// internal (walked through the packages that use it), a command (package
// main) or one of walker.Exceptions, and every exception must still exist
// and must not be walked. A package added without regenerating the table
// fails here.
func TestEveryPackageWalked(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	cmd := exec.Command(gobin, "list", "-f", "{{.ImportPath}} {{.Name}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		imp, name, _ := strings.Cut(line, " ")
		dir := strings.TrimPrefix(strings.TrimPrefix(imp, walker.Module), "/")
		if walker.IsOutput(dir) {
			continue // the commands' output (a live book ships Go sources there), not the module's API
		}
		listed[dir] = true
		_, isWalked := walked[dir]
		_, excepted := walker.Exceptions[dir]
		internal := slices.Contains(strings.Split(dir, "/"), "internal")
		switch {
		case isWalked && excepted:
			t.Errorf("package %s is walked and listed in walker.Exceptions", dir)
		case isWalked || excepted || internal || name == "main":
		default:
			t.Errorf("package %s is neither walked nor in walker.Exceptions: run `go generate ./sod/internal/walker` (or add an exception with its reason)", dir)
		}
	}
	for dir := range walked {
		if !listed[dir] {
			t.Errorf("walked package %s is not in `go list ./...`", dir)
		}
	}
	for dir, reason := range walker.Exceptions {
		if !listed[dir] {
			t.Errorf("walker.Exceptions lists %s (%s), which is no package of the module", dir, reason)
		}
		if reason == "" {
			t.Errorf("walker.Exceptions lists %s without a reason", dir)
		}
	}
	// Discover on a tree with a new package finds it.
	tmp := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":            "module " + walker.Module + "\n",
		"a/a.go":            "package a\n\nfunc F(x int) error { return nil }\n",
		"a/internal/b/b.go": "package b\n",
		"cmd/c/main.go":     "package main\n\nfunc main() {}\n",
		"a/testdata/d/d.go": "package d\n",
		"sub/go.mod":        "module other\n",
		"sub/e.go":          "package e\n",
		"new/pkg/x_test.go": "package pkg\n",
		"new/pkg/x.go":      "package pkg\n\ntype T struct{}\n\nfunc (*T) M() {}\n",
	} {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, entries, _, err := walker.List(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pkgs {
		got = append(got, p.Dir)
	}
	for _, e := range entries {
		got = append(got, e.Expr())
	}
	if want := []string{"a", "new/pkg", "(*pkg.T).M", "a.F"}; !slices.Equal(got, want) {
		t.Errorf("List on a tree with packages a and new/pkg = %q, want %q", got, want)
	}
}

// Panics allowed by documentation, each with its reason. Any other panic,
// any hang and any NaN returned with a nil error fails TestWalkBadInputs.
var (
	// shapePanics: the value must be an error wrapping sod.ErrShape. These
	// methods also evaluate non-finite X as given (NaN in, NaN out), as
	// gonum/mat does; Problem.CheckX is the validating form.
	shapePanics = map[string]string{
		"(*sod.Problem).H":        "hot method: panics on mismatched shape (or a nil problem or operator, which has no shape) like gonum/mat (sod.Problem doc); CheckX is the validating form",
		"(*sod.Problem).Grad":     "hot method: panics on mismatched shape (or a nil problem or operator, which has no shape) like gonum/mat (sod.Problem doc); CheckX is the validating form",
		"(*sod.Problem).GradF":    "hot method: panics on mismatched shape (or a nil problem or operator, which has no shape) like gonum/mat (sod.Problem doc); CheckX is the validating form",
		"(*sod.Problem).HessVec":  "hot method: panics on mismatched shape (or a nil problem or operator, which has no shape) like gonum/mat (sod.Problem doc); CheckX is the validating form",
		"(*sod.Problem).DistStar": "hot method: panics on mismatched shape (or a nil problem or operator, which has no shape) like gonum/mat (sod.Problem doc); CheckX is the validating form",
	}
	// operatorPanics: the sod.Operator hot path does not check its
	// arguments (sod.Operator doc: shapes are validated once, where a
	// Problem is built), like gonum's BLAS-level code.
	operatorPanics = map[string]string{
		"(*sod.DenseOperator).Apply":              "Operator hot path, unchecked by contract",
		"(*sod.DenseOperator).Adjoint":            "Operator hot path, unchecked by contract",
		"(*sod.DenseOperator).SensingMatrix":      "Operator hot path, unchecked by contract",
		"(*sod.PMCOperator).Apply":                "Operator hot path, unchecked by contract",
		"(*sod.PMCOperator).Adjoint":              "Operator hot path, unchecked by contract",
		"(*sod.PMCOperator).Normal":               "Operator hot path, unchecked by contract",
		"(*sod.PMCOperator).SensingMatrix":        "Operator hot path, unchecked by contract",
		"(*sod.DataPointsOperator).Apply":         "Operator hot path, unchecked by contract",
		"(*sod.DataPointsOperator).Adjoint":       "Operator hot path, unchecked by contract",
		"(*sod.DataPointsOperator).SensingMatrix": "Operator hot path, unchecked by contract",
	}
	// documentedPanics: entry points whose panic is their documented
	// behaviour, with a non-panicking form beside them.
	documentedPanics = map[string]string{
		"grading.HandIn":  "documented: panics (failing the notebook cell the grader inserted) if the id is no exercise or the file cannot be written",
		"exercises.Check": "documented: panics on a wrong answer or an unknown id so the notebook cell fails loudly; exercises.Verify is the error-returning form",
	}
	// documentedNaN: entry points documented to return NaN for some
	// inputs (no error result; the NaN is their stated answer).
	documentedNaN = map[string]string{
		"(*experiments.LiftedPanels).BelowReference": "documented: NaN when h^l never falls below the reference (so for panels without values)",
		"figures.PathFromIterates":                   "documented: a non-finite iterate gives its point as it is; the charts leave such points out and count them",
		"paper.Printed.Value":                        "documented: NaN for a printed mark (\"—\", \"\"), the paper's data as printed",
		"paper.Printed.Unit":                         "documented: NaN for a printed mark",
		"paper.Printed.Bounds":                       "documented: NaNs for a printed mark",
	}
	// nanTypes: types whose NaN is a documented value ("not measured"),
	// and nanFields: struct fields documented to hold NaN for some inputs.
	nanTypes = map[string]string{
		"escapebench.OptFloat": "documented: NaN (JSON null) when there is no value, e.g. no successful run",
		"experiments.Floats":   "documented: NaN and ±Inf mark points a chart skips (JSON null), e.g. log10 of a cancelled lifted objective, h where it overflows",
	}
	nanFields = map[string]string{
		"experiments.VariantRow.Ratio": "documented: NaN if no candidate was accepted",
		"widgets.Interval.Lo":          "documented: an interval with a NaN end is empty (∅)",
		"widgets.Interval.Hi":          "documented: an interval with a NaN end is empty (∅)",
	}
	// nilResults: entry points documented to return a nil pointer, map or
	// interface with a nil error.
	nilResults = map[string]string{
		"figures.BenchFeatureChart": "documented: a nil chart with ok false when no instance is left",
	}
	// todo: open findings, allowed for now so the suite stays green; each
	// must be fixed and removed (the test logs them).
	todo = map[string]string{}
)

const callTimeout = 10 * time.Second

// A value is one argument: a label for the report and a maker (contexts
// are made fresh for each call).
type value struct {
	label string
	make  func() reflect.Value
}

func constant(label string, v reflect.Value) value {
	return value{label, func() reflect.Value { return v }}
}

var (
	typCtx     = reflect.TypeFor[context.Context]()
	typErr     = reflect.TypeFor[error]()
	typMatrix  = reflect.TypeFor[mat.Matrix]()
	typVector  = reflect.TypeFor[mat.Vector]()
	typDense   = reflect.TypeFor[*mat.Dense]()
	typSym     = reflect.TypeFor[*mat.SymDense]()
	typVec     = reflect.TypeFor[*mat.VecDense]()
	typStringr = reflect.TypeFor[fmt.Stringer]()
	typWriter  = reflect.TypeFor[io.Writer]()
	typEscaper = reflect.TypeFor[sod.Escaper]()
	// typValidator: the method of a type that checks itself.
	typValidator = reflect.TypeFor[interface{ Validate() error }]()
)

func filled(r, c int, v float64) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, v)
		}
	}
	return d
}

func symNaN(n int) *mat.SymDense {
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, math.NaN())
		}
	}
	return s
}

// walk holds the producers of valid-ish values: hand-written ones for the
// types that must agree in shape (the real-world problem, n = 3, r = 1, and
// its x̂), and the zero-argument functions of the table (DefaultXConfig,
// XProblem, ...) for the rest.
type walk struct {
	producers map[reflect.Type][]entry
	cache     map[reflect.Type]reflect.Value
}

func newWalk() *walk {
	w := &walk{producers: map[reflect.Type][]entry{}, cache: map[reflect.Type]reflect.Value{}}
	for _, e := range table {
		ft := reflect.TypeOf(e.fn)
		if strings.HasPrefix(e.name, "(") || strings.Count(e.name, ".") != 1 || ft.NumIn() != 0 || ft.NumOut() == 0 || ft.NumOut() > 2 {
			continue
		}
		if ft.NumOut() == 2 && ft.Out(1) != typErr {
			continue
		}
		w.producers[ft.Out(0)] = append(w.producers[ft.Out(0)], e)
	}
	for t, es := range w.producers { // Default... first
		sort.SliceStable(es, func(i, j int) bool {
			return strings.Contains(es[i].name, ".Default") && !strings.Contains(es[j].name, ".Default")
		})
		w.producers[t] = es
	}
	p := sod.RealWorldProblem()
	x := sod.RealWorldXHat()
	cp, err := sod.AnalyzeCritical(p, x, sod.CriticalOptions{})
	if err != nil {
		panic(err)
	}
	sub, err := sod.NewPaperSubspace(p, cp, 3)
	if err != nil {
		panic(err)
	}
	pgd, err := sod.NewSubspacePGD(sub, 0.1)
	if err != nil {
		panic(err)
	}
	el, err := sod.NewExplicitLifting(p.Op, p.B, 1, 3)
	if err != nil {
		panic(err)
	}
	cf, err := sod.NewTPGDFromCritical(cp, 3, 0.1, 0.1)
	if err != nil {
		panic(err)
	}
	id := mat.NewSymDense(3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
	vec := mat.NewVecDense(3, []float64{1, 0, 0})
	in := sod.DesignedSaddleInstance()
	for t, v := range map[reflect.Type]any{
		reflect.TypeFor[*sod.Problem]():         p,
		reflect.TypeFor[*sod.PMCOperator]():     must(sod.NewPMCOperator(3, 0.5)),
		typMatrix:                               mat.Matrix(x),
		typDense:                                x,
		typSym:                                  id,
		typVector:                               mat.Vector(vec),
		typVec:                                  vec,
		reflect.TypeFor[sod.Operator]():         sod.Operator(p.Op),
		reflect.TypeFor[*sod.CriticalPoint]():   cp,
		reflect.TypeFor[*sod.LiftedSubspace]():  sub,
		reflect.TypeFor[*sod.SubspacePGD]():     pgd,
		reflect.TypeFor[*sod.ExplicitLifting](): el,
		reflect.TypeFor[*sod.TPGDClosedForm]():  cf,
		reflect.TypeFor[sod.Instance]():         *in,
		reflect.TypeFor[*sod.Instance]():        in,
		reflect.TypeFor[*sod.EscapeState]():     &sod.EscapeState{P: p, X: x, H: p.H(x)},
		reflect.TypeFor[sod.Escaper]():          &sod.SODLineSearch{},
		typWriter:                               io.Writer(io.Discard),
		reflect.TypeFor[any]():                  any(1.0),
		reflect.TypeFor[[]mat.Matrix]():         []mat.Matrix{x},
		reflect.TypeFor[[]*mat.Dense]():         []*mat.Dense{x},
	} {
		rv := reflect.New(t).Elem()
		rv.Set(reflect.ValueOf(v))
		w.cache[t] = rv
	}
	if c, err := (widgets.Curves{Title: "c", X: []float64{1, 2}, Series: []widgets.Series{{Name: "s", Y: []float64{1, 2}}}}).Chart(); err == nil {
		rv := reflect.New(reflect.TypeFor[widgets.Chart]()).Elem()
		rv.Set(reflect.ValueOf(c))
		w.cache[reflect.TypeFor[widgets.Chart]()] = rv
	}
	return w
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// valid returns a valid-ish value of t.
func (w *walk) valid(t reflect.Type) reflect.Value {
	if v, ok := w.cache[t]; ok {
		return v
	}
	v := w.build(t)
	w.cache[t] = v
	return v
}

func (w *walk) build(t reflect.Type) reflect.Value {
	for _, e := range w.producers[t] {
		out, _, ok := callSafe(reflect.ValueOf(e.fn), nil, false)
		if ok && (len(out) == 1 || out[1].IsNil()) {
			return out[0]
		}
	}
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !isEnum(t) {
			v.SetInt(3)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.1)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		v = reflect.MakeSlice(t, 1, 1)
		v.Index(0).Set(w.valid(t.Elem()))
	case reflect.Map:
		v = reflect.MakeMap(t)
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if t.Elem().Kind() == reflect.Struct {
			p.Elem().Set(w.valid(t.Elem()))
		}
		v = p
	case reflect.Func:
		v = w.makeFunc(t, func(o reflect.Type) reflect.Value { return w.valid(o) })
	}
	return v
}

// makeFunc returns a function of type t whose results come from out
// (a nil error for an error result).
func (w *walk) makeFunc(t reflect.Type, out func(reflect.Type) reflect.Value) reflect.Value {
	return reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
		res := make([]reflect.Value, t.NumOut())
		for i := range res {
			if t.Out(i) == typErr {
				res[i] = reflect.Zero(typErr)
			} else {
				res[i] = out(t.Out(i))
			}
		}
		return res
	})
}

// isEnum: a named integer type with a String method (sod.Outcome, sod.AcceptRule, ...).
func isEnum(t reflect.Type) bool {
	return t.PkgPath() != "" && t.Implements(typStringr) && t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
}

// bad returns the catalogue of bad values for t; deep adds, for a struct
// (or pointer to struct), its valid value with one field made bad.
func (w *walk) bad(t reflect.Type, deep bool) []value {
	var vs []value
	add := func(label string, x any) {
		rv := reflect.New(t).Elem()
		rv.Set(reflect.ValueOf(x))
		vs = append(vs, constant(label, rv))
	}
	switch t {
	case typCtx:
		return []value{constant("nil context", reflect.Zero(t))}
	case typMatrix, typDense:
		if t == typMatrix {
			vs = append(vs, constant("nil matrix", reflect.Zero(t)))
			add("zero mat.Dense{}", &mat.Dense{})
			add("7×2 matrix", filled(7, 2, 1))
			add("3×1 NaN matrix", filled(3, 1, math.NaN()))
			add("3×1 +Inf matrix", filled(3, 1, math.Inf(1)))
			add("zero mat.SymDense{}", &mat.SymDense{})
		} else {
			vs = append(vs, constant("nil *mat.Dense", reflect.Zero(t)))
			add("zero mat.Dense{}", &mat.Dense{})
			add("7×2 matrix", filled(7, 2, 1))
			add("3×1 NaN matrix", filled(3, 1, math.NaN()))
		}
		return vs
	case typSym:
		vs = append(vs, constant("nil *mat.SymDense", reflect.Zero(t)))
		add("zero mat.SymDense{}", &mat.SymDense{})
		add("7×7 SymDense", mat.NewSymDense(7, nil))
		add("3×3 NaN SymDense", symNaN(3))
		return vs
	case typVector, typVec:
		vs = append(vs, constant("nil vector", reflect.Zero(t)))
		add("zero mat.VecDense{}", &mat.VecDense{})
		add("length-7 vector", mat.NewVecDense(7, nil))
		add("NaN vector", mat.NewVecDense(3, []float64{math.NaN(), 0, 0}))
		return vs
	}
	switch t.Kind() {
	case reflect.Interface:
		vs = append(vs, constant("nil "+t.String(), reflect.Zero(t)))
	case reflect.Pointer:
		vs = append(vs, constant("nil "+t.String(), reflect.Zero(t)))
		if t.Elem().Kind() == reflect.Struct {
			vs = append(vs, constant("zero &"+t.Elem().String()+"{}", reflect.New(t.Elem())))
			if deep && settings(t) {
				for _, fv := range w.fieldBad(t.Elem()) {
					vs = append(vs, value{fv.label, func() reflect.Value {
						p := reflect.New(t.Elem())
						p.Elem().Set(fv.make())
						return p
					}})
				}
			}
		}
	case reflect.Slice:
		vs = append(vs, constant("nil "+t.String(), reflect.Zero(t)))
		vs = append(vs, constant("empty "+t.String(), reflect.MakeSlice(t, 0, 0)))
		for _, ev := range w.bad(t.Elem(), false) {
			s := reflect.MakeSlice(t, 1, 1)
			s.Index(0).Set(ev.make())
			vs = append(vs, constant(t.String()+"{"+ev.label+"}", s))
		}
		// The same valid element twice (the same pointer for pointers):
		// a duplicate key, name or run.
		rep := reflect.MakeSlice(t, 2, 2)
		rep.Index(0).Set(w.valid(t.Elem()))
		rep.Index(1).Set(w.valid(t.Elem()))
		vs = append(vs, constant(t.String()+" with a repeated element", rep))
	case reflect.Map, reflect.Func, reflect.Chan:
		vs = append(vs, constant("nil "+t.String(), reflect.Zero(t)))
		if t.Kind() == reflect.Func && t.NumOut() > 0 {
			vs = append(vs, constant("func returning zero values", w.makeFunc(t, reflect.Zero)))
			vs = append(vs, constant("func returning bad values", w.makeFunc(t, func(o reflect.Type) reflect.Value {
				if b := w.bad(o, false); len(b) > 0 {
					return b[len(b)-1].make()
				}
				return reflect.Zero(o)
			})))
		}
	case reflect.Float32, reflect.Float64:
		for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 1e300} {
			rv := reflect.New(t).Elem()
			rv.SetFloat(f)
			vs = append(vs, constant(fmt.Sprint(f), rv))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		ints := []int64{-1, 1 << 40, math.MaxInt64}
		if isEnum(t) {
			ints = []int64{-1, 99}
		}
		for _, n := range ints {
			rv := reflect.New(t).Elem()
			if rv.OverflowInt(n) {
				n = 1<<(t.Bits()-1) - 1
			}
			rv.SetInt(n)
			vs = append(vs, constant(fmt.Sprintf("%s(%d)", t, n), rv))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if isEnum(t) {
			rv := reflect.New(t).Elem()
			rv.SetUint(99)
			vs = append(vs, constant(fmt.Sprintf("%s(99)", t), rv))
		}
	case reflect.String:
		vs = append(vs, constant(`""`, reflect.Zero(t)))
	case reflect.Struct:
		vs = append(vs, constant("zero "+t.String()+"{}", reflect.Zero(t)))
		if deep && settings(t) {
			vs = append(vs, w.fieldBad(t)...)
		}
	}
	return vs
}

// settings reports whether t (or *t) holds settings, which are tried field
// by field: configs, options, inputs, the escapers and the escape state.
// Result types (CriticalPoint, SingleStepResult, experiment results) are
// tried nil and zero-valued only: a result with one field forged is not
// an input anyone is expected to build.
func settings(t reflect.Type) bool {
	if t.Implements(typEscaper) || reflect.PointerTo(t).Implements(typEscaper) {
		return true
	}
	// A type with a Validate() error method is an input by its own
	// account (batch.Shard, escapebench.Suite, the cells, the escapers).
	if t.Implements(typValidator) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(typValidator)) {
		return true
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, suffix := range []string{"Config", "Options", "Inputs", "Settings", "EscapeState"} {
		if strings.HasSuffix(t.Name(), suffix) {
			return true
		}
	}
	return false
}

// fieldBad returns t's valid value with one exported field (of t or of its
// embedded structs) set to each of its bad values.
func (w *walk) fieldBad(t reflect.Type) []value { return w.fieldBadDepth(t, 2) }

// fieldBadDepth descends into struct fields that hold settings themselves
// (EscapeOptions.GD, QNNScanConfig.QNN, ...) up to depth levels.
func (w *walk) fieldBadDepth(t reflect.Type, depth int) []value {
	var vs []value
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		bads := w.bad(f.Type, false)
		if f.Type.Kind() == reflect.Struct && settings(f.Type) && depth > 1 {
			bads = append(bads, w.fieldBadDepth(f.Type, depth-1)...)
		}
		for _, fv := range bads {
			vs = append(vs, value{t.Name() + "." + f.Name + "=" + fv.label, func() reflect.Value {
				s := reflect.New(t).Elem()
				s.Set(w.valid(t))
				s.FieldByIndex(f.Index).Set(fv.make())
				return s
			}})
		}
	}
	return vs
}

// callSafe calls fn with a deadline, turning a panic into (value, stack).
func callSafe(fn reflect.Value, args []reflect.Value, variadic bool) (out []reflect.Value, panicked any, ok bool) {
	type result struct {
		out   []reflect.Value
		p     any
		stack string
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{p: p, stack: string(debug.Stack())}
			}
		}()
		if variadic {
			done <- result{out: fn.CallSlice(args)}
		} else {
			done <- result{out: fn.Call(args)}
		}
	}()
	select {
	case r := <-done:
		if r.p != nil {
			return nil, panicInfo{r.p, r.stack}, true
		}
		return r.out, nil, true
	case <-time.After(callTimeout):
		return nil, nil, false
	}
}

type panicInfo struct {
	v     any
	stack string
}

// where returns the first frames of the stack below the panic that are in
// the module (for the report).
func (p panicInfo) where() string {
	var frames []string
	for _, l := range strings.Split(p.stack, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "/") || !strings.Contains(l, ".go:") || strings.Contains(l, "internal/walker") || !strings.Contains(l, "/main/") {
			continue
		}
		frames = append(frames, filepath.Base(strings.Fields(l)[0]))
		if len(frames) == 2 {
			break
		}
	}
	return strings.Join(frames, " < ")
}

// badInputSentinels are the bad-input sentinels of the library packages,
// each package's own.
var badInputSentinels = []error{sod.ErrBadParameter, widgets.ErrBadInput, batch.ErrBadBatch,
	escapebench.ErrBadBench, experiments.ErrBadExperiment, figures.ErrBadFigure, grading.ErrBadGrading, plots.ErrBadPlot}

// receiverPanic reports whether p is the documented answer of a method
// without an error result to a nil or zero receiver: a panic with an error
// wrapping its package's bad-input sentinel (badInputSentinels) that names
// the type, the method and the constructor (sod's errUnbuilt), as the hot
// methods panic with ErrShape. A method with an error result must return
// the error instead.
func receiverPanic(ft reflect.Type, p any) bool {
	if n := ft.NumOut(); n > 0 && ft.Out(n-1) == typErr {
		return false
	}
	err, ok := p.(error)
	if !ok {
		return false
	}
	for _, s := range badInputSentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func allowedPanic(name string, p any) bool {
	if _, ok := operatorPanics[name]; ok {
		return true
	}
	if _, ok := documentedPanics[name]; ok {
		return true
	}
	if _, ok := shapePanics[name]; ok {
		err, isErr := p.(error)
		return isErr && errors.Is(err, sod.ErrShape)
	}
	return false
}

// TestWalkBadInputs calls every entry of the table once per bad value of
// each parameter, the other arguments valid-ish, and fails on a panic (but
// the documented ones above), a call that does not return within
// callTimeout, a crash (an allocation the size guard should have refused),
// or a NaN float result returned with a nil error. The calls run in child
// processes (this test binary, TestWalkChild), a few entries each, under
// an address-space limit, so that a hang or a crash is reported with the
// call that caused it and the walk goes on with the next entries.
func TestWalkBadInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("walks the whole exported API in child processes (about a minute); run without -short")
	}
	if os.Getenv(childEnv) != "" {
		t.Skip("child process")
	}
	start := time.Now()
	var (
		mu                          sync.Mutex
		failures, allowed           []string
		calls, params, crashedCount int
		receivers                   int
		labels                      = map[string]bool{}
	)
	const batch = 12
	jobs := make(chan []string)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for names := range jobs {
				for len(names) > 0 {
					res := runChild(t, names)
					mu.Lock()
					failures = append(failures, res.failures...)
					allowed = append(allowed, res.allowed...)
					calls += res.calls
					params += res.params
					receivers += res.receivers
					for _, l := range res.labels {
						labels[l] = true
					}
					if res.stoppedAt >= 0 {
						crashedCount++
					}
					mu.Unlock()
					if res.stoppedAt < 0 {
						break
					}
					names = names[res.stoppedAt+1:] // go on after the entry that crashed or hung
				}
			}
		}()
	}
	for i := 0; i < len(table); i += batch {
		var names []string
		for _, e := range table[i:min(i+batch, len(table))] {
			names = append(names, e.name)
		}
		jobs <- names
	}
	close(jobs)
	wg.Wait()
	sort.Strings(failures)
	sort.Strings(allowed)
	// The summary line (go test -v -run TestWalkBadInputs ./sod/internal/walker).
	t.Logf("walker: %d packages, %d entry points, %d parameters with bad values (%d of them receivers), %d distinct bad values, %d calls with one bad argument, %d findings, %d open findings allowed for now (todo), in %v",
		len(walked), len(table), params, receivers, len(labels), calls, len(failures), len(allowed), time.Since(start).Round(time.Millisecond))
	stillOpen := map[string]bool{}
	for _, a := range allowed {
		t.Log("allowed for now: " + a)
		if _, rest, ok := strings.Cut(a, ": "); ok {
			name, _, _ := strings.Cut(rest, " arg ")
			stillOpen[name] = true
		}
	}
	// A todo entry that no longer fails is stale: the fix must take it off
	// the list (so the list is always what is left).
	if crashedCount == 0 {
		for name := range todo {
			if !stillOpen[name] {
				t.Errorf("todo entry %q no longer fails: remove it from the todo list", name)
			}
		}
	}
	for _, f := range failures {
		t.Error(f)
	}
}

// childEnv passes the entries to the child process: internal to this test, so not SOD_*
// (scripts/environment.md lists the variables a user sets).
const childEnv = "WALKER_CHILD_ENTRIES"

type childResult struct {
	failures, allowed []string
	calls, params     int
	receivers         int
	labels            []string
	stoppedAt         int // index in names of the entry that crashed or hung, -1 if none
}

// runChild runs TestWalkChild on names and parses its report lines.
func runChild(t *testing.T, names []string) childResult {
	cmd := exec.Command(os.Args[0], "-test.run=^TestWalkChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(names, "\n"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	res := childResult{stoppedAt: -1}
	last, lastEntry := "", ""
	for _, line := range strings.Split(out.String(), "\n") {
		kind, rest, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		switch kind {
		case "walk-call":
			last = rest
			lastEntry, _, _ = strings.Cut(rest, " arg ")
		case "walk-fail":
			res.failures = append(res.failures, rest)
		case "walk-allow":
			res.allowed = append(res.allowed, rest)
		case "walk-count":
			var c, p, r int
			fmt.Sscan(rest, &c, &p, &r)
			res.calls += c
			res.params += p
			res.receivers += r
		case "walk-label":
			res.labels = append(res.labels, rest)
		case "walk-done":
			last, lastEntry = "", ""
		}
	}
	if err == nil && last == "" {
		return res
	}
	// The child died (crash, address-space limit, hang: it exits at once).
	msg := strings.TrimSpace(out.String())
	if i := strings.Index(msg, "walk-hang\t"); i >= 0 {
		res.failures = append(res.failures, "HANG (> "+callTimeout.String()+"): "+last)
	} else {
		first := msg
		for _, l := range strings.Split(msg, "\n") {
			if strings.HasPrefix(l, "fatal error") || strings.HasPrefix(l, "panic") || strings.HasPrefix(l, "runtime:") {
				first = l
				break
			}
		}
		if len(first) > 200 {
			first = first[:200]
		}
		res.failures = append(res.failures, fmt.Sprintf("CRASH: %s: %s (%v)", last, first, err))
	}
	res.stoppedAt = len(names) - 1
	for i, n := range names {
		if n == lastEntry {
			res.stoppedAt = i
		}
	}
	if lastEntry == "" {
		t.Errorf("walker child failed before its first call: %v\n%s", err, msg)
	}
	return res
}

// TestWalkChild is the child process of TestWalkBadInputs (it runs only
// with WALKER_CHILD_ENTRIES set): it limits its address space, walks the named
// entries and prints one line per call and per finding.
func TestWalkChild(t *testing.T) {
	list := os.Getenv(childEnv)
	if list == "" {
		t.Skip("run by TestWalkBadInputs")
	}
	// 4 GiB of address space: an allocation that a size guard should have
	// refused crashes the child (and is reported) instead of the machine.
	lim := syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
	t.Chdir(t.TempDir()) // entry points that write files (Save, SaveStudy) write here
	report := os.Stdout
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = devnull // Display & co. print to stdout outside a notebook
	defer func() { os.Stdout = report; devnull.Close() }()
	say := func(kind, msg string) { fmt.Fprintf(report, "%s\t%s\n", kind, strings.ReplaceAll(msg, "\n", " ")) }

	byName := map[string]entry{}
	for _, e := range table {
		byName[e.name] = e
	}
	w := newWalk()
	calls, withBad, receivers := 0, 0, 0
	labels := map[string]bool{}
	for _, name := range strings.Split(list, "\n") {
		e := byName[name]
		fn := reflect.ValueOf(e.fn)
		ft := fn.Type()
		ptrRecv := strings.HasPrefix(e.name, "(*")
		for i := 0; i < ft.NumIn(); i++ {
			var bads []value
			switch {
			case i == 0 && ptrRecv:
				// A pointer receiver: nil and the zero value (an exported
				// type can be written as a literal), and, for settings (an
				// escaper), its valid value with one field made bad.
				rt := ft.In(0)
				bads = append(bads, constant("nil "+rt.String()+" receiver", reflect.Zero(rt)))
				if rt.Elem().Kind() == reflect.Struct {
					bads = append(bads, value{"zero &" + rt.Elem().String() + "{} receiver", func() reflect.Value { return reflect.New(rt.Elem()) }})
				}
				if settings(rt) {
					for _, fv := range w.fieldBad(rt.Elem()) {
						bads = append(bads, value{fv.label, func() reflect.Value {
							p := reflect.New(rt.Elem())
							p.Elem().Set(fv.make())
							return p
						}})
					}
				}
				receivers++
			default:
				if i == 0 && strings.Count(e.name, ".") == 2 {
					receivers++ // a value receiver: its zero value and bad values
				}
				bads = w.bad(ft.In(i), true)
			}
			if len(bads) > 0 {
				withBad++
			}
			for _, b := range bads {
				labels[b.label] = true
				label := fmt.Sprintf("%s arg %d = %s", e.name, i, b.label)
				say("walk-call", label)
				args := make([]reflect.Value, ft.NumIn())
				var cancels []context.CancelFunc
				for j := range args {
					switch {
					case j == i:
						args[j] = b.make()
					case ft.In(j) == typCtx:
						ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
						cancels = append(cancels, cancel)
						args[j] = reflect.ValueOf(ctx)
					default:
						args[j] = w.valid(ft.In(j))
					}
				}
				calls++
				out, p, ok := callSafe(fn, args, ft.IsVariadic())
				for _, c := range cancels {
					c()
				}
				var msg string
				switch {
				case !ok:
					say("walk-hang", label)
					os.Exit(3) // the call still runs: stop it with the process
				case p != nil:
					pi := p.(panicInfo)
					if allowedPanic(e.name, pi.v) || (i == 0 && strings.HasSuffix(b.label, " receiver") && receiverPanic(ft, pi.v)) {
						continue
					}
					msg = fmt.Sprintf("PANIC: %s: %v [%s]", label, pi.v, pi.where())
				default:
					if _, hot := shapePanics[e.name]; hot {
						continue
					}
					if _, doc := documentedNaN[e.name]; doc {
						continue
					}
					if f := resultFault(e.name, out); f != "" {
						msg = fmt.Sprintf("RESULT: %s: %s", label, f)
					}
				}
				if msg == "" {
					continue
				}
				if reason, ok := todo[e.name]; ok {
					say("walk-allow", msg+" ("+reason+")")
				} else {
					say("walk-fail", msg)
				}
			}
		}
	}
	say("walk-done", "")
	say("walk-count", fmt.Sprint(calls, withBad, receivers))
	for l := range labels {
		say("walk-label", l)
	}
}

// resultFault describes the first fault of a call's results when its
// error result (if any) is nil: a NaN float anywhere in them (walked field
// by field through structs, pointers, slices, arrays and maps, up to a
// depth), or a nil pointer, map or interface result from a function that
// has an error result (nil with a nil error says neither what went wrong
// nor gives a value). "" when there is none.
func resultFault(name string, out []reflect.Value) string {
	n := len(out)
	hasErr := n > 0 && out[n-1].Type() == typErr
	if hasErr && !out[n-1].IsNil() {
		return ""
	}
	for i, o := range out {
		if hasErr && i == n-1 {
			break
		}
		switch o.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Interface:
			if hasErr && o.IsNil() {
				if _, ok := nilResults[name]; !ok {
					return fmt.Sprintf("result %d is nil (%s) with a nil error", i, o.Type())
				}
			}
		}
		if path := nanPath(o, fmt.Sprintf("result %d", i), 0, map[uintptr]bool{}); path != "" {
			return path + " is NaN with a nil error"
		}
	}
	return ""
}

// refusedByValidate reports whether v (or its address) has a Validate()
// error method that refuses it: settings made by a constructor without an
// error result (sod.DefaultSingleStepSOD(NaN)) are checked where they are
// used, by that method.
func refusedByValidate(v reflect.Value) bool {
	type validator interface{ Validate() error }
	if v.Kind() == reflect.Pointer && v.IsNil() || !v.CanInterface() {
		return false
	}
	if val, ok := v.Interface().(validator); ok {
		return safeValidate(val.Validate)
	}
	if v.CanAddr() {
		if val, ok := v.Addr().Interface().(validator); ok {
			return safeValidate(val.Validate)
		}
	}
	return false
}

func safeValidate(f func() error) (refused bool) {
	defer func() {
		if recover() != nil {
			refused = false
		}
	}()
	return f() != nil
}

// nanPath returns the path of the first NaN in v ("" if none).
func nanPath(v reflect.Value, path string, depth int, seen map[uintptr]bool) string {
	if !v.IsValid() || depth > 6 {
		return ""
	}
	if _, ok := nanTypes[v.Type().String()]; ok {
		return ""
	}
	if refusedByValidate(v) {
		return "" // the value says itself that it is invalid (a Default constructor's settings)
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if math.IsNaN(v.Float()) {
			return path
		}
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return ""
		}
		seen[v.Pointer()] = true
		return nanPath(v.Elem(), path, depth+1, seen)
	case reflect.Interface:
		return nanPath(v.Elem(), path, depth+1, seen)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if _, ok := nanFields[t.String()+"."+f.Name]; ok {
				continue
			}
			if p := nanPath(v.Field(i), path+"."+f.Name, depth+1, seen); p != "" {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < min(v.Len(), 64); i++ {
			if p := nanPath(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1, seen); p != "" {
				return p
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for k := 0; it.Next() && k < 64; k++ {
			if p := nanPath(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), depth+1, seen); p != "" {
				return p
			}
		}
	}
	return ""
}
