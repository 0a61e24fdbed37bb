package exercises_test

import "sodworkbench.org/workbench/sod/exercises"

// A check cell of a notebook: a correct answer, then the placeholder of an
// exercise not answered yet. (A wrong answer panics, so the cell fails.)
func ExampleCheck() {
	var answer001 = 0.40625 // h(x̂ + 0.5·e₁) = (0.5⁴ + 3/4)/2
	exercises.Check("00.1", answer001)

	var answer021 = 0.0 // ← the EFS of the basic example with δ = 1/2
	exercises.Check("02.1", answer021)
	// Output:
	// exercise 00.1: correct
	// exercise 02.1: not answered yet: set answer021 in the cell above (the EFS of the basic example with δ = 1/2)
}
