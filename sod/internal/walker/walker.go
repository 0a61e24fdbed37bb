// Package walker lists the exported API of the module's library packages
// so that a test can call every exported function and method with bad
// arguments (issue "validation by principle"). Discover finds the packages
// by walking the module tree from go.mod (every package but internal ones,
// commands and the listed Exceptions, each with its reason), List reads
// their source with go/parser, and Generate writes the call table
// walker_test's table_gen_test.go, a slice of reflect-able function values
// (package-level functions and method expressions). The test
// TestTableFresh fails when the committed table no longer matches the
// source, and TestEveryPackageWalked when `go list ./...` names a package
// that is neither walked nor excepted: run
//
//	go generate ./sod/internal/walker
//
// after adding a package or changing exported API, and the new entry
// points are walked without anyone writing a case for them.
package walker

//go:generate go run ./gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Module is the import path of the module root.
const Module = "sodworkbench.org/workbench"

// Exceptions are the library packages of the module that are not walked,
// each with its reason. Every other package is found by Discover and walked
// without anyone listing it; TestEveryPackageWalked fails when a package of
// `go list ./...` is neither walked nor listed here (nor internal, nor a
// command).
var Exceptions = map[string]string{
	"docker":           "no Go API: the container image's build helpers and tests, tested by its own tests",
	"docker/hub":       "no Go API: the classroom hub's configuration and scripts",
	"scripts":          "no Go API: the set-up, run and test scripts, tested by its own tests",
	"sod/reproducecli": "the command reproduce as a library: Main exits the process and Run runs the command on its arguments; both are tested by the package's own tests (bad arguments are usage errors, exit status 2)",
}

// Package is one walked package.
type Package struct {
	Dir  string // directory relative to the module root, e.g. "sod/experiments"
	Name string // package name, as in its package clause
}

// ImportPath is the package's import path.
func (p Package) ImportPath() string { return Module + "/" + p.Dir }

// Discover returns the packages of the module at root that are walked: every
// directory with non-test Go files, except those under an internal/ or
// testdata/ directory, those whose name starts with "." or "_" (which the go
// command ignores), nested modules (a directory with its own go.mod),
// commands (package main: they only parse flags and wire packages) and
// Exceptions. It reads the files' package clauses itself (no `go list`), so
// a new package is walked as soon as it exists. The result is sorted by Dir.
func Discover(root string) ([]Package, error) {
	return discover(root, func(name string) bool { return name != "main" })
}

// Commands returns the commands of the module at root (the directories
// of package main, found as Discover finds packages: nested modules,
// internal, testdata and hidden directories left out), sorted by Dir.
// TestWalkCommandFlags builds each and walks its flags.
func Commands(root string) ([]Package, error) {
	return discover(root, func(name string) bool { return name == "main" })
}

// Modules returns the directories (relative to root, "." first) of the
// Go modules in the tree of the module at root: root itself and every
// nested directory with its own go.mod (the live book's engine), found by
// its go.mod wherever it lives; hidden directories (.ci), testdata and
// node_modules are left out. TestWalkCommandFlags walks the commands of
// each.
func Modules(root string) ([]string, error) {
	mods := []string{"."}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || p == root {
			return nil
		}
		base := d.Name()
		if strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "node_modules" {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			mods = append(mods, filepath.ToSlash(rel))
		}
		return nil
	})
	return mods, err
}

// discover lists the packages under root whose name keep accepts.
func discover(root string, keep func(name string) bool) ([]Package, error) {
	var pkgs []Package
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		base := d.Name()
		if strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "internal" || base == "node_modules" || IsOutput(rel) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return filepath.SkipDir // another module
		}
		name, ok, err := packageName(p)
		if err != nil || !ok || !keep(name) {
			return err
		}
		if _, except := Exceptions[rel]; except {
			return nil
		}
		pkgs = append(pkgs, Package{Dir: rel, Name: name})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Dir < pkgs[j].Dir })
	return pkgs, nil
}

// goFiles returns the non-test Go files of dir.
func goFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out, nil
}

// packageName returns the package name of dir's non-test Go files (ok
// false when it has none).
func packageName(dir string) (name string, ok bool, err error) {
	files, err := goFiles(dir)
	if err != nil || len(files) == 0 {
		return "", false, err
	}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly)
		if err != nil {
			return "", false, err
		}
		if af.Name.Name == "documentation" {
			continue
		}
		return af.Name.Name, true, nil
	}
	return "", false, nil
}

// Entry is one exported function or method.
type Entry struct {
	Pkg  string // directory relative to the module root, e.g. "sod/experiments"
	Qual string // the package's qualifier in the generated file
	Name string // function or method name
	Recv string // receiver type name ("" for a function)
	Ptr  bool   // pointer receiver
}

// Expr is the Go expression of the function value: pkg.F, pkg.T.M or (*pkg.T).M.
func (e Entry) Expr() string {
	switch {
	case e.Recv == "":
		return e.Qual + "." + e.Name
	case e.Ptr:
		return "(*" + e.Qual + "." + e.Recv + ")." + e.Name
	default:
		return e.Qual + "." + e.Recv + "." + e.Name
	}
}

