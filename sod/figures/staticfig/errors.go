package staticfig

import "errors"

// ErrBadStaticFigure reports a bad input of this package's figures: a
// number of columns out of range, a family whose methods have no trace to
// draw. The message names the value and what is accepted. Errors of the
// packages whose results the figures draw (figures, escapebench, sod) keep
// their own sentinels. Test with errors.Is.
var ErrBadStaticFigure = errors.New("staticfig: parameter out of range")
