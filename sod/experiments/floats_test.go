package experiments

import (
	"encoding/json"
	"math"
	"testing"
)

func TestFloatsJSON(t *testing.T) {
	tests := []struct {
		in   Floats
		want string
	}{
		{nil, "null"},
		{Floats{}, "[]"},
		{Floats{1.5, -2e-300, 3}, "[1.5,-2e-300,3]"},
		{Floats{math.NaN(), math.Inf(1), math.Inf(-1), 0}, "[null,null,null,0]"},
	}
	for _, tc := range tests {
		b, err := json.Marshal(tc.in)
		if err != nil || string(b) != tc.want {
			t.Errorf("%v: %s, %v; want %s", tc.in, b, err, tc.want)
			continue
		}
		var back Floats
		if err := json.Unmarshal(b, &back); err != nil || len(back) != len(tc.in) {
			t.Errorf("%s: round trip %v, %v", b, back, err)
			continue
		}
		for i := range back {
			a, w := back[i], tc.in[i]
			if !(a == w || (math.IsNaN(a) && (math.IsNaN(w) || math.IsInf(w, 0)))) {
				t.Errorf("%s: element %d = %v, want %v (or NaN for non-finite)", b, i, a, w)
			}
		}
	}
}
