package figures

import (
	"fmt"

	"sodworkbench.org/workbench/sod"
)

// Input checks shared by the chart and table builders: a nil result (or
// one missing what it is drawn from) is refused with an error wrapping
// ErrBadFigure by the builders that return an error, and gives an
// empty value (documented on each) from those that do not.

// errNil is the error of fn given a nil or incomplete what.
func errNil(fn, what string) error {
	return fmt.Errorf("%w: figures.%s: nil or incomplete %s", ErrBadFigure, fn, what)
}

// checkProblem refuses a nil or invalid problem.
func checkProblem(fn string, p *sod.Problem) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("figures.%s: %w", fn, err)
	}
	return nil
}
