package sod

import "fmt"

// errUnbuilt is the error of a method called on a nil receiver, or on a
// value its constructor did not make (a zero value): it names the type,
// the method and the constructor. A method with an error result returns
// it; a method without one panics with it, as Problem's hot methods panic
// with ErrShape on a wrong shape. Size accessors (Dims, Rank, Size) give 0
// and predicates (IsLocalMinimum, Solved, HasTruth) false on a nil
// receiver: their answer for nothing is defined.
func errUnbuilt(typ, method, ctor string) error {
	return fmt.Errorf("%w: %s.%s on a nil or zero *%s; make one with %s", ErrBadParameter, typ, method, typ, ctor)
}
