package escapebench

import (
	"os"
	"strings"
	"testing"
)

// glanceBlock returns the "At a glance" block of the file at path: from
// the line glanceHead to the end of the first line with glanceTail.
func glanceBlock(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	i := strings.Index(s, glanceHead)
	if i < 0 {
		t.Fatalf("%s: no line %q", path, glanceHead)
	}
	j := strings.Index(s[i:], glanceTail)
	if j < 0 {
		t.Fatalf("%s: the block from %q has no line with %q", path, glanceHead, glanceTail)
	}
	k := strings.IndexByte(s[i+j:], '\n')
	if k < 0 {
		k = len(s) - i - j
	}
	return s[i : i+j+k]
}

// TestReadmeBenchGlance: the README shows the default suite's results as
// the generated sod/escapebench/RESULTS.md has them, not a hand copy.
func TestReadmeBenchGlance(t *testing.T) {
	results := glanceBlock(t, "RESULTS.md")
	readme := glanceBlock(t, "../../README.md")
	if readme != results {
		t.Errorf("README.md's benchmark table differs from sod/escapebench/RESULTS.md's (regenerate RESULTS.md with the command in its first lines, then copy its At-a-glance block into README.md):\nREADME:\n%s\nRESULTS.md:\n%s", readme, results)
	}
}
