package live_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"sodworkbench.org/workbench/livebook/cells"
	"sodworkbench.org/workbench/livebook/live"
)

// TestGoMeaning runs, in the interpreter, programs whose cells the page
// rewrites (see cells.Rewriter) and programs the interpreter alone gets
// wrong, and checks that each prints what Go prints (the outputs were
// checked with go run) or is refused with a message naming the construct.
func TestGoMeaning(t *testing.T) {
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	const imports = "import (\n\t\"fmt\"\n\t\"sodworkbench.org/workbench/sod/experiments\"\n)\n"
	tests := []struct {
		name, body string
		want       string // Go's output, or "refused: <words of the message>"
	}{
		{"D1 parallel assignment over two lines", "cfg := experiments.DefaultQNNScanConfig()\ncfg.QNN, cfg.Starts =\n\texperiments.PlateauQNNConfig(), 5\nfmt.Println(cfg.Starts)", "5\n"},
		{"D1 over three lines", "type P struct{ A, B int }\nvar p P\np.A,\n\tp.B = 1,\n\t2\nfmt.Println(p)", "{1 2}\n"},
		{"D2 constants take the targets' types", "cfg := experiments.DefaultBasicFromStartConfig()\ncfg.SGDSeed, cfg.Step = 11, 0.08\nfmt.Println(cfg.SGDSeed, cfg.Step)", "11 0.08\n"},
		{"D2 a shift takes the target's type", "var s uint = 40\ntype P struct{ A int64; B int }\nvar p P\np.A, p.B = 1<<s, 2\nfmt.Println(p.A)", "1099511627776\n"},
		{"D5 closures of a 3-clause loop", "var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfor _, f := range fs {\n\tfmt.Print(f(), \" \")\n}\nfmt.Println()", "0 1 2 \n"},
		{"D5 deferred calls in a loop", "func() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer fmt.Println(\"deferred\", i)\n\t}\n}()", "deferred 2\ndeferred 1\ndeferred 0\n"},
		{"D5 the body changes the variable, continue copies it back", "var fs []func() int\nfor i := 0; i < 5; i++ {\n\tfs = append(fs, func() int { return i })\n\tif i == 2 {\n\t\ti++\n\t\tcontinue\n\t}\n}\nfor _, f := range fs {\n\tfmt.Print(f())\n}\nfmt.Println()", "0134\n"},
		{"D5 a deferred literal using a loop variable is refused", "func() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer func() { fmt.Print(i) }()\n\t}\n}()", "refused: pass it as an argument"},
		{"D5 a deferred literal with the variable as argument", "func() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer func(i int) { fmt.Print(i) }(i)\n\t}\n}()\nfmt.Println()", "210\n"},
		{"D5 labeled continue from an inner loop", "var fs []func() int\nouter:\nfor i := 0; i < 4; i++ {\n\tfs = append(fs, func() int { return i })\n\tfor j := 0; j < 2; j++ {\n\t\tif i%2 == 0 {\n\t\t\ti++\n\t\t\tcontinue outer\n\t\t}\n\t}\n}\nfor _, f := range fs {\n\tfmt.Print(f())\n}\nfmt.Println()", "13\n"},
		{"D5 range variables", "var fs []func() string\nfor i, s := range []string{\"a\", \"b\"} {\n\tfs = append(fs, func() string { return fmt.Sprint(i, s) })\n}\nfor _, f := range fs {\n\tfmt.Print(f(), \" \")\n}\nfmt.Println()", "0a 1b \n"},
		{"D5 range over an integer", "var fs []func() int\nfor i := range 3 {\n\tfs = append(fs, func() int { return i })\n}\nfor _, f := range fs {\n\tfmt.Print(f())\n}\nfmt.Println()", "012\n"},
		{"range over a typed integer keeps its type", "var n int64 = 2\nfor i := range n {\n\tfmt.Printf(\"%T \", i)\n}\nfmt.Println()", "int64 int64 \n"},
		{"goroutines of a loop", "ch := make(chan int, 3)\nfor i := 0; i < 3; i++ {\n\tgo func() { ch <- i }()\n}\ns := 0\nfor range 3 {\n\ts += <-ch\n}\nfmt.Println(s)", "3\n"},
		{"defer evaluates its arguments at once", "func() {\n\tx := 0\n\tdefer fmt.Println(\"d\", x)\n\tx = 5\n}()", "d 0\n"},
		{"parallel assignment as a for post statement", "type P struct{ A, B int }\nvar p P\nfor i := 0; i < 3; p.A, p.B = p.A+1, p.B+2 {\n\ti++\n}\nfmt.Println(p)", "{3 6}\n"},
		{"parallel assignment as an if init", "type P struct{ A, B int }\nvar p P\nif p.A, p.B = 7, 8; p.A > 0 {\n\tfmt.Println(p)\n}", "{7 8}\n"},
		{"an empty switch's init statement runs", "x := 0\nswitch x = 7; {\n}\nfmt.Println(x)", "7\n"},
		{"an empty type switch with an init statement is refused", "var a any = 1\ny := 0\nswitch y = 3; a.(type) {\n}\nfmt.Println(y)", "refused: put the statement before the switch"},
		{"parallel assignment as a switch init", "type P struct{ A, B int }\nvar p P\nswitch p.A, p.B = 7, 8; {\ndefault:\n\tfmt.Println(p)\n}", "{7 8}\n"},
		{"index operands are evaluated first", "s := []int{1, 2, 3}\ni := 0\ni, s[i] = 2, 9\nfmt.Println(i, s)", "2 [9 2 3]\n"},
		{"swap", "x := []int{1, 2}\nx[0], x[1] = x[1], x[0]\nfmt.Println(x)", "[2 1]\n"},
		{"map and comma-ok", "type B bool\nm := map[string]int{\"a\": 1}\nvar r struct{ V int; OK B }\nr.V, r.OK = m[\"a\"]\nfmt.Println(r)", "{1 true}\n"},
		{"a variable named clear", "clear := 3\nfmt.Println(clear)", "3\n"},
		{"the builtin clear", "m := map[int]int{1: 1}\nclear(m)\nfmt.Println(len(m))", "0\n"},
		{"min and max", "a, b := 3.0, -1.0\nfmt.Println(min(3, 1, 2), max(2.5, 1), min(a, b), max(a, b, 7), min(\"b\", \"a\"))", "1 2.5 -1 7 a\n"},
		{"min with a NaN and zeros", "z, nz := 0.0, 0.0\nnz = -nz\nnan := z / z\nfmt.Println(min(1, nan), max(nan, 1), 1/min(z, nz), 1/max(nz, z))", "NaN NaN -Inf +Inf\n"},
		{"a huge array is refused", "var a [1 << 61]float64\nfmt.Println(len(a))", "refused: larger than"},
		{"range over a function is refused", "for i := range func(yield func(int) bool) { yield(1) } {\n\tfmt.Println(i)\n}", "refused: range over a function"},
		{"D3 a goroutine's panic ends the run with its value", "done := make(chan bool)\ngo func() {\n\tvar s []int\n\t_ = s[3]\n\tdone <- true\n}()\n<-done\nfmt.Println(\"not reached\")", "panic: runtime error: index out of range"},
		{"and the next run works", "fmt.Println(\"next\")", "next\n"},
		{"D3 a goroutine's panic value", "done := make(chan bool)\ngo func(n int) {\n\tpanic(fmt.Sprint(\"boom \", n))\n}(7)\n<-done", "panic: boom 7"},
		{"D4 Go's message for an index, at the cell's line", "s := []int{1, 2, 3}\nn := 5\n\nfmt.Println(s[n])", "panic: line 9: panic: runtime error: index out of range [5] with length 3"},
		{"an index in range", "s := []int{1, 2, 3}\nt := \"abc\"\na := [2]int{4, 5}\nfor i := range 3 {\n\ts[i] *= 2\n}\nj := int64(1)\nfmt.Println(s, t[j], a[j], s[len(s)-1])", "[2 4 6] 98 5 6\n"},
		{"D4 integer divide by zero", "a, b := 1, 0\nfmt.Println(a / b)", "panic: runtime error: integer divide by zero"},
		{"print and println with the formats of Go's runtime", "var s []int\nprintln(1.5, true, s == nil, 7, s)\nprint(\"a\", 1, \"\\n\")", "1.5 true true 7 [0/0]0x0\na1\n"},
		{"an untyped constant of a compiled package", "var f float64 = experiments.MaxBasicStarts / 8\nfmt.Println(f, experiments.MaxBasicStarts <= int64(200))", "12 true\n"},
		{"a type error is Go's", "var x int = \"a\"\nfmt.Println(x)", "refused: cannot use \"a\""},
	}
	for i, tt := range tests {
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := k.Run(ctx, fmt.Sprintf("cell %d", i+1), imports+"%%\n"+tt.body, &out, &out)
		cancel()
		if want, ok := strings.CutPrefix(tt.want, "refused: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) || errors.Is(err, live.ErrPanic) {
				t.Errorf("%s: %v (printed %q), want a refusal with %q", tt.name, err, out.String(), want)
			}
			continue
		}
		if want, ok := strings.CutPrefix(tt.want, "panic: "); ok {
			if !errors.Is(err, live.ErrPanic) || !strings.Contains(err.Error(), strings.TrimPrefix(want, "panic: ")) {
				t.Errorf("%s: %v (printed %q), want a panic with %q", tt.name, err, out.String(), want)
			}
			continue
		}
		if err != nil || out.String() != tt.want {
			t.Errorf("%s: printed %q (%v), want %q", tt.name, out.String(), err, tt.want)
		}
	}
}

