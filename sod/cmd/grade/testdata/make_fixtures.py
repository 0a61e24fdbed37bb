#!/usr/bin/env python3
"""Writes the grader's test fixtures: an instructor notebook that follows the exercise cell
convention, and one submission per kind of student: good, wrong, broken, endless, forging,
deleting, partial, garbage and absent, and the attacks on the grader and on the machine
(mallory, silencing, chattering, editing, hog, bomb, flood, filler; see each one's comment).
Run from this folder: python3 make_fixtures.py"""
import copy, json, os, shutil

SETUP = ('!*go mod edit -require=sodworkbench.org/workbench@v0.0.0-00010101000000-000000000000 '
         '-replace=sodworkbench.org/workbench=$(cd "$GONB_DIR" && dirname "$(go env GOMOD)")')

def md(cid, text, ex=None, tags=None):
    meta = {}
    if ex: meta["sod"] = {"exercise": ex}
    if tags: meta["tags"] = tags
    return {"cell_type": "markdown", "id": cid, "metadata": meta, "source": text}

def code(cid, text, ex=None, tags=None):
    c = md(cid, text, ex, tags)
    c.update(cell_type="code", execution_count=None, outputs=[])
    return c

ANSWER1 = 'var answer991 = 0 // ← 6·7'
ANSWER2 = 'var answer992 = func(x float64) float64 {\n\treturn 0 // ← x²\n}'
# The checks are sod/exercises' (exercises 99.1 and 99.2 are the grader's fixture there).
CHECK1 = '%%\nexercises.Check("99.1", answer991)'
CHECK2 = '%%\nexercises.Check("99.2", answer992)'

instructor = {
    "cells": [
        md("t", "# 99 · A fixture for the grader\nTwo exercises: a value (99.1) and a func (99.2)."),
        code("setup", SETUP),
        md("q1", "## Exercise 99.1\nPut 6·7 in `answer991`.", ex="99.1"),
        code("a1", ANSWER1, ex="99.1", tags=["exercise-answer"]),
        code("c1", CHECK1, ex="99.1", tags=["exercise-check"]),
        md("s1", "<details><summary>Solution</summary>\n\n`var answer991 = 42`\n</details>", ex="99.1", tags=["solution"]),
        code("mid", '%%\nfmt.Println("a cell between the exercises")'),
        md("q2", "## Exercise 99.2\nWrite `answer992`, the square of x.", ex="99.2"),
        code("a2", ANSWER2, ex="99.2", tags=["exercise-answer"]),
        code("c2", CHECK2, ex="99.2", tags=["exercise-check"]),
        md("s2", "<details><summary>Solution</summary>\n\n`return x * x`\n</details>", ex="99.2", tags=["solution"]),
    ],
    "metadata": {
        "kernelspec": {"display_name": "Go (gonb)", "language": "go", "name": "gonb"},
        "language_info": {"name": "go"},
    },
    "nbformat": 4, "nbformat_minor": 5,
}

def write(path, nb):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")

def student(edits, drop=(), add_after=None, keep_checks=False):
    """A student's copy: the release (no solutions, no checks unless keep_checks) with the
    cells whose id is in edits given new sources, cells in drop removed, and extra cells."""
    nb = copy.deepcopy(instructor)
    cells = []
    for c in nb["cells"]:
        tags = c["metadata"].get("tags", [])
        if "solution" in tags or ("exercise-check" in tags and not keep_checks) or c["id"] in drop:
            continue
        if c["id"] in edits:
            c["source"] = edits[c["id"]]
        cells.append(c)
        for cid, src in (add_after or {}).get(c["id"], []):
            cells.append(code(cid, src))
    nb["cells"] = cells
    return nb

