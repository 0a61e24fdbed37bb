package escapebench

import (
	"errors"
	"testing"
)

// The cells' text forms read back what String writes, within their ranges.
func TestParseCells(t *testing.T) {
	for _, c := range []struct {
		in   string
		want PMCCell
		ok   bool
	}{
		{"1000:0.02", PMCCell{N: 1000, Eps: 0.02}, true},
		{"10000:0.001:2", PMCCell{N: 10000, Eps: 0.001, Points: 2}, true},
		{"1e4:0.5", PMCCell{N: 10000, Eps: 0.5}, true},
		{"2:0.1", PMCCell{}, false},      // n < 3
		{"20:0", PMCCell{}, false},       // ε = 0
		{"20:1.5", PMCCell{}, false},     // ε > 1
		{"20:NaN", PMCCell{}, false},     // ε not a number
		{"20:0.1:0", PMCCell{}, false},   // no points
		{"20", PMCCell{}, false},         // no ε
		{"20:0.1:2:3", PMCCell{}, false}, // too many parts
		{"200000:0.1", PMCCell{}, false}, // n > 10⁵
		{"20.5:0.1", PMCCell{}, false},   // n not an integer
		{"100:0.05:r3", PMCCell{N: 100, Eps: 0.05, R: 3}, true},
		{"1000:0.02:2:r5", PMCCell{N: 1000, Eps: 0.02, Points: 2, R: 5}, true},
		{"100:0.05:r1", PMCCell{N: 100, Eps: 0.05}, true}, // rank 1 written without :r1
		{"100:0.05:r0", PMCCell{}, false},                 // rank 0
		{"100:0.05:r11", PMCCell{}, false},                // rank > 10
		{"20:0.05:r5", PMCCell{}, false},                  // 6r − 3 > n
		{"100:0.05:rx", PMCCell{}, false},                 // rank not a number
		{"100:0.05:r3:2", PMCCell{}, false},               // rank not last
		{"100:r3", PMCCell{}, false},                      // no ε
	} {
		got, err := ParsePMCCell(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) || (!c.ok && !errors.Is(err, ErrBadBench)) {
			t.Errorf("ParsePMCCell(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
		if c.ok {
			if back, err := ParsePMCCell(got.String()); err != nil || back != got {
				t.Errorf("ParsePMCCell(%q.String()) = %v, %v", c.in, back, err)
			}
		}
	}
	for _, c := range []struct {
		in   string
		want GaussianCell
		ok   bool
	}{
		{"20:45:1", GaussianCell{N: 20, M: 45, R: 1}, true},
		{"20:40:2", GaussianCell{N: 20, M: 40, R: 2}, true},
		{"3:10:4", GaussianCell{}, false},   // r > n
		{"20:0:1", GaussianCell{}, false},   // m = 0
		{"300:10:1", GaussianCell{}, false}, // n > 200
		{"20:45", GaussianCell{}, false},
	} {
		got, err := ParseGaussianCell(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) || (!c.ok && !errors.Is(err, ErrBadBench)) {
			t.Errorf("ParseGaussianCell(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}
