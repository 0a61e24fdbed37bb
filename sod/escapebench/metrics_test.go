package escapebench

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"sodworkbench.org/workbench/sod"
)

// Wilson intervals computed by hand from (p̂ + z²/2n ± z√(p̂(1−p̂)/n +
// z²/4n²))/(1 + z²/n), z = 1.959964 (e.g. 0/10: (0 + 0.19207 ±
// 0.19207)/1.38415 = [0, 0.27753]; the others checked with Python's
// statistics.NormalDist).
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{5, 10, 0.236593, 0.763407},
		{1, 20, 0.008881, 0.236131},
		{81, 100, 0.722212, 0.874852},
		{0, 0, 0, 1},
	} {
		lo, hi, err := Wilson(c.k, c.n)
		if err != nil {
			t.Errorf("Wilson(%d, %d): %v", c.k, c.n, err)
		}
		if math.Abs(lo-c.lo) > 1e-6 || math.Abs(hi-c.hi) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{4, 1, 3, 2}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.5, 2.5}, {0.9, 3.7}, {1, 4}} {
		if got, err := Quantile(xs, c.q); err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, %v, want %v", xs, c.q, got, err, c.want)
		}
	}
	if xs[0] != 4 {
		t.Error("Quantile modified its input")
	}
}

func TestSummarize(t *testing.T) {
	mk := func(ok bool, grad int64, rounds, lowered int, trace ...TracePoint) *TrialResult {
		r := &TrialResult{Family: "f", Method: "m", Success: ok, Rounds: rounds, Lowered: lowered, Trace: trace}
		r.Cost.Grad = grad
		return r
	}
	rs := []*TrialResult{
		mk(true, 10, 1, 1, TracePoint{0, 1, 2}, TracePoint{10, 0, 0}),
		mk(true, 30, 2, 1, TracePoint{0, 1, 4}, TracePoint{30, 0, 0}),
		mk(false, 50, 1, 0, TracePoint{0, 1, 6}, TracePoint{50, 1, 6}),
	}
	ss, _ := Summarize(rs)
	if len(ss) != 1 {
		t.Fatal(ss)
	}
	s := ss[0]
	if s.Trials != 3 || s.Successes != 2 || s.GradMedian != 20 || math.Abs(float64(s.GradP90)-28) > 1e-12 || s.Rounds != 4 || s.Lowered != 2 || s.LoweredShare != 0.5 {
		t.Fatalf("summary %+v", s)
	}
	// At g = 0 the three distances are 2, 4, 6; at the end 0, 0, 6.
	c := s.Curve
	if c.P50[0] != 4 || c.P50[len(c.P50)-1] != 0 || math.Abs(c.P10[0]-2.4) > 1e-12 || math.Abs(c.P90[len(c.P90)-1]-4.8) > 1e-12 {
		t.Fatalf("curve %+v", c)
	}
	// The quartiles, interpolated between order statistics: of 2, 4, 6 at
	// g = 0 (3 and 5) and of 0, 0, 6 at the end (0 and 3).
	if c.P25[0] != 3 || c.P75[0] != 5 || c.P25[len(c.P25)-1] != 0 || c.P75[len(c.P75)-1] != 3 {
		t.Fatalf("curve quartiles %v, %v", c.P25, c.P75)
	}
	if _, err := json.Marshal(must(Summarize([]*TrialResult{mk(false, 1, 0, 0)}))); err != nil {
		t.Fatalf("a cell without successes does not encode: %v", err)
	}
}

// TestSummarizePerInstance: the per-instance view counts instances
// escaped by at least one run and by every run, with the Wilson interval
// over instances, next to the rate over runs.
func TestSummarizePerInstance(t *testing.T) {
	var rs []*TrialResult
	// Instance a: 3 of 3 runs succeed; b: 1 of 3; c: 0 of 3.
	for i, ok := range []bool{true, true, true, false, true, false, false, false, false} {
		rs = append(rs, &TrialResult{Family: "f", Instance: string(rune('a' + i/3)), Method: "m", Trial: i % 3, Success: ok})
	}
	ss, _ := Summarize(rs)
	if len(ss) != 1 {
		t.Fatalf("%d summaries", len(ss))
	}
	s := ss[0]
	lo, hi, _ := Wilson(2, 3)
	if s.Trials != 9 || s.Successes != 4 || s.Instances != 3 || s.Escaped != 2 || s.Always != 1 || s.InstLo != lo || s.InstHi != hi {
		t.Errorf("summary %+v: want 4/9 runs, instances 3, escaped 2, always 1, interval Wilson(2, 3)", s)
	}
}

func TestWriteSummaryMarkdown(t *testing.T) {
	rs := []*TrialResult{
		{Family: "a|b\r| c", Instance: "a", Method: "m_1", Success: true, Cost: Cost{EvalCounts: sod.EvalCounts{Grad: 10}, CPU: 2 * time.Millisecond}},
		{Family: "a|b\r| c", Instance: "b", Method: "m_1", Success: false},
	}
	var b strings.Builder
	if err := WriteSummaryMarkdown(&b, must(Summarize(rs))); err != nil {
		t.Fatal(err)
	}
	// quote.Markdown: the bare CR becomes a space, "|" is escaped; "m_1"
	// stays (an underscore between letters or digits is no emphasis).
	want := `| a\|b \| c | m_1 | 2 | 1 = 50 % [9, 91] | 1 / 1 / 2 [9, 91] % | 10 | 2 ms |`
	if !strings.Contains(b.String(), want) {
		t.Errorf("markdown:\n%s\nwant the row %s", b.String(), want)
	}
}

// must returns v, panicking on err (tests only).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
