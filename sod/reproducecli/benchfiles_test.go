//go:build unix

package reproducecli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs the command and fails the test if it does not return
// within d (a FIFO opened for reading or writing blocks).
func runWithin(t *testing.T, d time.Duration, args []string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		var o, e bytes.Buffer
		done <- run(context.Background(), args, &o, &e)
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%q blocks", args)
		return nil
	}
}

// TestBenchRefusesBadFiles: reproduce bench hung when its journal was a
// FIFO, resumed a journal holding one run twice with different results,
// and bench merge copied an instances file with an X̂ of the wrong
// length. Each is now an error naming the file, before any work or any
// output. A good merge keeps the shard's environment.
func TestBenchRefusesBadFiles(t *testing.T) {
	tmp := t.TempDir()
	fifoDir := filepath.Join(tmp, "fifo")
	os.MkdirAll(fifoDir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "bench-journal-0-of-1.jsonl"), 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	if err := runWithin(t, 20*time.Second, benchArgs(fifoDir, "-shard", "0/1")); err == nil || !strings.Contains(err.Error(), "named pipe") || exitCode(err) != 1 {
		t.Errorf("journal is a FIFO: %v", err)
	}
	for _, dev := range []string{"/dev/null", tmp} {
		if err := runWithin(t, 20*time.Second, []string{"bench", "merge", "-out", filepath.Join(tmp, "m"), dev}); err == nil || exitCode(err) == 0 {
			t.Errorf("merge of %s: %v", dev, err)
		}
	}

	a := filepath.Join(tmp, "a")
	runBenchOK(t, benchArgs(a, "-shard", "0/1"))
	jp := filepath.Join(a, "bench-journal-0-of-1.jsonl")
	j, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	ip := filepath.Join(a, "bench-instances.json")
	inst, err := os.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}

	// The merge keeps the shard's environment beside its own.
	good := filepath.Join(tmp, "good")
	runBenchOK(t, []string{"bench", "merge", "-out", good, a})
	for f, want := range map[string]string{"bench-timings.csv": "# shard 0/1 cpu: ", "bench-summary.json": `"shards": [`, "bench-summary.md": "| shard 0/1 go |"} {
		if b, err := os.ReadFile(filepath.Join(good, f)); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("merged %s: no %q (%v)", f, want, err)
		}
	}

	// An instances file with an x cut short: the merge refuses it and
	// writes nothing.
	lines := strings.Split(string(inst), "\n")
	i := strings.Index(lines[2], `"x":[`)
	k := strings.Index(lines[2][i:], ",")
	lines[2] = lines[2][:i+5] + lines[2][i+k+1:]
	os.WriteFile(ip, []byte(strings.Join(lines, "\n")), 0o644)
	m := filepath.Join(tmp, "m")
	if err := runWithin(t, time.Minute, []string{"bench", "merge", "-out", m, a}); err == nil || !strings.Contains(err.Error(), "x has") || !strings.Contains(err.Error(), ip) {
		t.Errorf("merge with a bad instances file: %v", err)
	}
	if _, err := os.Stat(m); err == nil {
		t.Errorf("the refused merge wrote %s", m)
	}
	os.WriteFile(ip, inst, 0o644)

	// One run twice with different results: resuming refuses the journal.
	rec := bytes.Split(j, []byte("\n"))[1]
	var other []byte
	for _, pair := range [][2]string{{`"success":true`, `"success":false`}, {`"success":false`, `"success":true`}} {
		if bytes.Contains(rec, []byte(pair[0])) {
			other = bytes.Replace(rec, []byte(pair[0]), []byte(pair[1]), 1)
			break
		}
	}
	first, rest, _ := bytes.Cut(j, []byte("\n"))
	dup := bytes.Join([][]byte{first, other, rest}, []byte("\n"))
	os.WriteFile(jp, dup, 0o644)
	if err := runWithin(t, time.Minute, benchArgs(a, "-shard", "0/1")); err == nil || !strings.Contains(err.Error(), "with different results") || !strings.Contains(err.Error(), jp) {
		t.Errorf("resuming a journal with a conflicting duplicate: %v", err)
	}
}
