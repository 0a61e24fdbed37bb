package grading

import "errors"

// ErrBadGrading reports a bad argument of this package: an exercise id
// not of the form NN.k, a method called on a nil Exports. ErrNotExported
// reports a folder without the answer. Test with errors.Is.
var ErrBadGrading = errors.New("grading: parameter out of range")
