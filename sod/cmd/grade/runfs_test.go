package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRunFSNoFollow: what a notebook does to its folder after the grader opened it cannot make
// the grader read elsewhere. The executed notebook made a link (to /proc/self/cwd/<the
// instructor's notebook>, which would resolve in the grader's own process), out/ swapped for a
// link to the instructor's folder, export/ swapped for a folder of made-up answers: each read
// is refused, or reads the folder the grader opened.
func TestRunFSNoFollow(t *testing.T) {
	dir := t.TempDir()
	run, instr := filepath.Join(dir, "run"), filepath.Join(dir, "instructor")
	for _, d := range []string{filepath.Join(run, "out"), filepath.Join(run, "export"), instr} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(instr, "99-fixture.ipynb")
	if err := os.WriteFile(secret, []byte(`{"solution": 42}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := openRunFS(run)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, secret)
	if err != nil {
		t.Fatal(err)
	}
	// 1. the executed notebook, a link through /proc/self/cwd
	if err := os.Symlink("/proc/self/cwd/"+rel, filepath.Join(run, "out", "99-fixture.ipynb")); err != nil {
		t.Fatal(err)
	}
	if b, err := readBeneath(fs.out, "99-fixture.ipynb", 1<<20); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Errorf("the executed notebook, a link to the instructor's: read %q, error %v; want a refusal naming the link", b, err)
	}
	// 2. a path through a link in a folder
	if err := os.Symlink(instr, filepath.Join(run, "sub")); err != nil {
		t.Fatal(err)
	}
	if b, err := readBeneath(fs.root, "sub/99-fixture.ipynb", 1<<20); err == nil {
		t.Errorf("sub/ a link to the instructor's folder: read %q", b)
	}
	if b, err := readBeneath(fs.root, "../instructor/99-fixture.ipynb", 1<<20); err == nil {
		t.Errorf("../instructor: read %q", b)
	}
	// 3. out/ and export/ swapped after the grader opened them
	for _, d := range []string{"out", "export"} {
		if err := os.Rename(filepath.Join(run, d), filepath.Join(run, d+".old")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(instr, filepath.Join(run, d)); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := readBeneath(fs.out, "99-fixture.ipynb", 1<<20); err == nil {
		t.Errorf("out/ swapped for a link to the instructor's folder: read %q", b)
	}
	if err := os.WriteFile(filepath.Join(run, "export.old", "99.1.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ents, err := os.ReadDir(fs.exportPath()); err != nil || len(ents) != 1 || ents[0].Name() != "99.1.json" {
		t.Errorf("export/ swapped: the grader's export folder holds %v (%v), want the folder it opened", ents, err)
	}
	// 4. not a regular file
	if err := os.Mkdir(filepath.Join(run, "out.old", "x.ipynb"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := readBeneath(fs.out, "x.ipynb", 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder as the executed notebook: error %v", err)
	}
}

// TestDirSizeDeep: the size of a run's folder on the host (podman, no sandbox) counts a file
// under a path longer than PATH_MAX, and the folders and links (the walk once stopped at
// ENAMETOOLONG and counted regular files only).
func TestDirSizeDeep(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("d", 250)
	for range 20 { // 20 × 251 bytes: past PATH_MAX (4096)
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = sub
	}
	f, err := unix.Openat(fd, "fill", unix.O_WRONLY|unix.O_CREAT, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	unix.Write(f, make([]byte, 4<<20))
	unix.Close(f)
	for i := range 100 {
		unix.Symlinkat(strings.Repeat("x", 4000), fd, "l"+strconv.Itoa(i))
	}
	unix.Close(fd)
	if n := dirSize(dir); n < 4<<20 {
		t.Errorf("dirSize = %d, want at least the 4 MiB file under a path of %d bytes", n, 20*251)
	}
}
