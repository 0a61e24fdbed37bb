// Package live runs the code cells of a notebook with GoNB's semantics in
// the yaegi Go interpreter: the runtime of the live book's Web Worker
// (cmd/sodlive), also usable natively for tests.
//
// Every run is a whole program (see cells.Session): a fresh interpreter
// is given the compiled symbols (package symbols), the source packages
// (cells.SourcePackages, read from Sources) and the program; the cell's
// declarations are kept once its program compiled.
package live

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"log"
	"os"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib/generic"

	"sodworkbench.org/workbench/livebook/cells"
	"sodworkbench.org/workbench/livebook/symbols"
)

// Kernel is the state of one notebook's page.
type Kernel struct {
	session cells.Session
	src     fstest.MapFS
	rw      *cells.Rewriter
}

// New returns a kernel whose source packages (cells.SourcePackages) are
// read from sources, a file system holding "<import path>/<file>.go".
func New(sources fs.FS) (*Kernel, error) {
	k := &Kernel{src: fstest.MapFS{}, rw: &cells.Rewriter{Symbols: symbols.Symbols, Sources: stdlibSources(), Support: supportPath}}
	for _, p := range cells.SourcePackages {
		ents, err := fs.ReadDir(sources, p)
		if err != nil {
			return nil, fmt.Errorf("live: the source of %s: %v", p, err)
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			b, err := fs.ReadFile(sources, path.Join(p, e.Name()))
			if err != nil {
				return nil, err
			}
			k.src["src/"+p+"/"+e.Name()] = &fstest.MapFile{Data: b}
			k.rw.Sources[p] = append(k.rw.Sources[p], string(b))
		}
	}
	return k, nil
}

// Reset forgets the declarations of every cell run.
func (k *Kernel) Reset() { k.session.Reset() }

// Warm type-checks and compiles, without running and without keeping
// anything in the session, a program importing the packages at paths
// (those the interpreter has; others are skipped): the type checker's
// importer keeps the packages' types, and in the browser the
// interpreter's code is compiled by WebAssembly when first called, so
// the first cell does not pay for either. The page calls it while it is
// still loading. The packages the interpreter compiles from source with
// every program that uses them (stdlibGeneric) are type-checked but not
// compiled: a page's cells that import them rarely use them (an import
// the program does not use is dropped, as GoNB drops it).
func (k *Kernel) Warm(paths []string) error {
	var compiled, checked strings.Builder
	for _, p := range paths {
		switch {
		case !available(p):
		case slices.Contains(stdlibGeneric, p):
			fmt.Fprintf(&checked, "\t_ %s\n", strconv.Quote(p))
		default:
			fmt.Fprintf(&compiled, "\t_ %s\n", strconv.Quote(p))
		}
	}
	var prog *cells.Program
	for _, imports := range []string{checked.String(), compiled.String()} {
		c, err := cells.Parse("warm-up", "import (\n"+imports+")\n")
		if err != nil {
			return err
		}
		var s cells.Session
		if prog, err = s.Program("warm-up", c, k.rw); err != nil {
			return err
		}
	}
	i := k.interpreter(io.Discard, io.Discard)
	if err := use(i, prog.Imports, io.Discard, io.Discard, func(any) {}); err != nil {
		return err
	}
	_, err := compile(i, prog.Src)
	return err
}

// Result is what a cell run did besides its output.
type Result struct {
	// Shell are the cell's "!" lines, which the page does not run.
	Shell []string
	// Magic are GoNB "%" commands other than "%%", which the page ignores.
	Magic []string
	// Compiled reports that the program compiled (or that the cell has
	// no Go, and no program runs), so the cell's declarations are kept
	// (even if it then failed).
	Compiled bool
	// Check is the time spent parsing the cell and making the program
	// (type-checking and rewriting it, cells.Session.Program); Setup,
	// Compile and Exec the times spent giving a fresh interpreter the
	// symbols, compiling the program and running it.
	Check, Setup, Compile, Exec time.Duration
}

// ErrPanic marks a run that panicked (the program's panic, as GoNB
// reports "panic: ..." and exit status 2).
var ErrPanic = errors.New("panic")

