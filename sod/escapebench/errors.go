package escapebench

import "errors"

// ErrBadBench reports a bad argument or input of this package: a setting,
// cell, family, method, judge, target or option out of its range, an
// unknown name, a malformed or mismatched journal or results file, a nil
// argument. The message names the value and what is accepted. Errors that
// come from sod (a problem that cannot be built, a failed factorization)
// keep sod's sentinels; ErrNotCertified reports a point that fails its
// certificate. Test with errors.Is.
var ErrBadBench = errors.New("escapebench: parameter out of range")
