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
// release drops the check and solution cells, and a grader puts the
// instructor's check cells back after the student's answer cells.
//
// # Results
//
// Verify returns nil for a correct answer, an error wrapping ErrUnanswered
// while the answer is still its placeholder (the zero value of its type),
// and otherwise an error that says what is wrong, with a hint. Check prints
// "exercise NN.k: correct" or "exercise NN.k: not answered yet: …", and
// panics with Verify's error for a wrong answer, so that the cell shows an
// error in Jupyter and a headless run fails. IDs lists every exercise.
package exercises

import (
	"errors"
	"fmt"
	"math"
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
	// check returns nil for a correct answer and an error saying what is
	// wrong otherwise; it is not called with a placeholder (unless custom
	// is set, for answers whose zero value cannot be told apart).
	check  func(answer any) (string, error)
	custom bool // check handles placeholders itself (func answers)
}

// Verify checks answer against exercise id (for example "07.1"). It
// returns nil if the answer is correct, an error wrapping ErrUnanswered if
// the answer is still its placeholder (the zero value of its type), an
// error wrapping ErrUnknown for an unknown id, and otherwise an error that
// says what is wrong, with a hint.
func Verify(id string, answer any) error {
	_, err := verify(id, answer)
	return err
}

func verify(id string, answer any) (string, error) {
	ex, ok := catalog()[id]
	if !ok {
		return "", fmt.Errorf("exercise %q: %w (exercises: %s)", id, ErrUnknown, strings.Join(IDs(), ", "))
	}
	if !ex.custom && isPlaceholder(answer) {
		return "", fmt.Errorf("%w: set %s in the cell above (%s)", ErrUnanswered, varName(id), ex.asks)
	}
	return ex.check(answer)
}

// Check verifies answer against exercise id and prints the line
// "exercise NN.k: correct" (followed by a remark on the next line) or
// "exercise NN.k: not answered yet: …". For a wrong answer or an unknown id it panics with the error, so
// the notebook cell fails loudly.
func Check(id string, answer any) {
	remark, err := verify(id, answer)
	switch {
	case err == nil:
		fmt.Printf("exercise %s: correct\n", id) // a line of its own: graders match it exactly
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
	slices.Sort(ids)
	return ids
}

// varName is the answer variable of exercise id: "answer071" for "07.1".
func varName(id string) string { return "answer" + strings.Replace(id, ".", "", 1) }

// isPlaceholder reports whether answer is nil or the zero value of its type.
func isPlaceholder(answer any) bool {
	if answer == nil {
		return true
	}
	return reflect.ValueOf(answer).IsZero()
}

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
	return 0, fmt.Errorf("the answer is a %T (%v); want a number", answer, answer)
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
