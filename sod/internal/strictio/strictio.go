package strictio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strconv"
)

// ErrNotRegular is wrapped by the error of CheckRegular and ReadRegular
// for a path that is not a regular file.
var ErrNotRegular = errors.New("strictio: not a regular file")

// ErrTooLarge is wrapped by ReadRegular's error for a file over its limit.
var ErrTooLarge = errors.New("strictio: file too large")

// kind names a file mode's type for an error.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// CheckRegular returns nil if path names a regular file (after symbolic
// links), an error wrapping fs.ErrNotExist if nothing is there, and an
// error wrapping ErrNotRegular naming path and what it is (a directory,
// a FIFO, a device, …) otherwise. It does not open the file.
func CheckRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is %s: %w", path, kind(st.Mode()), ErrNotRegular)
	}
	return nil
}

// ReadRegular reads the regular file at path, at most max bytes: a path
// that is not a regular file is refused by CheckRegular before it is
// opened, and the file opened is checked again (the same file, still
// regular) before it is read, so that a FIFO put in its place between
// the two is not read either (it is opened without blocking). A file
// over max bytes is an error wrapping ErrTooLarge.
func ReadRegular(path string, max int64) ([]byte, error) {
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s: %w", path, kind(st.Mode()), ErrNotRegular)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d this reader accepts: %w", path, st.Size(), max, ErrTooLarge)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes this reader accepts: %w", path, max, ErrTooLarge)
	}
	return b, nil
}

// DecodeJSON decodes the JSON value b into v as json.Unmarshal does, with
// unknown fields refused (json.Decoder.DisallowUnknownFields), and
// refuses an object that has a key twice (at any depth; keys compare
// case-insensitively, as encoding/json matches them to fields), a key
// that matches a struct field only up to case (the writer spells it
// otherwise) and anything but white space after the value. Its errors
// say where.
func DecodeJSON(b []byte, v any) error {
	if err := CheckJSON(b); err != nil {
		return err
	}
	if err := checkKeys(b, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	return nil
}

// CheckJSON checks that b is exactly one JSON value (white space around
// it) in which no object has a key twice.
func CheckJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := walk(dec, 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("data after the JSON value at byte %d", dec.InputOffset())
	}
	return nil
}

// maxDepth bounds the nesting CheckJSON follows (encoding/json's own
// limit is 10000).
const maxDepth = 1000

// walk reads one value from dec, refusing duplicate keys.
func walk(dec *json.Decoder, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("JSON nested deeper than %d at byte %d", maxDepth, dec.InputOffset())
	}
	t, err := dec.Token()
	if err == io.EOF {
		return errors.New("no JSON value (empty input)")
	}
	if err != nil {
		return err
	}
	d, ok := t.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			fold := string(bytes.ToLower([]byte(k)))
			if seen[fold] {
				return fmt.Errorf("key %s given twice in one object (before byte %d)", strconv.Quote(k), dec.InputOffset())
			}
			seen[fold] = true
			if err := walk(dec, depth+1); err != nil {
				return err
			}
		}
	case '[':
		for dec.More() {
			if err := walk(dec, depth+1); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}
