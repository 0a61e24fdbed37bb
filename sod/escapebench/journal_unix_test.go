//go:build unix

package escapebench

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestJournalNotRegular: a journal path that is a FIFO (reproduce bench
// hung on it: opening a FIFO waits for a writer), a directory or a device
// is refused by ReadJournal, ResumeJournal and CreateJournal without
// blocking, with an error naming it.
func TestJournalNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	h := JournalHeader{Bench: QuickSpec()}
	for _, p := range []string{fifo, dir, "/dev/null"} {
		done := make(chan []error, 1)
		go func() {
			_, e1 := ReadJournal(p)
			_, e2 := ResumeJournal(p, h)
			_, e3 := CreateJournal(p, h)
			done <- []error{e1, e2, e3}
		}()
		select {
		case errs := <-done:
			for i, err := range errs {
				if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), " is a") {
					t.Errorf("%s: reader %d: %v, want an error naming it and what it is", p, i, err)
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: blocks", p)
		}
	}
}
