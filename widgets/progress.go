package widgets

import (
	"fmt"
	"sync"
	"time"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// ProgressBar shows the progress of a long cell (Monte Carlo trials, a sweep
// over l and t) as a bar that is updated in place in one output. Its
// methods are safe for concurrent use. Outside a notebook it shows
// nothing.
type ProgressBar struct {
	mu       sync.Mutex
	id       string
	title    string
	total    int
	start    time.Time
	last     time.Time
	interval time.Duration
	done     bool
}

// NewProgressBar starts a progress display for total steps. Updates are sent
// at most every 250 ms (the first and the last always are).
func NewProgressBar(title string, total int) (*ProgressBar, error) {
	if total <= 0 {
		return nil, fmt.Errorf("widgets: NewProgressBar %q: total = %d, want > 0", title, total)
	}
	p := &ProgressBar{id: "sodw_progress_" + freshID(), title: title, total: total, start: time.Now(), interval: 250 * time.Millisecond}
	p.show(0, "", true)
	return p, nil
}

// Update reports that done of the total steps are finished, with an
// optional note (e.g. "l = 5, t = 1e5").
func (p *ProgressBar) Update(done int, note string) {
	if p == nil {
		panic(fmt.Errorf("%w: ProgressBar.Update on a nil *ProgressBar (use NewProgressBar)", ErrBadInput))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.show(done, note, done >= p.total)
}

// Done marks the work as finished and leaves the final state (with the
// elapsed time) in the output.
func (p *ProgressBar) Done(note string) {
	if p == nil {
		panic(fmt.Errorf("%w: ProgressBar.Done on a nil *ProgressBar (use NewProgressBar)", ErrBadInput))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.show(p.total, note, true)
	p.done = true
	frontend.Sync()
}

// show renders the bar; the caller holds p.mu (or owns p).
func (p *ProgressBar) show(done int, note string, force bool) {
	now := time.Now()
	if !force && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	if frontend.IsNotebook() {
		frontend.UpdateHTML(p.id, p.html(done, note, now.Sub(p.start)))
	}
}

// html returns the bar for done of total steps after elapsed.
func (p *ProgressBar) html(done int, note string, elapsed time.Duration) string {
	done = min(max(done, 0), p.total)
	frac := float64(done) / float64(p.total)
	eta := ""
	if done > 0 && done < p.total {
		rem := time.Duration(float64(elapsed) * (1 - frac) / frac)
		eta = fmt.Sprintf(", about %s left", rem.Round(time.Second))
	}
	if note != "" {
		note = " · " + escapeHTML(note)
	}
	return fmt.Sprintf(`<div class="sodw-progress" style="font-size:13px;margin:4px 0;">`+
		`<b>%s</b> %d/%d (%.0f%%) in %s%s%s`+
		`<div style="background:#e9ecef;width:420px;height:10px;border-radius:5px;">`+
		`<div style="background:#4c6ef5;width:%.1f%%;height:10px;border-radius:5px;"></div></div></div>`,
		escapeHTML(p.title), done, p.total, 100*frac, elapsed.Round(100*time.Millisecond), eta, note, 100*frac)
}
