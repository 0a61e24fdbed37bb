package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"sodworkbench.org/workbench/sod/grading"
)

// runner executes graded copies of notebooks, each in a directory of its own, under limits.
type runner struct {
	module      string        // root of the workbench module the notebooks build against
	hide        []string      // folders the student's code must not see (sandbox only)
	sandbox     string        // "bwrap" or "none"
	timeout     time.Duration // per notebook
	cellTimeout time.Duration // per cell
	limits      limits
	procs       procLimit // how the process limit is enforced here
	prlimit     string    // path of util-linux prlimit
	goCache     string    // shared Go build cache
	goModCache  string
	jupyterPath string // where the gonb kernel spec is
	image       string // the container image of -sandbox podman
}

// sandboxRoot is where a run's folder appears inside the bwrap sandbox: a fixed path, so that
// the Go build cache is shared between runs.
const sandboxRoot = "/tmp/sodgrade"

// newSeed returns a random seed for an exercise's inputs.
func newSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return binary.LittleEndian.Uint64(b[:])
}

// outcome is what grading one student's notebook gave: a verdict per exercise.
type outcome struct {
	Student, Notebook string
	Rows              []row
	Notes             []string // limits the run reached, and how it ended if not normally
	Duration          time.Duration
	Executed          []byte // the executed graded notebook, if nbconvert wrote one
}

type row struct {
	Exercise string
	Passed   bool
	Message  string
}

// runReport is how a run ended: msg says why it did not end normally ("" if it did), notes
// are the limits it reached.
type runReport struct {
	msg   string
	notes []string
}

// grade executes one student's copy of a notebook and judges the answers it exported.
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
	dir, err := os.MkdirTemp("", "sodgrade-*")
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	defer removeAll(dir)
	root := dir
	if r.sandbox != "none" {
		root = sandboxRoot
	}
	seeds := map[string]uint64{}
	for _, ex := range exs {
		seeds[ex.ID] = newSeed()
	}
	graded, missing, err := gradedCopy(nb, exs, filepath.Join(root, "export"), seeds)
	if err != nil {
		return failAll("cannot grade: " + err.Error())
	}
	nbDir, err := r.layout(dir)
	if err == nil {
		err = graded.write(filepath.Join(nbDir, name))
	}
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	exports, err := grading.OpenExports(filepath.Join(dir, "export"))
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	defer exports.Close()
	executed, rep := r.execute(ctx, dir, name)
	o.Duration = time.Since(start)
	o.Executed = executed
	var cells []map[string]any
	if executed != nil {
		if res, err := parseNotebook(executed); err == nil {
			cells = res.cells
		} else if rep.msg == "" {
			rep.msg = "grader: the executed notebook: " + err.Error()
		}
	}
	rep.notes = append(rep.notes, r.limitsInCells(cells)...)
	o.Notes = rep.notes
	if rep.msg != "" {
		o.Notes = append([]string{rep.msg}, o.Notes...)
	}
	for _, ex := range exs {
		if missing[ex.ID] {
			o.Rows = append(o.Rows, row{ex.ID, false, "no answer cell (a code cell tagged " + tagAnswer + " with metadata sod.exercise " + ex.ID + ")"})
			continue
		}
		res, err := exports.Grade(ex.ID, seeds[ex.ID])
		if err == nil {
			o.Rows = append(o.Rows, row{ex.ID, res.Pass, res.Message})
			continue
		}
		o.Rows = append(o.Rows, row{ex.ID, false, r.noExport(ex.ID, cells, rep)})
	}
	return o
}

