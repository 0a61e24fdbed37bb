package exercises

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// solutions are the answers worked out by hand in the notebooks' solution cells (not computed
// with the library): each must pass its check.
var solutions = map[string]any{
	"00.1": 0.40625,              // (0.5⁴ + 0.75)/2
	"01.1": 0.5,                  // ratio range [1/2, 3/2]
	"01.2": 0.9137,               // √(0.91/1.09)
	"02.1": 1.0,                  // NCM = 1, AIC = 0
	"02.2": -1,                   // product > 0, sum < 0
	"03.1": 0.0694,               // 0.25·10/36
	"03.2": 7.99,                 // 2·1.81106/0.18894·0.41654
	"04.1": 177147,               // 3¹¹
	"04.2": 6.23,                 // 0.1·1.0421875¹⁰⁰
	"05.1": 55.72,                // −log ρ / log Q
	"05.2": 0.3660,               // √(1 − √3/2)
	"06.1": 0.36,                 // 2·0.18
	"06.2": 0.960769,             // √(0.96/1.04)
	"07.1": [2]int64{7, 2000000}, // the YES of the table
	"07.2": 0.2081,               // 0.645397³(1 − 0.22582)
	"08.1": 3,                    // 2² − 1
	"08.2": 0.5 / 60,             // StepScale/n
	"09.1": 1.25,                 // 0.25 + 1
	"09.2": 25.0,                 // 50·½
	"09.3": 0.5,                  // halve the doubled measurements' weights
	"10.1": myLine,               // the solution cell's code
	"10.2": 2,                    // −X̂ + ρuqᵀ = −(X̂ − ρuqᵀ)
	"11.1": 35,                   // n/(n + z²) ≥ 0.9 ⇔ n ≥ 9z² = 34.57
	"99.1": 42,                   // the grader's fixture: 6·7
	"99.2": func(x float64) float64 { return x * x },
}

// myLine is the solution of exercise 10.1, as in the notebook.
func myLine(_ context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	var out []sod.Candidate
	for _, rho := range []float64{-2, -1.5, -1, -0.5, -0.25, 0.25, 0.5, 1, 1.5, 2} {
		x := mat.DenseCopyOf(st.X)
		var d mat.Dense
		d.Outer(rho, cp.Un, cp.Qr)
		x.Add(x, &d)
		out = append(out, sod.Candidate{X: x, Label: fmt.Sprintf("ρ=%g", rho)})
	}
	return out, nil
}

// wrong are answers that must fail (plausible slips: a sign, a factor, a neighbour).
var wrong = map[string]any{
	"00.1": 0.375, "01.1": 1.5, "01.2": 1.0, "02.1": 0.5, "02.2": 1, "03.1": 0.25, "03.2": 3.99,
	"04.1": 33, "04.2": 0.1, "05.1": 30.6, "05.2": 1.366, "06.1": -0.36, "06.2": 0.9137,
	"07.1": [2]int64{5, 100000}, "07.2": 0.097, "08.1": 4, "08.2": 0.5, "09.1": 5.25, "09.2": 0.5,
	"09.3": 2.0, "10.1": offLine, "10.2": 1, "11.1": 34, "99.1": 41,
	"99.2": func(x float64) float64 { return 2 * x },
}

// offLine proposes points that are not on the single-step line.
func offLine(_ context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	x := mat.DenseCopyOf(st.X)
	x.Scale(1.5, x)
	return []sod.Candidate{{X: x, Label: "1.5 X̂"}}, nil
}

func TestSolutionsPass(t *testing.T) {
	for _, id := range IDs() {
		if _, ok := solutions[id]; !ok {
			t.Errorf("exercise %s has no hand solution in this test", id)
		}
	}
	for id, a := range solutions {
		t.Run(id, func(t *testing.T) {
			if err := Verify(id, a); err != nil {
				t.Errorf("the hand solution %v fails: %v", a, err)
			}
		})
	}
}

func TestWrongAnswersFail(t *testing.T) {
	for id, a := range wrong {
		t.Run(id, func(t *testing.T) {
			err := Verify(id, a)
			if err == nil || errors.Is(err, ErrUnanswered) {
				t.Errorf("wrong answer %v: error %v, want a failure", a, err)
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		id     string
		answer any
	}{
		{"00.1", 0.0}, {"02.2", 0}, {"07.1", [2]int64{}}, {"08.1", 0}, {"09.2", 0.0}, {"10.2", 0},
		{"10.1", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, nil }},
		{"10.1", (func(context.Context, *sod.EscapeState) ([]sod.Candidate, error))(nil)},
		{"03.1", nil},
	} {
		if err := Verify(tc.id, tc.answer); !errors.Is(err, ErrUnanswered) {
			t.Errorf("%s: placeholder %v: error %v, want ErrUnanswered", tc.id, tc.answer, err)
		}
	}
}

func TestBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		id     string
		answer any
		want   string
	}{
		{"00.1", "0.4", "want a number"},
		{"07.1", 7, "want two numbers"},
		{"07.1", []int{7}, "want two numbers"},
		{"04.1", 3.5, "not a whole number"},
		{"05.1", -3.0, "positive number of steps"},
		{"10.1", 42, "want a func"},
		{"00.1", math.NaN(), "not quite"},
		{"98.1", 1.0, "no such exercise"},
	} {
		err := Verify(tc.id, tc.answer)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: answer %v: error %v, want one containing %q", tc.id, tc.answer, err, tc.want)
		}
	}
	if err := Verify("98.1", 1.0); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown id: %v, want ErrUnknown", err)
	}
}

