package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"sodworkbench.org/workbench/sod/grading"
)

// runner executes graded copies of notebooks, each in a directory of its own, with a time limit.
type runner struct {
	module      string        // root of the workbench module the notebooks build against
	hide        []string      // folders the student's code must not see (sandbox only)
	sandbox     string        // "bwrap" or "none"
	timeout     time.Duration // per notebook
	cellTimeout time.Duration // per cell
	goCache     string        // shared Go build cache
	goModCache  string
	jupyterPath string // where the gonb kernel spec is
}

// sandboxRoot is where a run's folder appears inside the bwrap sandbox: a fixed path, so that
// the Go build cache is shared between runs.
const sandboxRoot = "/tmp/sodgrade"

// newToken returns a random run token (32 hexadecimal digits).
func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// outcome is what grading one student's notebook gave: a verdict per exercise.
type outcome struct {
	Student, Notebook string
	Rows              []row
	Duration          time.Duration
	Executed          []byte // the executed graded notebook, if nbconvert wrote one
}

type row struct {
	Exercise string
	Passed   bool
	Message  string
}

// grade executes one student's copy of a notebook and returns a verdict for each exercise.
func (r *runner) grade(ctx context.Context, student, name string, sub []byte, exs []exercise) outcome {
	start := time.Now()
	o := outcome{Student: student, Notebook: name}
	failAll := func(msg string) outcome {
		o.Rows = o.Rows[:0]
		for _, ex := range exs {
			o.Rows = append(o.Rows, row{ex.ID, false, msg})
		}
		o.Duration = time.Since(start)
		return o
	}
	nb, err := parseNotebook(sub)
	if err != nil {
		return failAll(err.Error())
	}
	token := newToken()
	graded, missing, err := gradedCopy(nb, exs, token)
	if err != nil {
		return failAll("cannot grade: " + err.Error())
	}
	dir, err := os.MkdirTemp("", "sodgrade-*")
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	defer removeAll(dir)
	nbDir, err := r.layout(dir)
	if err == nil {
		err = graded.write(filepath.Join(nbDir, name))
	}
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	executed, runErr := r.execute(ctx, dir, name)
	o.Duration = time.Since(start)
	if executed == nil {
		return failAll(runErr)
	}
	o.Executed = executed
	res, err := parseNotebook(executed)
	if err != nil {
		return failAll("grader: the executed notebook: " + err.Error())
	}
	cells := map[string]map[string]any{}
	for _, c := range res.cells {
		if id, _ := c["id"].(string); strings.HasPrefix(id, "sodgrade-") {
			cells[id] = c
		}
	}
	for _, ex := range exs {
		o.Rows = append(o.Rows, verdict(ex.ID, missing[ex.ID], cells[gradedCellID(ex.ID)], token, runErr, r.cellTimeout))
	}
	return o
}

// verdict reads the result of exercise id from the output of the cell the grader inserted.
func verdict(id string, missing bool, c map[string]any, token, runErr string, cellTimeout time.Duration) row {
	switch {
	case missing:
		return row{id, false, "no answer cell (a code cell tagged " + tagAnswer + " with metadata sod.exercise " + id + ")"}
	case c == nil:
		return row{id, false, "grader: the check cell is missing from the executed notebook"}
	}
	var mine []grading.Result
	for _, v := range grading.Parse(outputText(c), token) {
		if v.ID == id {
			mine = append(mine, v)
		}
	}
	switch {
	case len(mine) == 1:
		return row{id, mine[0].Pass, mine[0].Message}
	case len(mine) > 1:
		return row{id, false, fmt.Sprintf("%d verdicts in the check's output (one expected): output tampered with", len(mine))}
	}
	if e := cellError(c); e != "" {
		switch ce := compileErrors(c); {
		case ce != "":
			return row{id, false, "the check did not compile: " + ce + " (does the answer cell compile?)"}
		case strings.Contains(e, "signal: interrupt"):
			return row{id, false, fmt.Sprintf("the check was stopped at the time limit per cell (%v)", cellTimeout)}
		}
		return row{id, false, "the check did not run: " + e}
	}
	if runErr != "" {
		return row{id, false, runErr}
	}
	return row{id, false, "the check gave no verdict (the program exited, or was stopped, before the check finished)"}
}

// layout makes a run's folder: home/ and tmp/ for the run, out/ for the executed notebook, and
// mod/, a view of the workbench module (go.mod, go.sum and its packages, linked) with an empty
// notebooks/ folder that holds the graded copy. The notebook's setup cell finds the module by
// walking up from the notebook's folder, as in a checkout.
func (r *runner) layout(dir string) (string, error) {
	for _, d := range []string{"home", "tmp", "out", "mod/notebooks"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return "", err
		}
	}
	ents, err := os.ReadDir(r.module)
	if err != nil {
		return "", err
	}
	for _, e := range ents {
		n := e.Name()
		if n == "notebooks" || strings.HasPrefix(n, ".") {
			continue
		}
		if e.IsDir() || n == "go.mod" || n == "go.sum" {
			if err := os.Symlink(filepath.Join(r.module, n), filepath.Join(dir, "mod", n)); err != nil {
				return "", err
			}
		}
	}
	return filepath.Join(dir, "mod", "notebooks"), nil
}

