package escapebench

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"sodworkbench.org/workbench/sod/batch"
)

// ProgressLine draws RunSuite's progress (RunOptions.Progress) on a
// terminal w, one line rewritten with '\r': while the instances are
// generated and certified, the family at work and the time elapsed; then
// a bar of the given width with the runs done/total, the time elapsed and
// the estimated time left. The estimate extrapolates the work (runs
// weighted by their estimated cost, see RunOptions.Progress) done by this
// process since its first run, so a resumed run is not credited with the
// runs its journal already held, and counts down between reports. The
// line is redrawn on a report (at most once a second) and every tick
// while no report comes (a run at n = 10⁴ takes minutes; tick ≤ 0: only
// on reports): stop ends the ticking and must be called once the suite
// returns. A width outside [1, batch.MaxProgressWidth] is clamped to it;
// a nil w draws nothing.
func ProgressLine(w io.Writer, width int, tick time.Duration) (prog batch.ProgressFunc, stop func()) {
	if w == nil {
		w = io.Discard
	}
	width = min(max(width, 1), batch.MaxProgressWidth)
	var mu sync.Mutex
	start := time.Now()
	var runStart, last, lastReport time.Time
	var work0 float64
	var cur batch.Progress
	var eta time.Duration // estimate at lastReport; -1 if none
	state := 0            // 0 nothing yet, 1 generating, 2 running, 3 finished
	draw := func(now time.Time) {
		switch state {
		case 1:
			fam, _ := strings.CutPrefix(cur.Label, ProgressInstances+" ")
			fmt.Fprintf(w, "\rbench: generating and certifying the instances of %s (family %d of %d), elapsed %s    ", fam, cur.Done+1, cur.Total, roundDur(now.Sub(start)))
		case 2, 3:
			f := cur.Fraction()
			k := min(width, max(0, int(float64(width)*f)))
			fmt.Fprintf(w, "\rbench [%s%s] %d/%d runs  elapsed %s", strings.Repeat("#", k), strings.Repeat(".", width-k), cur.Done, cur.Total, roundDur(now.Sub(start)))
			switch {
			case state == 3:
				fmt.Fprintln(w)
			case eta >= 0:
				fmt.Fprintf(w, "  ETA %s   ", roundDur(max(0, eta-now.Sub(lastReport))))
			default:
				fmt.Fprint(w, "  ETA …      ")
			}
		}
		last = now
	}
	done := make(chan struct{})
	var once sync.Once
	stop = func() { once.Do(func() { close(done) }) }
	if tick > 0 {
		go func() {
			t := time.NewTicker(tick)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case now := <-t.C:
					mu.Lock()
					if state == 1 || state == 2 {
						if now.Sub(last) >= tick {
							draw(now)
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	prog = func(p batch.Progress) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if _, ok := strings.CutPrefix(p.Label, ProgressInstances+" "); ok {
			cur, state = p, 1
			draw(now)
			return
		}
		if p.Total <= 0 {
			return
		}
		if state != 2 {
			state, runStart, work0 = 2, now, p.Work
			fmt.Fprintf(w, "\rbench: instances ready after %s%s\n", roundDur(now.Sub(start)), strings.Repeat(" ", 40))
		}
		cur, lastReport, eta = p, now, -1
		if dw := p.Work - work0; dw > 0 && p.TotalWork > 0 {
			eta = time.Duration(float64(now.Sub(runStart)) * (p.TotalWork - p.Work) / dw)
		}
		if p.Done >= p.Total {
			state = 3
			draw(now)
			stop()
			return
		}
		if now.Sub(last) >= time.Second {
			draw(now)
		}
	}
	return prog, stop
}