NB = "99-fixture.ipynb"
shutil.rmtree("submissions", ignore_errors=True)
write(os.path.join("instructor", NB), instructor)
subs = {
    # right answers, no check cells (as released)
    "good": student({"a1": "var answer991 = 6 * 7", "a2": "var answer992 = func(x float64) float64 {\n\treturn x * x\n}"}),
    # wrong answers
    "wrong": student({"a1": "var answer991 = 41", "a2": "var answer992 = func(x float64) float64 {\n\treturn 2 * x\n}"}),
    # a compile error in the first answer, a panic in the second
    "broken": student({"a1": "var answer991 = \"forty-two\" +", "a2": "var answer992 = func(x float64) float64 {\n\tvar s []float64\n\treturn s[3]\n}"}),
    # a right first answer, then a cell that never ends, and a func that never returns
    "endless": student({"a1": "var answer991 = 42", "a2": "var answer992 = func(x float64) float64 {\n\tfor {\n\t}\n}"},
                       add_after={"a1": [("loop", "%%\nfor {\n}")]}),
    # wrong answers dressed up as right: forged pass lines printed from a package-level
    # initializer (so they appear in every later cell's output, the grader's included), its own
    # edited check cells, and a func that prints a pass line and exits before the check ends
    "forging": student({
        "a1": ('var answer991 = func() int {\n'
               '\tfmt.Println("exercise 99.1: correct")\n'
               '\tfmt.Println(`sodgrade 0123456789abcdef0123456789abcdef 99.1 pass "correct"`)\n'
               '\treturn 41\n}()'),
        "c1": '%%\nfmt.Println("exercise 99.1: correct")',
        "a2": ('var answer992 = func(x float64) float64 {\n'
               '\tfmt.Println("exercise 99.2: correct")\n\tos.Exit(0)\n\treturn 0\n}'),
        "c2": '%%\nfmt.Println("exercise 99.2: correct")',
    }, keep_checks=True, add_after={"mid": [("forge", '%%\nfmt.Println("exercise 99.1: correct")\nfmt.Println("exercise 99.2: correct")')]}),
    # right answers, then a cell that deletes what it can reach: its folder's parent, its home,
    # and the folder named by GRADE_TEST_VICTIM (the test points it at the submissions)
    "deleting": student({"a1": "var answer991 = 42", "a2": "var answer992 = func(x float64) float64 {\n\treturn x * x\n}"},
                        add_after={"c2": [], "a2": [("rm", '!rm -rf "$HOME" "$GRADE_TEST_VICTIM"'),
                                                    ("rm2", '%%\nfor _, p := range []string{"..", os.Getenv("GRADE_TEST_VICTIM")} {\n\tfmt.Println("removing", p, os.RemoveAll(p))\n}')]}),
    # a right first answer; the second answer cell deleted
    "partial": student({"a1": "var answer991 = 42"}, drop=("a2",)),

    # The attacks on the grader. Each answer is wrong; none may pass.
    # The attack: a package-level initialiser (it runs at the start of every cell's
    # program, the grader's included) reads the source GoNB generated for the cell, prints a
    # verdict-shaped line for the exercise it finds there, and exits before the cell's code runs.
    "mallory": student({
        "a1": ('var answer991 = func() int {\n'
               '\tsrc, _ := os.ReadFile(filepath.Join(os.Getenv("GONB_TMP_DIR"), "main.go"))\n'
               '\tif m := regexp.MustCompile(`"(99\\.[12])"`).FindSubmatch(src); m != nil {\n'
               '\t\tfmt.Printf("sodgrade 0123456789abcdef %s pass \\"correct\\"\\n", m[1])\n'
               '\t\tfmt.Printf("exercise %s: correct\\n", m[1])\n'
               '\t}\n\tos.Exit(0)\n\treturn 41\n}()'),
        "a2": "var answer992 = func(x float64) float64 {\n\treturn 0\n}",
    }),
    # standard output sent to /dev/null and standard error closed, from an initialiser
    "silencing": student({
        "a1": ('var answer991 = 41\n\nvar _ = func() int {\n'
               '\tdevnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)\n'
               '\tsyscall.Dup3(int(devnull.Fd()), 1, 0)\n\tos.Stderr.Close()\n\treturn 0\n}()'),
        "a2": "var answer992 = func(x float64) float64 {\n\treturn 2 * x\n}",
    }),
    # a goroutine started by an initialiser prints check-shaped lines while every cell runs
    "chattering": student({
        "a1": ('var answer991 = 41\n\nvar _ = func() int {\n\tgo func() {\n\t\tfor {\n'
               '\t\t\tfmt.Println("exercise 99.1: correct")\n'
               '\t\t\tfmt.Println(`sodgrade 0123456789abcdef0123456789abcdef 99.2 pass "correct"`)\n'
               '\t\t\tfmt.Println("exercise 99.2: answer handed in for grading")\n'
               '\t\t\ttime.Sleep(time.Millisecond)\n\t\t}\n\t}()\n\treturn 0\n}()'),
        "a2": "var answer992 = func(x float64) float64 {\n\treturn 2 * x\n}",
    }),
    # files edited while the notebook runs: the graded copy (nbconvert runs from its folder),
    # the executed copy to come, the submission itself (GRADE_TEST_VICTIM), and after the
    # grader's export of 99.2, the exported answer, replaced by a verdict
    "editing": student({"a1": "var answer991 = 41", "a2": "var answer992 = func(x float64) float64 {\n\treturn 2 * x\n}"},
        add_after={"setup": [("edit", '%%\nfor _, p := range []string{"99-fixture.ipynb", filepath.Join(os.Getenv("HOME"), "..", "out", "99-fixture.ipynb"),\n'
                                      '\tfilepath.Join(os.Getenv("GRADE_TEST_VICTIM"), "editing", "99-fixture.ipynb")} {\n'
                                      '\tnb, err := os.ReadFile(p)\n\tif err == nil {\n'
                                      '\t\terr = os.WriteFile(p, bytes.ReplaceAll(nb, []byte("answer991 = 41"), []byte("answer991 = 42")), 0o644)\n'
                                      '\t}\n\tfmt.Println("editing", p, err)\n}')],
                   "a2": [("forge", '%%\np := filepath.Join(os.Getenv("HOME"), "..", "export", "99.2.json")\n'
                                    'fmt.Println(os.WriteFile(p, []byte(`{"id":"99.2","pass":true,"message":"correct"}`), 0o644))')]}),

    # The attacks on the machine: a right first answer, then a second answer that reaches a
    # limit. The first must pass, the second fail naming the limit.
    # memory without bound (touched, so that it is really used)
    "hog": student({"a1": "var answer991 = 42", "a2": ('var answer992 = func(x float64) float64 {\n\tvar hoard [][]byte\n\tfor {\n'
                                                      '\t\tb := make([]byte, 64<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n'
                                                      '\t\thoard = append(hoard, b)\n\t}\n}')}),
    # processes without bound: the program starts copies of itself, which do the same
    "bomb": student({"a1": "var answer991 = 42", "a2": ('var answer992 = func(x float64) float64 {\n\tfor {\n'
                                                       '\t\texec.Command("/proc/self/exe").Start()\n\t}\n}')}),
    # output without bound
    "flood": student({"a1": "var answer991 = 42", "a2": ('var answer992 = func(x float64) float64 {\n'
                                                        '\tline := bytes.Repeat([]byte("flood "), 1<<17)\n\tfor {\n\t\tos.Stdout.Write(line)\n\t}\n}')}),
    # files without bound, each below the file size limit
    "filler": student({"a1": "var answer991 = 42", "a2": ('var answer992 = func(x float64) float64 {\n\tchunk := make([]byte, 32<<20)\n'
                                                         '\tfor i := 0; ; i++ {\n'
                                                         '\t\tos.WriteFile(filepath.Join(os.Getenv("HOME"), fmt.Sprintf("fill%d", i)), chunk, 0o644)\n\t}\n}')}),
}
for name, nb in subs.items():
    write(os.path.join("submissions", name, NB), nb)
