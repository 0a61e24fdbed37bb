package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// nbformatScript validates, with nbformat's own validator (the JSON schema of the notebook's
// nbformat_minor, or of the newest 4.x where that is not a known minor), the notebook on its
// standard input, and prints one line per reason it is not valid (at most five): where, and
// what. Nothing is printed for a valid notebook.
const nbformatScript = `import json, sys
from nbformat.validator import iter_validate
def where(e):
    return "/".join(str(p) for p in e.absolute_path) or "top level"
def deepest(e):
    best = None
    for c in getattr(e, "context", None) or []:
        if best is None or len(c.absolute_path) > len(best.absolute_path):
            best = c
    return deepest(best) if best is not None and len(best.absolute_path) >= len(e.absolute_path) else e
d = json.load(sys.stdin)
m = d.get("nbformat_minor")
seen = []
for e in iter_validate(d, version=4, version_minor=m if type(m) is int and 0 <= m <= 5 else 5):
    e = deepest(e)
    line = " ".join(("%s: %s" % (where(e), e.message)).split())[:240]
    if line not in seen:
        seen.append(line)
        print(line)
    if len(seen) == 5:
        break
`

// nbformatPython finds a Python that has nbformat (Debian's python3-nbformat, which Jupyter
// needs): the interpreter of the jupyter command, /usr/bin/python3, or python3 on PATH.
func nbformatPython() (string, error) {
	var cands []string
	if j, err := exec.LookPath("jupyter"); err == nil {
		if b, err := os.ReadFile(j); err == nil {
			if line, _, _ := bytes.Cut(b, []byte("\n")); bytes.HasPrefix(line, []byte("#!")) {
				if f := strings.Fields(string(line[2:])); len(f) == 1 && filepath.IsAbs(f[0]) {
					cands = append(cands, f[0])
				}
			}
		}
	}
	cands = append(cands, "/usr/bin/python3")
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	for _, p := range cands {
		if exec.Command(p, "-I", "-c", "import nbformat.validator, jsonschema").Run() == nil {
			return p, nil
		}
	}
	return "", errors.New("no Python with nbformat and jsonschema found: the grader checks each notebook with nbformat's validator (apt-get install python3-nbformat python3-jsonschema)")
}

// validateSchema checks the notebook b with nbformat's validator (nbformatScript), run by
// python, and returns its reasons as one error, one line per reason.
func validateSchema(ctx context.Context, python string, b []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-I", "-c", nbformatScript)
	cmd.Env = []string{"NBFORMAT_VALIDATOR=jsonschema", "LANG=C.UTF-8", "PATH=/usr/bin:/bin"}
	cmd.Stdin = bytes.NewReader(b)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Registered as the runs are: the grader is a child subreaper and kills the children it
	// did not start on purpose (reapOrphans).
	children.Lock()
	err := cmd.Start()
	if err == nil {
		children.pids[cmd.Process.Pid] = true
	}
	children.Unlock()
	if err == nil {
		defer removeChild(cmd.Process.Pid)
		err = cmd.Wait()
	}
	if err != nil {
		return fmt.Errorf("grader: nbformat's validator failed (%v): %s", err, lastLines(stderr.String(), 1))
	}
	if out := strings.TrimSpace(stdout.String()); out != "" {
		return fmt.Errorf("not a valid notebook (nbformat's validator): %s", strings.Join(strings.Split(out, "\n"), "; "))
	}
	return nil
}

// checkSubmission reads a student's notebook, refusing, before anything runs and with a
// message per reason, what the grader promises to refuse: a notebook larger than the
// -notebook-size limit, one the grader cannot read (parseNotebook, studentCells), and one that
// nbformat's validator finds invalid (an nbformat_minor that is not a number, no top-level
// metadata, a markdown cell with outputs, malformed attachments, …), which nbconvert would
// otherwise meet with a traceback.
func (r *runner) checkSubmission(ctx context.Context, b []byte) (*notebook, error) {
	if n := int64(len(b)); n > r.limits.Notebook {
		return nil, fmt.Errorf("not a notebook the grader runs: it is larger than the limit of a submitted notebook (-notebook-size %s)", formatBytes(r.limits.Notebook))
	}
	nb, err := parseNotebook(b)
	if err == nil {
		err = studentCells(nb)
	}
	if err != nil {
		return nil, err
	}
	if err := validateSchema(ctx, r.python, b); err != nil {
		return nil, err
	}
	return nb, nil
}
