package cells_test

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/livebook/cells"
)

type Point struct{ X, Y float64 }

const mustSrc = `package must
func M1[T1 any](value1 T1, err error) T1 { return value1 }
func M2[T1 any, T2 any](value1 T1, value2 T2, err error) (T1, T2) { return value1, value2 }
`

// rewriter has a compiled package (this one, as "pkg") and must from
// source.
func rewriter() (*cells.Rewriter, string) {
	path := reflect.TypeFor[Point]().PkgPath()
	return &cells.Rewriter{
		Symbols: map[string]map[string]reflect.Value{
			path + "/cells_test": {
				"Point": reflect.ValueOf((*Point)(nil)),
				"One":   reflect.ValueOf(func() (*Point, error) { return nil, errors.New("x") }),
				"Two":   reflect.ValueOf(func(int) ([]float64, map[string]Point, error) { return nil, nil, nil }),
			},
		},
		Sources: map[string][]string{"github.com/janpfeifer/must": {mustSrc}},
		Support: "example.org/support",
	}, path
}

// TestRewrites checks each rewrite's text and that every rewrite keeps
// the program's lines (the interpreter's positions are the cell's).
func TestRewrites(t *testing.T) {
	rw, path := rewriter()
	tests := []struct{ name, body, want string }{
		{"generic of a multi-value call", "p := must.M1(pkg.One())\n_ = p", "must.M1[*pkg.Point](pkg.One())"},
		{"two type arguments", "a, b := must.M2(pkg.Two(3))\n_, _ = a, b", "must.M2[[]float64, map[string]pkg.Point](pkg.Two(3))"},
		{"explicit type arguments stay", "p := must.M1[*pkg.Point](pkg.One())\n_ = p", "must.M1[*pkg.Point](pkg.One())"},
		{"parallel fields, constants in place", "var q pkg.Point\nq.X, q.Y = 1, 2", "{ livebook_o1 := &q; livebook_o2 := &q; livebook_o1.X = 1; livebook_o2.Y = 2 }"},
		{"parallel over lines", "var q pkg.Point\nq.X,\nq.Y = q.Y,\nq.X", "{\n\n livebook_o1 := &q; livebook_o2 := &q; var livebook_v3 float64 = q.Y; var livebook_v4 float64 = q.X; livebook_o1.X = livebook_v3; livebook_o2.Y = livebook_v4 }"},
		{"parallel as a for post", "var q pkg.Point\nfor i := 0; i < 2; q.X, q.Y = q.X+1, q.Y {\ni++\n}", "; func() { livebook_o1 := &q"},
		{"parallel as an if init", "var q pkg.Point\nif q.X, q.Y = 1, 2; q.X > 0 {\n}", "if func() { livebook_o1 := &q"},
		{"index operands first", "s := []int{1, 2}\ni := 0\ni, s[i] = 1, 5", "{ livebook_o1 := s; livebook_k2 := i; i = 1; livebook_o1[livebook_example_org_support.Index(int64(livebook_k2), len(livebook_o1), 7)] = 5 }"},
		{"a variable index", "s := []int{1}\ni := 0\n_ = s[i]", "_ = s[livebook_example_org_support.Index(int64(i), len(s), 7)]"},
		{"a variable named clear", "clear := 1\n_ = clear", "clear := 1"},
		{"the builtin clear", "m := map[int]int{}\nclear(m)", "livebook_example_org_support.Clear(m)"},
		{"range over an int", "for i := range 3 {\n_ = i\n}", "range livebook_example_org_support.Indices(3)"},
		{"range over an int64", "var n int64 = 3\nfor i := range n {\n_ = i\n}", "for livebook_i1 := range livebook_example_org_support.Indices(n) { i := int64(livebook_i1);"},
		{"a captured loop variable", "var fs []func() int\nfor i := 0; i < 3; i++ {\nfs = append(fs, func() int { return i })\n}", "for livebook_loop_i_1 := 0; livebook_loop_i_1 < 3; livebook_loop_i_1++ { i := livebook_loop_i_1;"},
		{"defer's arguments", "x := 1\ndefer println(x)\nx = 2", "{ livebook_a1 := x; defer livebook_example_org_support.Print(true, livebook_a1) }"},
		{"min", "a := 2.0\n_ = min(a, 1)", "func(a float64, b ...float64) float64 {"},
		{"a constant expression", "var f float64 = 100 / 8\n_ = f", "var f float64 = float64(12.0)"},
		{"an empty switch with an init statement", "x := 0\nswitch x = 7; {\n}\n_ = x", "switch x = 7; { default:\n}"},
		{"a constant over lines in a list", "_ = []int{1 +\n2, 3}", "_ = []int{int(\n3), 3}"},
		{"a parallel assignment over lines in a block", "var q pkg.Point\nif true {\nq.X, q.Y = 1,\n2\n}", "{\n livebook_o1 := &q"},
	}
	for _, tt := range tests {
		var s cells.Session
		cell := "import (\n\"github.com/janpfeifer/must\"\npkg \"" + path + "\"\n)\n%%\n" + tt.body
		c, err := cells.Parse("cell", cell)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := s.Program("cell", c, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Program("cell", c, rw)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !strings.Contains(p.Src, tt.want) {
			t.Errorf("%s: want %q in\n%s", tt.name, tt.want, p.Src)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", p.Src, 0); err != nil {
			t.Errorf("%s: the rewritten program does not parse: %v\n%s", tt.name, err, p.Src)
		}
		if strings.Count(p.Src, "\n") != strings.Count(plain.Src, "\n") {
			t.Errorf("%s: the rewrite changed the number of lines:\n%s", tt.name, p.Src)
		}
	}
}

// TestRefusals checks that what the page cannot run is refused at the
// cell's line, with a message naming the construct, and that type errors
// are Go's.
func TestRefusals(t *testing.T) {
	rw, _ := rewriter()
	tests := []struct {
		body string
		line int
		want string
	}{
		{"x := 1\nvar a [1 << 61]float64\n_, _ = x, a", 3, "larger than the page's interpreter can hold"},
		{"for i := range func(yield func(int) bool) {} {\n_ = i\n}", 2, "range over a function"},
		{"for i := 0; i < 2; i++ {\ndefer func() { println(i) }()\n}", 3, "pass it as an argument"},
		{"\nvar x int = \"a\"\n_ = x", 3, "cannot use \"a\""},
	}
	for _, tt := range tests {
		var s cells.Session
		c, err := cells.Parse("cell 2", "%%\n"+tt.body)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Program("cell 2", c, rw)
		var e *cells.Error
		if !errors.As(err, &e) || e.Line != tt.line || e.Cell != "cell 2" || !strings.Contains(e.Msg, tt.want) {
			t.Errorf("%q: %v, want line %d with %q", tt.body, err, tt.line, tt.want)
		}
	}
}

// TestLargeCell checks that the rewrite is linear in the cell's size.
func TestLargeCell(t *testing.T) {
	rw, path := rewriter()
	var b strings.Builder
	b.WriteString("import (\n\"github.com/janpfeifer/must\"\npkg \"" + path + "\"\n)\n%%\nvar q pkg.Point\n")
	for range 5000 {
		b.WriteString("_ = must.M1(pkg.One())\nq.X, q.Y = q.Y, 1\n")
	}
	var s cells.Session
	c, err := cells.Parse("cell", b.String())
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Program("cell", c, rw)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(p.Src, "must.M1[*pkg.Point]"); n != 5000 {
		t.Errorf("%d generic calls rewritten, want 5000", n)
	}
}

// TestDynamicTypes checks the refusals of what the interpreter answers
// wrongly about the dynamic types of values (see dynamic.go), at the
// cell's line (marked "// here"), and that their neighbours it answers
// rightly are not refused. (live's TestDynamicTypes runs the same kinds of
// cells in the interpreter and natively.)
func TestDynamicTypes(t *testing.T) {
	rw, _ := rewriter()
	rw.Symbols["fmt/fmt"] = map[string]reflect.Value{"Printf": reflect.ValueOf(fmt.Printf), "Sprintf": reflect.ValueOf(fmt.Sprintf)}
	const common = "import \"fmt\"\ntype M int\nfunc (M) F() {}\ntype I interface{ F() }\ntype P struct{ A int }\n"
	tests := []struct {
		name, decl, body string
		want             string // words of the refusal ("": accepted)
	}{
		{"an interface with methods and a declared type", "", "var x I = M(5)\n_ = x == M(5) // here", "comparing interface values"},
		{"any and a declared type with methods", "", "var x any = M(5)\n_ = x != M(5) // here", "comparing interface values"},
		{"two interfaces", "", "var x, y I = M(5), M(5)\n_ = x == y // here", "comparing interface values"},
		{"a switch's case", "", "var x I = M(5)\nswitch x {\ncase M(5): // here\n}", "comparing interface values"},
		{"an interface and a type parameter", "func eq[T comparable](i any, t T) bool {\n\treturn i == t // here\n}\n", "_ = eq(1, 1)", "comparing an interface value with a value of a type parameter"},
		{"a type assertion to a type parameter", "func is[T any](i any) bool {\n\t_, ok := i.(T) // here\n\treturn ok\n}\n", "_ = is[M](1)", "type made of a type parameter"},
		{"a type switch case of a type parameter", "func sw[T any](i any) int {\n\tswitch i.(type) {\n\tcase T: // here\n\t\treturn 1\n\t}\n\treturn 0\n}\n", "_ = sw[int](1)\n_ = sw[any](1)", "type made of a type parameter"},
		{"a type parameter's case, basic type arguments", "func sw[T any](i any) int {\n\tswitch i.(type) {\n\tcase T, []T:\n\t\treturn 1\n\t}\n\t_, ok := i.(T)\n\t_ = ok\n\treturn 0\n}\n", "_ = sw[int](1)\n_ = sw[string](1)", ""},
		{"a type switch case of an interface of a type parameter", "func sw[T any](i any) int {\n\tswitch i.(type) {\n\tcase interface{ G() T }: // here\n\t\treturn 1\n\t}\n\treturn 0\n}\n", "_ = sw[int](1)", "type made of a type parameter"},
		{"%T of a declared type", "", "fmt.Printf(\"%d %T\\n\", 1, M(1)) // here", "%T of a value of a type this program declares"},
		{"%#v of a declared struct", "", "s := fmt.Sprintf(\"%#v\", []P{{1}}) // here\n_ = s", "%#v of a value"},
		{"%T of an interface a declared type implements", "", "var x I\nfmt.Printf(\"%T\", x) // here", "%T of a value"},
		{"%T of a generic type", "type G[T any] struct{ V T }\n", "fmt.Printf(\"%T\", G[int]{}) // here", "%T of a value"},
		{"any holding a declared type and its underlying type", "type Q int\n", "var x any = 3\n_ = x == 3 // here", "does not tell the two types apart"},

		{"a case of an underlying type", "type Q int\n", "var x any = 3\nswitch x.(type) {\ncase int: // here\n}", "does not tell the two types apart"},
		{"an assertion to another type of a declared type's underlying type", "type R float64\n", "var x any = R(3)\n_, ok := x.(float64) // here\n_ = ok", "does not tell the two types apart"},
		{"an assertion to a declared type without methods", "type R float64\n", "var x any = R(3)\n_, ok := x.(R)\n_ = ok", ""},
		{"a comparison with nil", "", "var x I\n_ = x == nil", ""},
		{"a declared type without methods in any", "", "type Q int\nvar x any = Q(1)\n_ = x == Q(1)", ""},
		{"an interface no declared type implements", "", "var e, f error\n_ = e == f", ""},
		{"%T and %#v of the language's types", "", "fmt.Printf(\"%T %#v %v\\n\", 1, []int{1}, P{1})", ""},
		{"a type switch on concrete types", "", "var x any = 1\nswitch x.(type) {\ncase int, M:\n}", ""},
		{"a generic function's type switch on concrete types", "func sw[T any](i any) int {\n\tswitch i.(type) {\n\tcase int:\n\t\treturn 1\n\t}\n\treturn 0\n}\n", "_ = sw[int](1)", ""},
	}
	for _, tt := range tests {
		var s cells.Session
		cell := common + tt.decl + "%%\n" + tt.body
		c, err := cells.Parse("cell 2", cell)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Program("cell 2", c, rw)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v, want it accepted", tt.name, err)
			}
			continue
		}
		line := strings.Count(cell[:strings.Index(cell, "// here")], "\n") + 1
		var e *cells.Error
		if !errors.As(err, &e) || e.Line != line || !strings.Contains(e.Msg, tt.want) || !strings.Contains(e.Msg, "not available in the browser") {
			t.Errorf("%s: %v, want line %d with %q", tt.name, err, line, tt.want)
		}
	}
}