// noExport explains why exercise id has no exported answer, from the executed notebook's
// export cell (cells, nil if there is no executed notebook) and the run's report. What the
// cells printed only ever explains a failure: it never makes a verdict.
func (r *runner) noExport(id string, cells []map[string]any, rep runReport) string {
	n, c := -1, map[string]any(nil)
	for i, cc := range cells {
		if cid, _ := cc["id"].(string); cid == gradedCellID(id) {
			n, c = i+1, cc
		}
	}
	if c != nil {
		if what := r.limitIn(c); what != "" {
			return fmt.Sprintf("%s exceeded in cell %d, the grader's export of %s", what, n, id)
		}
		if ce := compileErrors(c); ce != "" {
			return "the export did not compile: " + ce + " (does the answer cell compile?)"
		}
		if e := cellError(c); e != "" {
			switch {
			case strings.Contains(e, "signal: interrupt"):
				return fmt.Sprintf("the export (cell %d) was stopped at the time limit per cell (%v)", n, r.cellTimeout)
			case strings.Contains(e, "signal: killed") && slices.ContainsFunc(rep.notes, func(s string) bool { return strings.HasPrefix(s, "memory limit") }):
				return fmt.Sprintf("memory limit %s exceeded in cell %d, the grader's export of %s (the system killed its program)", formatBytes(r.limits.Memory), n, id)
			case rep.msg == "":
				return fmt.Sprintf("the export (cell %d) did not run: %s", n, e)
			}
		}
	}
	switch {
	case rep.msg != "":
		return "no answer exported: " + rep.msg
	case c != nil:
		return fmt.Sprintf("no answer exported: the program of the grader's export cell (cell %d) ended before exporting (an os.Exit or a crash in the student's code)", n)
	}
	return "no answer exported"
}

// limitIn returns the limit that a code cell's output shows a process of it reached, or "".
func (r *runner) limitIn(c map[string]any) string {
	text := outputText(c) + "\n" + cellError(c)
	for _, s := range r.limits.signatures() {
		if strings.Contains(text, s.pattern) {
			return s.what
		}
	}
	return ""
}

// limitsInCells lists the cells whose output shows a limit reached.
func (r *runner) limitsInCells(cells []map[string]any) []string {
	var notes []string
	for i, c := range cells {
		if cellType(c) != "code" {
			continue
		}
		if what := r.limitIn(c); what != "" {
			notes = append(notes, fmt.Sprintf("%s exceeded in cell %d", what, i+1))
		}
	}
	return notes
}

// layout makes a run's folder: home/ and tmp/ for the run, out/ for the executed notebook, and
// mod/, a view of the workbench module (go.mod, go.sum and its packages, linked) with an empty
// notebooks/ folder that holds the graded copy. The notebook's setup cell finds the module by
// walking up from the notebook's folder, as in a checkout.
func (r *runner) layout(dir string) (string, error) {
	for _, d := range []string{"home", "tmp", "out", "export", "mod/notebooks"} {
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
			target := filepath.Join(r.module, n)
			if r.sandbox == "podman" {
				target = filepath.Join(imageModule, n) // the image's copy of the module
			}
			if err := os.Symlink(target, filepath.Join(dir, "mod", n)); err != nil {
				return "", err
			}
		}
	}
	return filepath.Join(dir, "mod", "notebooks"), nil
}

