package batch_test

import (
	"errors"
	"testing"

	"sodworkbench.org/workbench/sod/batch"
)

// FuzzParseShard: any text is either a valid shard that String writes back
// to text ParseShard reads as the same shard, or an error wrapping
// batch.ErrBadBatch; never a panic, never a shard Validate refuses.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/4", " 1 / 2 ", "4/4", "5/0", "-1/3", "0/100000", "0/100001", "1", "/", "a/b", "1e0/4", "0x1/4", "1/2/3", "9223372036854775807/1", "0/-0", "+1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := batch.ParseShard(s)
		if err != nil {
			if !errors.Is(err, batch.ErrBadBatch) {
				t.Fatalf("ParseShard(%q): error %v does not wrap batch.ErrBadBatch", s, err)
			}
			return
		}
		if err := sh.Validate(); err != nil || sh.N < 1 {
			t.Fatalf("ParseShard(%q) = %v, which Validate refuses: %v", s, sh, err)
		}
		back, err := batch.ParseShard(sh.String())
		if err != nil || back != sh {
			t.Fatalf("ParseShard(%q) = %v; ParseShard(%q) = %v, %v", s, sh, sh.String(), back, err)
		}
	})
}
