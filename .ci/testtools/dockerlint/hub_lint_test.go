package dockerlint

import (
	"os"
	"testing"
)

// TestHubDockerfileLint: the classroom hub's Dockerfile (hub/Dockerfile) is clean under
// BuildKit's check rules, as the workbench's is.
func TestHubDockerfileLint(t *testing.T) {
	src, err := os.ReadFile(repoRoot + "/docker/hub/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	found, _, err := lintDockerfile(src)
	if err != nil {
		t.Fatalf("hub/Dockerfile does not parse: %v", err)
	}
	for _, f := range found {
		t.Errorf("hub/Dockerfile %s", f)
	}
}
