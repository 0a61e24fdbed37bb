package notebookcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Tags of the exercise cell convention: each exercise is an answer cell (code), a check cell
// (code) and a solution cell (markdown), all three with the cell metadata
// "sod": {"exercise": "NN.k"}. The student release drops the check and solution cells; the grader
// puts the instructor's check cells back after the student's answer cells.
const (
	AnswerTag   = "exercise-answer"
	CheckTag    = "exercise-check"
	SolutionTag = "solution"
)

var (
	exerciseIDRe = regexp.MustCompile(`^([0-9]{2})\.([1-9])$`)
	// oldAnswerRe finds exercises in the old style (answer and check in one cell).
	oldAnswerRe = regexp.MustCompile(`(?m)^\s*(answer\w*(\s*,\s*answer\w*)*\s*:=|var\s+answer\w*\b)`)
)

// answerVar is the top-level variable the answer cell of exercise id sets: "answer071" for "07.1".
func answerVar(id string) string { return "answer" + strings.Replace(id, ".", "", 1) }

// exerciseCells are the cells of one exercise, by kind (indices into the notebook, -1 if absent).
type exerciseCells struct{ answer, check, solution int }

// checkExercises returns the problems of a notebook's exercises: every code cell with exercise
// metadata carries exactly one of the three tags (a markdown cell may also be the untagged
// statement of the exercise) and every tagged cell the metadata; each id (NN.k, NN the
// notebook's number) has one answer cell (code) that declares its variable, then one check cell
// (code) that calls exercises.Check with it, then one solution cell (markdown) with a <details>
// block; and no exercise is left in the old one-cell style.
func checkExercises(name string, nb *notebook) []string {
	var probs []string
	byID := map[string]*exerciseCells{}
	var order []string
	for i, c := range nb.Cells {
		id := c.Metadata.Sod.Exercise
		var tags []string
		for _, tag := range []string{AnswerTag, CheckTag, SolutionTag} {
			if c.hasTag(tag) {
				tags = append(tags, tag)
			}
		}
		switch {
		case id == "" && len(tags) == 0:
			if c.CellType == "code" && oldAnswerRe.MatchString(c.source()) {
				probs = append(probs, c.label(i)+": an exercise in the old style (answer and check in one cell): split it into answer, check and solution cells")
			}
			continue
		case id == "":
			probs = append(probs, fmt.Sprintf(`%s: tagged %v without the metadata "sod": {"exercise": "NN.k"}`, c.label(i), tags))
			continue
		case len(tags) == 0 && c.CellType == "markdown":
			continue // the exercise's statement may carry its id too
		case len(tags) != 1:
			probs = append(probs, fmt.Sprintf("%s: exercise %s: tagged %v, want exactly one of %s, %s, %s", c.label(i), id, tags, AnswerTag, CheckTag, SolutionTag))
			continue
		}
		m := exerciseIDRe.FindStringSubmatch(id)
		if m == nil || !strings.HasPrefix(name, m[1]) {
			probs = append(probs, fmt.Sprintf("%s: exercise id %q: want NN.k with NN = the notebook's number", c.label(i), id))
			continue
		}
		ex := byID[id]
		if ex == nil {
			ex = &exerciseCells{-1, -1, -1}
			byID[id] = ex
			order = append(order, id)
		}
		slot, kind := &ex.answer, "code"
		switch tags[0] {
		case CheckTag:
			slot = &ex.check
		case SolutionTag:
			slot, kind = &ex.solution, "markdown"
		}
		switch {
		case *slot >= 0:
			probs = append(probs, fmt.Sprintf("%s: exercise %s has a second %s cell (the first is cell %d)", c.label(i), id, tags[0], *slot))
		case c.CellType != kind:
			probs = append(probs, fmt.Sprintf("%s: exercise %s: a %s cell must be %s", c.label(i), id, tags[0], kind))
		default:
			*slot = i
		}
	}
	for _, id := range order {
		ex := byID[id]
		v := answerVar(id)
		switch {
		case ex.answer < 0 || ex.check < 0 || ex.solution < 0:
			probs = append(probs, fmt.Sprintf("exercise %s: needs an %s, an %s and a %s cell (has cells %d, %d, %d; −1 = missing)",
				id, AnswerTag, CheckTag, SolutionTag, ex.answer, ex.check, ex.solution))
			continue
		case !(ex.answer < ex.check && ex.check < ex.solution):
			probs = append(probs, fmt.Sprintf("exercise %s: the cells must come in the order answer, check, solution (cells %d, %d, %d)", id, ex.answer, ex.check, ex.solution))
		}
		if !regexp.MustCompile(`(?m)^\s*(var\s+` + v + `\b|func\s+` + v + `\()`).MatchString(nb.Cells[ex.answer].source()) {
			probs = append(probs, fmt.Sprintf("%s: exercise %s: the answer cell must declare the top-level `var %s = …` (or `func %s(…)`)", nb.Cells[ex.answer].label(ex.answer), id, v, v))
		}
		if !strings.Contains(nb.Cells[ex.check].source(), fmt.Sprintf(`exercises.Check(%q, %s)`, id, v)) {
			probs = append(probs, fmt.Sprintf("%s: exercise %s: the check cell must call exercises.Check(%q, %s)", nb.Cells[ex.check].label(ex.check), id, id, v))
		}
		if !strings.Contains(nb.Cells[ex.solution].source(), "<details>") {
			probs = append(probs, fmt.Sprintf("%s: exercise %s: the solution must be in a <details> block", nb.Cells[ex.solution].label(ex.solution), id))
		}
	}
	return probs
}

