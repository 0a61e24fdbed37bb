package repo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// maxTrackedBytes is the largest file the repository tracks (the biggest text files are under
// 50 kB); a built binary or a notebook with outputs is far larger.
const maxTrackedBytes = 512 << 10

// TestNoBinariesTracked fails on a tracked executable (ELF) or any file over maxTrackedBytes: a
// `go build ./sod/cmd/grade` at the top leaves a 4.5 MB `grade` there, which `git add -A` would
// commit and the image would copy.
func TestNoBinariesTracked(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files := trackedFiles(t, root)
	if len(files) < 50 {
		t.Fatalf("found only %d files under %s: not the repository?", len(files), root)
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		st, err := os.Stat(p)
		if err != nil {
			continue // deleted in the working tree, not yet in the index
		}
		if st.Size() > maxTrackedBytes {
			t.Errorf("%s: %d bytes, more than the %d a tracked file may have (a binary or outputs?)", f, st.Size(), maxTrackedBytes)
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(b, []byte("\x7fELF")) {
			t.Errorf("%s: an ELF executable is tracked", f)
		}
	}
}
