package repo

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// topLevel is the repository's top level: each entry says what it holds. The design card's
// entries (notebooks, sod, widgets, docker, Dockerfile, go.mod, go.sum, README.md) stay; livebook
// is the live book's engine (a module of its own), scripts the set-up, run and test scripts.
var topLevel = []string{
	".ci", ".dockerignore", ".gitignore", "Dockerfile", "README.md", "docker", "go.mod", "go.sum",
	"livebook", "notebooks", "scripts", "sod", "widgets",
}

// notContainerWork names what docker/ may not hold: the image's build helpers, its tests and the hub.
// Anything else (a Go module, the set-up or test scripts, the live book) has a home of its own.
var notContainerWork = []string{"install.sh", "notebook.sh", "test.sh", "book.sh", "cellcost.sh", "test-slurm.sh", "go.mod", "livebook"}

// TestLayout: every tracked file lies under a top-level entry of topLevel, every top-level folder
// says what it holds (a README.md or a Go package doc), and docker/ holds container work only.
func TestLayout(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range trackedFiles(t, root) {
		top, _, _ := strings.Cut(f, "/")
		if !slices.Contains(topLevel, top) {
			t.Errorf("%s: the top-level entry %q is not one of %v (add it to topLevel with what it holds)", f, top, topLevel)
		}
		seen[top] = true
		if rest, ok := strings.CutPrefix(f, "docker/"); ok {
			for _, bad := range notContainerWork {
				if path.Base(rest) == bad || strings.HasPrefix(rest, bad+"/") {
					t.Errorf("%s: docker/ holds the image, its tests and the hub only; %s has a home of its own", f, bad)
				}
			}
		}
	}
	for _, top := range topLevel {
		if !seen[top] {
			t.Errorf("top-level entry %q is listed but holds no tracked file", top)
		}
		st, err := os.Stat(filepath.Join(root, top))
		if err != nil || !st.IsDir() || top == ".ci" {
			continue
		}
		_, errR := os.Stat(filepath.Join(root, top, "README.md"))
		_, errD := os.Stat(filepath.Join(root, top, "doc.go"))
		if errR != nil && errD != nil {
			t.Errorf("%s/ has neither a README.md nor a doc.go saying what it holds", top)
		}
	}
}