func TestCheckPanicsOnWrong(t *testing.T) {
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !strings.Contains(err.Error(), "exercise 00.1: not quite") {
			t.Errorf("Check on a wrong answer recovered %v, want an error naming the exercise", r)
		}
	}()
	Check("00.1", 0.375)
	t.Error("Check did not panic on a wrong answer")
}

// TestJudgeForgedExports: an exported answer is data, and Judge checks it whatever it claims:
// outputs for inputs other than the seed's, a value for another exercise, numbers that are not
// numbers, sizes beyond any answer.
func TestJudgeForgedExports(t *testing.T) {
	const seed = 12345
	good, err := Export("99.2", seed, func(x float64) float64 { return x * x })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Judge(good, seed); err != nil {
		t.Fatalf("the right answer's export fails: %v", err)
	}
	if _, err := Judge(good, seed+1); err == nil {
		t.Error("outputs made for one seed pass under another")
	}
	for _, tc := range []struct {
		name string
		json string
		want string
	}{
		{"claims a pass", `{"id":"99.1","type":"int","pass":true}`, "unknown field"},
		{"zero placeholder", `{"id":"99.1","type":"int","zero":true,"numbers":[0]}`, "not answered yet"},
		{"wrong value", `{"id":"99.1","type":"int","numbers":[41]}`, "41 is not 6·7"},
		{"NaN", `{"id":"99.1","type":"float64","numbers":["NaN"]}`, "not a whole number"},
		{"unknown exercise", `{"id":"98.1","type":"int","numbers":[1]}`, "no such exercise"},
		{"no outputs", `{"id":"99.2","type":"func(float64) float64"}`, "want a func"},
		{"too many outputs", `{"id":"99.2","type":"func(float64) float64","outputs":[` + strings.Repeat(`{},`, maxOutputs) + `{}]}`, "larger than any answer"},
		{"bad matrix", `{"id":"10.1","type":"func","outputs":[{"matrices":[{"rows":2,"cols":2,"data":[1]}]}]}`, "2×2 with 1 entries"},
		{"key twice", `{"id":"99.1","type":"int","numbers":[42],"numbers":[6]}`, `key "numbers" given twice`},
		{"key case", `{"id":"99.1","Type":"int","numbers":[42]}`, `key "Type", which the format spells "type"`},
		{"closing bracket after", `{"id":"99.1","type":"int","numbers":[42]}]`, "data after the JSON value"},
		{"second answer", `{"id":"99.1","type":"int","numbers":[42]} {}`, "data after the JSON value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := DecodeAnswer([]byte(tc.json))
			if err == nil {
				_, err = Judge(a, seed)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestSquareInputsNotTabulable: 99.2's inputs come from a continuous range, so an answer that
// knows x² only at a finite set of points (here the 129 points (k/8)², k = −64…64, from which
// the inputs were once drawn) fails for practically every seed, while x² passes for each; and
// no two of 10 000 drawn inputs coincide.
func TestSquareInputsNotTabulable(t *testing.T) {
	table := map[float64]float64{}
	for k := -64; k <= 64; k++ {
		x := float64(k) / 8
		table[x] = x * x
	}
	lookup := func(x float64) float64 { return table[x] }
	seen := map[float64]bool{}
	passed := 0
	for seed := uint64(1); seed <= 2000; seed++ {
		for _, x := range squareInputs(seed) {
			if x < -8 || x > 8 {
				t.Fatalf("seed %d: input %v outside [−8, 8]", seed, x)
			}
			seen[x] = true
		}
		a, err := Export("99.2", seed, lookup)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Judge(a, seed); err == nil {
			passed++
		}
		good, _ := Export("99.2", seed, func(x float64) float64 { return x * x })
		if _, err := Judge(good, seed); err != nil {
			t.Fatalf("seed %d: x² fails: %v", seed, err)
		}
	}
	if passed > 0 {
		t.Errorf("a table of 129 points passed 99.2 for %d of 2000 seeds", passed)
	}
	if len(seen) != 10000 {
		t.Errorf("%d distinct inputs in 10 000 draws, want 10 000", len(seen))
	}
}