// Declare adds a cell's declarations without running it (to rebuild the
// state after the page restarted the interpreter).
func (k *Kernel) Declare(name, src string) error {
	c, err := cells.Parse(name, src)
	if err != nil {
		return err
	}
	k.session.Commit(name, c)
	return nil
}

// Run runs the cell named name (e.g. "cell 4") with source src, writing
// its standard output and error to stdout and stderr. Errors name the
// cell's lines.
func (k *Kernel) Run(ctx context.Context, name, src string, stdout, stderr io.Writer) (res Result, err error) {
	t0 := time.Now()
	c, err := cells.Parse(name, src)
	if err != nil {
		return res, err
	}
	res.Shell, res.Magic = c.Shell, c.Magic
	if !c.HasGo {
		// As GoNB, a cell with no Go runs no program: the page's setup
		// cells cost nothing. It is accepted (it declares nothing).
		res.Check, res.Compiled = time.Since(t0), true
		return res, nil
	}
	prog, err := k.session.Program(name, c, k.rw)
	res.Check = time.Since(t0)
	if err != nil {
		return res, err
	}
	for _, im := range c.Imports {
		if !available(im.Path) {
			return res, &cells.Error{Cell: name, Msg: fmt.Sprintf("package %s is not built into this page's interpreter, which has the packages the notebooks import "+
				"(with widgets/plots and the static figures only on the pages that use them)", im.Path)}
		}
	}
	t0 = time.Now()
	i := k.interpreter(stdout, traceFilter{stderr})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var goPanic struct {
		sync.Mutex
		value any
		set   bool
	}
	onGoPanic := func(v any) {
		goPanic.Lock()
		if !goPanic.set {
			goPanic.value, goPanic.set = v, true
		}
		goPanic.Unlock()
		cancel()
	}
	if err := use(i, prog.Imports, stdout, stderr, onGoPanic); err != nil {
		return res, fmt.Errorf("live: loading the symbols: %v", err)
	}
	t1 := time.Now()
	res.Setup = t1.Sub(t0)
	compiled, err := compile(i, prog.Src)
	t2 := time.Now()
	res.Compile = t2.Sub(t1)
	if err != nil {
		return res, errors.New(sourcePackageError(prog, name, prog.Explain(err.Error())))
	}
	k.session.Commit(name, c)
	res.Compiled = true
	err = execute(ctx, i, compiled)
	res.Exec = time.Since(t2)
	goPanic.Lock()
	if goPanic.set {
		err = interp.Panic{Value: goPanic.value}
	}
	goPanic.Unlock()
	if err != nil {
		var p interp.Panic
		if errors.As(err, &p) {
			if ie, ok := p.Value.(*IndexError); ok {
				if cell, line := prog.Where(ie.ProgramLine); cell != "" && line > 0 {
					return res, fmt.Errorf("%s, line %d: %w: %v", cell, line, ErrPanic, ie)
				}
			}
			return res, fmt.Errorf("%w: %v", ErrPanic, goMessage(p.Value))
		}
		return res, errors.New(prog.Explain(err.Error()))
	}
	return res, nil
}

// IndexError is the panic of an index out of range, with Go's message
// and the program line of the index (support.Index).
type IndexError struct {
	Index       int64
	Length      int
	ProgramLine int
}

func (e *IndexError) Error() string {
	return fmt.Sprintf("runtime error: index out of range [%d] with length %d", e.Index, e.Length)
}

// RuntimeError marks it as a runtime.Error, as Go's.
func (e *IndexError) RuntimeError() {}

// index is support.Index.
func index(i int64, n, line int) int {
	if i < 0 || i >= int64(n) {
		panic(&IndexError{Index: i, Length: n, ProgramLine: line})
	}
	return int(i)
}

