package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestGradeAttacks grades the attacks on the other students (testdata/attacks, made by
// testdata/make_fixtures.py) beside a good submission and a colluder, two at a time, in a
// bubblewrap sandbox, as whoever runs the test (root in CI): a sandbox escape with root's
// capabilities, a poisoned shared build cache, a link planted for a later build to write
// through, and a search for solutions and others' answers. Every submission gets what its own
// answers earn, and each attack shows in its executed notebook that it ran and reached nothing.
func TestGradeAttacks(t *testing.T) {
	if err := toolchain(); err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("cannot execute notebooks: %v (SOD_REQUIRE_NOTEBOOKS=1)", err)
		}
		t.Skipf("cannot execute notebooks: %v (docker/install.sh installs Jupyter and gonb)", err)
	}
	if why, _ := bwrapProblem(context.Background(), testID(t)); why != "" {
		// Installed but unable (or unsafe), or required (CI installs it: docker/install.sh --with-grader).
		if _, err := exec.LookPath("bwrap"); err == nil || os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("the attacks need the bwrap sandbox: %s", why)
		}
		t.Skipf("the attacks need the bwrap sandbox: %s (docker/install.sh --with-grader installs it)", why)
	}
	subs := filepath.Join(t.TempDir(), "submissions")
	if err := os.CopyFS(subs, os.DirFS("testdata/attacks")); err != nil {
		t.Fatal(err)
	}
	// First the attackers beside good and the colluder (in whatever order two runs at a time
	// take them), then good and the colluder again, after every attack has run, with the same
	// shared build cache.
	out := gradeAttacks(t, subs, "-sandbox", "bwrap")
	later := filepath.Join(t.TempDir(), "later")
	for _, s := range []string{"good", "z-colluder"} {
		if err := os.CopyFS(filepath.Join(later, s), os.DirFS(filepath.Join("testdata", "attacks", s))); err != nil {
			t.Fatal(err)
		}
	}
	laterOut := gradeAttacks(t, later, "-sandbox", "bwrap")
	wrong1, wrong2 := "41 is not 6·7", `^answer992\(.*\) = .*, want `
	for _, tc := range []struct{ key, passed, msg string }{
		{"good 99.1", "true", "^correct$"},
		{"good 99.2", "true", "^correct$"},
		{"a-escaper 99.1", "false", wrong1},
		{"a-escaper 99.2", "false", wrong2},
		{"a-poisoner 99.1", "false", wrong1},
		{"a-poisoner 99.2", "false", wrong2},
		{"a-linker 99.1", "true", "^correct$"},
		{"a-linker 99.2", "true", "^correct$"},
		{"a-reader 99.1", "false", wrong1},
		{"a-reader 99.2", "false", wrong2},
		{"z-colluder 99.1", "false", wrong1},
		{"z-colluder 99.2", "false", wrong2},
		{"later good 99.1", "true", "^correct$"},
		{"later good 99.2", "true", "^correct$"},
		{"later z-colluder 99.1", "false", wrong1},
		{"later z-colluder 99.2", "false", wrong2},
	} {
		grades, key := out.grades, tc.key
		if k, ok := strings.CutPrefix(key, "later "); ok {
			grades, key = laterOut.grades, k
		}
		g := grades[key]
		if g[0] != tc.passed || !regexp.MustCompile(tc.msg).MatchString(g[1]) {
			t.Errorf("%s: passed=%q %q, want passed=%s and a message matching %q", tc.key, g[0], g[1], tc.passed, tc.msg)
		}
	}
	// Each attack ran, and reached nothing: what its attack cell printed.
	for _, tc := range []struct {
		student, cell string
		want          []string
		not           []string
	}{
		{"a-escaper", "escape", []string{"CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "NoNewPrivs:\t1",
			"unshare failed: Operation not permitted", "Read-only file system", "network interfaces: lo \n", "process 1: bwrap",
			"escape attempts done"}, []string{"ESCAPED"}},
		{"a-poisoner", "poison", []string{"poisoned 0 of "}, []string{"poisoned 0 of 0 "}},
		{"a-linker", "link", []string{"link attempts done"}, []string{"shared-cache/trim.txt", "linked /root/"}},
		{"a-reader", "read", []string{"reader found 0 files"}, nil},
	} {
		printed := out.printed[tc.student+" "+tc.cell]
		for _, w := range tc.want {
			if !strings.Contains(printed, w) {
				t.Errorf("%s: its cell %s did not print %q", tc.student, tc.cell, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(printed, n) {
				t.Errorf("%s: its cell %s printed %q", tc.student, tc.cell, n)
			}
		}
		t.Logf("%s, cell %s:\n%s", tc.student, tc.cell, printed)
	}
}

// graded is what one grading of the attacks gave: the grades by "student exercise", and what
// each code cell printed, by "student cell-id".
type graded struct {
	grades  map[string][2]string
	printed map[string]string
}

// gradeAttacks grades the submissions in subs, two at a time, with the sandbox flags given.
func gradeAttacks(t *testing.T, subs string, sandbox ...string) graded {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	var log bytes.Buffer
	start := time.Now()
	args := append(sandbox, "-source", "testdata/instructor", "-o", out, "-jobs", "2", "-cell-timeout", "5m", "-timeout", "10m", subs)
	err := run(context.Background(), args, &log, &log)
	t.Logf("grade output (%.0fs):\n%s", time.Since(start).Seconds(), log.String())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "grades.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	g := graded{grades: map[string][2]string{}, printed: map[string]string{}}
	for _, r := range recs[1:] {
		g.grades[r[0]+" "+r[2]] = [2]string{r[3], r[4]}
		nb, err := readNotebook(filepath.Join(out, "executed", r[0], r[1]))
		if err != nil {
			continue
		}
		for _, c := range nb.cells {
			id, _ := c["id"].(string)
			g.printed[r[0]+" "+id] = outputText(c) + cellError(c)
		}
	}
	return g
}