os.makedirs("submissions/garbage", exist_ok=True)
with open(os.path.join("submissions", "garbage", NB), "w") as f:
    f.write("{ this is not a notebook\n")
# JSON nested deeper than any notebook (nbconvert's Python fails on it with a traceback)
os.makedirs("submissions/nested", exist_ok=True)
with open(os.path.join("submissions", "nested", NB), "w") as f:
    f.write('{"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": ' + '{"a": ' * 5000 + '1' + '}' * 5001 + '\n')
os.makedirs("submissions/absent", exist_ok=True)
with open(os.path.join("submissions", "absent", "README"), "w") as f:
    f.write("This student submitted nothing.\n")

# The attacks on the other students (TestGradeAttacks grades them beside "good" and a colluder,
# two at a time, as root). Each tries what once changed another student's grade; the grader
# must give every one of them what its own answers earn. Each prints a line a test can find
# (what it reached), none of which decides anything.
WRONG = {"a1": "var answer991 = 41", "a2": "var answer992 = func(x float64) float64 {\n\treturn 2 * x\n}"}
RIGHT = {"a1": "var answer991 = 6 * 7", "a2": "var answer992 = func(x float64) float64 {\n\treturn x * x\n}"}
attacks = {
    # 1. privileges: the capabilities it has; unshare a mount namespace and remount the host's
    # root writable with the host's /tmp (other runs' folders) visible; a user namespace with
    # the same; the setuid mount; then the module's sod/grading rewritten so that a later run's
    # wrong answers export as right; and the network interfaces and the first process it sees.
    "a-escaper": student(WRONG, add_after={"setup": [("escape", "\n".join([
        "!grep -E '^(Cap|NoNewPrivs)' /proc/self/status",
        "!unshare -m sh -c 'umount -l /tmp && mount -o remount,bind,rw / && ls /tmp && echo ESCAPED: mount namespace'",
        "!unshare -Urm sh -c 'mount -o remount,bind,rw / && echo ESCAPED: user namespace'",
        "!mount -t tmpfs none \"$HOME\" && echo ESCAPED: setuid mount",
        "!sed -i 's/return Result{ID: a.ID, Message: err.Error()}/return Result{ID: a.ID, Pass: true}/' ../sod/grading/grading.go && echo ESCAPED: module written",
        "!echo \"network interfaces: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ')\"; echo \"process 1: $(basename \"$(tr '\\0' '\\n' < /proc/1/cmdline | head -n 1)\")\"",
        # the host's kernel: core_pattern written back with its own value (so that nothing
        # would change even if the write went through), sysrq-trigger opened (never written),
        # a file made in /dev; and the uid the sandbox has
        "!cp=$(cat /proc/sys/kernel/core_pattern); (printf '%s\\n' \"$cp\" > /proc/sys/kernel/core_pattern) 2>&1 && echo ESCAPED: core_pattern written",
        "!if [ -e /proc/sysrq-trigger ]; then (exec 3>>/proc/sysrq-trigger) 2>&1 && echo ESCAPED: sysrq-trigger opened for writing; else echo '/proc/sysrq-trigger: absent'; fi",
        "!(echo x > /dev/sodgrade-x) 2>&1 && echo ESCAPED: a file made in /dev",
        "!echo \"uid map: $(cat /proc/self/uid_map | tr -s ' ')\"",
        "!echo escape attempts done"]))]}),
    # 2. the build cache: every compiled output (-d) of every shared cache it can find (the
    # read-only layer named in GOCACHEPROG, the grader's caches of old) overwritten with zeros
    # of the same size, which the go command would trust by size.
    "a-poisoner": student(WRONG, add_after={"setup": [("poison", "\n".join([
        "%%",
        'dirs := []string{"/root/.cache/go-build", "/root/.cache/sod-grade-build", "/root/.cache/sod-grade-shared"}',
        'args := strings.Fields(os.Getenv("GOCACHEPROG"))',
        'for i := 1; i < len(args); i++ {',
        '\tif args[i-1] == "-ro" {',
        '\t\tdirs = append(dirs, args[i])',
        '\t}',
        '}',
        'found, poisoned := 0, 0',
        'for _, d := range dirs {',
        '\tfilepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {',
        '\t\tif err != nil || e.IsDir() || !strings.HasSuffix(p, "-d") {',
        '\t\t\treturn nil',
        '\t\t}',
        '\t\tfound++',
        '\t\tif st, err := os.Stat(p); err == nil && os.WriteFile(p, make([]byte, st.Size()), 0o644) == nil {',
        '\t\t\tpoisoned++',
        '\t\t}',
        '\t\treturn nil',
        '\t})',
        '}',
        'fmt.Printf("poisoned %d of %d cached outputs of the shared caches\\n", poisoned, found)']))]}),
    # 3. links: trim.txt in every cache folder it can find made a link to the export of 99.1 at
    # the path runs once had, so that the next go build writes a time stamp into another run's
    # answer. Its own answers are right.
    "a-linker": student(RIGHT, add_after={"setup": [("link", "\n".join([
        "!for d in \"$GOCACHE\" $(echo \"$GOCACHEPROG\" | tr ' ' '\\n' | grep '^/') /root/.cache/sod-grade-build /root/.cache/sod-grade-shared; do rm -f \"$d/trim.txt\" 2>/dev/null; ln -s /tmp/sodgrade/export/99.1.json \"$d/trim.txt\" 2>/dev/null && echo \"linked $d/trim.txt\"; done",
        "!echo link attempts done"]))]}),
    # 4. reading: every file it can see (but /usr, /proc, /sys, /dev and the module cache)
    # searched for the instructor's solutions and another student's right answer; 99.1 is 41,
    # plus 1 if it found any.
    "a-reader": student({"a1": ("var answer991 = 41 + func() int {\n"
                                "\tb, _ := os.ReadFile(filepath.Join(os.Getenv(\"HOME\"), \"found.txt\"))\n"
                                "\treturn min(1, len(bytes.TrimSpace(b)))\n}()"),
                         "a2": WRONG["a2"]},
                        add_after={"setup": [("read", "\n".join([
                            "!grep -rlsI --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev --exclude-dir=usr --exclude-dir=gomodcache "
                            "-e 'summary>Sol''ution' -e 'answer991 = 6 ''[*] 7' -e 'answer991 = 4''2' / > \"$HOME/found.txt\"",
                            "!echo \"reader found $(wc -l < \"$HOME/found.txt\") files\"; head -5 \"$HOME/found.txt\""]))]}),
    # 5. the feedback copy: the executed notebook made a link (to the graded copy, here; to
    # /proc/self/cwd/<the instructor's folder> it would have resolved in the grader's process),
    # and out/ itself swapped for a link. Its own answers are right.
    "a-outlinker": student(RIGHT, add_after={"setup": [("outlink", "\n".join([
        "!cd \"$HOME/../out\" && ln -sf /proc/self/cwd/99-fixture.ipynb 99-fixture.ipynb && echo linked the executed notebook",
        "!cd \"$HOME/..\" && (mv out out.old && ln -s /proc/self/cwd out && echo ESCAPED: out swapped) 2>&1",
        "!echo outlink attempts done"]))]}),
    # 6. the disk limit, after 99.1 is exported: a file under a path longer than PATH_MAX,
    # a deleted file held open by a background process, long symbolic links (a page each),
    # /dev/shm. Each tries 3 times the -disk the test gives (256 MiB).
    "a-deeppath": student(RIGHT, add_after={"mid": [("deep", "\n".join([
        "!cd \"$HOME\" && n=$(printf 'd%.0s' $(seq 250)) && for i in $(seq 20); do mkdir \"$n\" && cd \"$n\" || break; done; echo \"path of $(pwd | wc -c) bytes\"; for i in $(seq 12); do dd if=/dev/zero of=fill$i bs=1M count=60 2>&1 | tail -n 1 | grep -v copied; done; echo deep path attempt done"]))]}),
    "a-heldopen": student(RIGHT, add_after={"mid": [("held", "\n".join([
        "%%",
        "var held []*os.File",
        "for i := 0; i < 12; i++ {",
        '\tf, err := os.Create(filepath.Join(os.Getenv("HOME"), fmt.Sprintf("held%d", i)))',
        "\tif err != nil {",
        "\t\tbreak",
        "\t}",
        "\tos.Remove(f.Name())",
        "\theld = append(held, f)",
        "\tif _, err := f.Write(make([]byte, 60<<20)); err != nil {",
        '\t\tfmt.Println("held:", err)',
        "\t\tbreak",
        "\t}",
        "}",
        'cmd := exec.Command("sleep", "300")',
        "cmd.ExtraFiles = held",
        "cmd.Start()",
        'fmt.Printf("%d deleted files held open\\n", len(held))',
        "time.Sleep(15 * time.Second)"]))]}),
    "a-links": student(RIGHT, add_after={"mid": [("links", "\n".join([
        "%%",
        'target := strings.Repeat("x", 4000)',
        'dir := filepath.Join(os.Getenv("HOME"), "links")',
        'os.Mkdir(dir, 0o755)',
        'n := 0',
        'for ; n < 360000; n++ {',
        '\tif os.Symlink(target, filepath.Join(dir, strconv.Itoa(n))) != nil {',
        '\t\tbreak',
        '\t}',
        '}',
        'fmt.Printf("made %d links of 4000 bytes\\n", n)',
        'time.Sleep(5 * time.Second)']))]}),
    "a-shm": student(RIGHT, add_after={"mid": [("shm", "\n".join([
        "!for i in $(seq 12); do dd if=/dev/zero of=/dev/shm/fill$i bs=1M count=60 2>&1 | tail -n 1 | grep -v copied; done; sleep 5; echo shm attempt done"]))]}),
    # 7. a neighbour: 200 processes held for the whole run, to starve a run graded beside it
    "a-holder": student(RIGHT, add_after={"setup": [("hold", "\n".join([
        "!for i in $(seq 200); do sleep 600 & done >/dev/null 2>&1; echo holding 200 processes"]))]}),
    # 8. a grade file: a func that panics with a 200,000-byte message full of control
    # characters (a CR, a quote, a comma, a terminal's escape), which the grade's message quotes
    "a-panicker": student({"a1": RIGHT["a1"], "a2": 'var answer992 = func(x float64) float64 {\n\tpanic(strings.Repeat("\\x1b[2J\\r\\n\\"boom\\",", 20000))\n}'}),
    "good": subs["good"],
    # wrong answers, nothing else: what each attack above tried to make pass
    "z-colluder": student(WRONG),
}
shutil.rmtree("attacks", ignore_errors=True)
for name, nb in attacks.items():
    write(os.path.join("attacks", name, NB), nb)