// execute runs nbconvert on the graded copy and returns the executed notebook (nil if there is
// none) and a message for what went wrong with the run as a whole ("" if nothing).
func (r *runner) execute(ctx context.Context, dir, name string) ([]byte, string) {
	root := dir
	if r.sandbox == "bwrap" {
		root = sandboxRoot
	}
	nbDir := filepath.Join(root, "mod", "notebooks")
	args := []string{"jupyter", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.kernel_name=gonb",
		"--ExecutePreprocessor.timeout=" + strconv.Itoa(int(r.cellTimeout.Seconds())),
		"--ExecutePreprocessor.interrupt_on_timeout=True",
		"--TagRemovePreprocessor.enabled=True",
		"--TagRemovePreprocessor.remove_cell_tags=" + tagLiveOnly,
		"--output-dir", filepath.Join(root, "out"), "--output", strings.TrimSuffix(name, ".ipynb"),
		name}
	env := r.env(root)
	if r.sandbox == "bwrap" {
		b := []string{"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
			"--tmpfs", "/tmp", "--bind", dir, sandboxRoot, "--bind", r.goCache, r.goCache}
		// The fresh /tmp hides whatever lived there: a module, module cache or kernel spec under
		// /tmp (a CI checkout, say) must be bound again, read-only, or the run's go.mod symlinks
		// dangle and GoNB resolves the module to /dev.
		for _, p := range []string{r.module, r.goModCache, r.jupyterPath} {
			if p != "" && (p == "/tmp" || strings.HasPrefix(p, "/tmp/")) {
				b = append(b, "--ro-bind", p, p)
			}
		}
		for _, h := range r.hide {
			b = append(b, "--tmpfs", h)
		}
		b = append(b, "--unshare-all", "--die-with-parent", "--new-session", "--chdir", nbDir, "--clearenv")
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			b = append(b, "--setenv", k, v)
		}
		args = append(b, args...)
		env = os.Environ()
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = filepath.Join(dir, "mod", "notebooks")
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return nil, "grader: " + err.Error()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	timedOut := false
	select {
	case err = <-done:
	case <-ctx.Done():
		timedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
		}
	}
	sweep(dir) // processes that left the process group (the kernel, programs it started)
	b, rerr := os.ReadFile(filepath.Join(dir, "out", name))
	switch {
	case timedOut:
		return b, fmt.Sprintf("time limit of %v for the notebook reached", r.timeout)
	case rerr != nil:
		return nil, fmt.Sprintf("the notebook did not run to the end (%v): %s", err, lastLines(logs.String(), 3))
	}
	return b, ""
}

// env is the environment of a run: the grader's, with HOME, TMPDIR and the Go and Jupyter
// folders set so that the run writes only to its own folder and the shared Go build cache, and
// works offline.
func (r *runner) env(root string) []string {
	set := map[string]string{
		"HOME":                           filepath.Join(root, "home"),
		"TMPDIR":                         filepath.Join(root, "tmp"),
		"GOCACHE":                        r.goCache,
		"GOMODCACHE":                     r.goModCache,
		"GOPATH":                         filepath.Join(root, "home", "go"),
		"GOFLAGS":                        "-mod=mod -buildvcs=false",
		"GOPROXY":                        "off",
		"GOSUMDB":                        "off", // offline: the module cache was checked when it was filled
		"GOTOOLCHAIN":                    "local",
		"JUPYTER_PATH":                   r.jupyterPath,
		"PYDEVD_DISABLE_FILE_VALIDATION": "1",
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; ok || strings.HasPrefix(k, "JUPYTER_") || strings.HasPrefix(k, "SOD_") {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// sweep kills the processes whose working folder is inside dir: what a notebook left running
// after nbconvert ended (Jupyter starts kernels in a session of their own, so killing
// nbconvert's process group does not reach them). Inside bwrap the sandbox does this.
func sweep(dir string) {
	for range 3 {
		procs, _ := filepath.Glob("/proc/[0-9]*")
		n := 0
		for _, p := range procs {
			cwd, err := os.Readlink(filepath.Join(p, "cwd"))
			if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
				continue
			}
			if pid, err := strconv.Atoi(filepath.Base(p)); err == nil && pid != os.Getpid() {
				syscall.Kill(pid, syscall.SIGKILL)
				n++
			}
		}
		if n == 0 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// removeAll removes a run's folder, making read-only folders in it writable first.
func removeAll(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	os.RemoveAll(dir)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// kernelSpecPath returns the Jupyter data folder that holds the gonb kernel spec, for
// JUPYTER_PATH in runs whose HOME is their own folder.
func kernelSpecPath() (string, error) {
	out, err := exec.Command("jupyter", "kernelspec", "list", "--json").Output()
	if err != nil {
		return "", fmt.Errorf("jupyter kernelspec list: %v (is Jupyter installed? docker/install.sh installs it)", err)
	}
	var specs struct {
		Kernelspecs map[string]struct {
			ResourceDir string `json:"resource_dir"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &specs); err != nil {
		return "", fmt.Errorf("jupyter kernelspec list: %v", err)
	}
	k, ok := specs.Kernelspecs["gonb"]
	if !ok {
		return "", errors.New("the gonb Jupyter kernel is not installed (docker/install.sh installs it)")
	}
	return filepath.Dir(filepath.Dir(k.ResourceDir)), nil // .../jupyter/kernels/gonb -> .../jupyter
}
