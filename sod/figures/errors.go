package figures

import "errors"

// ErrBadFigure reports a bad input of this package's builders: a nil or
// empty result, a cell or method the data does not hold, mismatched
// lengths, a setting out of range. The message names the value and what is
// accepted. Errors of the packages whose results the builders draw
// (escapebench, experiments, sod) keep their own sentinels. Test with
// errors.Is.
var ErrBadFigure = errors.New("figures: parameter out of range")
