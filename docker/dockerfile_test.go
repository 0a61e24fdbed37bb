package docker

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDockerignore: the build context leaves out VCS data and host node_modules (the image runs
// its own npm ci), and keeps everything the Dockerfile copies.
func TestDockerignore(t *testing.T) {
	data, err := os.ReadFile("../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	for _, want := range []string{".git", "**/node_modules"} {
		if !slices.Contains(lines, want) {
			t.Errorf(".dockerignore lacks %q", want)
		}
	}
	for _, l := range lines {
		for _, needed := range []string{"docker", "go.mod", "go.sum", "sod", "widgets", "notebooks", "widgets/assets"} {
			if strings.TrimPrefix(strings.TrimSuffix(l, "/"), "/") == needed {
				t.Errorf(".dockerignore excludes %q, which the image needs", needed)
			}
		}
	}
}

// TestScriptsParse: the image's scripts are syntactically valid (sh -n, bash -n, Python's parser).
func TestScriptsParse(t *testing.T) {
	for _, s := range []struct{ shell, file string }{
		{"sh", "build-env.sh"}, {"sh", "healthcheck.sh"}, {"sh", "sod-notebook"}, {"bash", "test-image.sh"},
		{"bash", "image-build.sh"}, {"bash", "install.sh"}, {"bash", "notebook.sh"}, {"bash", "image-step.sh"},
		{"bash", "test.sh"}, {"bash", "lib.sh"}, {"bash", "book.sh"}, {"bash", "compile-check.sh"}, {"bash", "test-hub.sh"},
		{"bash", "cellcost.sh"},
		{"bash", "image-test/build.sh"}, {"bash", "image-test/notebooks.sh"}, {"bash", "image-test/server.sh"},
		{"bash", "image-test/singleuser.sh"}, {"bash", "image-test/browser.sh"}, {"bash", "../.ci/run"},
	} {
		if _, err := exec.LookPath(s.shell); err != nil {
			t.Skipf("%s not found", s.shell)
		}
		if out, err := exec.Command(s.shell, "-n", s.file).CombinedOutput(); err != nil {
			t.Errorf("%s -n %s: %v\n%s", s.shell, s.file, err, out)
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	parse := "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])"
	for _, f := range []string{"kernel_check.py", "cellcost.py"} {
		if out, err := exec.Command("python3", "-c", parse, f).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v\n%s", f, err, out)
		}
	}
}
