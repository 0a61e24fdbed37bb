package cells_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"sodworkbench.org/workbench/livebook/cells"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		shell     int
		keys      []string
		imports   []string
		body      string
		bodyLine  int
	}{
		{"shell", "!*go mod tidy\n!echo hi", 2, nil, nil, "", 0},
		{"imports and var", "import (\n\t\"fmt\"\n\tm \"math\"\n)\n\nvar ctx = 1 // note", 0, []string{"ctx"}, []string{"fmt", "math"}, "", 0},
		{"body", "func f() int { return 1 }\n%%\nfmt.Println(f())", 0, []string{"f"}, nil, "fmt.Println(f())", 3},
		{"func main", "type T struct{}\nfunc (T) M() {}\nfunc main() {\n\tprintln(1)\n}", 0, []string{"T", "T.M"}, nil, "\n\tprintln(1)\n", 3},
		{"grouped", "const (\n\ta = 1\n\tb = 2\n)", 0, []string{"a", "b"}, nil, "", 0},
	}
	for _, tt := range tests {
		c, err := cells.Parse("cell", tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var keys, imports []string
		for _, d := range c.Decls {
			keys = append(keys, d.Keys...)
		}
		for _, im := range c.Imports {
			imports = append(imports, im.Path)
		}
		if len(c.Shell) != tt.shell || !reflect.DeepEqual(keys, tt.keys) || !reflect.DeepEqual(imports, tt.imports) {
			t.Errorf("%s: shell %d keys %q imports %q, want %d %q %q", tt.name, len(c.Shell), keys, imports, tt.shell, tt.keys, tt.imports)
		}
		if tt.bodyLine > 0 && (c.Body != tt.body || c.BodyLine != tt.bodyLine) {
			t.Errorf("%s: body %q at line %d, want %q at %d", tt.name, c.Body, c.BodyLine, tt.body, tt.bodyLine)
		}
	}
}

func TestParseErrorLine(t *testing.T) {
	tests := []struct {
		src  string
		line int
	}{
		{"var x = \nvar y = 2 +", 2},
		{"%%\nx := 1\ny := := 2", 3},
		{"import \"fmt\"\n\n%%\nfmt.Println(\n", 6},
	}
	for _, tt := range tests {
		_, err := cells.Parse("cell 7", tt.src)
		e, ok := err.(*cells.Error)
		if !ok || e.Line != tt.line || e.Cell != "cell 7" {
			t.Errorf("Parse(%q) = %v, want an error at line %d", tt.src, err, tt.line)
		}
	}
}

// TestSession checks GoNB's semantics: declarations accumulate, a later
// declaration replaces an earlier one, the body is only the current cell's,
// and program lines map back to cells.
func TestSession(t *testing.T) {
	var s cells.Session
	run := func(name, src string) *cells.Program {
		c, err := cells.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Program(name, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Commit(name, c)
		return p
	}
	run("cell 1", "import \"fmt\"\nvar x = 1")
	run("cell 2", "func f() int { return x }\n%%\nfmt.Println(f())")
	run("cell 3", "var x = 2")
	p := run("cell 4", "%%\nfmt.Println(f())\nfmt.Println(x)")
	if strings.Count(p.Src, "var x") != 1 || !strings.Contains(p.Src, "var x = 2") {
		t.Errorf("x not replaced:\n%s", p.Src)
	}
	if strings.Count(p.Src, "fmt.Println(f())") != 1 {
		t.Errorf("an earlier body was kept:\n%s", p.Src)
	}
	for i, l := range strings.Split(p.Src, "\n") {
		if strings.Contains(l, "fmt.Println(x)") {
			if cell, line := p.Where(i + 1); cell != "cell 4" || line != 3 {
				t.Errorf("Where(%d) = %s, %d, want cell 4, 3", i+1, cell, line)
			}
			msg := p.Explain(strconv.Itoa(i+1) + ":13: undefined: y")
			if !strings.HasPrefix(msg, "cell 4, line 3:") {
				t.Errorf("Explain: %q", msg)
			}
		}
	}
}
