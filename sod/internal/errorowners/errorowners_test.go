package errorowners

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the module root, seen from this package's directory.
const root = "../../.."

// module is the module's import path.
const module = "sodworkbench.org/workbench"

// unprefixed are the sentinels whose message does not start with their
// package's name, each with its reason.
var unprefixed = map[string]string{
	"sod/exercises.ErrUnanswered": "shown to students in their notebook (\"exercise 02.1: not answered yet: …\"), where a package name is noise",
	"sod/exercises.ErrUnknown":    "shown to students in their notebook, as ErrUnanswered",
	"sod/grading.ErrNotExported":  "shown to students in the grader's report (\"no answer exported\"), as ErrUnanswered",
}

// pkg is the non-test source of one package of the module.
type pkg struct {
	dir   string // relative to the module root, slash-separated
	name  string // package clause
	files []*ast.File
}

// modulePackages parses the non-test Go files of every package of the
// module (nested modules, testdata and hidden folders excluded).
func modulePackages(t *testing.T) []*pkg {
	t.Helper()
	var pkgs []*pkg
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root {
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own
			}
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		pk := &pkg{dir: filepath.ToSlash(rel)}
		fset := token.NewFileSet()
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(p, n), nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			pk.name = f.Name.Name
			pk.files = append(pk.files, f)
		}
		if len(pk.files) > 0 {
			pkgs = append(pkgs, pk)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d packages under %s", len(pkgs), root)
	}
	return pkgs
}

// moduleImports maps the local names of f's imports of module packages to
// their directories.
func moduleImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if !strings.HasPrefix(path, module+"/") {
			continue
		}
		local := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			local = im.Name.Name
		}
		m[local] = strings.TrimPrefix(path, module+"/")
	}
	return m
}

func isSentinel(name string) bool {
	return strings.HasPrefix(name, "Err") && len(name) > 3 && name[3] >= 'A' && name[3] <= 'Z'
}

// TestNoBorrowedSentinels fails when a package makes an error with another
// module package's sentinel: fmt.Errorf, errors.Join or panic with an
// argument (at any depth) that is pkg.ErrX.
func TestNoBorrowedSentinels(t *testing.T) {
	calls := 0
	for _, p := range modulePackages(t) {
		for _, f := range p.files {
			imports := moduleImports(f)
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch fn := call.Fun.(type) {
				case *ast.SelectorExpr:
					x, ok := fn.X.(*ast.Ident)
					if !ok || !(x.Name == "fmt" && fn.Sel.Name == "Errorf" || x.Name == "errors" && fn.Sel.Name == "Join") {
						return true
					}
				case *ast.Ident:
					if fn.Name != "panic" {
						return true
					}
				default:
					return true
				}
				calls++
				for _, a := range call.Args {
					ast.Inspect(a, func(n ast.Node) bool {
						sel, ok := n.(*ast.SelectorExpr)
						if !ok {
							return true
						}
						x, ok := sel.X.(*ast.Ident)
						if !ok {
							return true
						}
						if dir, ok := imports[x.Name]; ok && isSentinel(sel.Sel.Name) && dir != p.dir {
							t.Errorf("%s: makes an error with %s.%s, a sentinel of %s: give %s a sentinel of its own (an error %s returned passes through as err, %%w)", p.dir, x.Name, sel.Sel.Name, dir, p.dir, dir)
						}
						return true
					})
				}
				return true
			})
		}
	}
	t.Logf("%d error-making calls checked", calls)
}

// TestNoImportForErrors fails when a package's only use of another module
// package is one or more of its sentinels, unless every use is a check
// (errors.Is) of an error that package's code returned through a third one,
// as a caller checks fs.ErrNotExist.
func TestNoImportForErrors(t *testing.T) {
	for _, p := range modulePackages(t) {
		uses := map[string]map[string]bool{} // imported dir → selected names
		made := map[string]bool{}            // imported dir → a sentinel used outside errors.Is
		for _, f := range p.files {
			imports := moduleImports(f)
			for _, dir := range imports {
				if uses[dir] == nil {
					uses[dir] = map[string]bool{}
				}
			}
			checked := map[*ast.SelectorExpr]bool{}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn, ok := call.Fun.(*ast.SelectorExpr); ok {
						if x, ok := fn.X.(*ast.Ident); ok && x.Name == "errors" && fn.Sel.Name == "Is" && len(call.Args) == 2 {
							if s, ok := call.Args[1].(*ast.SelectorExpr); ok {
								checked[s] = true
							}
						}
					}
				}
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok {
					if dir, ok := imports[x.Name]; ok {
						uses[dir][sel.Sel.Name] = true
						if !checked[sel] {
							made[dir] = true
						}
					}
				}
				return true
			})
		}
		for dir, names := range uses {
			onlyErrs := len(names) > 0
			for n := range names {
				onlyErrs = onlyErrs && isSentinel(n)
			}
			if onlyErrs && made[dir] {
				t.Errorf("%s imports %s only for its errors (%s)", p.dir, dir, strings.Join(sorted(names), ", "))
			}
		}
	}
}

// TestSentinelPrefixes fails when a package-level sentinel made with
// errors.New has a message that does not start with its package's name
// and a colon, but for those listed in unprefixed.
func TestSentinelPrefixes(t *testing.T) {
	count := 0
	seen := map[string]bool{}
	for _, p := range modulePackages(t) {
		for _, f := range p.files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if !isSentinel(n.Name) || i >= len(vs.Values) {
							continue
						}
						call, ok := vs.Values[i].(*ast.CallExpr)
						if !ok || len(call.Args) != 1 {
							continue
						}
						fn, ok := call.Fun.(*ast.SelectorExpr)
						if !ok || fn.Sel.Name != "New" {
							continue
						}
						lit, ok := call.Args[0].(*ast.BasicLit)
						if !ok {
							continue
						}
						msg, _ := strconv.Unquote(lit.Value)
						count++
						key := p.dir + "." + n.Name
						if _, ok := unprefixed[key]; ok {
							seen[key] = true
							continue
						}
						if !strings.HasPrefix(msg, p.name+": ") {
							t.Errorf("%s: sentinel %s = %q does not start with %q", p.dir, n.Name, msg, p.name+": ")
						}
					}
				}
			}
		}
	}
	for key := range unprefixed {
		if !seen[key] {
			t.Errorf("unprefixed lists %s, which is no sentinel made with errors.New (renamed or removed?)", key)
		}
	}
	t.Logf("%d exported sentinels checked", count)
}

func sorted(m map[string]bool) []string {
	s := make([]string, 0, len(m))
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}
