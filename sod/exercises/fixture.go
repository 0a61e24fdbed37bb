package exercises

import (
	"fmt"
	"math"
	"sodworkbench.org/workbench/sod/randstream"
)

// fixtures are the exercises of notebook 99, the autograder's test notebook
// (sod/cmd/grade/testdata): 99.1 asks for a value, 99.2 for code. They are checked like every
// other exercise and are listed by IDs.
func fixtures() map[string]exercise {
	return map[string]exercise{
		"99.1": {id: "99.1", asks: "6·7, a whole number", check: func(a any) (string, error) {
			got, err := integer(a)
			if err != nil {
				return "", err
			}
			if got != 6*7 {
				return "", fmt.Errorf("%d is not 6·7", got)
			}
			return "", nil
		}},
		"99.2": {id: "99.2", asks: "func(x float64) float64 returning x²", run: runSquare, judge: judgeSquare},
	}
}

// squareInputs are the inputs at which an answer to 99.2 is called: five numbers drawn from
// seed, uniformly from the continuous interval [−8, 8] (any float64 there may come up, so no
// table of outputs can stand in for the function). Messages print them in full (%v), so that
// the input shown is the input used.
func squareInputs(seed uint64) []float64 {
	rng := randstream.New(seed, randstream.SquareInputs)
	xs := make([]float64, 5)
	for i := range xs {
		xs[i] = 16*rng.Float64() - 8
	}
	return xs
}

// runSquare (99.2, in the notebook's process): the answer at squareInputs(seed).
func runSquare(answer any, seed uint64) ([]Output, bool) {
	f, ok := answer.(func(float64) float64)
	if !ok || f == nil {
		return nil, ok
	}
	var outs []Output
	for _, x := range squareInputs(seed) {
		outs = append(outs, callRecovered(func() Output { return Output{Numbers: []Number{Number(f(x))}} }))
	}
	return outs, true
}

// judgeSquare (99.2): each output is the square of its input.
func judgeSquare(a *Answer, seed uint64) (string, error) {
	if a.Outputs == nil {
		if a.Zero && a.Type != "nil" {
			return "", fmt.Errorf("%w: write answer992", ErrUnanswered)
		}
		return "", fmt.Errorf("the answer is a %s; want a func(x float64) float64", a.Type)
	}
	xs := squareInputs(seed)
	if len(a.Outputs) != len(xs) {
		return "", fmt.Errorf("the export has %d outputs for %d inputs", len(a.Outputs), len(xs))
	}
	for i, x := range xs {
		o := a.Outputs[i]
		if o.Err != "" {
			return "", fmt.Errorf("answer992(%v) failed: %s", x, o.Err)
		}
		if len(o.Numbers) != 1 {
			return "", fmt.Errorf("answer992(%v): %d numbers exported, want 1", x, len(o.Numbers))
		}
		if got := float64(o.Numbers[0]); !(math.Abs(got-x*x) <= 1e-12*math.Max(1, x*x)) {
			return "", fmt.Errorf("answer992(%v) = %v, want %v", x, got, x*x)
		}
	}
	return "", nil
}

// callRecovered calls f and turns a panic into an Output with the error.
func callRecovered(f func() Output) (o Output) {
	defer func() {
		if p := recover(); p != nil {
			o = Output{Err: fmt.Sprint(p)}
		}
	}()
	return f()
}
