package repo

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readmeExample returns the README's Go program (the first ```go block that is a whole
// `package main`) and the output shown for it (the ```text block that follows it).
func readmeExample(readme string) (program, output string, ok bool) {
	const goFence, textFence, end = "```go\n", "```text\n", "\n```"
	rest := readme
	for {
		i := strings.Index(rest, goFence)
		if i < 0 {
			return "", "", false
		}
		rest = rest[i+len(goFence):]
		j := strings.Index(rest, end)
		if j < 0 {
			return "", "", false
		}
		block := rest[:j+1]
		rest = rest[j+len(end):]
		if !strings.HasPrefix(block, "package main\n") {
			continue
		}
		k := strings.Index(rest, textFence)
		if k < 0 || strings.Contains(rest[:k], "```") {
			return "", "", false // no output block right after the program
		}
		rest = rest[k+len(textFence):]
		l := strings.Index(rest, end)
		if l < 0 {
			return "", "", false
		}
		return block, rest[:l+1], true
	}
}

// TestReadmeExample compiles and runs the README's Go example against this module and compares
// what it prints with the output the README shows, so the guide's first taste of the library
// cannot drift from the library.
func TestReadmeExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program (-short)")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	program, want, ok := readmeExample(string(b))
	if !ok {
		t.Fatal("README.md has no ```go block with a package main followed by a ```text block of its output")
	}
	dir := t.TempDir()
	main := filepath.Join(dir, "main.go")
	if err := os.WriteFile(main, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// `go run file.go` from the module's root: the program is built as part of this module.
	cmd := exec.CommandContext(ctx, goCmd, "run", main)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's example does not run: %v\n%s", err, stderr.String())
	}
	if got := stdout.String(); got != want {
		t.Errorf("the README's example prints\n%s\nbut the README shows\n%s", got, want)
	}
}

func TestReadmeExampleExtraction(t *testing.T) {
	doc := "intro\n```go\nfmt.Println(1)\n```\n\n```go\npackage main\n\nfunc main() {}\n```\n\nprints\n\n```text\nhello\n```\n"
	p, o, ok := readmeExample(doc)
	if !ok || p != "package main\n\nfunc main() {}\n" || o != "hello\n" {
		t.Errorf("got %q, %q, %v", p, o, ok)
	}
	if _, _, ok := readmeExample("```go\npackage main\n```\n```sh\nx\n```\n```text\ny\n```\n"); ok {
		t.Error("an output block after another block was taken as the program's output")
	}
}
