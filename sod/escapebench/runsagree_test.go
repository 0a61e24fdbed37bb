package escapebench

import "testing"

// A method whose runs agree on every instance gets the interval over
// instances; one whose runs vary, the interval over runs; one run per
// instance (a deterministic method) has both views equal.
func TestRunsAgreeInterval(t *testing.T) {
	runs := func(method string, ok ...[]bool) []*TrialResult {
		var rs []*TrialResult
		for i, inst := range ok {
			for k, s := range inst {
				rs = append(rs, &TrialResult{Family: "f", Instance: string(rune('a' + i)), Method: method, Trial: k, Success: s})
			}
		}
		return rs
	}
	T, F := true, false
	for _, c := range []struct {
		name      string
		rs        []*TrialResult
		agree     bool
		k, n      int // the interval's counts
		inst, all int
	}{
		{"agree", runs("m", []bool{T, T, T}, []bool{F, F, F}), true, 1, 2, 1, 1},
		{"vary", runs("m", []bool{T, F, T}, []bool{F, F, F}), false, 2, 6, 1, 0},
		{"once", runs("m", []bool{T}, []bool{F}), false, 1, 2, 1, 1},
	} {
		ss, err := Summarize(c.rs)
		if err != nil || len(ss) != 1 {
			t.Fatalf("%s: %v %v", c.name, ss, err)
		}
		s := ss[0]
		lo, hi, _ := Wilson(c.k, c.n)
		if s.RunsAgree != c.agree || s.RateLo != lo || s.RateHi != hi || s.Escaped != c.inst || s.Always != c.all {
			t.Errorf("%s: agree %v, [%v, %v], escaped %d, always %d; want %v, [%v, %v] (Wilson(%d, %d)), %d, %d",
				c.name, s.RunsAgree, s.RateLo, s.RateHi, s.Escaped, s.Always, c.agree, lo, hi, c.k, c.n, c.inst, c.all)
		}
	}
}
