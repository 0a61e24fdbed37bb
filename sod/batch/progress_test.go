package batch

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// TestProgressETA: the ETA extrapolates the weighted share of the work, and
// the bar shows it while running.
func TestProgressETA(t *testing.T) {
	for _, c := range []struct {
		name    string
		p       Progress
		elapsed time.Duration
		want    time.Duration
		ok      bool
	}{
		{"weighted", Progress{Done: 1, Total: 4, Work: 1000, TotalWork: 4000}, 3 * time.Second, 9 * time.Second, true},
		{"unweighted: Done/Total", Progress{Done: 3, Total: 4}, 3 * time.Second, time.Second, true},
		{"before any work", Progress{Done: 0, Total: 4}, time.Second, 0, false},
		{"NaN work", Progress{Done: 1, Total: 4, Work: math.NaN(), TotalWork: 4}, time.Second, 0, false},
	} {
		if eta, ok := c.p.ETA(c.elapsed); ok != c.ok || eta != c.want {
			t.Errorf("%s: ETA = %v, %v, want %v, %v", c.name, eta, ok, c.want, c.ok)
		}
	}
	for d, want := range map[time.Duration]string{45 * time.Second: "45s", 200 * time.Second: "3m20s", 7500 * time.Second: "2h05m"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
	var b strings.Builder
	f := TextProgress(&b, 10)
	f(Progress{Label: "s", Done: 1, Total: 3, Work: 10, TotalWork: 1000})
	if out := b.String(); !strings.Contains(out, "[..........] 1/3  ETA ") {
		t.Errorf("progress line %q: want a 1%% bar and an ETA", out)
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
	TextProgress(nil, 10)(Progress{Done: 1, Total: 2}) // a nil writer draws nothing
}

func TestProgressFuncReport(t *testing.T) {
	var got []Progress
	f := ProgressFunc(func(p Progress) { got = append(got, p) })
	f.Report("a", 1, 2)
	ProgressFunc(nil).Report("b", 1, 2) // no reporting, no panic
	if len(got) != 1 || got[0] != (Progress{Label: "a", Done: 1, Total: 2}) {
		t.Errorf("reports %+v", got)
	}
}
