package main

import (
	"fmt"
	"regexp"
	"strings"

	sodexercises "sodworkbench.org/workbench/sod/exercises"
	"sodworkbench.org/workbench/sod/grading"
)

// exercise is one exercise of an instructor notebook: its id and the variable its check cell
// checks (answerNNk).
type exercise struct {
	ID  string
	Var string
}

// checkCellRe is the one form of a check cell: exercises.Check("NN.k", answerNNk). The grader
// does not run it: it exports answerNNk and runs the exercise's check itself (package
// sod/grading).
var checkCellRe = regexp.MustCompile(`^\s*%%[ \t]*\n\s*exercises\.Check\("([0-9]{2}\.[0-9]+)", ([A-Za-z_][A-Za-z0-9_]*)\)\s*$`)

// exercises returns the exercises of an instructor notebook, in order, and checks that they
// follow the convention: for each id one answer cell (code), one check cell (code) after it, and
// at most one solution cell (markdown), all carrying metadata sod.exercise.
func exercises(nb *notebook) ([]exercise, error) {
	type seen struct{ answer, check, solution int }
	count := map[string]*seen{}
	var order []string
	var list []exercise
	for i, c := range nb.cells {
		id := exerciseID(c)
		role := ""
		for _, t := range []string{tagAnswer, tagCheck, tagSolution} {
			if hasTag(c, t) {
				if role != "" {
					return nil, fmt.Errorf("cell %d is tagged both %s and %s", i, role, t)
				}
				role = t
			}
		}
		if role == "" {
			continue
		}
		if !grading.ValidID(id) {
			return nil, fmt.Errorf("cell %d is tagged %s but its metadata sod.exercise is %q (want an id like \"07.1\")", i, role, id)
		}
		s := count[id]
		if s == nil {
			s = &seen{}
			count[id] = s
			order = append(order, id)
		}
		switch role {
		case tagAnswer:
			if cellType(c) != "code" {
				return nil, fmt.Errorf("exercise %s: the answer cell %d is not a code cell", id, i)
			}
			s.answer++
		case tagCheck:
			if cellType(c) != "code" {
				return nil, fmt.Errorf("exercise %s: the check cell %d is not a code cell", id, i)
			}
			if s.answer == 0 {
				return nil, fmt.Errorf("exercise %s: the check cell %d comes before its answer cell", id, i)
			}
			m := checkCellRe.FindStringSubmatch(source(c))
			switch {
			case m == nil:
				return nil, fmt.Errorf("exercise %s: the check cell %d is not `%%%%` and exercises.Check(%q, answer…) alone (the grader checks exported answers with package sod/exercises)", id, i, id)
			case m[1] != id:
				return nil, fmt.Errorf("exercise %s: the check cell %d checks exercise %s", id, i, m[1])
			case !sodexercises.Known(id):
				return nil, fmt.Errorf("exercise %s: package sod/exercises has no check for it", id)
			}
			s.check++
			list = append(list, exercise{ID: id, Var: m[2]})
		case tagSolution:
			s.solution++
		}
	}
	for _, id := range order {
		s := count[id]
		if s.answer != 1 || s.check != 1 || s.solution > 1 {
			return nil, fmt.Errorf("exercise %s has %d answer, %d check and %d solution cells (want 1, 1 and at most 1)", id, s.answer, s.check, s.solution)
		}
	}
	return list, nil
}

// gradedCellID is the id of the cell the grader inserts for exercise id.
func gradedCellID(id string) string { return "sodgrade-" + strings.ReplaceAll(id, ".", "-") }

// exportCell is the cell the grader inserts after the student's answer cell of ex: it hands
// the answer to grading.HandIn, with the run's export folder and the exercise's seed. Nothing it
// prints is read; the grader reads the exported answer and checks it itself.
func exportCell(ex exercise, dir string, seed uint64) string {
	return fmt.Sprintf("import sodgrading %q\n\n%%%%\nsodgrading.HandIn(%q, %q, %#x, %s)\n",
		"sodworkbench.org/workbench/sod/grading", dir, ex.ID, seed, ex.Var)
}

// gradedCopy builds the notebook the grader executes from a student's copy: the student's
// cells, without any check or solution cells and without live-only cells, with the export
// cell of each exercise (exportCell, writing to the folder dir with the exercise's seed) right
// after the student's last answer cell of that exercise. It returns the exercises that have no
// answer cell.
func gradedCopy(student *notebook, exs []exercise, dir string, seeds map[string]uint64) (*notebook, map[string]bool, error) {
	last := map[string]int{}
	for i, c := range student.cells {
		if hasTag(c, tagAnswer) && cellType(c) == "code" {
			last[exerciseID(c)] = i
		}
	}
	checks := map[int][]exercise{}
	missing := map[string]bool{}
	for _, ex := range exs {
		i, ok := last[ex.ID]
		if !ok {
			missing[ex.ID] = true
			continue
		}
		checks[i] = append(checks[i], ex)
	}
	out := &notebook{doc: student.doc}
	for i, c := range student.cells {
		if hasTag(c, tagCheck) || hasTag(c, tagSolution) || hasTag(c, tagLiveOnly) {
			continue
		}
		if cellType(c) == "code" { // a clean start: no outputs from the student's own run
			c["outputs"], c["execution_count"] = []any{}, nil
		}
		out.cells = append(out.cells, c)
		for _, ex := range checks[i] {
			out.cells = append(out.cells, codeCell(gradedCellID(ex.ID), exportCell(ex, dir, seeds[ex.ID]),
				map[string]any{"sod": map[string]any{"exercise": ex.ID, "graded": true}}))
		}
	}
	return out, missing, nil
}

// release makes the student copy of an instructor notebook (nbgrader's "generate" step): no
// solution cells, and no check cells unless keepChecks (self-study copies may keep them); the
// answer cells stay, marked as the cells to edit (not deletable, editable). Outputs are
// cleared. It returns the number of exercises.
func release(nb *notebook, keepChecks bool) (*notebook, int, error) {
	exs, err := exercises(nb)
	if err != nil {
		return nil, 0, err
	}
	out := &notebook{doc: nb.doc}
	for _, c := range nb.cells {
		if hasTag(c, tagSolution) || (!keepChecks && hasTag(c, tagCheck)) {
			continue
		}
		if cellType(c) == "code" {
			c["outputs"], c["execution_count"] = []any{}, nil
		}
		if hasTag(c, tagAnswer) {
			m := metadata(c)
			m["deletable"], m["editable"] = false, true
		}
		out.cells = append(out.cells, c)
	}
	return out, len(exs), nil
}
