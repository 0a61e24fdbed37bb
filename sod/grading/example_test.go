package grading_test

import (
	"fmt"
	"os"

	"sodworkbench.org/workbench/sod/grading"
)

// A notebook cell hands in an answer, and the grader, after the notebook ran, grades it.
func ExampleHandIn() {
	dir, _ := os.MkdirTemp("", "export")
	defer os.RemoveAll(dir)
	var answer991 = 6 * 7
	grading.HandIn(dir, "99.1", 1, answer991) // the cell the grader inserts after the answer cell

	e, _ := grading.OpenExports(dir) // the grader, after the notebook ran
	defer e.Close()
	r, _ := e.Grade("99.1", 1)
	fmt.Println(r.Pass, r.Message)
	// Output:
	// exercise 99.1: answer handed in for grading
	// true correct
}
