package docker

import (
	"os"
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
		for _, needed := range []string{"docker", "scripts", "go.mod", "go.sum", "livebook", "sod", "widgets", "notebooks", "widgets/assets"} {
			if strings.TrimPrefix(strings.TrimSuffix(l, "/"), "/") == needed {
				t.Errorf(".dockerignore excludes %q, which the image needs", needed)
			}
		}
	}
}
