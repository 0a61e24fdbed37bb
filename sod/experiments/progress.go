package experiments

import (
	"fmt"
	"io"
	"strings"
)

// Progress reports how far a long experiment has got: Done of Total units
// (trials, runs) are finished. Label names the experiment or current cell.
// Progress callbacks are always called from the goroutine that called the
// experiment function, one call at a time, so they need no locking.
type Progress struct {
	Label       string
	Done, Total int
}

// ProgressFunc receives progress reports. A nil ProgressFunc is allowed
// everywhere and means no reporting.
type ProgressFunc func(Progress)

func (f ProgressFunc) report(label string, done, total int) {
	if f != nil {
		f(Progress{Label: label, Done: done, Total: total})
	}
}

// MaxProgressWidth is the widest bar TextProgress draws.
const MaxProgressWidth = 400

// TextProgress returns a ProgressFunc that draws a one-line progress bar of
// the given width on w (a terminal: it rewrites the line with '\r' and ends
// it with a newline when Done ≥ Total). A width < 1 means 40 and a width
// above MaxProgressWidth is drawn MaxProgressWidth wide. Reports with
// Total ≤ 0 are ignored; Done outside [0, Total] (a caller's miscount) is
// printed as given, with the bar clamped to empty or full.
func TextProgress(w io.Writer, width int) ProgressFunc {
	if width < 1 {
		width = 40
	}
	width = min(width, MaxProgressWidth)
	last := -1
	return func(p Progress) {
		if p.Total <= 0 {
			return
		}
		done := min(max(p.Done, 0), p.Total)
		// width·done/Total without overflow for any int Done, Total.
		k := int(float64(width) * float64(done) / float64(p.Total))
		if pct := int(100 * float64(done) / float64(p.Total)); pct == last && p.Done < p.Total {
			return
		} else {
			last = pct
		}
		fmt.Fprintf(w, "\r%-24s [%s%s] %d/%d", p.Label, strings.Repeat("#", k), strings.Repeat(".", width-k), p.Done, p.Total)
		if p.Done >= p.Total {
			fmt.Fprintln(w)
		}
	}
}