// qualifiers returns the qualifier of each package: its name, or, when two
// walked packages share a name, its directory with "/" written "_".
func qualifiers(pkgs []Package) map[string]string {
	count := map[string]int{}
	for _, p := range pkgs {
		count[p.Name]++
	}
	q := map[string]string{}
	for _, p := range pkgs {
		q[p.Dir] = p.Name
		if count[p.Name] > 1 {
			q[p.Dir] = strings.NewReplacer("/", "_", "-", "_", ".", "_").Replace(p.Dir)
		}
	}
	return q
}

// List returns the packages Discover finds under root, the exported
// functions and methods (on exported types) of their non-test files,
// sorted, and the generic ones it skipped (a generic function has no value
// without instantiation).
func List(root string) (pkgs []Package, entries []Entry, skipped []string, err error) {
	pkgs, err = Discover(root)
	if err != nil {
		return nil, nil, nil, err
	}
	quals := qualifiers(pkgs)
	fset := token.NewFileSet()
	for _, pkg := range pkgs {
		files, err := goFiles(filepath.Join(root, filepath.FromSlash(pkg.Dir)))
		if err != nil {
			return nil, nil, nil, err
		}
		for _, name := range files {
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, nil, nil, err
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() {
					continue
				}
				e := Entry{Pkg: pkg.Dir, Qual: quals[pkg.Dir], Name: fd.Name.Name}
				generic := fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					t := fd.Recv.List[0].Type
					if st, ok := t.(*ast.StarExpr); ok {
						e.Ptr, t = true, st.X
					}
					switch t := t.(type) {
					case *ast.Ident:
						e.Recv = t.Name
					case *ast.IndexExpr:
						generic, e.Recv = true, fmt.Sprint(t.X)
					case *ast.IndexListExpr:
						generic, e.Recv = true, fmt.Sprint(t.X)
					}
					if !ast.IsExported(e.Recv) {
						continue
					}
				}
				if generic {
					skipped = append(skipped, e.Expr())
					continue
				}
				entries = append(entries, e)
			}
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Expr() < entries[j].Expr() })
	sort.Strings(skipped)
	return pkgs, entries, skipped, nil
}

// TableFile is the generated file, relative to this package's directory.
const TableFile = "table_gen_test.go"

// Generate returns the gofmt-ed source of TableFile for the module at root.
func Generate(root string) ([]byte, error) {
	pkgs, entries, skipped, err := List(root)
	if err != nil {
		return nil, err
	}
	quals := qualifiers(pkgs)
	used := map[string]bool{}
	for _, e := range entries {
		used[e.Pkg] = true
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by \"go generate ./sod/internal/walker\"; DO NOT EDIT.\n\n")
	b.WriteString("package walker_test\n\nimport (\n")
	for _, p := range pkgs {
		if !used[p.Dir] {
			continue
		}
		if quals[p.Dir] != path.Base(p.Dir) {
			fmt.Fprintf(&b, "\t%s %q\n", quals[p.Dir], p.ImportPath())
		} else {
			fmt.Fprintf(&b, "\t%q\n", p.ImportPath())
		}
	}
	b.WriteString(")\n\n")
	b.WriteString("// walked lists the packages walker.Discover found, with their number of\n")
	b.WriteString("// entries (0: no exported function or method).\n")
	b.WriteString("var walked = map[string]int{\n")
	for _, p := range pkgs {
		n := 0
		for _, e := range entries {
			if e.Pkg == p.Dir {
				n++
			}
		}
		fmt.Fprintf(&b, "\t%q: %d,\n", p.Dir, n)
	}
	b.WriteString("}\n\n")
	if len(skipped) > 0 {
		b.WriteString("// Generic, not walked (no value without instantiation):\n")
		for _, s := range skipped {
			fmt.Fprintf(&b, "//   %s\n", s)
		}
		b.WriteString("\n")
	}
	b.WriteString("// table holds every exported function and method of the walked packages.\n")
	b.WriteString("var table = []entry{\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "\t{%q, %s},\n", e.Expr(), e.Expr())
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// Write regenerates TableFile in dir (this package's directory) for the
// module at root.
func Write(root, dir string) error {
	src, err := Generate(root)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, TableFile), src, 0o644)
}

// OutputDirs are the folders at the module root that the workbench's own
// commands write (the book, the benchmark, the experiments' files: the
// repository ignores them). What they hold is output, never the module's
// API: a live book ships Go sources of its own there.
var OutputDirs = []string{"out", "bench-out", "reproduce-out"}

// IsOutput reports whether rel (relative to the module root, slash
// separated) lies in one of OutputDirs.
func IsOutput(rel string) bool {
	top, _, _ := strings.Cut(rel, "/")
	for _, d := range OutputDirs {
		if top == d {
			return true
		}
	}
	return false
}
