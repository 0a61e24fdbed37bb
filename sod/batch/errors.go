package batch

import "errors"

// ErrBadBatch reports a bad argument of this package (a nil context or job
// function, a job count, worker count or weight out of range, a malformed
// or out-of-range shard); the message names the value and the accepted
// range. Test with errors.Is.
var ErrBadBatch = errors.New("batch: parameter out of range")
