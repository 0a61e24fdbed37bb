package grading

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

const seed = 0x5eed

// TestGrade: answers handed in by HandIn and files put in the folder by other means, each with
// the verdict the grader must give.
func TestGrade(t *testing.T) {
	square := func(x float64) float64 { return x * x }
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) // puts 99.N.json (or not) in dir
		id    string
		pass  bool
		msg   string
	}{
		{"right value", export("99.1", seed, 42), "99.1", true, "^correct$"},
		{"wrong value", export("99.1", seed, 41), "99.1", false, "41 is not 6·7"},
		{"placeholder", export("99.1", seed, 0), "99.1", false, "not answered yet"},
		{"right func", export("99.2", seed, square), "99.2", true, "^correct$"},
		{"func for another seed", export("99.2", seed+1, square), "99.2", false, `answer992\(.*\) = .*, want`},
		{"wrong func", export("99.2", seed, func(x float64) float64 { return 2 * x }), "99.2", false, "want"},
		{"panicking func", export("99.2", seed, func(float64) float64 { var s []float64; return s[3] }), "99.2", false, "index out of range"},
		{"string", export("99.1", seed, "42"), "99.1", false, "want a number"},
		{"verdict instead of an answer", file("99.1.json", `{"id":"99.1","pass":true}`), "99.1", false, "unknown field"},
		{"another exercise's answer", file("99.1.json", `{"id":"99.2","type":"int","numbers":[42]}`), "99.1", false, `for exercise "99.2"`},
		{"two answers", file("99.1.json", `{"id":"99.1","type":"int","numbers":[41]}{"id":"99.1","type":"int","numbers":[42]}`), "99.1", false, "data after the JSON value"},
		{"not JSON", file("99.1.json", "sodgrade 0123 99.1 pass \"correct\""), "99.1", false, "not an exported answer"},
		{"too large", file("99.1.json", strings.Repeat(" ", MaxExportBytes+1)), "99.1", false, "more than any answer"},
		{"a link", func(t *testing.T, dir string) {
			if err := os.Symlink("/etc/passwd", filepath.Join(dir, "99.1.json")); err != nil {
				t.Fatal(err)
			}
		}, "99.1", false, "symbolic link"},
		{"a pipe", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "99.1.json"), 0o644); err != nil {
				t.Skip(err)
			}
		}, "99.1", false, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			e, err := OpenExports(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			r, err := e.Grade(tc.id, seed)
			if err != nil {
				t.Fatalf("Grade: %v", err)
			}
			if r.Pass != tc.pass || !matches(tc.msg, r.Message) {
				t.Errorf("verdict %+v, want pass=%v with a message matching %q", r, tc.pass, tc.msg)
			}
		})
	}
}

// TestGradeNothingExported: no file is ErrNotExported, for the grader to explain.
func TestGradeNothingExported(t *testing.T) {
	e, err := OpenExports(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if r, err := e.Grade("99.1", seed); !errors.Is(err, ErrNotExported) || r.Pass {
		t.Errorf("Grade of nothing: %+v, %v; want a failure and ErrNotExported", r, err)
	}
}

// TestExportsKeepTheirFolder: a notebook that swaps its export folder for a link to another
// folder (another student's, say) after the grader opened it changes nothing.
func TestExportsKeepTheirFolder(t *testing.T) {
	root := t.TempDir()
	mine, other := filepath.Join(root, "mine"), filepath.Join(root, "other")
	os.Mkdir(mine, 0o755)
	os.Mkdir(other, 0o755)
	export("99.1", seed, 42)(t, other)
	e, err := OpenExports(mine)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := os.Rename(mine, mine+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, mine); err != nil {
		t.Fatal(err)
	}
	if r, err := e.Grade("99.1", seed); !errors.Is(err, ErrNotExported) || r.Pass {
		t.Errorf("after the swap: %+v, %v; want nothing exported", r, err)
	}
	if _, err := OpenExports(mine); err == nil {
		t.Error("OpenExports followed a link")
	}
}

func export(id string, seed uint64, answer any) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		out, err := capture(func() { HandIn(dir, id, seed, answer) })
		if err != nil {
			t.Fatal(err)
		}
		if want := "exercise " + id + ": answer handed in for grading\n"; out != want {
			t.Errorf("HandIn printed %q, want %q", out, want)
		}
	}
}

func file(name, content string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func matches(re, s string) bool {
	ok, err := regexpMatch(re, s)
	return err == nil && ok
}

// capture runs f with os.Stdout sent to a file and returns what f printed.
func capture(f func()) (string, error) {
	tmp, err := os.CreateTemp("", "stdout")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	stdout := os.Stdout
	os.Stdout = tmp
	func() {
		defer func() { os.Stdout = stdout }()
		f()
	}()
	tmp.Close()
	b, err := os.ReadFile(tmp.Name())
	return string(b), err
}

func regexpMatch(re, s string) (bool, error) { return regexp.MatchString(re, s) }
