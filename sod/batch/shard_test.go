package batch

import (
	"errors"
	"testing"
)

// TestShards: the N shards hold every job exactly once, round robin.
func TestShards(t *testing.T) {
	for _, n := range []int{1, 3, 7} {
		count := make([]int, 50)
		for k := range n {
			s := Shard{K: k, N: n}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			for j := range count {
				if s.Holds(j) {
					count[j]++
					if j%n != k {
						t.Errorf("shard %v holds job %d", s, j)
					}
				}
			}
		}
		for j, c := range count {
			if c != 1 {
				t.Errorf("N = %d: job %d in %d shards", n, j, c)
			}
		}
	}
	if !(Shard{}).Holds(12) || (Shard{}).Validate() != nil {
		t.Error("the zero Shard is not the whole run")
	}
	for _, s := range []Shard{{-1, 2}, {2, 2}, {0, -1}, {1, 0}, {0, MaxShards + 1}} {
		if err := s.Validate(); !errors.Is(err, ErrBadBatch) {
			t.Errorf("shard %v: error %v, want ErrBadBatch", s, err)
		}
	}
	if InShard(3, 0, 0) {
		t.Error("InShard with n = 0")
	}
}
