package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// outDir is a folder of the grader's output, held open: the grader writes its results only
// through it, never through a symbolic link (a link in place of the folder, of a student's
// folder in executed/, or of a file is refused or replaced, not followed), and each file
// appears whole, written under a temporary name and renamed.
type outDir struct{ f *os.File }

// openOut makes the folder path (and its parents) if missing and opens it, refusing a link.
func openOut(path string) (*outDir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR) {
			return nil, fmt.Errorf("output folder %s is a symbolic link or not a folder: the grader writes only into a real folder", path)
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return &outDir{os.NewFile(uintptr(fd), path)}, nil
}

func (d *outDir) Close() error { return d.f.Close() }

// sub makes the folder name in d if missing and opens it, refusing a link.
func (d *outDir) sub(name string) (*outDir, error) {
	path := d.f.Name() + "/" + name
	if err := syscall.Mkdirat(int(d.f.Fd()), name, 0o755); err != nil && !errors.Is(err, syscall.EEXIST) {
		return nil, &os.PathError{Op: "mkdir", Path: path, Err: err}
	}
	fd, err := syscall.Openat(int(d.f.Fd()), name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR) {
			return nil, fmt.Errorf("%s is a symbolic link or not a folder: the grader does not write through it", path)
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return &outDir{os.NewFile(uintptr(fd), path)}, nil
}

// write writes the file name in d: a new file under a temporary name, renamed over name (which
// replaces a link there rather than writing through it).
func (d *outDir) write(name string, data []byte) error {
	tmp := ".tmp-" + randomHex(8)
	path := d.f.Name() + "/" + name
	fd, err := syscall.Openat(int(d.f.Fd()), tmp, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return &os.PathError{Op: "create", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syscall.Renameat(int(d.f.Fd()), tmp, int(d.f.Fd()), name)
	}
	if err != nil {
		syscall.Unlinkat(int(d.f.Fd()), tmp)
		return &os.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}
