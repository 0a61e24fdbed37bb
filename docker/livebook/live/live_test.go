package live_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"sodworkbench.org/workbench/docker/livebook/cells"
	"sodworkbench.org/workbench/docker/livebook/internal/symgen/gen"
	"sodworkbench.org/workbench/docker/livebook/live"
)

// sources reads cells.SourcePackages from the module cache.
func sources(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, p := range cells.SourcePackages {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}", p).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", p, err)
		}
		dir := strings.TrimSpace(string(out))
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fsys[p+"/"+filepath.Base(f)] = &fstest.MapFile{Data: b}
		}
	}
	return fsys
}

func TestNotebook(t *testing.T) {
	nb := os.Getenv("LIVE_NOTEBOOK")
	if nb == "" {
		t.Skip("set LIVE_NOTEBOOK to a notebook file")
	}
	k, err := live.New(sources(t))
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := gen.CodeCells(nb)
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range srcs {
		var out bytes.Buffer
		start := time.Now()
		res, err := k.Run(context.Background(), fmt.Sprintf("cell %d", i), src, &out, &out)
		t.Logf("---- cell %d (%v) shell=%d err=%v\n%s", i, time.Since(start).Round(time.Millisecond), len(res.Shell), err, out.String())
	}
}
