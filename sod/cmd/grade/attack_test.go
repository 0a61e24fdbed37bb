package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
		t.Skipf("cannot execute notebooks: %v (scripts/install.sh installs Jupyter and gonb)", err)
	}
	if why, _ := bwrapProblem(context.Background(), testID(t)); why != "" {
		// Installed but unable (or unsafe), or required (CI installs it: scripts/install.sh --with-grader).
		if _, err := exec.LookPath("bwrap"); err == nil || os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("the attacks need the bwrap sandbox: %s", why)
		}
		t.Skipf("the attacks need the bwrap sandbox: %s (scripts/install.sh --with-grader installs it)", why)
	}
	subs := filepath.Join(t.TempDir(), "submissions")
	if err := os.CopyFS(subs, os.DirFS("testdata/attacks")); err != nil {
		t.Fatal(err)
	}
	// First the attackers beside good and the colluder (in whatever order two runs at a time
	// take them), then good and the colluder again, after every attack has run, with the same
	// shared build cache.
	corePattern, err := os.ReadFile("/proc/sys/kernel/core_pattern")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		// a-escaper writes core_pattern's own value back; it must fail, and nothing may change.
		if now, err := os.ReadFile("/proc/sys/kernel/core_pattern"); err != nil || !bytes.Equal(now, corePattern) {
			os.WriteFile("/proc/sys/kernel/core_pattern", corePattern, 0o644)
			t.Errorf("the host's core_pattern changed during the attacks: %q, was %q (restored)", now, corePattern)
		}
	}()
	out := gradeAttacks(t, subs, "-sandbox", "bwrap", "-disk", "256MiB", "-file-size", "64MiB")
	copyAttackers := func(names ...string) string {
		dir := filepath.Join(t.TempDir(), "subs")
		for _, s := range names {
			if err := os.CopyFS(filepath.Join(dir, s), os.DirFS(filepath.Join("testdata", "attacks", s))); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	laterOut := gradeAttacks(t, copyAttackers("good", "z-colluder"), "-sandbox", "bwrap")
	// A neighbour holding 200 processes, graded at the same time as good (two runs, two jobs).
	neighbours := gradeAttacks(t, copyAttackers("a-holder", "good"), "-sandbox", "bwrap")
	wrong1, wrong2 := "41 is not 6·7", `^answer992\(.*\) = .*, want `
	disk := "^no answer exported: disk limit 256 MiB exceeded: the notebook filled its folder's filesystem"
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
		{"a-outlinker 99.1", "true", "^correct$"},
		{"a-outlinker 99.2", "true", "^correct$"},
		{"a-deeppath 99.1", "true", "^correct$"},
		{"a-deeppath 99.2", "false", disk},
		{"a-heldopen 99.1", "true", "^correct$"},
		{"a-heldopen 99.2", "false", disk},
		{"a-links 99.1", "true", "^correct$"},
		{"a-links 99.2", "false", disk},
		{"a-shm 99.1", "true", "^correct$"},
		{"a-shm 99.2", "false", disk},
		{"a-panicker 99.1", "true", "^correct$"},
		{"a-panicker 99.2", "false", `\\x1b\[2J\\r\\n"boom",.*… \(cut: [0-9]+ bytes in all\)$`},
		{"neighbours good 99.1", "true", "^correct$"},
		{"neighbours good 99.2", "true", "^correct$"},
	} {
		grades, key := out.grades, tc.key
		if k, ok := strings.CutPrefix(key, "later "); ok {
			grades, key = laterOut.grades, k
		}
		if k, ok := strings.CutPrefix(key, "neighbours "); ok {
			grades, key = neighbours.grades, k
		}
		g := grades[key]
		if g[0] != tc.passed || !regexp.MustCompile(tc.msg).MatchString(g[1]) {
			t.Errorf("%s: passed=%q %q, want passed=%s and a message matching %q", tc.key, g[0], g[1], tc.passed, tc.msg)
		}
	}
	// The feedback copy of a-outlinker, whose executed notebook is a link, is refused, not read
	// through the link.
	if _, err := os.Stat(filepath.Join(out.dir, "executed", "a-outlinker", "99-fixture.ipynb")); err == nil {
		t.Errorf("a-outlinker: its executed notebook, a link, was kept as its feedback copy")
	}
	if !strings.Contains(out.log, "the executed notebook is not kept: 99-fixture.ipynb in the run's folder is a link or passes through one") {
		t.Errorf("a-outlinker: the grader did not say that its executed notebook is a link")
	}
	// Each attack ran, and reached nothing: what its attack cell printed.
	for _, tc := range []struct {
		student, cell string
		want          []string
		not           []string
	}{
		{"a-escaper", "escape", []string{"CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "NoNewPrivs:\t1",
			"unshare failed: Operation not permitted", "Read-only file system", "network interfaces: lo \n", "process 1: bwrap",
			"/proc/sys/kernel/core_pattern: Read-only file system", "/proc/sysrq-trigger: absent",
			"/dev/sodgrade-x: Read-only file system", "escape attempts done"}, []string{"ESCAPED", "uid map: 0 ", "uid map:  0 "}},
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

// TestGradeAttacksAsUser runs TestGradeAttacks again as an ordinary user's grader, when the
// tests run as root: the runs are then that user's, without cgroups (so one at a time), with
// the module cache (root's, bound where the user can read it), the gonb kernel spec and a
// shared build cache of that user's.
func TestGradeAttacksAsUser(t *testing.T) {
	if err := toolchain(); err != nil {
		t.Skipf("cannot execute notebooks: %v", err)
	}
	spec, err := kernelSpecPath()
	if err != nil {
		t.Fatal(err)
	}
	modcache := goEnv("GOMODCACHE")
	jupyter := t.TempDir()
	reachable(jupyter)
	b, err := os.ReadFile(filepath.Join(spec, "kernels", "gonb", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(jupyter, "kernels", "gonb"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jupyter, "kernels", "gonb", "kernel.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := asTestUser(t, "^TestGradeAttacks$", []string{"JUPYTER_PATH=" + jupyter, "GOMODCACHE={dir}/gomodcache", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local"},
		[2]string{modcache, "gomodcache"})
	if !strings.Contains(out, "--- PASS: TestGradeAttacks ") {
		t.Errorf("TestGradeAttacks failed as %s", testUser)
	}
}

// graded is what one grading of the attacks gave: the grades by "student exercise", what
// each code cell printed, by "student cell-id", the output folder and the grader's log.
type graded struct {
	grades   map[string][2]string
	printed  map[string]string
	dir, log string
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
	// Python's csv module, with its default settings, reads every row back.
	py, err := exec.Command("python3", "-c", "import csv, sys; print(len(list(csv.reader(open(sys.argv[1], newline='')))))", filepath.Join(out, "grades.csv")).CombinedOutput()
	if err != nil || strings.TrimSpace(string(py)) != strconv.Itoa(len(recs)) {
		t.Errorf("Python's csv reads grades.csv as %s rows (%v), want %d", py, err, len(recs))
	}
	g := graded{grades: map[string][2]string{}, printed: map[string]string{}, dir: out, log: log.String()}
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
