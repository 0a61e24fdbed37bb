package widgets

import "errors"

// Sentinel errors of the widgets (test with errors.Is). The messages that
// wrap them name the bad value and the accepted range.
var (
	// ErrBadInput reports a value outside its documented range: a
	// probability outside [0, 1], a negative count, a nil function.
	ErrBadInput = errors.New("widgets: bad input")
)
