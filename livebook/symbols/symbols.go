// Package symbols holds the compiled symbols the live book's interpreter
// gives the cells: those of every package a notebook imports (the sod
// packages, widgets, gonum's mat and floats, the standard library's
// packages used) and a few more (see internal/symgen/gen.Always). The
// z_*.go files are generated; rerun `go generate` here after a package
// moves or a notebook imports a new one (TestFresh fails until then).
package symbols

import "reflect"

//go:generate go run ../internal/symgen -notebooks ../../notebooks -o .

// Symbols are the symbols by "path/name", as yaegi's interp.Use takes them.
var Symbols = map[string]map[string]reflect.Value{}
