// Package resultcache keeps the results of the experiments across the cells
// of a notebook session, keyed by the experiment's configuration.
//
// Under GoNB, and in the live book, every cell runs as a program of its own,
// so a result computed in one cell is gone in the next: without a cache a
// notebook either recomputes it in every cell that reads it or hands it over
// through a file it writes itself. The experiments (experiments.RunStudy,
// …) therefore remember their results here, transparently: the second call
// with an equal configuration in the same session decodes the first call's
// result instead of recomputing it.
//
// Where: under $GONB_TMP_DIR (GoNB's directory of the kernel session, so
// the cache ends with the kernel: restart the kernel to forget it, e.g.
// after changing the library), or, in the live book (GOOS=js), under the
// page's in-memory file system, which ends with the page. Anywhere else (a
// command, a test, the grader) nothing is cached unless $SOD_RESULT_CACHE
// names a directory; SOD_RESULT_CACHE=off turns the cache off everywhere.
//
// What: only configurations whose every field is plain data (numbers,
// strings, booleans, slices, arrays and structs of them, package-level
// functions, nil pointers and nil interfaces) are cached, so that equal keys mean
// equal experiments; a configuration holding a function, an escaper or a
// problem is run every time. Only successful results are kept.
package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// version changes when the encoding of the keys or of the results changes.
const version = "1"

// Dir returns the cache directory, or "" when nothing is cached here.
func Dir() string {
	switch d := os.Getenv("SOD_RESULT_CACHE"); d {
	case "off":
		return ""
	case "":
	default:
		return d
	}
	if d := os.Getenv("GONB_TMP_DIR"); d != "" {
		return filepath.Join(d, "sod-results")
	}
	if runtime.GOOS == "js" {
		return filepath.Join(os.TempDir(), "sod-results")
	}
	return ""
}

// Do returns run(), or, when the cache is on and an earlier Do with the
// same kind and an equal cfg succeeded, that call's result. kind names the
// experiment (e.g. "experiments.RunStudy"). A result that cannot be
// stored is still returned.
func Do[R any](kind string, cfg any, run func() (R, error)) (R, error) {
	dir := Dir()
	key, ok := Key(kind, cfg)
	if dir == "" || !ok {
		return run()
	}
	path := filepath.Join(dir, key+".gob")
	if b, err := os.ReadFile(path); err == nil {
		var r R
		if gob.NewDecoder(bytes.NewReader(b)).Decode(&r) == nil {
			return r, nil
		}
	}
	r, err := run()
	if err != nil {
		return r, err
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(r) == nil && os.MkdirAll(dir, 0o700) == nil {
		tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
		if os.WriteFile(tmp, buf.Bytes(), 0o600) == nil {
			_ = os.Rename(tmp, path) // atomic: a reader sees the whole result or none
		}
	}
	return r, nil
}

// ErrNotKept reports that Load found nothing under the key.
var ErrNotKept = errors.New("resultcache: nothing kept under this key in this session")

// Store keeps r under (kind, cfg) for the later cells of the session, as
// Do keeps a result. It does nothing when the cache is off, and reports an
// error when cfg is not plain data or r cannot be encoded.
func Store(kind string, cfg, r any) error {
	dir := Dir()
	if dir == "" {
		return nil
	}
	key, ok := Key(kind, cfg)
	if !ok {
		return fmt.Errorf("resultcache: a %T is not plain data and cannot be a key", cfg)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(r); err != nil {
		return fmt.Errorf("resultcache: encoding a %T: %w", r, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, key+".gob")
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Load decodes into r (a pointer) what Store or Do kept under (kind, cfg);
// the error wraps ErrNotKept when nothing is kept there (or the cache is
// off).
func Load(kind string, cfg, r any) error {
	dir := Dir()
	key, ok := Key(kind, cfg)
	if dir == "" || !ok {
		return ErrNotKept
	}
	b, err := os.ReadFile(filepath.Join(dir, key+".gob"))
	if err != nil {
		return ErrNotKept
	}
	return gob.NewDecoder(bytes.NewReader(b)).Decode(r)
}

// Key returns the cache key of (kind, cfg): a hash of the kind, the
// configuration's type and every field's value. ok is false when cfg holds
// something that is not plain data (see the package doc).
func Key(kind string, cfg any) (key string, ok bool) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\x00%s\x00", version, kind)
	if !encode(&b, reflect.ValueOf(cfg)) {
		return "", false
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:16]), true
}

// encode writes a canonical form of v to b, and reports false for values
// that are not plain data.
func encode(b *bytes.Buffer, v reflect.Value) bool {
	if !v.IsValid() {
		b.WriteString("invalid;")
		return true
	}
	fmt.Fprintf(b, "%s:", v.Type())
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatUint(math.Float64bits(v.Float()), 16))
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil")
			break
		}
		fmt.Fprintf(b, "[%d]", v.Len())
		for i := range v.Len() {
			if !encode(b, v.Index(i)) {
				return false
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				return false
			}
			b.WriteString(t.Field(i).Name + "=")
			if !encode(b, v.Field(i)) {
				return false
			}
		}
	case reflect.Func:
		if v.IsNil() {
			b.WriteString("nil")
			break
		}
		name, ok := topLevelFunc(v)
		if !ok {
			return false
		}
		b.WriteString(name)
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Chan:
		if !v.IsNil() {
			return false
		}
		b.WriteString("nil")
	default:
		return false
	}
	b.WriteString(";")
	return true
}

// topLevelFunc returns the name of the function f holds when it is a
// package-level function (such as experiments.AlternatingTruth), which its
// name identifies; closures, method values and functions made by reflection
// (an interpreter's) may capture state, and are not plain data.
func topLevelFunc(f reflect.Value) (string, bool) {
	fn := runtime.FuncForPC(f.Pointer())
	if fn == nil {
		return "", false
	}
	name := fn.Name()
	last := name[strings.LastIndex(name, "/")+1:]
	if name == "" || strings.Contains(last, ".func") || strings.HasSuffix(name, "-fm") ||
		strings.HasPrefix(name, "reflect.") || strings.Count(last, ".") != 1 {
		return "", false
	}
	return name, true
}
