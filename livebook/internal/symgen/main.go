// Command symgen writes the interpreter's symbols of the packages the
// notebooks import (and a few the interpreter itself needs) with yaegi's
// extractor: one file per package in the output directory, and
// packages.txt listing them. The list is read from the notebooks' import
// declarations, so after a package moves, rerunning `go generate` in
// livebook/symbols follows it.
//
//	symgen -notebooks DIR -o DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"sodworkbench.org/workbench/livebook/internal/symgen/gen"
)

func main() {
	nb := flag.String("notebooks", "../../notebooks", "the folder of the notebooks (*.ipynb) whose imports need symbols")
	out := flag.String("o", ".", "the output folder (the symbols package)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "symgen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	if err := gen.Generate(*nb, *out); err != nil {
		fmt.Fprintln(os.Stderr, "symgen:", err)
		os.Exit(1)
	}
}
