package batch

import (
	"fmt"
	"strconv"
	"strings"
)

// A run of many jobs can be split into N shards that run independently
// and are merged: shard k (0 ≤ k < N) runs the jobs whose global index j
// has j mod N = k, round robin, so that every shard gets its share of
// every kind of job (the jobs are listed cell by cell). When each job
// depends only on its own index and seed, never on the shard or on the
// other jobs, the merge of the N shards equals the unsharded run, bit for
// bit.

// MaxShards is the largest number of shards of a run.
const MaxShards = 100_000

// Shard is shard K of N. The zero value (N = 0) is the whole run, as is
// shard 0 of 1.
type Shard struct{ K, N int }

// Validate checks 0 ≤ K < N ≤ MaxShards (or the zero value).
func (s Shard) Validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.N < 1 || s.N > MaxShards || s.K < 0 || s.K >= s.N {
		return fmt.Errorf("%w: shard %d/%d, want 0 ≤ k < N ≤ %d", ErrBadBatch, s.K, s.N, MaxShards)
	}
	return nil
}

// Holds reports whether the job with global index j belongs to s (every
// job when s is the whole run).
func (s Shard) Holds(j int) bool {
	if s.N <= 1 {
		return true
	}
	return InShard(j, s.K, s.N)
}

// String returns "k/N", the form of the commands' -shard flag.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// ParseShard reads a shard in the form of String, "k/N" with decimal
// integers 0 ≤ k < N ≤ MaxShards (spaces around the parts allowed). Bad
// text is an error wrapping ErrBadBatch that names the part and
// its range.
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("%w: shard %q: want k/N with 0 ≤ k < N ≤ %d (e.g. 0/4)", ErrBadBatch, s, MaxShards)
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil || n < 1 || n > MaxShards {
		return Shard{}, fmt.Errorf("%w: shard %q: want a shard count N in [1, %d]", ErrBadBatch, s, MaxShards)
	}
	k, err := strconv.Atoi(strings.TrimSpace(ks))
	if err != nil || k < 0 || k >= n {
		return Shard{}, fmt.Errorf("%w: shard %q: want a shard number k in [0, %d]", ErrBadBatch, s, n-1)
	}
	return Shard{K: k, N: n}, nil
}

// InShard reports whether the job with global index j belongs to shard k
// of n: j mod n = k. It is false for n < 1.
func InShard(j, k, n int) bool { return n >= 1 && j%n == k }
