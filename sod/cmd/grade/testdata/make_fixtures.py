#!/usr/bin/env python3
"""Writes the grader's test fixtures: an instructor notebook that follows the exercise cell
convention, and one submission per kind of student (good, wrong, broken, endless, forging,
deleting, partial, garbage, absent). Run from this folder: python3 make_fixtures.py"""
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
CHECK1 = ('%%\nif answer991 != 42 {\n\tpanic(fmt.Sprintf("exercise 99.1: %d is not 6·7", answer991))\n}\n'
          'fmt.Println("exercise 99.1: correct")')
CHECK2 = ('%%\nfor _, x := range []float64{-1, 0.5, 3} {\n\tif got := answer992(x); got != x*x {\n'
          '\t\tpanic(fmt.Sprintf("exercise 99.2: answer992(%v) = %v, want %v", x, got, x*x))\n\t}\n}\n'
          'fmt.Println("exercise 99.2: correct")')

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
}
for name, nb in subs.items():
    write(os.path.join("submissions", name, NB), nb)
os.makedirs("submissions/garbage", exist_ok=True)
with open(os.path.join("submissions", "garbage", NB), "w") as f:
    f.write("{ this is not a notebook\n")
os.makedirs("submissions/absent", exist_ok=True)
with open(os.path.join("submissions", "absent", "README"), "w") as f:
    f.write("This student submitted nothing.\n")
