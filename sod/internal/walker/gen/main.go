// Command gen writes sod/internal/walker/table_gen_test.go, the call table of
// the exported API walked by the bad-input walker test. Run it through
// "go generate ./sod/internal/walker" (working directory: that package).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"sodworkbench.org/workbench/sod/internal/walker"
)

func main() {
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	root := filepath.Join(dir, "..", "..", "..")
	if err := walker.Write(root, dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
