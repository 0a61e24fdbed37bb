package repo

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// environmentDoc is the one table of the workbench's SOD_* environment variables.
const environmentDoc = "scripts/environment.md"

// sodName matches an environment variable of the workbench (trailing underscores are not part
// of the name: see names).
var sodName = regexp.MustCompile(`\bSOD_[A-Z0-9_]+`)

// names returns the SOD_* names in text, in order.
func names(text []byte) []string {
	var out []string
	for _, m := range sodName.FindAll(text, -1) {
		if n := strings.TrimRight(string(m), "_"); len(n) > len("SOD_") {
			out = append(out, n)
		}
	}
	return out
}

// tableRow matches a row of environment.md's table: | `NAME` | read by | default | what it does |
var tableRow = regexp.MustCompile("^\\| `(SOD_[A-Z0-9_]+)` \\|([^|]+)\\|([^|]+)\\|([^|]+)\\|$")

// codeFile reports whether path (slash-separated, relative to the repository) is code whose
// SOD_* names must be documented: Go, shell, Python, Dockerfiles, notebooks, YAML and JSON
// configuration, and scripts without an extension (a #! first line). Documentation (Markdown)
// is not code.
func codeFile(path string, head []byte) bool {
	base := filepath.Base(path)
	switch filepath.Ext(base) {
	case ".go", ".sh", ".py", ".ipynb", ".yaml", ".yml", ".json":
		return true
	case "":
		return base == "Dockerfile" || bytes.HasPrefix(head, []byte("#!"))
	}
	return false
}

// skippedDir reports whether a folder holds no code of ours: VCS data, npm packages, outputs.
func skippedDir(name string) bool {
	return name == ".git" || name == "node_modules" || name == "out" || name == ".ipynb_checkpoints"
}

// codeNames returns the SOD_* names in the code under root, each with the first file naming it.
func codeNames(t *testing.T, root string) map[string]string {
	t.Helper()
	found := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == environmentDoc {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !codeFile(rel, data[:min(len(data), 2)]) {
			return nil
		}
		for _, n := range names(data) {
			if _, ok := found[n]; !ok {
				found[n] = rel
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// documentedNames parses environment.md's table: every row names one variable, once, with
// who reads it, its default and what it does.
func documentedNames(doc string) (documented []string, problems []string) {
	for i, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		m := tableRow.FindStringSubmatch(line)
		if m == nil {
			problems = append(problems, "line "+itoa(i+1)+": not a row | `SOD_…` | read by | default | what it does |")
			continue
		}
		for _, cell := range m[2:] {
			if strings.TrimSpace(cell) == "" {
				problems = append(problems, "line "+itoa(i+1)+": "+m[1]+" has an empty column")
			}
		}
		if slices.Contains(documented, m[1]) {
			problems = append(problems, "line "+itoa(i+1)+": "+m[1]+" is documented twice")
		}
		documented = append(documented, m[1])
	}
	return documented, problems
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestEnvironmentDocumented: every SOD_* name in the code is in environment.md's table, and
// every name in the table is read somewhere in the code.
func TestEnvironmentDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, environmentDoc))
	if err != nil {
		t.Fatal(err)
	}
	documented, problems := documentedNames(string(doc))
	for _, p := range problems {
		t.Errorf("%s %s", environmentDoc, p)
	}
	if len(documented) == 0 {
		t.Fatalf("%s has no table rows", environmentDoc)
	}
	code := codeNames(t, repoRoot)
	for name, file := range code {
		if !slices.Contains(documented, name) {
			t.Errorf("%s (in %s) is not documented in %s", name, file, environmentDoc)
		}
	}
	for _, name := range documented {
		if _, ok := code[name]; !ok {
			t.Errorf("%s documents %s, which no code reads", environmentDoc, name)
		}
	}
	t.Logf("%d SOD_* variables documented", len(documented))
}

// TestEnvironmentScanners: the helpers above see what they must, and only that.
func TestEnvironmentScanners(t *testing.T) {
	v := "SOD" + "_EXAMPLE" // not spelt out: this file is code too
	files := []struct {
		path string
		head string
		want bool
	}{
		{"scripts/test.sh", "#!", true},
		{"sod/cmd/grade/main.go", "pa", true},
		{"scripts/kernel_check.py", "\"\"", true},
		{"Dockerfile", "# ", true},
		{"docker/hub/Dockerfile", "# ", true},
		{"docker/sod-notebook", "#!", true},
		{".ci/run", "#!", true},
		{"notebooks/00-welcome.ipynb", "{\n", true},
		{"docker/hub/z2jh-values.yaml", "# ", true},
		{"README.md", "# ", false},
		{"scripts/environment.md", "# ", false},
		{"LICENSE", "MI", false},
		{"widgets/assets/package-lock.json", "{\n", true},
	}
	for _, f := range files {
		if got := codeFile(f.path, []byte(f.head)); got != f.want {
			t.Errorf("codeFile(%q) = %v, want %v", f.path, got, f.want)
		}
	}
	for _, d := range []struct {
		name string
		want bool
	}{{".git", true}, {"node_modules", true}, {"out", true}, {"docker", false}, {"testdata", false}} {
		if got := skippedDir(d.name); got != d.want {
			t.Errorf("skippedDir(%q) = %v, want %v", d.name, got, d.want)
		}
	}
	for _, c := range []struct {
		text string
		want []string
	}{
		{"x=${" + v + ":-1}", []string{v}},
		{"os.Getenv(\"" + v + "\")", []string{v}},
		{"MY" + v, nil},        // part of another name
		{v + "_", []string{v}}, // a trailing underscore is not part of the name
		{"SOD" + "_*", nil},    // no name
		{v + " " + v, []string{v, v}},
	} {
		if got := names([]byte(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("names in %q: %v, want %v", c.text, got, c.want)
		}
	}
	row := "| `" + v + "` | a script | `1` | does something |"
	for _, c := range []struct {
		doc      string
		names    int
		problems int
	}{
		{"# T\n\n| Variable | Read by | Default | What it does |\n|---|---|---|---|\n" + row + "\n", 1, 0},
		{row + "\n" + row + "\n", 2, 1},                           // twice
		{"| `" + v + "` | a script | | does something |\n", 1, 1}, // empty default
		{"| `" + v + "` | a script | does something |\n", 0, 1},   // a column missing
		{"Text naming `" + v + "` outside the table.\n", 0, 0},    // not a row
	} {
		names, problems := documentedNames(c.doc)
		if len(names) != c.names || len(problems) != c.problems {
			t.Errorf("documentedNames(%q): %d names, problems %q; want %d names, %d problems", c.doc, len(names), problems, c.names, c.problems)
		}
	}
}
