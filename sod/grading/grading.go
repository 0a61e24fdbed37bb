// Package grading is the channel between a graded notebook and the autograder (sod/cmd/grade):
// the notebook exports each answer as data, and the grader checks that data in its own process.
//
// The grader builds each graded copy of a notebook itself: it keeps the student's cells, drops
// any check and solution cells the student's copy has, and after the student's answer cell of
// each exercise inserts one call
//
//	grading.HandIn("/sodgrade-3f9c0e…/export", "07.1", 0x5d1c…, answer071)
//
// with a folder and a seed drawn by the grader for this one run. HandIn gives the answer to
// exercises.Export (a value travels as its numbers, code as its outputs on the exercise's
// inputs, drawn from the seed) and writes the result to <folder>/07.1.json. After the notebook
// has run, the grader reads that file (Exports.Grade) and runs the exercise's check,
// exercises.Judge, in its own process.
//
// Nothing the student's process prints decides a verdict, and nothing it writes does either,
// except an exported answer, which is checked like any answer: a student who writes the file
// themselves must write the numbers a correct answer gives. A student's code can read the
// seed (it runs in the same program as the export), but the seed only says where a func answer
// is evaluated; the outputs there must still be right.
package grading

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"syscall"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/exercises"
)

// idRe is the form of an exercise id: notebook number, a dot, exercise number ("07.1").
var idRe = regexp.MustCompile(`^[0-9]{2}\.[0-9]+$`)

// ValidID reports whether id has the form of an exercise id, "NN.k" (for example "07.1"), and
// passes sod.CheckIdentifier, the rule for every name that reaches a file path.
func ValidID(id string) bool { return checkID(id) == nil }

// checkID returns an error wrapping ErrBadGrading naming id unless
// ValidID(id). The form NN.k is checked first, so that every bad id is this
// package's error; sod.CheckIdentifier stays as the module's rule for names
// that reach a file path.
func checkID(id string) error {
	if !idRe.MatchString(id) {
		return fmt.Errorf("%w: exercise id %q: want the form NN.k, such as 07.1", ErrBadGrading, id)
	}
	if err := sod.CheckIdentifier("exercise id", id); err != nil {
		return fmt.Errorf("%w: %v", ErrBadGrading, err)
	}
	return nil
}

// MaxExportBytes is the largest exported answer the grader reads (an answer to any exercise of
// the workbench is a few kilobytes).
const MaxExportBytes = 4 << 20

// fileName is the file of exercise id's exported answer in the export folder.
func fileName(id string) string { return id + ".json" }

// HandIn writes the exported answer of exercise id (exercises.Export with seed) to dir, for the
// grader. It is what the grader's inserted cell calls; it prints one line saying so. It panics
// (failing the cell) if id is not an exercise or the file cannot be written.
func HandIn(dir, id string, seed uint64, answer any) {
	a, err := exercises.Export(id, seed, answer)
	if err != nil {
		panic(err)
	}
	b, err := json.Marshal(a)
	if err != nil {
		panic(fmt.Errorf("exercise %s: exporting the answer: %v", id, err))
	}
	tmp, err := os.CreateTemp(dir, ".export-*")
	if err != nil {
		panic(fmt.Errorf("exercise %s: exporting the answer: %v", id, err))
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, fileName(id)))
	}
	if err != nil {
		os.Remove(tmp.Name())
		panic(fmt.Errorf("exercise %s: exporting the answer: %v", id, err))
	}
	fmt.Printf("exercise %s: answer handed in for grading\n", id)
}

// Exports is an export folder, opened by the grader before the notebook runs: it keeps the
// folder it opened even if the notebook renames it or puts a link in its place.
type Exports struct {
	f *os.File
}

// OpenExports opens the export folder dir (not following a symbolic link).
func OpenExports(dir string) (*Exports, error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Exports{os.NewFile(uintptr(fd), dir)}, nil
}

// Close closes the folder.
func (e *Exports) Close() error {
	if e == nil || e.f == nil {
		return fmt.Errorf("%w: Close on a nil Exports (use OpenExports)", ErrBadGrading)
	}
	return e.f.Close()
}

// ErrNotExported reports that the folder holds no answer for an exercise.
var ErrNotExported = errors.New("no answer exported")

// Read returns the exported answer of exercise id: a regular file of at most MaxExportBytes
// (not a link, not a pipe), an Answer with no unknown fields, for exercise id. An id that is not
// ValidID (such as "../x") is refused before any file is opened.
func (e *Exports) Read(id string) (*exercises.Answer, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if e == nil || e.f == nil {
		return nil, fmt.Errorf("%w: Read on a nil Exports (use OpenExports)", ErrBadGrading)
	}
	fd, err := syscall.Openat(int(e.f.Fd()), fileName(id), syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, syscall.ENOENT):
		return nil, ErrNotExported
	case errors.Is(err, syscall.ELOOP):
		return nil, errors.New("the exported answer is a symbolic link, not a file the grader's cell wrote")
	case err != nil:
		return nil, fmt.Errorf("reading the exported answer: %v", err)
	}
	f := os.NewFile(uintptr(fd), fileName(id))
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading the exported answer: %v", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("the exported answer is not a regular file (%v)", st.Mode().Type())
	}
	if st.Size() > MaxExportBytes {
		return nil, fmt.Errorf("the exported answer is %d bytes, more than any answer (limit %d)", st.Size(), MaxExportBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxExportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the exported answer: %v", err)
	}
	if len(b) > MaxExportBytes {
		return nil, fmt.Errorf("the exported answer is more than %d bytes", MaxExportBytes)
	}
	a, err := exercises.DecodeAnswer(b)
	if err != nil {
		return nil, err
	}
	if a.ID != id {
		return nil, fmt.Errorf("the exported answer is for exercise %q, not %s", a.ID, id)
	}
	return a, nil
}

// Result is the verdict on one exercise.
type Result struct {
	ID      string
	Pass    bool
	Message string // "correct", or what is wrong
}

// Grade reads the exported answer of exercise id and checks it with exercises.Judge and seed,
// in this process. The error is ErrNotExported when the folder holds no answer for id; a
// malformed export is a failed Result.
func (e *Exports) Grade(id string, seed uint64) (Result, error) {
	a, err := e.Read(id)
	if errors.Is(err, ErrNotExported) {
		return Result{ID: id, Message: err.Error()}, err
	}
	if err != nil {
		return Result{ID: id, Message: err.Error()}, nil
	}
	return judge(a, seed), nil
}

// judge runs exercises.Judge, a panic included in the verdict rather than the grader's crash.
func judge(a *exercises.Answer, seed uint64) (r Result) {
	r.ID = a.ID
	defer func() {
		if p := recover(); p != nil {
			r = Result{ID: a.ID, Message: fmt.Sprintf("grader: the check of %s panicked: %v", a.ID, p)}
		}
	}()
	_, err := exercises.Judge(a, seed)
	if err != nil {
		return Result{ID: a.ID, Message: err.Error()}
	}
	return Result{ID: a.ID, Pass: true, Message: "correct"}
}
