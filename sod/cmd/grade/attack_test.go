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
	if why, _ := bwrapProblem(context.Background()); why != "" {
		if _, err := exec.LookPath("bwrap"); err == nil || os.Getenv("SOD_REQUIRE_SANDBOX") == "1" {
			t.Fatalf("the attacks need the bwrap sandbox: %s", why)
		}
		t.Skipf("the attacks need the bwrap sandbox: %s (docker/install.sh --with-grader installs it)", why)
	}
	subs := filepath.Join(t.TempDir(), "submissions")
	if err := os.CopyFS(subs, os.DirFS("testdata/attacks")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	var log bytes.Buffer
	start := time.Now()
	err := run(context.Background(), []string{"-sandbox", "bwrap", "-source", "testdata/instructor", "-o", out, "-jobs", "2",
		"-cell-timeout", "60s", "-timeout", "4m", subs}, &log, &log)
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
	got := map[string][2]string{}
	for _, r := range recs[1:] {
		got[r[0]+" "+r[2]] = [2]string{r[3], r[4]}
	}
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
	} {
		g := got[tc.key]
		if g[0] != tc.passed || !regexp.MustCompile(tc.msg).MatchString(g[1]) {
			t.Errorf("%s: passed=%q %q, want passed=%s and a message matching %q", tc.key, g[0], g[1], tc.passed, tc.msg)
		}
	}
	// Each attack ran, and reached nothing.
	for _, tc := range []struct {
		student string
		want    []string // in the executed notebook
		not     []string
	}{
		{"a-escaper", []string{"CapEff:\\t0000000000000000", "CapBnd:\\t0000000000000000", "NoNewPrivs:\\t1", "escape attempts done"}, []string{"ESCAPED"}},
		{"a-poisoner", []string{"poisoned 0 of "}, []string{"poisoned 0 of 0 "}},
		{"a-linker", []string{"link attempts done"}, []string{"shared-cache/trim.txt", "linked /root/"}},
		{"a-reader", []string{"reader found 0 files"}, nil},
	} {
		nb, err := os.ReadFile(filepath.Join(out, "executed", tc.student, "99-fixture.ipynb"))
		if err != nil {
			t.Errorf("%s: %v", tc.student, err)
			continue
		}
		for _, w := range tc.want {
			if !bytes.Contains(nb, []byte(w)) {
				t.Errorf("%s: the executed notebook lacks %q", tc.student, w)
			}
		}
		for _, n := range tc.not {
			if bytes.Contains(nb, []byte(n)) {
				t.Errorf("%s: the executed notebook shows %q", tc.student, n)
			}
		}
	}
	if t.Failed() {
		for _, s := range []string{"a-escaper", "a-poisoner", "a-linker", "a-reader"} {
			nb, _ := os.ReadFile(filepath.Join(out, "executed", s, "99-fixture.ipynb"))
			t.Logf("%s's executed notebook:\n%s", s, strings.TrimSpace(string(nb)))
		}
	}
}
