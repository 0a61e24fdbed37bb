package experiments

import (
	"errors"
	"math"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// FuzzLogGrid: LogGrid refuses (sod.ErrBadParameter) exactly lo < 1,
// hi < lo and k outside [1, MaxGridPoints]; otherwise it returns at most k
// strictly increasing values from lo to hi ([lo] for k = 1).
func FuzzLogGrid(f *testing.F) {
	for _, s := range [][3]int64{{1, 10000000, 200}, {1, 0, 3}, {0, 10, 3}, {1, 10, 0}, {1, math.MaxInt64, 50},
		{math.MaxInt64 - 3, math.MaxInt64, 7}, {5, 5, 1}, {5, 5, 10}, {1, 2, 1000}, {-5, -1, 3}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, lo, hi, k64 int64) {
		k := int(k64)
		if k > MaxGridPoints && k64 < 1<<40 {
			k = MaxGridPoints + 1 // keep refusals cheap to reach
		}
		g, err := LogGrid(lo, hi, k)
		valid := lo >= 1 && hi >= lo && k >= 1 && k <= MaxGridPoints
		if (err == nil) != valid || (err != nil && !errors.Is(err, sod.ErrBadParameter)) {
			t.Fatalf("LogGrid(%d, %d, %d): %v", lo, hi, k, err)
		}
		if err != nil {
			return
		}
		if len(g) == 0 || len(g) > k || g[0] != lo || (k > 1 && g[len(g)-1] != hi) || (k == 1 && len(g) != 1) {
			t.Fatalf("LogGrid(%d, %d, %d) = %v", lo, hi, k, g)
		}
		for i := 1; i < len(g); i++ {
			if g[i] <= g[i-1] {
				t.Fatalf("LogGrid(%d, %d, %d) not increasing at %d: %v", lo, hi, k, i, g)
			}
		}
	})
}
