package experiments

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
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

func TestTextProgress(t *testing.T) {
	var buf bytes.Buffer
	f := TextProgress(&buf, 10)
	for i := 1; i <= 200; i++ {
		f(Progress{Label: "x", Done: i, Total: 200})
	}
	out := buf.String()
	if n := strings.Count(out, "\r"); n != 101 {
		t.Errorf("%d redraws for 200 reports, want one per percent, 0…100 (101)", n)
	}
	if !strings.HasSuffix(out, "[##########] 200/200\n") {
		t.Errorf("last line %q", out[strings.LastIndex(out, "\r"):])
	}
}