// execute runs nbconvert on the graded copy, under the limits, and returns the executed
// notebook (nil if there is none, or if it is larger than the output limit) and how the run
// ended.
func (r *runner) execute(ctx context.Context, dir, name string) ([]byte, runReport) {
	var rep runReport
	root := dir
	if r.sandbox != "none" {
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
			"--size", strconv.FormatInt(r.limits.Disk, 10), "--tmpfs", "/tmp",
			"--bind", dir, sandboxRoot, "--bind", r.goCache, r.goCache}
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
	container := ""
	if r.sandbox == "podman" {
		container = "sodgrade-" + randomHex(8)
		args, env = r.podmanArgs(container, dir, env, args), os.Environ()
	}
	var cg *cgroups
	if r.procs == procsByCgroup {
		var err error
		if cg, err = newCgroups(r.limits); err != nil {
			rep.msg = "grader: " + err.Error()
			return nil, rep
		}
		defer cg.kill()
	}
	if container == "" {
		args = r.wrap(cg, args)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = filepath.Join(dir, "mod", "notebooks")
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logs := &logBuffer{max: 32 << 10}
	cmd.Stdout, cmd.Stderr = logs, logs
	children.Lock() // so that reapOrphans, run for another notebook, never sees it unregistered
	err := cmd.Start()
	if err == nil {
		children.pids[cmd.Process.Pid] = true
	}
	children.Unlock()
	if err != nil {
		rep.msg = "grader: " + err.Error()
		return nil, rep
	}
	defer removeChild(cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.NewTimer(r.timeout)
	defer deadline.Stop()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	stopped := ""
	for stopped == "" {
		select {
		case err = <-done:
		case <-ctx.Done():
			stopped = "the grader was interrupted"
		case <-deadline.C:
			stopped = fmt.Sprintf("time limit of %v for the notebook reached; the run was stopped", r.timeout)
		case <-tick.C:
			switch {
			case cg != nil && cg.procsHit():
				stopped = fmt.Sprintf("process limit (%d processes and threads) reached; the run was stopped", r.limits.Procs)
			case dirSize(dir) > r.limits.Disk:
				stopped = fmt.Sprintf("disk limit %s exceeded: the notebook wrote more than that to its folder; the run was stopped", formatBytes(r.limits.Disk))
			}
			continue
		}
		break
	}
	if stopped != "" {
		if container != "" {
			exec.Command("podman", "kill", container).Run()
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if cg != nil {
			cg.kill()
		}
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
		}
		rep.msg = stopped
	}
	oomKills := int64(0)
	if cg != nil {
		if oomKills = cg.oomKills(); oomKills > 0 {
			rep.notes = append(rep.notes, fmt.Sprintf("memory limit %s exceeded: the system killed %d process(es) of the notebook for memory", formatBytes(r.limits.Memory), oomKills))
		}
		cg.kill()
	} else {
		sweep(dir) // processes that left the process group (the kernel, programs it started)
	}
	if container == "" {
		reapOrphans() // and those that left the folder too (the grader is their subreaper)
	}
	b, rerr := readExecuted(filepath.Join(dir, "out", name), r.limits.Output)
	switch {
	case rep.msg != "":
	case errors.Is(rerr, errTooLarge):
		rep.msg = fmt.Sprintf("output limit %s exceeded: %v; the executed notebook is not kept", formatBytes(r.limits.Output), rerr)
		return nil, rep
	case rerr != nil:
		why, all := lastLines(logs.tail(), 3), logs.String()
		switch {
		case oomKills > 0 || strings.Contains(all, "Kernel died") && strings.Contains(all, "out of memory"):
			// The kernel and nbconvert run no student code: what fills their memory is what the
			// cells print, which they hold while passing it on.
			why = fmt.Sprintf("output limit reached: the kernel or nbconvert, which hold what the cells print, ran out of memory (%s) and were stopped", formatBytes(r.limits.Memory))
		case strings.Contains(why, "MemoryError"), strings.Contains(why, "Cannot allocate memory"):
			why = fmt.Sprintf("output or memory limit reached (the notebook printed more than nbconvert can hold in %s): %s", formatBytes(r.limits.Memory), why)
		case strings.Contains(why, "File too large"):
			why = fmt.Sprintf("output limit reached (the executed notebook would be larger than the file size limit %s)", formatBytes(r.limits.FileSize))
		}
		rep.msg = fmt.Sprintf("the notebook did not run to the end (%v): %s", err, why)
		return nil, rep
	}
	return b, rep
}

var errTooLarge = errors.New("too large")

// readExecuted reads the executed notebook: a regular file (not a link or a pipe a student's
// program put there) of at most max bytes.
func readExecuted(path string, max int64) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case st.Size() > max:
		return nil, fmt.Errorf("%w: the cells printed %s", errTooLarge, formatBytes(st.Size()))
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, fmt.Errorf("%w: the cells printed more than %s", errTooLarge, formatBytes(max))
	}
	return b, err
}

// logBuffer keeps the first and the last max bytes written to it (nbconvert's log, with the
// kernel's standard error: a notebook can make it write without end).
type logBuffer struct {
	mu         sync.Mutex
	max        int
	head, rest []byte
}

func (t *logBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head, p = append(t.head, p[:k]...), p[k:]
	}
	t.rest = append(t.rest, p...)
	if len(t.rest) > 2*t.max {
		t.rest = append(t.rest[:0], t.rest[len(t.rest)-t.max:]...)
	}
	return n, nil
}

// tail is the end of the log.
func (t *logBuffer) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := append(append([]byte(nil), t.head...), t.rest...)
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	return string(b)
}

// String is the start and the end of the log.
func (t *logBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	rest := t.rest
	if len(rest) > t.max {
		rest = rest[len(rest)-t.max:]
	}
	return string(t.head) + "\n…\n" + string(rest)
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
