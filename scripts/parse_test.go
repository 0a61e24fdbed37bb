package scripts

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// interpreter names the parser for a script from its first line (#!/bin/sh, #!/usr/bin/env bash,
// #!/usr/bin/env python3), or "" for a file that is not a script.
func interpreter(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	if !strings.HasPrefix(line, "#!") {
		if strings.HasSuffix(path, ".py") {
			return "python3"
		}
		return ""
	}
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return ""
	}
	name := filepath.Base(fields[0])
	if name == "env" && len(fields) > 1 {
		name = fields[1]
	}
	switch name {
	case "sh", "bash", "python3":
		return name
	}
	return ""
}

// TestScriptsParse: every script of this folder, of docker/ and CI's entry point is syntactically
// valid (sh -n, bash -n, Python's parser). The scripts are found by their first line (or .py), not
// listed, so a new script is never forgotten; the test fails if it finds fewer than it knows exist.
func TestScriptsParse(t *testing.T) {
	var scripts []string
	for _, root := range []string{".", "../docker", "../.ci/run"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == "__pycache__") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && interpreter(path) != "" {
				scripts = append(scripts, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(scripts) < 20 {
		t.Fatalf("found %d scripts, want at least 20: %v", len(scripts), scripts)
	}
	for _, s := range scripts {
		shell := interpreter(s)
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("%s: %s not found, not parsed", s, shell)
			continue
		}
		var cmd *exec.Cmd
		if shell == "python3" {
			cmd = exec.Command("python3", "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", s)
		} else {
			cmd = exec.Command(shell, "-n", s)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s %s does not parse: %v\n%s", shell, s, err, out)
		}
	}
}
