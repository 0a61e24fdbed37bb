package batch

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress reports how far a long run has got: Done of Total units
// (trials, runs) are finished. Label names the run or its current stage.
// Progress callbacks are always called from the goroutine that called the
// run function, one call at a time, so they need no locking.
type Progress struct {
	Label       string
	Done, Total int
	// Work and TotalWork, when TotalWork > 0, measure the work done when
	// units differ in cost (a study's trials weigh their size n), for an
	// honest ETA; otherwise every unit weighs the same.
	Work, TotalWork float64
}

// Fraction returns the share of the work done, in [0, 1] (0 when the
// counts are not finite).
func (p Progress) Fraction() float64 {
	f := 0.0
	switch {
	case p.TotalWork > 0:
		f = p.Work / p.TotalWork
	case p.Total > 0:
		f = float64(p.Done) / float64(p.Total)
	}
	if f != f { // NaN: Work or TotalWork not finite
		return 0
	}
	return min(max(f, 0), 1)
}

// ETA estimates the time left after elapsed, from Fraction (assuming the
// rest goes at the average rate so far); ok is false before any work is
// done.
func (p Progress) ETA(elapsed time.Duration) (eta time.Duration, ok bool) {
	f := p.Fraction()
	if f <= 0 {
		return 0, false
	}
	return time.Duration(float64(elapsed) * (1 - f) / f), true
}

// ProgressFunc receives progress reports. A nil ProgressFunc is allowed
// everywhere and means no reporting.
type ProgressFunc func(Progress)

// Report calls f with Progress{Label: label, Done: done, Total: total},
// or does nothing if f is nil.
func (f ProgressFunc) Report(label string, done, total int) {
	if f != nil {
		f(Progress{Label: label, Done: done, Total: total})
	}
}

// FormatDuration prints d rounded for a progress line: 45s, 3m20s, 2h05m.
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// MaxProgressWidth is the widest bar TextProgress draws.
const MaxProgressWidth = 400

// TextProgress returns a ProgressFunc that draws a one-line progress bar of
// the given width on w, followed by the estimated time left (from the share
// of the work done since TextProgress was called; see Progress.ETA). w is a
// terminal: the line is rewritten with '\r' and ended with a newline when
// Done ≥ Total. A width < 1 means 40 and a width above MaxProgressWidth is
// drawn MaxProgressWidth wide. Reports with Total ≤ 0 are ignored; Done
// outside [0, Total] (a caller's miscount) is printed as given, with the
// bar clamped to empty or full. A nil w draws nothing.
func TextProgress(w io.Writer, width int) ProgressFunc {
	if w == nil {
		w = io.Discard
	}
	if width < 1 {
		width = 40
	}
	width = min(width, MaxProgressWidth)
	last := -1
	start := time.Now()
	return func(p Progress) {
		if p.Total <= 0 {
			return
		}
		f := p.Fraction()
		if p.TotalWork <= 0 {
			f = float64(min(max(p.Done, 0), p.Total)) / float64(p.Total)
		}
		k := int(float64(width) * f)
		if pct := int(100 * f); pct == last && p.Done < p.Total {
			return
		} else {
			last = pct
		}
		fmt.Fprintf(w, "\r%-24s [%s%s] %d/%d", p.Label, strings.Repeat("#", k), strings.Repeat(".", width-k), p.Done, p.Total)
		if p.Done >= p.Total {
			fmt.Fprintln(w)
			return
		}
		if eta, ok := p.ETA(time.Since(start)); ok {
			fmt.Fprintf(w, "  ETA %-8s", FormatDuration(eta))
		}
	}
}
