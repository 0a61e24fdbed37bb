package experiments

import "errors"

// ErrBadExperiment reports a bad argument or configuration of this
// package: a setting out of its range, a nil or mis-sized input, an
// unknown name, a malformed or mismatched results file. The message names
// the value and what is accepted. Errors that come from sod (a problem
// that cannot be built, a mis-shaped matrix) keep sod's sentinels; a data
// file that fails its checksum wraps ErrChecksum. Test with errors.Is.
var ErrBadExperiment = errors.New("experiments: parameter out of range")
