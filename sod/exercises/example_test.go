package exercises_test

import (
	"fmt"

	"sodworkbench.org/workbench/sod/exercises"
)

// Check cells of a notebook: two correct answers (the second with a remark
// on the next line), then the placeholder of an exercise not answered yet. (A wrong answer panics, so the cell fails.)
func ExampleCheck() {
	var answer001 = 0.40625 // h(x̂ + 0.5·e₁) = (0.5⁴ + 3/4)/2
	exercises.Check("00.1", answer001)

	var answer011 = 0.5 // the RIP constant of the basic example
	exercises.Check("01.1", answer011)

	var answer021 = 0.0 // ← the EFS of the basic example with δ = 1/2
	exercises.Check("02.1", answer021)
	// Output:
	// exercise 00.1: correct
	// exercise 01.1: correct
	// δ = 0.5000 (ratio range [0.50, 1.50])
	// exercise 02.1: not answered yet: set answer021 in the cell above (the EFS of the basic example with δ = 1/2)
}

// The grader's two steps, in one place: the notebook exports the answer (a func, here: its
// outputs at inputs drawn from the seed), and the check judges the exported data, calling no
// code of the student's.
func ExampleJudge() {
	const seed = 42
	square := func(x float64) float64 { return x * x }
	a, _ := exercises.Export("99.2", seed, square) // in the student's notebook
	_, err := exercises.Judge(a, seed)             // in the grader's process
	fmt.Println(len(a.Outputs), "outputs;", err)

	_, err = exercises.Judge(a, seed+1) // the same outputs for other inputs
	fmt.Println(err != nil)
	// Output:
	// 5 outputs; <nil>
	// true
}
