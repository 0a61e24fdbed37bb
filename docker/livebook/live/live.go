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
	"io"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/traefik/yaegi/interp"

	"sodworkbench.org/workbench/docker/livebook/cells"
	"sodworkbench.org/workbench/docker/livebook/symbols"
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
	k := &Kernel{src: fstest.MapFS{}, rw: &cells.Rewriter{Symbols: symbols.Symbols, Generic: map[string]map[string][]int{}}}
	for _, p := range cells.SourcePackages {
		ents, err := fs.ReadDir(sources, p)
		if err != nil {
			return nil, fmt.Errorf("live: the source of %s: %v", p, err)
		}
		sigs := map[string][]int{}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			b, err := fs.ReadFile(sources, path.Join(p, e.Name()))
			if err != nil {
				return nil, err
			}
			k.src["src/"+p+"/"+e.Name()] = &fstest.MapFile{Data: b}
			s, err := cells.GenericSignatures(string(b))
			if err != nil {
				return nil, fmt.Errorf("live: %s/%s: %v", p, e.Name(), err)
			}
			for n, v := range s {
				sigs[n] = v
			}
		}
		k.rw.Generic[p] = sigs
	}
	return k, nil
}

// Reset forgets the declarations of every cell run.
func (k *Kernel) Reset() { k.session.Reset() }

// Result is what a cell run did besides its output.
type Result struct {
	// Shell are the cell's "!" lines, which the page does not run.
	Shell []string
	// Magic are GoNB "%" commands other than "%%", which the page ignores.
	Magic []string
	// Compiled reports that the program compiled, so the cell's
	// declarations are kept (even if it then failed).
	Compiled bool
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
	c, err := cells.Parse(name, src)
	if err != nil {
		return res, err
	}
	res.Shell, res.Magic = c.Shell, c.Magic
	prog, err := k.session.Program(name, c, k.rw)
	if err != nil {
		return res, err
	}
	i := interp.New(interp.Options{
		GoPath:               ".",
		SourcecodeFilesystem: k.src,
		Stdout:               stdout,
		Stderr:               stderr,
		Args:                 []string{"cell"},
	})
	if err := i.Use(symbols.Symbols); err != nil {
		return res, fmt.Errorf("live: loading the symbols: %v", err)
	}
	compiled, err := compile(i, prog.Src)
	if err != nil {
		return res, errors.New(prog.Explain(err.Error()))
	}
	k.session.Commit(name, c)
	res.Compiled = true
	if err := execute(ctx, i, compiled); err != nil {
		var p interp.Panic
		if errors.As(err, &p) {
			return res, fmt.Errorf("%w: %v", ErrPanic, p.Value)
		}
		return res, errors.New(prog.Explain(err.Error()))
	}
	return res, nil
}

// compile compiles the program, turning the interpreter's own panics
// (its bugs) into errors.
func compile(i *interp.Interpreter, src string) (p *interp.Program, err error) {
	defer func() {
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
