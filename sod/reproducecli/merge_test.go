package reproducecli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// studyArgs is a small study with escapes (n = 10, 16; seed 7).
var studyArgs = []string{"study", "-sizes", "10,16", "-trials", "6", "-seed", "7", "-quiet"}

// TestShardProcessesMerge runs the study once, and as N = 4 shards in four
// concurrent processes of the real command (into one folder, as on a shared
// volume), merges them with `reproduce merge` in a fifth process, and
// checks that every output file is byte for byte the unsharded run's.
func TestShardProcessesMerge(t *testing.T) {
	root := t.TempDir()
	whole, shards, merged := filepath.Join(root, "whole"), filepath.Join(root, "shards"), filepath.Join(root, "merged")
	if code, _, stderr := runIn(t, root, append(studyArgs, "-out", whole)...); code != 0 {
		t.Fatalf("unsharded study: exit %d: %s", code, stderr)
	}
	const n = 4
	var wg sync.WaitGroup
	errs := make([]string, n)
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, _, stderr := runIn(t, root, append(studyArgs, "-out", shards, "-shard", fmt.Sprintf("%d/%d", k, n))...); code != 0 {
				errs[k] = fmt.Sprintf("shard %d: exit %d: %s", k, code, stderr)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
	code, stdout, stderr := runIn(t, root, "merge", "-out", merged, shards)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "merge: 4 shards") {
		t.Errorf("merge output %q", stdout)
	}
	want, err := filepath.Glob(filepath.Join(whole, "*"))
	if err != nil || len(want) < 4 {
		t.Fatalf("unsharded output %v (%v)", want, err)
	}
	for _, w := range want {
		a, _ := os.ReadFile(w)
		b, err := os.ReadFile(filepath.Join(merged, filepath.Base(w)))
		if err != nil {
			t.Errorf("merge did not write %s: %v", filepath.Base(w), err)
			continue
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: merged file differs from the unsharded run's", filepath.Base(w))
		}
	}
	got, _ := filepath.Glob(filepath.Join(merged, "*"))
	if len(got) != len(want) {
		t.Errorf("merge wrote %d files, the unsharded run %d", len(got), len(want))
	}
}

// runIn runs the command as a process in dir.
func runIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REPRODUCE_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Error(err)
		code = -1
	}
	return code, out.String(), errb.String()
}

// TestShardMergeErrors: bad -shard values and merge inputs are refused
// before anything is written, as usage errors (exit 2) or, for shards that
// do not fit together, failures (exit 1).
func TestShardMergeErrors(t *testing.T) {
	root := t.TempDir()
	shards := filepath.Join(root, "shards")
	for k := 0; k < 3; k += 2 { // shards 0 and 2 of 3: 1 is missing
		if code, _, stderr := runIn(t, root, append(studyArgs, "-out", shards, "-shard", fmt.Sprintf("%d/3", k))...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
	}
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{append(studyArgs, "-shard", "4/4"), 2, "want a shard number k in [0, 3]"},
		{append(studyArgs, "-shard", "0/0"), 2, "want a shard count N in [1, 100000]"},
		{append(studyArgs, "-shard", "1"), 2, "want k/N"},
		{append(studyArgs, "-shard", "0/2", "-format", "csv"), 2, "-format does not apply with -shard"},
		{[]string{"merge"}, 2, "no shard given"},
		{[]string{"merge", "nowhere"}, 2, "nowhere"},
		{[]string{"merge", empty}, 2, "holds no study-shard"},
		{[]string{"merge", shards}, 1, "shards [1] of 3 missing"},
		{[]string{"merge", filepath.Join(shards, "study-shard-0-of-3.json"), filepath.Join(shards, "study-shard-0-of-3.json")}, 1, "given twice"},
	} {
		out := filepath.Join(root, "out")
		code, _, stderr := runIn(t, root, append(tc.args, "-out", out)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: created %s", tc.args, out)
		}
	}
	// -h prints merge's help and succeeds.
	var b bytes.Buffer
	if err := run(context.Background(), []string{"merge", "-h"}, &b, io.Discard); exitCode(err) != 0 || !strings.Contains(b.String(), "usage: reproduce merge") {
		t.Errorf("merge -h: %v, %q", err, b.String())
	}
}