// runtimePrint formats the arguments of the builtins print and println
// as Go's runtime does (runtime/print.go).
func runtimePrint(ln bool, a ...any) string {
	var b strings.Builder
	for i, x := range a {
		if ln && i > 0 {
			b.WriteByte(' ')
		}
		v := reflect.ValueOf(x)
		switch v.Kind() {
		case reflect.Invalid:
			b.WriteString("(0x0,0x0)")
		case reflect.Bool:
			b.WriteString(strconv.FormatBool(v.Bool()))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			b.WriteString(strconv.FormatInt(v.Int(), 10))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			b.WriteString(strconv.FormatUint(v.Uint(), 10))
		case reflect.Float32:
			b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 32))
		case reflect.Float64:
			b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
		case reflect.Complex64:
			b.WriteString(strconv.FormatComplex(v.Complex(), 'g', -1, 64))
		case reflect.Complex128:
			b.WriteString(strconv.FormatComplex(v.Complex(), 'g', -1, 128))
		case reflect.String:
			b.WriteString(v.String())
		case reflect.Slice:
			fmt.Fprintf(&b, "[%d/%d]%#x", v.Len(), v.Cap(), v.Pointer())
		case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
			fmt.Fprintf(&b, "%#x", v.Pointer())
		default:
			fmt.Fprintf(&b, "%v", x)
		}
	}
	if ln {
		b.WriteByte('\n')
	}
	return b.String()
}

// goMessage is Go's message for a panic value, where the interpreter's
// differs (it reaches some runtime errors through package reflect).
func goMessage(v any) string {
	msg := fmt.Sprint(v)
	for _, m := range reflectMessages {
		if strings.Contains(msg, m[0]) {
			return m[1]
		}
	}
	return msg
}

var reflectMessages = [][2]string{
	{"reflect: slice index out of range", "runtime error: index out of range"},
	{"reflect: array index out of range", "runtime error: index out of range"},
	{"reflect: string index out of range", "runtime error: index out of range"},
	{"reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
}

// interpreterTrace is the line yaegi writes (run.go, runCfg) as a panic
// leaves an interpreted function: "_.go:12:3: panic: main.f(...)".
var interpreterTrace = regexp.MustCompile(`\A(?:[^\n]*:)?\d+:\d+: panic: [^\n]*\(\.\.\.\)\n\z`)

// traceFilter is the interpreter's standard error: the program's own
// writes (os.Stderr, the log package) pass unchanged, and the lines yaegi
// adds as a panic leaves each interpreted function are dropped (the run's
// error reports a panic, at its cell line; cells.Program.Explain).
type traceFilter struct{ w io.Writer }

func (f traceFilter) Write(b []byte) (int, error) {
	if interpreterTrace.Match(b) {
		// yaegi writes one such line for every function a panic leaves,
		// even when a deferred recover stops it, where Go writes nothing.
		return len(b), nil
	}
	return f.w.Write(b)
}

func (k *Kernel) interpreter(stdout, stderr io.Writer) *interp.Interpreter {
	return interp.New(interp.Options{
		GoPath:               ".",
		SourcecodeFilesystem: k.src,
		Stdout:               stdout,
		Stderr:               stderr,
		Args:                 []string{"cell"},
	})
}

// supportPath is the package of Indices and Clear (cells.Rewriter.Support).
const supportPath = "sodworkbench.org/workbench/livebook/live/support"

// clear is support.Clear: the builtin clear (Go 1.21), which yaegi v0.16.1
// lacks.
func clear(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map:
		v.Clear()
	case reflect.Slice:
		v.Clear()
	default:
		panic(fmt.Sprintf("clear(%T): want a map or a slice", x))
	}
}

// indices is support.Indices: n elements for an integer n, as range over
// an integer (Go 1.22), which yaegi v0.16.1 lacks, is rewritten (see
// cells.Rewriter).
func indices(x any) []struct{} {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return make([]struct{}, max(v.Int(), 0))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return make([]struct{}, v.Uint())
	}
	panic(fmt.Sprintf("support.Indices(%T): want an integer", x))
}

// stdlibSources are the standard packages yaegi reads from its own copy
// of their source (stdlibGeneric), for the type checker.
func stdlibSources() map[string][]string {
	m := map[string][]string{}
	for _, src := range generic.Sources {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
		if err == nil {
			m[f.Name.Name] = append(m[f.Name.Name], src)
		}
	}
	return m
}

// available reports whether the page's interpreter has the package at
// path: compiled in (Symbols), or compiled from its source
// (cells.SourcePackages, stdlibGeneric).
func available(path string) bool {
	return Symbols(path) || slices.Contains(cells.SourcePackages, path) || slices.Contains(stdlibGeneric, path)
}

