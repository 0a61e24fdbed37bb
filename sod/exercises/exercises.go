// Package exercises checks the answers to the exercises of the workbench's
// notebooks. The expected values are computed here, with the library, not
// in the notebook cells, so a check cell is one line:
//
//	exercises.Check("07.1", answer071)
//
// # The exercise cell convention
//
// Each exercise NN.k (NN: the notebook's number) is three cells with the
// cell metadata "sod": {"exercise": "NN.k"}:
//
//   - a code cell tagged exercise-answer, where the student sets the
//     top-level variable answerNNk (a value, or a func for exercises that ask
//     for code): var answer071 = [2]int64{0, 0};
//   - a code cell tagged exercise-check that calls Check(id, answerNNk);
//   - a markdown cell tagged solution with the solution in a <details> block.
//
// The notebook harness (notebooks/) checks the convention; a student
// release drops the check and solution cells, and the grader puts, after
// each of the student's answer cells, a cell that exports the answer (see
// "Checks that run apart from the answer" below).
//
// # Results
//
// Verify returns nil for a correct answer, an error wrapping ErrUnanswered
// while the answer is still its placeholder (the zero value of its type),
// and otherwise an error that says what is wrong, with a hint. Check prints
// "exercise NN.k: correct" or "exercise NN.k: not answered yet: …", and
// panics with Verify's error for a wrong answer, so that the cell shows an
// error in Jupyter and a headless run fails. IDs lists every exercise.
//
// # Checks that run apart from the answer
//
// A check is two steps. Export, in the notebook's process, turns the answer
// into an Answer, plain data: a number, the numbers of an array or slice,
// and for an answer that is code, what the code returns on the exercise's
// inputs (for func(float64) float64 answers, inputs drawn from a seed). Judge
// checks an Answer, calling no code of the student's. Verify and Check do
// both in the notebook (self-study); the grader (sod/cmd/grade) runs only
// Export in the student's notebook and Judge in its own process, with a seed
// drawn for that run, so that nothing the student's code prints or does
// decides a grade: a forged Answer must hold the numbers a correct answer
// gives.
package exercises

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
)

// ErrUnanswered reports an answer that is still its placeholder.
var ErrUnanswered = errors.New("not answered yet")

// ErrUnknown reports an exercise id that does not exist.
var ErrUnknown = errors.New("no such exercise")

// exercise is one exercise: what it asks for and how to check an answer.
type exercise struct {
	id   string
	asks string // what answerNNk holds, e.g. "h(x̂ + 0.5·e₁), a number"
	// check judges a value answer (a number or a list of numbers), rebuilt from its export: it
	// returns a remark for a correct answer and an error saying what is wrong otherwise. It is
	// not called with a placeholder.
	check func(answer any) (string, error)
	// For an answer that is code: run calls it on the exercise's inputs (drawn from seed where
	// the exercise draws them) in the notebook's process, and returns what it gave, or ok =
	// false for an answer of another type; judge checks an exported answer.
	run   func(answer any, seed uint64) (outs []Output, ok bool)
	judge func(a *Answer, seed uint64) (string, error)
}

// lookup returns exercise id.
func lookup(id string) (exercise, error) {
	ex, ok := catalog()[id]
	if !ok {
		ex, ok = fixtures()[id]
	}
	if !ok {
		return ex, fmt.Errorf("exercise %q: %w (exercises: %s)", id, ErrUnknown, strings.Join(IDs(), ", "))
	}
	return ex, nil
}

// Known reports whether id is an exercise.
func Known(id string) bool { _, err := lookup(id); return err == nil }

