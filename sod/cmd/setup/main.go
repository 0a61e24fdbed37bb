// Command setup is the notebooks' set-up cell: from the notebook's folder it
// makes GoNB's module for the cells use the workbench module that holds the
// notebook (package sod/internal/notebooksetup), and prints that folder.
//
//	!*cd "$GONB_DIR" && go run sodworkbench.org/workbench/sod/cmd/setup
//
// It takes no arguments (exit status 2 if given some) and fails outside a
// GoNB kernel (no $GONB_TMP_DIR) or outside the workbench module.
package main

import (
	"fmt"
	"os"

	"sodworkbench.org/workbench/sod/internal/notebooksetup"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: go run sodworkbench.org/workbench/sod/cmd/setup (in a notebook's set-up cell, from the notebook's folder; no arguments)")
		os.Exit(2)
	}
	if err := notebooksetup.Run(os.Stdout, ".", os.Getenv("GONB_TMP_DIR")); err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
		os.Exit(1)
	}
}