// checkExercisesRan returns the exercise check cells of an executed notebook that did not report:
// each must print "exercise NN.k: correct" or "exercise NN.k: not answered yet".
func checkExercisesRan(nb *notebook) []string {
	var probs []string
	for i, c := range nb.Cells {
		if !c.hasTag(CheckTag) {
			continue
		}
		id := c.Metadata.Sod.Exercise
		var out strings.Builder
		for _, o := range c.Outputs {
			out.WriteString(joinText(o.Text))
		}
		if !slices.ContainsFunc([]string{"correct", "not answered yet"}, func(s string) bool {
			return strings.Contains(out.String(), fmt.Sprintf("exercise %s: %s", id, s))
		}) {
			probs = append(probs, fmt.Sprintf("%s: the check of exercise %s printed neither %q nor %q", c.label(i), id,
				"exercise "+id+": correct", "exercise "+id+": not answered yet"))
		}
	}
	return probs
}

func TestCheckExercises(t *testing.T) {
	ex := func(kind, tag, id, src string) cell {
		c := cell{CellType: kind, Source: raw(src)}
		if tag != "" {
			c.Metadata.Tags = []string{tag}
		}
		c.Metadata.Sod.Exercise = id
		return c
	}
	good := []cell{
		ex("markdown", "", "", "## Exercise 1"),
		ex("code", AnswerTag, "07.1", "var answer071 = 0.0 // ← your value"),
		ex("code", CheckTag, "07.1", `exercises.Check("07.1", answer071)`),
		ex("markdown", SolutionTag, "07.1", "<details><summary>Solution</summary>\n0.5\n</details>"),
	}
	with := func(i int, c cell) []cell { cs := slices.Clone(good); cs[i] = c; return cs }
	for _, tc := range []struct {
		name  string
		cells []cell
		want  string // substring of the problems, "" for none
	}{
		{"good", good, ""},
		{"func answer", with(1, ex("code", AnswerTag, "07.1", "func answer071(x int) int { return 0 }")), ""},
		{"missing check", slices.Delete(slices.Clone(good), 2, 3), "needs an exercise-answer, an exercise-check and a solution cell"},
		{"order", []cell{good[0], good[2], good[1], good[3]}, "order answer, check, solution"},
		{"wrong variable", with(1, ex("code", AnswerTag, "07.1", "var answer = 0.0")), "must declare the top-level `var answer071"},
		{"wrong check", with(2, ex("code", CheckTag, "07.1", `exercises.Check("07.2", answer071)`)), `must call exercises.Check("07.1", answer071)`},
		{"no details", with(3, ex("markdown", SolutionTag, "07.1", "0.5")), "<details> block"},
		{"solution as code", with(3, ex("code", SolutionTag, "07.1", "<details>")), "a solution cell must be markdown"},
		{"untagged metadata", with(2, ex("code", "", "07.1", `exercises.Check("07.1", answer071)`)), "want exactly one of"},
		{"statement with id", with(0, ex("markdown", "", "07.1", "## Exercise 1")), ""},
		{"tag without id", with(2, ex("code", CheckTag, "", `exercises.Check("07.1", answer071)`)), "without the metadata"},
		{"other notebook's id", with(1, ex("code", AnswerTag, "08.1", "var answer081 = 0.0")), `exercise id "08.1"`},
		{"old style", []cell{ex("code", "", "", "%%\nanswer := 0.0 // ← your value\nif answer == 0 {")}, "old style"},
		{"old style pair", []cell{ex("code", "", "", "%%\nanswerL, answerT := 0, int64(0)")}, "old style"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(checkExercises("07-case.ipynb", &notebook{Cells: tc.cells}), "\n")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("checkExercises = %q, want %q", got, tc.want)
			}
		})
	}

	check := ex("code", CheckTag, "07.1", `exercises.Check("07.1", answer071)`)
	for _, tc := range []struct {
		out  string
		want bool // reported as a problem
	}{
		{"exercise 07.1: correct\n", false},
		{"exercise 07.1: not answered yet: set answer071 in the cell above\n", false},
		{"exercise 07.2: correct\n", true},
		{"", true},
	} {
		c := check
		c.Outputs = []output{{OutputType: "stream", Name: "stdout", Text: raw(tc.out)}}
		if got := len(checkExercisesRan(&notebook{Cells: []cell{c}})) > 0; got != tc.want {
			t.Errorf("checkExercisesRan on output %q: reported %v, want %v", tc.out, got, tc.want)
		}
	}
}