// Export turns answer, the student's answerNNk of exercise id, into an Answer: the data that
// Judge checks. It runs in the notebook's process (the grader inserts a call after the
// student's answer cell); for an answer that is code it calls the code, on inputs drawn from
// seed where the exercise draws them, and records what it returned (a panic is recorded as an
// error). Only an unknown id is an error.
func Export(id string, seed uint64, answer any) (*Answer, error) {
	ex, err := lookup(id)
	if err != nil {
		return nil, err
	}
	a := valueAnswer(id, answer)
	if ex.run != nil && answer != nil {
		if outs, ok := ex.run(answer, seed); ok {
			a.Outputs = outs
		}
	}
	return a, nil
}

// Judge checks an exported answer: it returns a remark (possibly "") for a correct answer, an
// error wrapping ErrUnanswered while the answer is its placeholder, one wrapping ErrUnknown for
// an unknown exercise, and otherwise an error that says what is wrong, with a hint. It runs no
// code of the student's; seed must be the one Export was given.
func Judge(a *Answer, seed uint64) (string, error) {
	if a == nil {
		return "", errors.New("no answer")
	}
	ex, err := lookup(a.ID)
	if err != nil {
		return "", err
	}
	if err := a.validate(); err != nil {
		return "", err
	}
	if ex.judge != nil {
		return ex.judge(a, seed)
	}
	if a.Zero {
		return "", fmt.Errorf("%w: set %s in the cell above (%s)", ErrUnanswered, varName(a.ID), ex.asks)
	}
	return ex.check(a.value())
}

// Verify checks answer against exercise id (for example "07.1"): Export, then Judge, in this
// process. It returns nil if the answer is correct, an error wrapping ErrUnanswered if the
// answer is still its placeholder (the zero value of its type), an error wrapping ErrUnknown
// for an unknown id, and otherwise an error that says what is wrong, with a hint.
func Verify(id string, answer any) error {
	_, err := verify(id, answer)
	return err
}

func verify(id string, answer any) (string, error) {
	seed := rand.Uint64()
	a, err := Export(id, seed, answer)
	if err != nil {
		return "", err
	}
	return Judge(a, seed)
}

// Check verifies answer against exercise id and prints the line
// "exercise NN.k: correct" (followed by a remark on the next line) or
// "exercise NN.k: not answered yet: …". For a wrong answer or an unknown id it panics with the
// error, so the notebook cell fails loudly. It is the self-study check: the grader does not
// read what it prints, it exports the answer and judges it itself (package sod/grading).
func Check(id string, answer any) {
	remark, err := verify(id, answer)
	switch {
	case err == nil:
		fmt.Printf("exercise %s: correct\n", id)
		if remark != "" {
			fmt.Println(remark)
		}
	case errors.Is(err, ErrUnanswered):
		fmt.Printf("exercise %s: %v\n", id, err)
	default:
		panic(fmt.Errorf("exercise %s: %w", id, err))
	}
}

// IDs returns the ids of all exercises, in notebook order.
func IDs() []string {
	var ids []string
	for id := range catalog() {
		ids = append(ids, id)
	}
	for id := range fixtures() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// varName is the answer variable of exercise id: "answer071" for "07.1".
func varName(id string) string { return "answer" + strings.Replace(id, ".", "", 1) }

// number converts a numeric answer to float64.
func number(answer any) (float64, error) {
	v := reflect.ValueOf(answer)
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), nil
	}
	return 0, fmt.Errorf("the answer is a %s (%v); want a number", typeName(answer), answer)
}

// integer converts an integer-valued answer (an int, or a float with no
// fractional part) to int64.
func integer(answer any) (int64, error) {
	f, err := number(answer)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("the answer %v is not a whole number", answer)
	}
	return int64(f), nil
}

// near checks |answer − want| ≤ tol, with hint for a wrong value.
func near(answer any, want, tol float64, hint string) (string, error) {
	a, err := number(answer)
	if err != nil {
		return "", err
	}
	if math.IsNaN(a) || math.Abs(a-want) > tol {
		return "", fmt.Errorf("not quite: %.6g is not within %.2g of the value. Hint: %s", a, tol, hint)
	}
	return "", nil
}
