package repo

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The repository must stand on its own: a reader of a clone or of the image cannot follow a
// reference to a file that is not in it. The developers' copy of the paper and their notes live
// outside the repository; what the project knows from them is in notebooks/REPRODUCTION.md, in
// the project's own words, and the code refers to that.

// outsideRef is one kind of reference to a file outside the repository.
type outsideRef struct {
	name string
	re   *regexp.Regexp
	// unless, when set, names a tracked file whose presence makes the reference legitimate.
	unless func(tracked map[string]bool) bool
}

// notesName is the base name of the developers' notes file, spelt in two parts (as the paper
// folder's pattern is) so that this file names no outside file itself.
const notesName = "NO" + "TES"

var outsideRefs = []outsideRef{
	{name: "the developers' paper folder", re: regexp.MustCompile("shared" + "/paper")},
	{name: "a folder beside the repository", re: regexp.MustCompile(`\.\./shared\b`)},
	{name: "the paper's LaTeX source", re: regexp.MustCompile(`sod-escape\.tex`)},
	{name: "the developers' notes file", re: regexp.MustCompile(`\b` + notesName + `\b`), unless: func(tracked map[string]bool) bool {
		for f := range tracked {
			if b := path.Base(f); b == notesName || strings.HasPrefix(b, notesName+".") {
				return true
			}
		}
		return false
	}},
}

// scanned reports whether a tracked file is one whose references the test checks: Go, Markdown,
// notebooks, shell scripts, the Dockerfile and the scripts without an extension under docker/ and
// .ci/.
func scanned(name string) bool {
	switch path.Ext(name) {
	case ".go", ".md", ".ipynb", ".sh", ".py", ".yml", ".yaml", ".toml", ".txt", ".tmpl":
		return true
	case "":
		return true // Dockerfile, .ci/run, docker/sod-notebook, …
	}
	return strings.HasPrefix(path.Base(name), "Dockerfile")
}

// trackedFiles lists the repository's files relative to root: `git ls-files` when git and the
// repository's .git are there, else a walk of the tree (an exported tarball, the image).
func trackedFiles(t *testing.T, root string) []string {
	t.Helper()
	if _, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command("git", "ls-files", "-z")
		cmd.Dir = root
		if out, err := cmd.Output(); err == nil && len(out) > 0 {
			var files []string
			for _, f := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
				files = append(files, string(f))
			}
			return files
		}
	}
	t.Logf("git ls-files unavailable in %s: walking the tree", root)
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != root && (strings.HasPrefix(name, ".") && name != ".ci" || name == "node_modules" || name == "out") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// findOutsideRefs returns "file:line: kind: text" for each reference to a file outside the
// repository in content.
func findOutsideRefs(name string, content []byte, tracked map[string]bool) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(content))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		for _, r := range outsideRefs {
			if !r.re.MatchString(text) || (r.unless != nil && r.unless(tracked)) {
				continue
			}
			s := strings.TrimSpace(text)
			if len(s) > 120 {
				s = s[:120] + "…"
			}
			out = append(out, name+":"+strconv.Itoa(line)+": "+r.name+": "+s)
		}
	}
	return out
}

// TestNoReferencesOutsideRepository scans every tracked file and fails on a reference to a
// file the repository does not carry (the developers' paper folder, a sibling folder, a
// notes file that is not tracked).
func TestNoReferencesOutsideRepository(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files := trackedFiles(t, root)
	if len(files) < 50 {
		t.Fatalf("found only %d files under %s: not the repository?", len(files), root)
	}
	tracked := map[string]bool{}
	for _, f := range files {
		tracked[f] = true
	}
	self := ".ci/testtools/repo/references_test.go" // names the patterns it looks for
	var found []string
	n := 0
	for _, f := range files {
		if f == self || !scanned(f) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet in the index
			}
			t.Fatal(err)
		}
		n++
		found = append(found, findOutsideRefs(f, b, tracked)...)
	}
	t.Logf("scanned %d files", n)
	for _, f := range found {
		t.Error(f)
	}
	if len(found) > 0 {
		t.Log("refer to the place in this repository instead: a section of notebooks/REPRODUCTION.md " +
			"(conventions C1…, findings F1…), a notebook, or a doc comment")
	}
}

// TestFindOutsideRefs checks the scanner on examples that must and must not be reported.
func TestFindOutsideRefs(t *testing.T) {
	none := map[string]bool{"README.md": true}
	withNotes := map[string]bool{"docs/" + notesName + ".md": true}
	for _, tc := range []struct {
		text    string
		tracked map[string]bool
		want    int
	}{
		{"see `" + "shared" + "/paper/NO" + "TES.md`, section 9", none, 2},
		{"(" + "NO" + "TES §3)", none, 1},
		{"(" + "NO" + "TES §3)", withNotes, 0},
		{"cp ../" + "shared/x .", none, 1},
		{"labels in sod-escape" + ".tex", none, 1},
		{"REPRODUCTION.md C4", none, 0},
		{"notes and footnotes, Notes: lower case is not a file name", none, 0},
		{"a/shared/b is fine, as is sharedpaper", none, 0},
	} {
		got := findOutsideRefs("f", []byte("x\n"+tc.text+"\n"), tc.tracked)
		if len(got) != tc.want {
			t.Errorf("%q: %d findings %v, want %d", tc.text, len(got), got, tc.want)
		}
		for _, g := range got {
			if !strings.HasPrefix(g, "f:2: ") {
				t.Errorf("%q: finding %q does not name line 2", tc.text, g)
			}
		}
	}
}
