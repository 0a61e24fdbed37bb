package exercises

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"sodworkbench.org/workbench/sod/internal/strictio"
)

// An Answer is an answer as it leaves a notebook: plain data, made by Export in the notebook's
// process and judged by Judge anywhere else. A value answer (a number, or an array or slice of
// numbers) travels as its numbers; an answer that is code (a func) travels as what it returned
// on the inputs of the exercise (drawn from a seed for func(float64) float64 answers, the
// workbench's case studies for escape variants), never as code. So a check that Judge runs on an
// Answer runs no code of the student's, and an Answer that passes holds the numbers a correct
// answer gives.
type Answer struct {
	ID   string `json:"id"`             // the exercise, "07.1"
	Type string `json:"type"`           // the Go type of answerNNk ("float64", "[2]int64", …; "nil" for nil)
	Zero bool   `json:"zero,omitempty"` // answerNNk is the zero value of its type (the placeholder)
	// Numbers is a number answer (one entry) or the entries of an array or slice of numbers (List).
	Numbers []Number `json:"numbers,omitempty"`
	List    bool     `json:"list,omitempty"`
	// Text is the answer printed with %v (at most 80 bytes), for messages about answers that are
	// neither numbers nor code.
	Text string `json:"text,omitempty"`
	// Outputs are what a func answer returned, one per input of the exercise.
	Outputs []Output `json:"outputs,omitempty"`
}

// Output is what a func answer returned for one input: numbers, matrices, or an error (its
// error result, or its panic).
type Output struct {
	Numbers  []Number `json:"numbers,omitempty"`
	Matrices []Matrix `json:"matrices,omitempty"`
	Err      string   `json:"error,omitempty"`
}

// Matrix is a dense matrix, its entries row by row.
type Matrix struct {
	Rows int      `json:"rows"`
	Cols int      `json:"cols"`
	Data []Number `json:"data"`
}

// Number is a float64 that survives JSON: NaN and ±Inf travel as the strings "NaN", "+Inf"
// and "-Inf".
type Number float64

// MarshalJSON writes a finite number as a JSON number and NaN, ±Inf as strings.
func (n Number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return json.Marshal(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (n *Number) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err == nil {
		*n = Number(f)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a number: %s", b)
	}
	switch s {
	case "NaN", "+Inf", "-Inf":
		f, _ := strconv.ParseFloat(s, 64)
		*n = Number(f)
		return nil
	}
	return fmt.Errorf("a number: %q", s)
}

// DecodeAnswer reads an Answer from its JSON form, refusing fields an Answer does not have,
// a key given twice or spelled in another case, and anything after the answer (strictio).
func DecodeAnswer(b []byte) (*Answer, error) {
	var a Answer
	if err := strictio.DecodeJSON(b, &a); err != nil {
		return nil, fmt.Errorf("not an exported answer: %v", err)
	}
	return &a, nil
}

// Limits of an Answer that Judge accepts: beyond them it is not the export of any answer to
// these exercises.
const (
	maxNumbers = 1 << 16 // numbers in an answer, an output or a matrix
	maxOutputs = 256     // outputs of a func answer
	maxDim     = 4096    // rows or columns of a matrix
)

// validate checks the sizes of an Answer read from elsewhere.
func (a *Answer) validate() error {
	if len(a.Numbers) > maxNumbers || len(a.Outputs) > maxOutputs || len(a.Text) > 4*textMax {
		return fmt.Errorf("exercise %s: the exported answer is larger than any answer to it (%d numbers, %d outputs)", a.ID, len(a.Numbers), len(a.Outputs))
	}
	for _, o := range a.Outputs {
		if len(o.Numbers) > maxNumbers || len(o.Matrices) > maxOutputs {
			return fmt.Errorf("exercise %s: an exported output is larger than any answer gives", a.ID)
		}
		for _, m := range o.Matrices {
			if m.Rows < 0 || m.Cols < 0 || m.Rows > maxDim || m.Cols > maxDim || len(m.Data) != m.Rows*m.Cols {
				return fmt.Errorf("exercise %s: an exported matrix is %d×%d with %d entries", a.ID, m.Rows, m.Cols, len(m.Data))
			}
		}
	}
	return nil
}

const textMax = 80

// valueAnswer exports a value answer: its type, whether it is the zero value, and its numbers.
func valueAnswer(id string, answer any) *Answer {
	a := &Answer{ID: id, Type: "nil", Zero: true}
	if answer == nil {
		return a
	}
	v := reflect.ValueOf(answer)
	a.Type, a.Zero = v.Type().String(), v.IsZero()
	if f, ok := numberOf(v); ok {
		a.Numbers = []Number{Number(f)}
		return a
	}
	if (v.Kind() == reflect.Array || v.Kind() == reflect.Slice) && v.Len() <= maxNumbers {
		nums := make([]Number, 0, v.Len())
		for i := range v.Len() {
			f, ok := numberOf(v.Index(i))
			if !ok {
				nums = nil
				break
			}
			nums = append(nums, Number(f))
		}
		if nums != nil || v.Len() == 0 {
			a.Numbers, a.List = nums, true
			return a
		}
	}
	if v.Kind() != reflect.Func {
		a.Text = fmt.Sprint(answer)
		if len(a.Text) > textMax {
			a.Text = a.Text[:textMax] + "…"
		}
	}
	return a
}

// numberOf returns the value of a number of any numeric kind.
func numberOf(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	}
	return 0, false
}

// exported is an answer rebuilt from its export that is neither a number nor a list of
// numbers: the checks see its Go type and its printed value.
type exported struct{ typ, text string }

func (e exported) String() string { return e.text }

// value rebuilds what a value check needs from an exported answer: a float64 or int64 for a
// number, a []float64 for a list of numbers, otherwise an exported.
func (a *Answer) value() any {
	switch {
	case a.List:
		out := make([]float64, len(a.Numbers))
		for i, n := range a.Numbers {
			out[i] = float64(n)
		}
		return out
	case len(a.Numbers) == 1:
		f := float64(a.Numbers[0])
		switch a.Type {
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr":
			if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
				return int64(f)
			}
		}
		return f
	}
	return exported{a.Type, a.Text}
}

// typeName is the Go type of an answer as the student wrote it.
func typeName(answer any) string {
	if e, ok := answer.(exported); ok {
		return e.typ
	}
	return fmt.Sprintf("%T", answer)
}

// toMatrix exports a matrix.
func toMatrix(m interface {
	Dims() (int, int)
	At(int, int) float64
}) Matrix {
	r, c := m.Dims()
	out := Matrix{Rows: r, Cols: c, Data: make([]Number, 0, r*c)}
	for i := range r {
		for j := range c {
			out.Data = append(out.Data, Number(m.At(i, j)))
		}
	}
	return out
}
