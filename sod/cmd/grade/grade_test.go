package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const fixture = "testdata/instructor/99-fixture.ipynb"

func mustRead(t *testing.T, path string) *notebook {
	t.Helper()
	nb, err := readNotebook(path)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

func TestExercises(t *testing.T) {
	exs, err := exercises(mustRead(t, fixture))
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || exs[0] != (exercise{"99.1", "answer991"}) || exs[1] != (exercise{"99.2", "answer992"}) {
		t.Errorf("exercises = %+v, want 99.1 and 99.2 with their variables", exs)
	}
}

// cellsOf builds a notebook from (tags, exercise id, cell type) triples.
func cellsOf(specs ...[3]string) *notebook {
	nb := &notebook{doc: map[string]any{}}
	for i, s := range specs {
		meta := map[string]any{}
		if s[0] != "" {
			var tags []any
			for _, t := range strings.Split(s[0], ",") {
				tags = append(tags, t)
			}
			meta["tags"] = tags
		}
		if s[1] != "" {
			meta["sod"] = map[string]any{"exercise": s[1]}
		}
		c := codeCell(string(rune('a'+i)), "%%\nexercises.Check(\""+s[1]+"\", answer"+strings.Replace(s[1], ".", "", 1)+")", meta)
		c["cell_type"] = s[2]
		nb.cells = append(nb.cells, c)
	}
	return nb
}

func TestExercisesRejectsBadNotebooks(t *testing.T) {
	a := func(id string) [3]string { return [3]string{tagAnswer, id, "code"} }
	c := func(id string) [3]string { return [3]string{tagCheck, id, "code"} }
	s := func(id string) [3]string { return [3]string{tagSolution, id, "markdown"} }
	for _, tc := range []struct {
		name string
		nb   *notebook
		want string
	}{
		{"no id", cellsOf(a(""), c("")), `metadata sod.exercise is ""`},
		{"bad id", cellsOf(a("7.1"), c("7.1")), `is "7.1"`},
		{"no check", cellsOf(a("07.1"), s("07.1")), "1 answer, 0 check"},
		{"two answers", cellsOf(a("07.1"), a("07.1"), c("07.1")), "2 answer, 1 check"},
		{"check first", cellsOf(c("07.1"), a("07.1")), "comes before its answer"},
		{"markdown answer", cellsOf([3]string{tagAnswer, "07.1", "markdown"}, c("07.1")), "not a code cell"},
		{"two roles", cellsOf([3]string{tagAnswer + "," + tagCheck, "07.1", "code"}), "tagged both"},
		{"unknown exercise", cellsOf(a("98.1"), c("98.1")), "no check for it"},
		{"fine", cellsOf(a("07.1"), c("07.1"), s("07.1"), a("07.2"), c("07.2")), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := exercises(tc.nb)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestExportCell(t *testing.T) {
	got := exportCell(exercise{"07.1", "answer071"}, "/sodgrade-3f9c0e5a71d2b846/export", 0xabc)
	want := "import sodgrading \"sodworkbench.org/workbench/sod/grading\"\n\n%%\nsodgrading.HandIn(\"/sodgrade-3f9c0e5a71d2b846/export\", \"07.1\", 0xabc, answer071)\n"
	if got != want {
		t.Errorf("exportCell =\n%s\nwant\n%s", got, want)
	}
}

// TestCheckCells: a check cell is exercises.Check(id, variable) alone; anything else (code the
// grader would have to run in the student's program) is refused.
func TestCheckCells(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"%%\nexercises.Check(\"07.1\", answer071)\n", ""},
		{"%%\nexercises.Check(\"07.1\", answer071)\nfmt.Println(\"more\")", "alone"},
		{"exercises.Check(\"07.1\", answer071)", "alone"},
		{"%%\nif answer071 != 1 {\n\tpanic(\"no\")\n}", "alone"},
		{"%%\nexercises.Check(\"07.2\", answer071)", "checks exercise 07.2"},
	} {
		nb := cellsOf([3]string{tagAnswer, "07.1", "code"}, [3]string{tagCheck, "07.1", "code"})
		nb.cells[1]["source"] = tc.src
		_, err := exercises(nb)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("check cell %q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestGradedCopy: the student's check and solution cells are dropped (so editing them changes
// nothing), the instructor's checks go after the student's answer cells, a missing answer cell
// is reported.
func TestGradedCopy(t *testing.T) {
	instr := mustRead(t, fixture)
	exs, _ := exercises(instr)
	forging := mustRead(t, "testdata/submissions/forging/99-fixture.ipynb")
	seeds := map[string]uint64{"99.1": 1, "99.2": 2}
	g, missing, err := gradedCopy(forging, exs, "/run/export", seeds)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 0 {
		t.Errorf("missing = %v", missing)
	}
	var ids []string
	for _, c := range g.cells {
		ids = append(ids, c["id"].(string))
		if hasTag(c, tagCheck) || hasTag(c, tagSolution) {
			t.Errorf("cell %v kept from the student's copy", c["id"])
		}
	}
	want := "t setup q1 a1 sodgrade-99-1 mid forge q2 a2 sodgrade-99-2"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("graded cells %q, want %q", got, want)
	}
	if src := source(g.cells[4]); !strings.Contains(src, `sodgrading.HandIn("/run/export", "99.1", 0x1, answer991)`) {
		t.Errorf("the inserted cell is not the export of answer991 with its seed:\n%s", src)
	}

	partial := mustRead(t, "testdata/submissions/partial/99-fixture.ipynb")
	if _, missing, _ = gradedCopy(partial, exs, "/run/export", seeds); !missing["99.2"] || missing["99.1"] {
		t.Errorf("missing = %v, want only 99.2", missing)
	}
}

func TestRelease(t *testing.T) {
	for _, self := range []bool{false, true} {
		rel, n, err := release(mustRead(t, fixture), self)
		if err != nil || n != 2 {
			t.Fatalf("release: %d exercises, %v", n, err)
		}
		checks := 0
		for _, c := range rel.cells {
			if hasTag(c, tagSolution) || strings.Contains(source(c), "<details>") {
				t.Errorf("self-study=%v: a solution was released: %q", self, source(c))
			}
			if hasTag(c, tagCheck) {
				checks++
			}
			if hasTag(c, tagAnswer) {
				if m := metadata(c); m["deletable"] != false || m["editable"] != true {
					t.Errorf("answer cell %v not marked: %v", c["id"], m)
				}
			}
		}
		if want := map[bool]int{false: 0, true: 2}[self]; checks != want {
			t.Errorf("self-study=%v: %d check cells released, want %d", self, checks, want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{},
		{"a", "b"},
		{filepath.Join(dir, "nope")},
		{"-jobs", "0", dir},
		{"-timeout", "1s", dir},
		{"-cell-timeout", "20m", dir},
		{"-sandbox", "docker", dir},
		{"-memory", "1MiB", dir},
		{"-memory", "lots", dir},
		{"-procs", "10", dir},
		{"-cpu", "1s", dir},
		{"-output", "1GiB", dir},
		{"-disk", "1MiB", dir},
		{"-notebook-size", "1KiB", dir},
		{"-notebook-size", "1GiB", dir},
		{"-notebooks", "(", dir},
		{"-bogus", dir},
		{"-source", "testdata/instructor", dir}, // no submissions
		{"release", "README.md"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), args, &out, &out)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("grade %q: error %v, want a usage error (exit 2)", args, err)
		}
	}
}

// TestGradeSubmissions grades the folder of test submissions (testdata/submissions, made by
// testdata/make_fixtures.py) in one run and checks every verdict: the good, wrong, broken,
// endless, forging, deleting and partial students, a notebook that is not JSON, a student who
// submitted nothing, the attacks on the grader (mallory, silencing, chattering, editing) and
// on the machine (hog, bomb, flood, filler).
func TestGradeSubmissions(t *testing.T) {
	if err := toolchain(); err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("cannot execute notebooks: %v (SOD_REQUIRE_NOTEBOOKS=1)", err)
		}
		t.Skipf("cannot execute notebooks: %v (scripts/install.sh installs Jupyter and gonb)", err)
	}
	subs := filepath.Join(t.TempDir(), "submissions")
	if err := os.CopyFS(subs, os.DirFS("testdata/submissions")); err != nil {
		t.Fatal(err)
	}
	bomb := true
	if mode, why := procMode(defaultLimits); mode == procsNone {
		// Never start a fork bomb that nothing bounds.
		t.Logf("the fork bomb is not run: processes cannot be limited here (%s)", why)
		os.RemoveAll(filepath.Join(subs, "bomb"))
		bomb = false
	}
	t.Setenv("GRADE_TEST_VICTIM", subs) // the deleting and editing students go for this folder
	out := filepath.Join(t.TempDir(), "out")
	var log bytes.Buffer
	start := time.Now()
	err := run(context.Background(), append(unsandboxedRoot(t), "-source", "testdata/instructor", "-o", out,
		"-cell-timeout", "60s", "-timeout", "6m", "-file-size", "64MiB", "-disk", "512MiB", subs), &log, &log)
	t.Logf("grade output (%.0fs):\n%s", time.Since(start).Seconds(), log.String())
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, "grades.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, r := range recs[1:] {
		got[r[0]+" "+r[2]] = [2]string{r[3], r[4]}
	}
	const exited = "no answer exported: the program of the grader's export cell .* ended before exporting"
	cases := []struct{ key, passed, msg string }{
		{"good 99.1", "true", "^correct$"},
		{"good 99.2", "true", "^correct$"},
		{"wrong 99.1", "false", "41 is not 6·7"},
		{"wrong 99.2", "false", `^answer992\(.*\) = .*, want `},
		{"broken 99.1", "false", "did not compile: undefined: answer991"},
		{"broken 99.2", "false", "index out of range"},
		{"endless 99.1", "true", "^correct$"},
		{"endless 99.2", "false", "stopped at the time limit per cell"},
		{"forging 99.1", "false", "41 is not 6·7"},
		{"forging 99.2", "false", exited},
		{"deleting 99.1", "true", "^correct$"},
		{"deleting 99.2", "true", "^correct$"},
		{"partial 99.1", "true", "^correct$"},
		{"partial 99.2", "false", "no answer cell"},
		{"garbage 99.1", "false", "not a notebook"},
		{"nested 99.1", "false", "not a notebook the grader can run: its JSON is nested 5001 deep"},
		{"nested 99.2", "false", "not a notebook the grader can run: its JSON is nested 5001 deep"},
		{"absent 99.2", "false", "not submitted"},
		{"mallory 99.1", "false", exited},
		{"mallory 99.2", "false", exited},
		{"silencing 99.1", "false", "41 is not 6·7"},
		{"silencing 99.2", "false", `^answer992\(.*\) = .*, want `},
		{"chattering 99.1", "false", "41 is not 6·7"},
		{"chattering 99.2", "false", `^answer992\(.*\) = .*, want `},
		{"editing 99.1", "false", "41 is not 6·7"},
		{"editing 99.2", "false", "not an exported answer.*unknown field"},
		{"hog 99.1", "true", "^correct$"},
		{"hog 99.2", "false", "memory limit 2 GiB exceeded in cell [0-9]+"},
		{"flood 99.1", "true", "^correct$"},
		{"flood 99.2", "false", "output"},
		{"filler 99.1", "true", "^correct$"},
		{"filler 99.2", "false", "disk limit 512 MiB exceeded"},
	}
	if bomb {
		cases = append(cases,
			struct{ key, passed, msg string }{"bomb 99.1", "true", "^correct$"},
			struct{ key, passed, msg string }{"bomb 99.2", "false", `process limit \(256 processes and threads\) reached`})
	}
	for _, tc := range cases {
		g, ok := got[tc.key]
		if !ok {
			t.Errorf("%s: no row in grades.csv", tc.key)
			continue
		}
		if g[0] != tc.passed || !regexp.MustCompile(tc.msg).MatchString(g[1]) {
			t.Errorf("%s: passed=%s %q, want passed=%s and a message matching %q", tc.key, g[0], g[1], tc.passed, tc.msg)
		}
	}
	if want := len(cases) + 2; len(recs)-1 != want { // garbage and absent have two rows
		t.Errorf("grades.csv has %d rows, want %d and a header", len(recs)-1, want)
	}
	if strings.Contains(log.String(), "sandbox: bwrap") {
		if _, err := os.Stat(filepath.Join(subs, "good", "99-fixture.ipynb")); err != nil {
			t.Errorf("the deleting student removed other submissions despite the sandbox: %v", err)
		}
		if b, _ := os.ReadFile(filepath.Join(subs, "editing", "99-fixture.ipynb")); !bytes.Contains(b, []byte("answer991 = 41")) {
			t.Errorf("the editing student changed its submission on disk despite the sandbox")
		}
	} else {
		t.Log("no bwrap: the deleting and editing students' reach is not tested (apt-get install bubblewrap)")
	}
	sum, _ := os.ReadFile(filepath.Join(out, "summary.txt"))
	if !strings.Contains(string(sum), "good                     2/2") || !strings.Contains(string(sum), "limits per notebook") {
		t.Errorf("summary.txt:\n%s", sum)
	}
}

// unsandboxedRoot is the flags of a test that grades in whatever isolation this host has (auto
// mode); a root grader where no sandbox can be made skips the test (it refuses to grade).
func unsandboxedRoot(t *testing.T) []string {
	if why, _ := bwrapProblem(context.Background(), testID(t)); why != "" && os.Getuid() == 0 {
		t.Skipf("a root grader never runs a notebook without a sandbox, and none can be made here: %s", why)
	}
	return nil
}

// testID is the host identity the runs of this test process have (runIdentity).
func testID(t *testing.T) hostID {
	t.Helper()
	id, _, err := runIdentity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// toolchain reports whether Jupyter with the gonb kernel can run here.
func toolchain() error {
	if _, err := exec.LookPath("jupyter"); err != nil {
		return err
	}
	_, err := kernelSpecPath()
	return err
}

// TestGradeRealNotebook grades a notebook of the workbench (notebooks/, SOD_GRADE_NOTEBOOK,
// default 00-welcome.ipynb) as three students hand it in: the unmodified instructor copy (its
// answer cells hold placeholders, and its own check and solution cells are dropped), the
// release copy with its answers left blank, and the release copy with the worked solutions
// typed in (sod/exercises' own table of hand-worked answers, given here as Go literals, and for
// an exercise that asks for code, the code of the notebook's solution cell).
func TestGradeRealNotebook(t *testing.T) {
	if err := toolchain(); err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("cannot execute notebooks: %v (SOD_REQUIRE_NOTEBOOKS=1)", err)
		}
		t.Skipf("cannot execute notebooks: %v", err)
	}
	name := os.Getenv("SOD_GRADE_NOTEBOOK")
	if name == "" {
		name = "00-welcome.ipynb"
	}
	// Hand-worked answers (as in the notebooks' solution cells), as Go source for the answer cells.
	solved := map[string]string{
		"00.1": "0.40625", "01.1": "0.5", "01.2": "0.9137", "02.1": "1.0", "02.2": "-1",
		"03.1": "0.0694", "03.2": "7.99", "04.1": "177147", "04.2": "6.23", "05.1": "55.72",
		"05.2": "0.3660", "06.1": "0.36", "06.2": "0.960769", "07.1": "[2]int64{7, 2000000}",
		"07.2": "0.2081", "08.1": "3", "08.2": "0.5 / 60", "09.1": "1.25", "09.2": "25.0",
		"09.3": "0.5", "10.2": "2", "11.1": "35",
	}
	src := filepath.Join("..", "..", "..", "notebooks", name)
	instr := mustRead(t, src)
	exs, err := exercises(instr)
	if err != nil || len(exs) == 0 {
		t.Fatalf("%s: %d exercises, %v", name, len(exs), err)
	}
	subs := t.TempDir()
	write := func(student string, nb *notebook) {
		if err := os.MkdirAll(filepath.Join(subs, student), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := nb.write(filepath.Join(subs, student, name)); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(src)
	raw, _ := parseNotebook(b)
	write("instructor", raw)
	blank, _, err := release(mustRead(t, src), false)
	if err != nil {
		t.Fatal(err)
	}
	write("blank", blank)
	// Exercises that ask for code (10.1) take the code of the notebook's own solution cell.
	code := map[string]string{}
	fence := regexp.MustCompile("(?s)```go\n(.*?)```")
	for _, c := range instr.cells {
		if m := fence.FindStringSubmatch(source(c)); m != nil && hasTag(c, tagSolution) {
			code[exerciseID(c)] = m[1]
		}
	}
	sol, _, _ := release(mustRead(t, src), false)
	want := 0
	for _, c := range sol.cells {
		id := exerciseID(c)
		if !hasTag(c, tagAnswer) {
			continue
		}
		if v, ok := solved[id]; ok {
			c["source"] = "var answer" + strings.Replace(id, ".", "", 1) + " = " + v
			want++
		} else if v, ok := code[id]; ok {
			c["source"] = v
			want++
		}
	}
	write("solved", sol)
	out := filepath.Join(t.TempDir(), "out")
	var log bytes.Buffer
	err = run(context.Background(), append(unsandboxedRoot(t), "-source", filepath.Dir(src), "-notebooks", "^"+regexp.QuoteMeta(name)+"$",
		"-o", out, "-timeout", "8m", "-cell-timeout", "4m", subs), &log, &log)
	t.Logf("grade output:\n%s", log.String())
	if err != nil {
		t.Fatal(err)
	}
	csvb, _ := os.ReadFile(filepath.Join(out, "grades.csv"))
	recs, _ := csv.NewReader(bytes.NewReader(csvb)).ReadAll()
	passed := map[string]int{}
	for _, r := range recs[1:] {
		if r[3] == "true" {
			passed[r[0]]++
		} else if r[0] != "solved" && !strings.Contains(r[4], "not answered yet") {
			t.Errorf("%s %s: %q, want a failure saying the answer is not given yet", r[0], r[2], r[4])
		}
	}
	t.Logf("grades.csv:\n%s", csvb)
	if passed["instructor"] != 0 || passed["blank"] != 0 || passed["solved"] != want {
		t.Errorf("passed: %v, want instructor 0, blank 0, solved %d", passed, want)
	}
}
