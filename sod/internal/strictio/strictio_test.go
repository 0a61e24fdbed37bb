//go:build unix

package strictio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegularRefuses: a directory, a FIFO (opened, it would block
// until a writer comes), a device and a missing file are refused with an
// error naming the path and what it is, without blocking; a file over the
// limit is refused; a regular file and a symbolic link to one are read.
func TestReadRegularRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("hello"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	for _, c := range []struct {
		path, want string
		is         error
	}{
		{dir, "a directory", ErrNotRegular},
		{fifo, "a named pipe (FIFO)", ErrNotRegular},
		{"/dev/null", "a character device", ErrNotRegular},
		{filepath.Join(dir, "missing"), "no such file", os.ErrNotExist},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegular(c.path, 1<<20); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) || !errors.Is(err, c.is) {
				t.Errorf("ReadRegular(%s) = %v, want an error naming it and %q", c.path, err, c.want)
			}
			if err := CheckRegular(c.path); !errors.Is(err, c.is) {
				t.Errorf("CheckRegular(%s) = %v, want %v", c.path, err, c.is)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadRegular(%s) blocks", c.path)
		}
	}
	for _, p := range []string{file, link} {
		if b, err := ReadRegular(p, 5); err != nil || string(b) != "hello" {
			t.Errorf("ReadRegular(%s) = %q, %v", p, b, err)
		}
	}
	if _, err := ReadRegular(file, 4); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "5 bytes") {
		t.Errorf("over the limit: %v", err)
	}
}

// TestDecodeJSON: what encoding/json accepts silently — a key twice (at
// any depth, in any case), an unknown key, data after the value — is
// refused; a valid value decodes as with json.Unmarshal.
func TestDecodeJSON(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type outer struct {
		X []inner          `json:"x"`
		M map[string]int   `json:"m"`
		N *inner           `json:"n"`
		S []map[string]any `json:"s"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"x":[{"a":1}],"x":[]}`, `key "x" given twice`},
		{`{"x":[{"a":1,"a":2}]}`, `key "a" given twice`},
		{`{"x":[{"a":1,"A":2}]}`, `key "A" given twice`},
		{`{"m":{"k":1,"k":2}}`, `key "k" given twice`},
		{`{"s":[{"deep":{"z":1,"z":1}}]}`, `key "z" given twice`},
		{`{"x":[]} {"x":[]}`, "data after the JSON value"},
		{`{"x":[]}garbage`, "data after the JSON value at byte 8"},
		{`{"x":[]}]`, "data after the JSON value"},
		{`{"y":1}`, `unknown field "y"`},
		{`{"X":[]}`, `key "X", which the format spells "x"`},
		{`{"x":[{"A":1}]}`, `key "A", which the format spells "a"`},
		{`{"n":{"A":1}}`, `key "A", which the format spells "a"`},
		{``, "empty input"},
		{`{"x":[`, "EOF"},
		{strings.Repeat("[", 2000) + strings.Repeat("]", 2000), "nested deeper"},
	} {
		var v outer
		if err := DecodeJSON([]byte(c.in), &v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeJSON(%.40q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
	var v outer
	if err := DecodeJSON([]byte(" {\"x\":[{\"a\":1},{\"a\":2}],\"m\":{\"k\":1,\"K\":2},\"n\":null}\n\t"), &v); err == nil {
		t.Errorf("map keys differing in case only: accepted (%+v)", v)
	}
	if err := DecodeJSON([]byte(" {\"x\":[{\"a\":1},{\"a\":2}],\"m\":{\"k\":1,\"j\":2},\"n\":null}\n\t"), &v); err != nil || len(v.X) != 2 || v.X[1].A != 2 || v.M["j"] != 2 {
		t.Errorf("valid: %+v, %v", v, err)
	}
}
