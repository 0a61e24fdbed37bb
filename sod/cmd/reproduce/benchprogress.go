package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/experiments"
)

// benchProgress draws reproduce bench's progress on w (stderr), one line
// rewritten with '\r': while the instances are generated and certified,
// the family at work and the time elapsed; then a bar with the runs
// done/total, the time elapsed and the estimated time left. The estimate
// extrapolates the work (runs weighted by their estimated cost, see
// escapebench.RunSuite) done by this process since its first run, so a
// resumed run is not credited with the runs its journal already held.
// The line is redrawn at most once a second (and at the end).
func benchProgress(w io.Writer, width int) experiments.ProgressFunc {
	start := time.Now()
	var runStart, last time.Time
	var work0 float64
	running := false
	return func(p experiments.Progress) {
		now := time.Now()
		if fam, ok := strings.CutPrefix(p.Label, escapebench.ProgressInstances+" "); ok {
			fmt.Fprintf(w, "\rbench: generating and certifying the instances of %s (family %d of %d), elapsed %s    ", fam, p.Done+1, p.Total, roundDur(now.Sub(start)))
			return
		}
		if p.Total <= 0 {
			return
		}
		if !running {
			running, runStart, work0 = true, now, p.Work
			fmt.Fprintf(w, "\rbench: instances ready after %s%s\n", roundDur(now.Sub(start)), strings.Repeat(" ", 40))
		}
		done := p.Done >= p.Total
		if !done && now.Sub(last) < time.Second {
			return
		}
		last = now
		f := p.Fraction()
		k := int(float64(width) * f)
		fmt.Fprintf(w, "\rbench [%s%s] %d/%d runs  elapsed %s", strings.Repeat("#", k), strings.Repeat(".", width-k), p.Done, p.Total, roundDur(now.Sub(start)))
		if done {
			fmt.Fprintln(w)
			return
		}
		if dw := p.Work - work0; dw > 0 && p.TotalWork > 0 {
			eta := time.Duration(float64(now.Sub(runStart)) * (p.TotalWork - p.Work) / dw)
			fmt.Fprintf(w, "  ETA %s   ", roundDur(eta))
		} else {
			fmt.Fprint(w, "  ETA …      ")
		}
	}
}

// roundDur prints d to the second (1m05s).
func roundDur(d time.Duration) string { return d.Round(time.Second).String() }
