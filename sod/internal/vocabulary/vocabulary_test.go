package vocabulary

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// root is the module root, seen from this package's directory.
const root = "../../.."

// libraryTrees are the trees whose packages form the public vocabulary.
var libraryTrees = []string{"sod", "widgets"}

// skipDir reports whether a directory holds no library package: commands,
// internal packages and test data.
func skipDir(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		switch part {
		case "cmd", "internal", "testdata":
			return true
		}
		if strings.HasPrefix(part, ".") || strings.HasPrefix(part, "_") {
			return true
		}
	}
	return false
}

// pkgNames is what one package exports.
type pkgNames struct {
	path     string          // directory relative to the module root
	toplevel map[string]bool // exported types, functions, constants, variables
	fields   map[string]bool // exported fields of exported struct types
	methods  map[string]bool // exported methods of exported types (and interfaces)
	members  []member        // the same fields and methods, with their types
}

// member is an exported field or method of an exported type.
type member struct {
	typeName, name string
	method         bool
}

// libraryPackages parses the non-test Go files of every library package.
func libraryPackages(t *testing.T) []*pkgNames {
	t.Helper()
	var pkgs []*pkgNames
	for _, tree := range libraryTrees {
		err := filepath.WalkDir(filepath.Join(root, tree), func(dir string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				return err
			}
			if skipDir(rel) {
				return filepath.SkipDir
			}
			p, err := parsePackage(dir, filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			if p != nil {
				pkgs = append(pkgs, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(pkgs) < 4 {
		t.Fatalf("found %d library packages under %v; want at least sod, sod/experiments, sod/figures, widgets", len(pkgs), libraryTrees)
	}
	return pkgs
}

// parsePackage collects the exported names of the package in dir, or nil
// when dir holds no non-test, non-main Go file.
func parsePackage(dir, rel string) (*pkgNames, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &pkgNames{path: rel, toplevel: map[string]bool{}, fields: map[string]bool{}, methods: map[string]bool{}}
	found := false
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if f.Name.Name == "main" || ignored(f) {
			continue
		}
		found = true
		collect(p, f)
	}
	if !found {
		return nil, nil
	}
	return p, nil
}

// ignored reports whether a file is excluded from every build (//go:build ignore).
func ignored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

func collect(p *pkgNames, f *ast.File) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				p.toplevel[d.Name.Name] = true
				continue
			}
			if recv := receiverName(d.Recv.List[0].Type); ast.IsExported(recv) {
				p.methods[d.Name.Name] = true
				p.members = append(p.members, member{recv, d.Name.Name, true})
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							p.toplevel[n.Name] = true
						}
					}
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					p.toplevel[s.Name.Name] = true
					switch tt := s.Type.(type) {
					case *ast.StructType:
						for _, fld := range tt.Fields.List {
							for _, n := range fld.Names { // embedded fields have none
								if n.IsExported() {
									p.fields[n.Name] = true
									p.members = append(p.members, member{s.Name.Name, n.Name, false})
								}
							}
						}
					case *ast.InterfaceType:
						for _, m := range tt.Methods.List {
							for _, n := range m.Names {
								if n.IsExported() {
									p.methods[n.Name] = true
									p.members = append(p.members, member{s.Name.Name, n.Name, true})
								}
							}
						}
					}
				}
			}
		}
	}
}

// receiverName returns the name of a method's receiver type.
func receiverName(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr: // generic receiver T[P]
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// headNoun returns the last word of a CamelCase type name: "Interval" for
// StepInterval, PrintedInterval and Interval, "Result" for GDResult.
func headNoun(typeName string) string {
	last := 0
	for i, r := range typeName {
		if i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rune(typeName[i-1])) {
			last = i
		}
	}
	return typeName[last:]
}

// owners maps each name to the sorted packages where pick finds it.
func owners(pkgs []*pkgNames, pick func(*pkgNames) map[string]bool) map[string][]string {
	m := map[string][]string{}
	for _, p := range pkgs {
		for n := range pick(p) {
			m[n] = append(m[n], p.path)
		}
	}
	for _, ps := range m {
		sort.Strings(ps)
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestExportedNamesUnique fails when an exported top-level name is declared
// in two library packages: one name, one meaning.
func TestExportedNamesUnique(t *testing.T) {
	pkgs := libraryPackages(t)
	total := 0
	for _, p := range pkgs {
		t.Logf("%-28s %4d exported top-level names, %3d field names, %3d method names",
			p.path, len(p.toplevel), len(p.fields), len(p.methods))
		total += len(p.toplevel)
	}
	top := owners(pkgs, func(p *pkgNames) map[string]bool { return p.toplevel })
	dups := 0
	for _, n := range sortedKeys(top) {
		if ps := top[n]; len(ps) > 1 {
			dups++
			t.Errorf("exported name %s is declared in %d packages: %s", n, len(ps), strings.Join(ps, ", "))
		}
	}
	t.Logf("%d packages, %d exported top-level names, %d declared in more than one package", len(pkgs), total, dups)
}

// TestFieldsAndMethodsAgree fails when types of the same kind — the same
// head noun, like sod.StepInterval, paper.PrintedInterval and
// widgets.Interval — give one member name different kinds: a field on one
// and a method on another (as Interval.Empty once was). A reader holding an
// interval should not have to remember whether to call Empty. Across
// unrelated kinds a stored value and a computed one may share a name (a
// result row's field K and TPGDClosedForm.K()); those pairs are only
// counted.
func TestFieldsAndMethodsAgree(t *testing.T) {
	pkgs := libraryPackages(t)
	type where struct{ pkg, typeName string }
	kinds := map[[2]string]map[bool][]where{} // (head noun, member) → method? → where
	for _, p := range pkgs {
		for _, m := range p.members {
			key := [2]string{headNoun(m.typeName), m.name}
			if kinds[key] == nil {
				kinds[key] = map[bool][]where{}
			}
			kinds[key][m.method] = append(kinds[key][m.method], where{p.path, m.typeName})
		}
	}
	keys := make([][2]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+"."+keys[i][1] < keys[j][0]+"."+keys[j][1] })
	clashes := 0
	for _, k := range keys {
		fs, ms := kinds[k][false], kinds[k][true]
		if len(fs) == 0 || len(ms) == 0 {
			continue
		}
		clashes++
		t.Errorf("%s is a field of %s.%s but a method of %s.%s (both kinds of %s)", k[1], fs[0].pkg, fs[0].typeName, ms[0].pkg, ms[0].typeName, k[0])
	}
	fields := owners(pkgs, func(p *pkgNames) map[string]bool { return p.fields })
	methods := owners(pkgs, func(p *pkgNames) map[string]bool { return p.methods })
	loose := 0
	for n, fps := range fields {
		for _, fp := range fps {
			for _, mp := range methods[n] {
				if fp != mp {
					loose++
				}
			}
		}
	}
	t.Logf("%d member names are a field on one kind of type and a method on the same kind; %d (package, package) pairs use a name as a field in one package and a method in another across different kinds (allowed)", clashes, loose)
}