// TestUnusedImports: the imports a program does not use are dropped, as
// GoNB's goimports drops them, on their lines; blank imports stay, and so
// does an import only a rewrite uses (the type argument written into a
// generic call names a package the cell imports but does not mention).
func TestUnusedImports(t *testing.T) {
	rw, path := rewriter()
	rw.Symbols["example.org/other/other"] = map[string]reflect.Value{
		"One": reflect.ValueOf(func() (*Point, error) { return nil, nil }),
	}
	head := fmt.Sprintf("package main\nimport pkg %q\nimport \"github.com/janpfeifer/must\"\nimport \"example.org/other\"\nimport _ %q\n", path, path)
	tests := []struct {
		name, body string
		kept       []string // import lines kept
		dropped    []string
	}{
		{"none used", "", []string{"import _ "}, []string{"import pkg ", "import \"github.com/janpfeifer/must\"", "import \"example.org/other\""}},
		{"used", "var q pkg.Point\n_ = q\n_ = must.M1(other.One())", []string{"import pkg ", "import \"github.com/janpfeifer/must\"", "import \"example.org/other\"", "import _ "}, nil},
		{"used by a rewrite only", "p := must.M1(other.One())\n_ = p", []string{"import pkg ", "import \"github.com/janpfeifer/must\"", "import \"example.org/other\""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + "func main() {\n" + tt.body + "\n}\n"
			out, err := rw.Check(src)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if got, want := strings.Count(out, "\n"), strings.Count(src, "\n"); got != want {
				t.Errorf("%d lines, want %d:\n%s", got, want, out)
			}
			for _, k := range tt.kept {
				if !strings.Contains(out, k) {
					t.Errorf("%q dropped:\n%s", k, out)
				}
			}
			for _, d := range tt.dropped {
				if strings.Contains(out, d) {
					t.Errorf("%q kept:\n%s", d, out)
				}
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
				t.Errorf("the rewritten program does not parse: %v\n%s", err, out)
			}
		})
	}
	// A session's program lists only the imports it keeps (the
	// interpreter is given those).
	c, err := cells.Parse("cell 1", fmt.Sprintf("import (\n\tpkg %q\n\t\"github.com/janpfeifer/must\"\n)\n%%%%\nvar q pkg.Point\n_ = q", path))
	if err != nil {
		t.Fatal(err)
	}
	var s cells.Session
	p, err := s.Program("cell 1", c, rw)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{path}; !reflect.DeepEqual(p.Imports, want) {
		t.Errorf("the program's imports are %q, want %q", p.Imports, want)
	}
}