// stdlibGeneric are the standard packages whose generic functions yaegi
// compiles from its own copy of their source whenever it is given the
// symbols of fmt under the key "fmt/fmt" (with its fmt redirection).
var stdlibGeneric = []string{"cmp", "maps", "slices"}

// sourcePackageError places a compile error that names no line of a cell
// (msg, already explained): the interpreter failed in the source of a
// package it compiles itself (stdlibGeneric, cells.SourcePackages), whose
// positions are not the program's. The error then names the first line of
// cell name that uses such a package, and the package, and says it is not
// available in the browser; other messages are returned as they are.
func sourcePackageError(prog *cells.Program, name, msg string) string {
	if strings.Contains(msg, name) {
		return msg
	}
	pkgs := append(slices.Clone(stdlibGeneric), cells.SourcePackages...)
	for i, l := range strings.Split(prog.Src, "\n") {
		cell, line := prog.Where(i + 1)
		if cell != name || line == 0 {
			continue
		}
		for _, pkg := range pkgs {
			base := pkg[strings.LastIndex(pkg, "/")+1:]
			if strings.Contains(l, base+".") {
				return fmt.Sprintf("%s, line %d: package %s, which the interpreter compiles from its source, fails to compile there (%s): not available in the browser", name, line, pkg, msg)
			}
		}
	}
	return name + ": " + msg
}

// plain are the symbols with fmt under an equivalent key that does not
// trigger that compilation, which would add about a second to every run in
// the browser: programs that import none of stdlibGeneric get these.
var plain = func() map[string]map[string]reflect.Value {
	m := make(map[string]map[string]reflect.Value, len(symbols.Symbols))
	for k, v := range symbols.Symbols {
		if k == "fmt/fmt" {
			k = "fmt/./fmt" // the same import path and package name for interp.Use
		}
		m[k] = v
	}
	return m
}()

// use gives the interpreter the symbols, with fmt's printing functions
// writing to stdout.
func use(i *interp.Interpreter, imports []string, stdout, stderr io.Writer, goPanic func(any)) error {
	if err := i.Use(map[string]map[string]reflect.Value{supportPath + "/support": {
		"Indices": reflect.ValueOf(indices), "Clear": reflect.ValueOf(clear), "GoPanic": reflect.ValueOf(goPanic),
		"Index": reflect.ValueOf(index),
		"Print": reflect.ValueOf(func(ln bool, a ...any) { io.WriteString(stderr, runtimePrint(ln, a...)) }),
	}}); err != nil {
		return err
	}
	for _, p := range imports {
		if slices.Contains(stdlibGeneric, p) {
			return i.Use(symbols.Symbols) // yaegi redirects fmt itself
		}
	}
	if err := i.Use(plain); err != nil {
		return err
	}
	return i.Use(map[string]map[string]reflect.Value{"fmt/./fmt": {
		"Print":   reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprint(stdout, a...) }),
		"Printf":  reflect.ValueOf(func(f string, a ...any) (int, error) { return fmt.Fprintf(stdout, f, a...) }),
		"Println": reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprintln(stdout, a...) }),
	}})
}

// compile compiles the program, turning the interpreter's own panics
// (its bugs) into errors.
func compile(i *interp.Interpreter, src string) (p *interp.Program, err error) {
	// yaegi logs its own failures ("nil type") before panicking.
	log.SetOutput(io.Discard)
	defer func() {
		log.SetOutput(os.Stderr)
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter failed on this program (yaegi: %v)", r)
		}
	}()
	return i.Compile(src)
}

func execute(ctx context.Context, i *interp.Interpreter, p *interp.Program) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = interp.Panic{Value: r}
		}
	}()
	_, err = i.ExecuteWithContext(ctx, p)
	return err
}

// Symbols reports whether the interpreter has compiled symbols for the
// package at path.
func Symbols(path string) bool {
	_, ok := symbols.Symbols[path+"/"+pathName(path)]
	if ok {
		return true
	}
	for k := range symbols.Symbols {
		if strings.HasPrefix(k, path+"/") && !strings.Contains(k[len(path)+1:], "/") {
			return true
		}
	}
	return false
}

func pathName(p string) string { return p[strings.LastIndex(p, "/")+1:] }