// TestDynamicTypes runs, in the interpreter, cells whose answers depend on
// the dynamic types of values (cells/dynamic.go): each prints Go's output
// or is refused with a message naming the construct. With LIVE_DIFF=1
// each cell also runs natively (go build) and its output is checked
// against the table's.
func TestDynamicTypes(t *testing.T) {
	const common = "import \"fmt\"\ntype M int\nfunc (M) F() {}\ntype I interface{ F() }\ntype Q int\ntype P struct{ A int }\n"
	tests := []struct {
		name, decl, body string
		want             string // Go's output, or "refused: <words>"
	}{
		{"equal values of a declared type with methods in interfaces", "", "var x, y I = M(5), M(5)\nfmt.Println(x == y)", "refused: comparing interface values"},
		{"an interface and a declared value", "", "var x any = M(5)\nfmt.Println(x == M(5))", "refused: comparing"},
		{"a switch's case", "", "var x I = M(5)\nswitch x {\ncase M(5):\n\tfmt.Println(\"5\")\n}", "refused: comparing interface values"},
		{"an interface and a type parameter", "func eq[T comparable](i any, t T) bool {\n\treturn i == t\n}\n", "fmt.Println(eq(0, 0))", "refused: a value of a type parameter"},
		{"a case of a type parameter, a declared type argument", "func sw[T any](i any) string {\n\tswitch i.(type) {\n\tcase T:\n\t\treturn \"T\"\n\t}\n\treturn \"other\"\n}\n", "fmt.Println(sw[Q](Q(1)), sw[any](2))", "refused: a type made of a type parameter"},
		{"%T of a declared type", "", "fmt.Printf(\"%T\\n\", P{})", "refused: %T of a value"},
		{"%#v of a declared type", "", "fmt.Printf(\"%#v\\n\", P{1})", "refused: %#v of a value"},
		{"a declared type without methods in an interface", "", "var x any = Q(3)\nfmt.Println(x == Q(3))", "true\n"},
		{"a declared type without methods and its underlying type", "", "var x any = Q(3)\nfmt.Println(x == 3)", "refused: does not tell the two types apart"},
		{"a case of the underlying type of a declared type", "", "var x any = Q(3)\nswitch x.(type) {\ncase int:\n\tfmt.Println(\"int\")\ncase Q:\n\tfmt.Println(\"Q\")\n}", "refused: does not tell the two types apart"},
		{"an assertion to the underlying type of a declared type", "", "var x any = Q(3)\n_, ok := x.(int)\nfmt.Println(ok)", "refused: does not tell the two types apart"},
		{"an assertion to a declared type without methods", "", "var x any = Q(3)\nq, ok := x.(Q)\nfmt.Println(q, ok)", "3 true\n"},
		{"comparisons with nil", "", "var x I\nvar e error\nfmt.Println(x == nil, e == nil)", "true true\n"},
		{"a case of a type parameter, basic type arguments", "func sw[T any](i any) string {\n\tswitch i.(type) {\n\tcase T:\n\t\treturn \"T\"\n\t}\n\treturn \"other\"\n}\n", "fmt.Println(sw[int](1), sw[string](2), sw[[]int]([]int{}))", "T other T\n"},
		{"%T and %#v of the language's types, %v of declared ones", "", "fmt.Printf(\"%T %#v %v %+v\\n\", 1.5, []int{1}, P{2}, Q(3))", "float64 []int{1} {2} 3\n"},
		{"a panic recovered in a caller prints nothing", "func f(s []int) int {\n\treturn s[3]\n}\n", "func() {\n\tdefer func() { fmt.Println(\"recovered:\", recover() != nil) }()\n\tf(nil)\n}()\nfmt.Println(\"after\")", "recovered: true\nafter\n"},
	}
	var native *nativeGo
	if os.Getenv("LIVE_DIFF") != "" {
		native = newNativeGo(t)
	}
	for i, tt := range tests {
		k, err := live.New(sources(t))
		if err != nil {
			t.Fatal(err)
		}
		cell := common + tt.decl + "%%\n" + tt.body
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err = k.Run(ctx, fmt.Sprintf("cell %d", i+1), cell, &out, &out)
		cancel()
		if native != nil {
			var s cells.Session
			c, perr := cells.Parse("cell", cell)
			if perr != nil {
				t.Fatal(perr)
			}
			p, perr := s.Program("cell", c, nil)
			if perr != nil {
				t.Fatal(perr)
			}
			n := native.run(context.Background(), p.Src)
			if want, refused := strings.CutPrefix(tt.want, "refused: "); !refused && (!n.Built || n.Exit != 0 || n.Out != tt.want) {
				t.Errorf("%s: natively %q (exit %d, %s), the table says %q", tt.name, n.Out, n.Exit, n.BuildErr, tt.want)
			} else if refused && !n.Built {
				t.Errorf("%s: Go does not build it (%s), the engine must refuse it for %q", tt.name, n.BuildErr, want)
			}
		}
		if want, ok := strings.CutPrefix(tt.want, "refused: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "not available in the browser") || errors.Is(err, live.ErrPanic) {
				t.Errorf("%s: %v (printed %q), want a refusal with %q", tt.name, err, out.String(), want)
			}
			continue
		}
		if err != nil || out.String() != tt.want {
			t.Errorf("%s: printed %q (%v), want %q", tt.name, out.String(), err, tt.want)
		}
	}
}
