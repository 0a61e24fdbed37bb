package escapebench

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"sodworkbench.org/workbench/sod/batch"
)

// TestProgressLine: the progress line names the family being generated,
// then shows runs done/total, the time elapsed and an estimate of the time
// left.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p, stop := ProgressLine(&b, 10, 0)
	defer stop()
	p(batch.Progress{Label: ProgressInstances + " pmc", Done: 1, Total: 3})
	p(batch.Progress{Label: "bench", Done: 0, Total: 4, Work: 0, TotalWork: 8})
	time.Sleep(1100 * time.Millisecond)
	p(batch.Progress{Label: "bench", Done: 1, Total: 4, Work: 2, TotalWork: 8})
	p(batch.Progress{Label: "bench", Done: 4, Total: 4, Work: 8, TotalWork: 8})
	s := b.String()
	for _, w := range []string{"instances of pmc (family 2 of 3)", "1/4 runs", "elapsed", "ETA ", "4/4 runs"} {
		if !strings.Contains(s, w) {
			t.Errorf("progress lacks %q: %q", w, s)
		}
	}
	q, stopQ := ProgressLine(nil, -5, 0) // a nil writer and a bad width: nothing drawn, no panic
	q(batch.Progress{Label: "bench", Done: 1, Total: 2})
	stopQ()
}

// lockedBuffer is a bytes.Buffer safe for the ticker's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressLineTicks: between two reports (a long run) the line is
// still redrawn, with the elapsed time moving and the estimate counting
// down; stop ends the redrawing.
func TestProgressLineTicks(t *testing.T) {
	var b lockedBuffer
	p, stop := ProgressLine(&b, 10, 20*time.Millisecond)
	p(batch.Progress{Label: "bench", Done: 0, Total: 4, Work: 0, TotalWork: 8})
	time.Sleep(50 * time.Millisecond)
	p(batch.Progress{Label: "bench", Done: 1, Total: 4, Work: 2, TotalWork: 8})
	n0 := strings.Count(b.String(), "1/4 runs")
	time.Sleep(200 * time.Millisecond)
	if n := strings.Count(b.String(), "1/4 runs"); n <= n0 {
		t.Errorf("no redraw between reports: %d lines of 1/4 before, %d after: %q", n0, n, b.String())
	}
	stop()
	time.Sleep(50 * time.Millisecond)
	n1 := len(b.String())
	time.Sleep(100 * time.Millisecond)
	if len(b.String()) != n1 {
		t.Errorf("redrawn after stop: %q", b.String())
	}
}
