package live_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"sodworkbench.org/workbench/livebook/live"
	"sodworkbench.org/workbench/livebook/symbols"
)

// TestByChanceRefusals backs byChance, the two refusals the differential
// test lets meet a program bare yaegi runs as Go does: for each, a sibling
// program with the same construct, on which bare yaegi prints something
// other than Go's output (Go's answer follows from the language spec:
// interface values are equal when their dynamic types and values are
// equal; a value of a declared type is not of its underlying type). The
// engine refuses each with a message byChance recognises, so the refusal
// costs bare yaegi's correct answers only where they are luck.
func TestByChanceRefusals(t *testing.T) {
	tests := []struct {
		name, src, goOut string
	}{
		{
			"interface values holding equal values of a declared type with methods, boxed apart",
			"package main\n\nimport \"fmt\"\n\ntype M int\n\nfunc (M) F() {}\n\ntype I interface{ F() }\n\nfunc main() {\n\tvar x, y I = M(5), M(5)\n\tfmt.Println(x == y)\n}\n",
			"true\n",
		},
		{
			"an assertion to string of a value of type mystring",
			"package main\n\nimport \"fmt\"\n\ntype mystring string\n\nfunc main() {\n\tvar x any = mystring(\"a\")\n\t_, ok := x.(string)\n\tfmt.Println(ok)\n}\n",
			"false\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Bare yaegi, given the engine's compiled symbols.
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, Stderr: &out, GoPath: "."})
			if err := i.Use(symbols.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(tt.src); err != nil {
				t.Fatalf("bare yaegi failed: %v", err)
			}
			if out.String() == tt.goOut {
				t.Errorf("bare yaegi prints Go's %q: the refusal is not needed for this construct; remove its byChance entry", tt.goOut)
			}
			// The engine refuses it, with a message byChance names.
			k, err := live.New(sources(t))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var eout bytes.Buffer
			res, err := k.Run(ctx, "cell 1", strings.Replace(tt.src, "package main", "", 1), &eout, &eout)
			if res.Compiled || err == nil {
				t.Fatalf("the engine ran it (output %q, error %v), want a refusal", eout.String(), err)
			}
			if byChance(err.Error()) == "" {
				t.Errorf("the engine's refusal %q is not one byChance names", err)
			}
			t.Logf("bare yaegi prints %q, Go %q; the engine: %v", out.String(), tt.goOut, err)
		})
	}
}
