// Package grading is the small part of the autograder (sod/cmd/grade) that runs inside a
// student's notebook: it runs the instructor's check of one exercise and prints one verdict
// line that the grader reads back.
//
// The grader builds each graded copy of a notebook itself: it keeps the student's cells, drops
// any check and solution cells the student's copy has, and after the student's answer cell of
// each exercise inserts the instructor's check, wrapped as
//
//	grading.Verdict("07.1", token, func() { exercises.Check("07.1", answer071) })
//
// where token is a random string made by the grader for this one run. Verdict prints
//
//	sodgrade <token> <exercise> pass|fail <message, JSON-quoted>
//
// and the grader accepts exactly one such line, with its token, from the output of the cell it
// inserted; output printed by the student's own cells, or an "exercise 07.1: correct" printed
// by the student's code, is not a verdict. A check passes when it returns without panicking and
// says "exercise <id>: correct" (the convention of package sod/exercises); a panic, a check that
// prints anything else, or a check that never returns fails.
package grading

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Prefix starts every verdict line.
const Prefix = "sodgrade"

// idRe is the form of an exercise id: notebook number, a dot, exercise number ("07.1").
var idRe = regexp.MustCompile(`^[0-9]{2}\.[0-9]+$`)

// tokenRe is the form of a run token: 16 to 64 lowercase hexadecimal digits.
var tokenRe = regexp.MustCompile(`^[0-9a-f]{16,64}$`)

// ValidID reports whether id has the form of an exercise id, "NN.k" (for example "07.1").
func ValidID(id string) bool { return idRe.MatchString(id) }

// CorrectLine is what a check of package sod/exercises prints when the answer is right.
func CorrectLine(id string) string { return "exercise " + id + ": correct" }

// Verdict runs check, the instructor's check of exercise id, and prints its verdict line for the
// grader (see the package documentation). What check prints is captured and printed before
// the verdict line, so the graded notebook still shows it. A bad id or token is reported as a
// failed verdict rather than a panic, so that the grader always has one line to read.
func Verdict(id, token string, check func()) {
	if !ValidID(id) || !tokenRe.MatchString(token) {
		fmt.Println(Line(token, id, false, fmt.Sprintf("grading.Verdict: bad exercise id %q or token %q (want NN.k and 16-64 hex digits)", id, token)))
		return
	}
	out, panicked, pval := capture(check)
	if out != "" {
		fmt.Print(out)
		if !strings.HasSuffix(out, "\n") {
			fmt.Println()
		}
	}
	pass, msg := judge(id, out, panicked, pval)
	fmt.Println(Line(token, id, pass, msg))
}

// judge turns what a check did into a verdict and a one-line message.
func judge(id, out string, panicked bool, pval any) (bool, string) {
	if panicked {
		return false, oneLine(fmt.Sprint(pval))
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == CorrectLine(id) {
			return true, "correct"
		}
	}
	if s := strings.TrimSpace(out); s != "" {
		return false, "the check did not say correct: " + oneLine(s)
	}
	return false, "the check did not say correct (no output)"
}

// capture runs f with os.Stdout and os.Stderr sent to a pipe and returns what f printed and
// whether it panicked (with the panic value). The standard streams are restored afterwards.
func capture(f func()) (out string, panicked bool, pval any) {
	r, w, err := os.Pipe()
	if err != nil {
		defer func() {
			if p := recover(); p != nil {
				panicked, pval = true, p
			}
		}()
		f()
		return "", false, nil
	}
	var buf bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); io.Copy(&buf, r) }()
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	func() {
		defer func() {
			if p := recover(); p != nil {
				panicked, pval = true, p
			}
		}()
		f()
	}()
	os.Stdout, os.Stderr = stdout, stderr
	w.Close()
	wg.Wait()
	r.Close()
	return buf.String(), panicked, pval
}

// oneLine shortens s to its first line, at most 200 bytes.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// Line formats a verdict line.
func Line(token, id string, pass bool, msg string) string {
	v := "fail"
	if pass {
		v = "pass"
	}
	return fmt.Sprintf("%s %s %s %s %s", Prefix, token, id, v, strconv.Quote(msg))
}

// Result is one verdict read back from a notebook's output.
type Result struct {
	ID      string
	Pass    bool
	Message string
}

var lineRe = regexp.MustCompile(`(?m)^` + Prefix + ` ([0-9a-f]+) ([0-9]{2}\.[0-9]+) (pass|fail) ("(?:[^"\\]|\\.)*")\s*$`)

// Parse returns the verdict lines in text that carry token. Lines with another token (or none)
// are ignored: they were not printed by the grader's own cell in this run.
func Parse(text, token string) []Result {
	var rs []Result
	for _, m := range lineRe.FindAllStringSubmatch(text, -1) {
		if m[1] != token {
			continue
		}
		msg, err := strconv.Unquote(m[4])
		if err != nil {
			continue
		}
		rs = append(rs, Result{ID: m[2], Pass: m[3] == "pass", Message: msg})
	}
	return rs
}
