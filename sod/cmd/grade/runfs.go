package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// runFS is a run's folder as the grader holds it: directory file descriptors opened before any
// of the notebook's code runs. Every path the grader reads or writes in a run's folder is
// resolved beneath one of them by openat2 with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS (no
// link followed at any component, no "..", no magic link of /proc), so a notebook that puts a
// link in place of out/, of the executed notebook or of any folder above them (a link to
// /proc/self/cwd/<the instructor's folder>, which would resolve in the grader's own process)
// makes the read fail instead of reading through it. Held open, the folders also outlive the
// sandbox: in bubblewrap the run's folder is a filesystem of its own inside the sandbox, which
// the grader reads after the sandbox has ended.
type runFS struct {
	root, out, export *os.File
}

// resolveBeneath is how every path in a run's folder is resolved.
const resolveBeneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openBeneath opens path (relative, slash-separated) beneath the folder dir, following no link.
func openBeneath(dir *os.File, path string, flags int) (*os.File, error) {
	fd, err := unix.Openat2(int(dir.Fd()), path, &unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: resolveBeneath})
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) {
			return nil, fmt.Errorf("%s in the run's folder is a link or passes through one: the grader does not follow it", path)
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), dir.Name()+"/"+path), nil
}

// openRunFS opens the run's folder root (a path of the grader's own, made by the grader) and
// its out/ and export/ folders beneath it. It is called before the notebook runs.
func openRunFS(root string) (*runFS, error) {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	return openRunFSAt(os.NewFile(uintptr(fd), root))
}

// openRunFSAt opens out/ and export/ beneath the run's folder root, which it takes over.
func openRunFSAt(root *os.File) (*runFS, error) {
	fs := &runFS{root: root}
	var err error
	if fs.out, err = openBeneath(root, "out", unix.O_RDONLY|unix.O_DIRECTORY); err == nil {
		fs.export, err = openBeneath(root, "export", unix.O_RDONLY|unix.O_DIRECTORY)
	}
	if err != nil {
		fs.Close()
		return nil, err
	}
	return fs, nil
}

// Close closes the folders (and so frees a sandbox's filesystem, which they kept).
func (fs *runFS) Close() {
	for _, f := range []*os.File{fs.root, fs.out, fs.export} {
		if f != nil {
			f.Close()
		}
	}
}

// exportPath is a path that names the export folder the grader holds (for grading.OpenExports):
// "." beneath the descriptor, so that nothing is resolved again.
func (fs *runFS) exportPath() string { return fmt.Sprintf("/proc/self/fd/%d/.", fs.export.Fd()) }

// full says whether a filesystem of the run's (the folder root, or out/) is full: no block or no
// inode left. It is "" when not, else what is exhausted.
func full(f *os.File) string {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil || st.Type != unix.TMPFS_MAGIC {
		return ""
	}
	switch {
	case st.Bavail == 0:
		return "bytes"
	case st.Files > 0 && st.Ffree == 0:
		return "files"
	}
	return ""
}

// freeBytes is the space left on the filesystem of f (-1 if unknown).
func freeBytes(f *os.File) int64 {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil {
		return -1
	}
	return int64(st.Bavail) * st.Bsize
}

var errTooLarge = errors.New("too large")

// readBeneath reads the file name in dir: a regular file (not a link, a pipe or a device a
// student's program put there) of at most max bytes.
func readBeneath(dir *os.File, name string, max int64) ([]byte, error) {
	f, err := openBeneath(dir, name, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", name)
	case st.Size() > max:
		return nil, fmt.Errorf("%w: %s is %s", errTooLarge, name, formatBytes(st.Size()))
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, fmt.Errorf("%w: %s is more than %s", errTooLarge, name, formatBytes(max))
	}
	return b, err
}
