package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
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
	sh          *shared       // the module copy, kernel spec, cache program and build cache every run reads
	sandbox     string        // "bwrap", "podman" or "none"
	timeout     time.Duration // per notebook
	cellTimeout time.Duration // per cell
	limits      limits
	procs       procLimit // how the process limit is enforced here
	prlimit     string    // path of util-linux prlimit
	image       string    // the container image of -sandbox podman
	bwrap       string    // path of bwrap
	setpriv     []string  // the command that drops a root grader's sandbox to gradeUser (setprivArgs)
	python      string    // a Python with nbformat (nbformatPython)
}

// view is where a run finds its folder and the session's shared material. Inside a sandbox
// everything is under a root path drawn at random for the run (so nothing a run learns or
// leaves under a path means anything to the next one); without a sandbox these are the host's
// paths.
type view struct {
	root       string // the run's folder: home/, tmp/, out/, export/, cache/
	mod        string // the module copy; the notebook is in mod/notebooks
	bin        string // the folder of the cache program
	jupyter    string // JUPYTER_PATH: the gonb kernel spec
	cache      string // the shared build cache, read-only
	gomodcache string // the module cache, read-only ("" for the image's own)
	path       string // PATH ("" for the image's own)
}

// view draws the paths of a run whose host folder is dir.
func (r *runner) view(dir string) view {
	if r.sandbox == "none" {
		return view{root: dir, mod: filepath.Join(dir, "mod"), bin: r.sh.bin(), jupyter: r.sh.jupyter(),
			cache: r.sh.cache, gomodcache: r.sh.gomodcache, path: os.Getenv("PATH")}
	}
	root := "/sodgrade-" + randomHex(8)
	v := view{root: root, mod: root + "/mod", bin: root + "/bin", jupyter: root + "/jupyter", cache: root + "/shared-cache"}
	if r.sandbox == "podman" {
		v.jupyter = imageModule + "/.local/share/jupyter"
		// The image's own module cache (its GOPATH is ~/.go): the run's GOPATH is in its own
		// folder, where the offline module cache would otherwise be empty.
		v.gomodcache = imageModule + "/.go/pkg/mod"
		return v
	}
	v.gomodcache = root + "/gomodcache"
	dirs := []string{filepath.Join(r.sh.goroot, "bin")}
	for _, t := range r.sh.tools {
		dirs = append(dirs, filepath.Dir(t))
	}
	var path []string
	for _, d := range append(dirs, "/usr/local/bin", "/usr/bin", "/bin") {
		if !slices.Contains(path, d) {
			path = append(path, d)
		}
	}
	v.path = strings.Join(path, ":")
	return v
}

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
	nb, err := r.checkSubmission(ctx, sub)
	if err != nil {
		return failAll(err.Error())
	}
	dir, err := os.MkdirTemp(r.sh.dir, "run-*")
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	defer removeAll(dir)
	v := r.view(dir)
	seeds := map[string]uint64{}
	for _, ex := range exs {
		seeds[ex.ID] = newSeed()
	}
	graded, missing, err := gradedCopy(nb, exs, filepath.Join(v.root, "export"), seeds)
	if err != nil {
		return failAll("cannot grade: " + err.Error())
	}
	gb, err := graded.marshal()
	if err != nil {
		return failAll("grader: " + err.Error())
	}
	fs, executed, rep := r.execute(ctx, dir, v, name, gb)
	if fs != nil {
		defer fs.Close()
	}
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
	var exports *grading.Exports
	if fs != nil {
		if exports, err = grading.OpenExports(fs.exportPath()); err != nil {
			return failAll("grader: " + err.Error())
		}
		defer exports.Close()
	}
	for _, ex := range exs {
		if missing[ex.ID] {
			o.Rows = append(o.Rows, row{ex.ID, false, "no answer cell (a code cell tagged " + tagAnswer + " with metadata sod.exercise " + ex.ID + ")"})
			continue
		}
		if exports == nil {
			o.Rows = append(o.Rows, row{ex.ID, false, "no answer exported: " + rep.msg})
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

// layout makes the host folder of a run without bubblewrap: home/, tmp/, out/ (the executed
// notebook), export/ (the answers), cache/ (the run's own layer of the build cache) and the
// folder that holds the graded copy, which it returns. With podman that is notebooks/, mounted
// over the module copy's empty notebooks/; without a sandbox, mod/notebooks, beside links to
// the module copy's go.mod, go.sum and folders. Either way the notebook's setup cell finds the
// module by walking up from the notebook's folder, as in a checkout. (In bubblewrap the run's
// folder is made in the sandbox: bwrapArgs.)
func (r *runner) layout(dir string) (string, error) {
	for _, d := range []string{"home", "tmp", "out", "export", "cache/go", "cache/layer", "mod"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return "", err
		}
	}
	if r.sandbox != "none" {
		nb := filepath.Join(dir, "notebooks")
		return nb, os.Mkdir(nb, 0o755)
	}
	for _, e := range r.sh.modEntries {
		if err := os.Symlink(filepath.Join(r.sh.mod(), e), filepath.Join(dir, "mod", e)); err != nil {
			return "", err
		}
	}
	nb := filepath.Join(dir, "mod", "notebooks")
	return nb, os.Mkdir(nb, 0o755)
}

// executedMax is the largest executed notebook the grader reads for a graded copy of n bytes:
// the copy (which nbconvert writes back, indented a little more) and what its cells print, at
// most the -output limit. The two are sized apart: a large notebook does not eat into what its
// cells may print, nor is a large notebook reported as output.
func (r *runner) executedMax(n int) int64 { return 2*int64(n) + r.limits.Output + 1<<20 }

// execute runs nbconvert on the graded copy (gb), under the limits, and returns the run's
// folder as the grader holds it (opened before the notebook ran; nil if the run could not
// start), the executed notebook (nil if there is none, or if it is larger than executedMax) and
// how the run ended. dir is the run's host folder (in bubblewrap, only the grader's).
func (r *runner) execute(ctx context.Context, dir string, v view, name string, gb []byte) (*runFS, []byte, runReport) {
	var rep runReport
	fail := func(msg string) (*runFS, []byte, runReport) { rep.msg = "grader: " + msg; return nil, nil, rep }
	outMax := r.executedMax(len(gb))
	args := []string{"jupyter", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.kernel_name=gonb",
		"--ExecutePreprocessor.timeout=" + strconv.Itoa(int(r.cellTimeout.Seconds())),
		"--ExecutePreprocessor.interrupt_on_timeout=True",
		"--TagRemovePreprocessor.enabled=True",
		"--TagRemovePreprocessor.remove_cell_tags=" + tagLiveOnly,
		"--output-dir", filepath.Join(v.root, "out"), "--output", strings.TrimSuffix(name, ".ipynb"),
		name}
	env := r.env(v)
	var fs *runFS
	var extra []*os.File
	var info, block *os.File // bwrap's report and wait (sandboxInfoFD, sandboxBlockFD)
	var stage [][2]string
	hostNbDir := dir
	switch r.sandbox {
	case "bwrap":
		nbFile, err := os.CreateTemp(dir, "graded-*")
		if err == nil {
			_, err = nbFile.Write(gb)
		}
		if err == nil {
			_, err = nbFile.Seek(0, 0)
		}
		if err != nil {
			return fail(err.Error())
		}
		defer nbFile.Close()
		infoR, infoW, err := os.Pipe()
		if err != nil {
			return fail(err.Error())
		}
		blockR, blockW, err := os.Pipe()
		if err != nil {
			infoR.Close()
			infoW.Close()
			return fail(err.Error())
		}
		info, block = infoR, blockW
		defer info.Close()
		defer block.Close()
		extra = []*os.File{infoW, blockR, nbFile}
		defer infoW.Close()
		defer blockR.Close()
		args, env = append(append(append([]string{}, r.setpriv...), r.bwrapArgs(v, name, outMax, env)...), args...), nil
		stage = r.stageBinds()
	default:
		nbDir, err := r.layout(dir)
		if err == nil {
			err = os.WriteFile(filepath.Join(nbDir, name), gb, 0o644)
		}
		if err == nil && r.sandbox == "podman" && os.Getuid() == 0 {
			err = chownRun(dir)
		}
		if err == nil {
			fs, err = openRunFS(dir)
		}
		if err != nil {
			return fail(err.Error())
		}
		hostNbDir = nbDir
	}
	container := ""
	if r.sandbox == "podman" {
		container = "sodgrade-" + randomHex(8)
		args, env = r.podmanArgs(container, dir, hostNbDir, v, env, args), nil
	}
	var cg *cgroups
	if r.procs == procsByCgroup {
		var err error
		if cg, err = newCgroups(r.limits); err != nil {
			if fs != nil {
				fs.Close()
			}
			return fail(err.Error())
		}
		defer cg.kill()
	}
	if container == "" {
		args = r.wrap(cg, stage, args)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = hostNbDir
	cmd.Env = env // nil for bwrap and podman: the grader's own; they give the run only env
	cmd.ExtraFiles = extra
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logs := &logBuffer{max: 32 << 10}
	cmd.Stdout, cmd.Stderr = logs, logs
	children.Lock() // so that reapOrphans, run for another notebook, never sees it unregistered
	err := cmd.Start()
	if err == nil {
		children.pids[cmd.Process.Pid] = true
	}
	children.Unlock()
	for _, f := range extra {
		f.Close() // the sandbox's now
	}
	if err != nil {
		if fs != nil {
			fs.Close()
		}
		return fail(err.Error())
	}
	defer removeChild(cmd.Process.Pid)
	done := make(chan error, 1)
	exited := make(chan struct{})
	go func() { err := cmd.Wait(); close(exited); done <- err }()
	stopped := ""
	if r.sandbox == "bwrap" {
		sb, serr := startSandbox(ctx, info, block, v.root, exited)
		if serr == nil {
			fs, serr = openRunFSAt(sb.root)
		}
		if serr != nil {
			stopped = "grader: the sandbox: " + serr.Error()
			if msg := lastLines(logs.tail(), 2); msg != "" {
				stopped += " (" + msg + ")"
			}
		}
	}
	deadline := time.NewTimer(r.timeout)
	defer deadline.Stop()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
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
			case r.sandbox == "bwrap" && full(fs.root) != "":
				stopped = fmt.Sprintf("disk limit %s exceeded: the notebook filled its folder's filesystem (no %s left); the run was stopped", formatBytes(r.limits.Disk), full(fs.root))
			case r.sandbox != "bwrap" && dirSize(dir) > r.limits.Disk:
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
	} else if r.sandbox != "bwrap" {
		sweep(dir) // processes that left the process group (the kernel, programs it started)
	}
	if container == "" {
		reapOrphans() // and those that left the folder too (the grader is their subreaper)
	}
	if fs == nil {
		return nil, nil, rep
	}
	b, rerr := readBeneath(fs.out, name, outMax)
	switch {
	case rep.msg != "":
	case errors.Is(rerr, errTooLarge) || r.sandbox == "bwrap" && strings.Contains(logs.String(), "No space left on device") && freeBytes(fs.out) < 1<<20:
		rep.msg = fmt.Sprintf("output limit %s exceeded: the cells printed more than that; the executed notebook is not kept", formatBytes(r.limits.Output))
		return fs, nil, rep
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
		case strings.Contains(all, "Kernel died"):
			// No memory kill was counted, yet the kernel is gone: under load the kernel can
			// be stopped by a limit (file size, output, CPU time) before the cgroup counts a
			// kill, so the message names the causes rather than guessing one of them.
			why = fmt.Sprintf("the kernel died while a cell ran: a cell's output without bound, or a limit of the notebook (output, file size %s, memory %s, processes), stops it: %s", formatBytes(r.limits.FileSize), formatBytes(r.limits.Memory), why)
		case err == nil:
			// nbconvert ended well, but what it left is not a file the grader reads (a link).
			rep.msg = "the executed notebook is not kept: " + rerr.Error()
			return fs, nil, rep
		}
		rep.msg = fmt.Sprintf("the notebook did not run to the end (%v): %s", err, why)
		return fs, nil, rep
	}
	return fs, b, rep
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

// env is the environment of a run: an allow list, nothing of the grader's but PATH (without a
// sandbox), with HOME, TMPDIR and the Go and Jupyter folders set so that the run writes only to
// its own folder, builds offline against the module copy, and reads the shared build cache
// through the cache program (GOCACHEPROG), which stores what the run compiles in the run's own
// layer.
func (r *runner) env(v view) []string {
	prog := v.bin + "/gocacheprog"
	set := map[string]string{
		"HOME":                           v.root + "/home",
		"TMPDIR":                         v.root + "/tmp",
		"GOCACHE":                        v.root + "/cache/go",
		"GOCACHEPROG":                    quoteArg(prog) + " -ro " + quoteArg(v.cache) + " -rw " + quoteArg(v.root+"/cache/layer"),
		"GOPATH":                         v.root + "/home/go",
		"GOFLAGS":                        runGoFlags,
		"GOPROXY":                        "off",
		"GOSUMDB":                        "off", // offline: the module cache was checked when it was filled
		"GOTOOLCHAIN":                    "local",
		"GOWORK":                         "off",
		"JUPYTER_PATH":                   v.jupyter,
		"PYDEVD_DISABLE_FILE_VALIDATION": "1",
		"LANG":                           "C.UTF-8",
	}
	if v.gomodcache != "" {
		set["GOMODCACHE"] = v.gomodcache
	}
	if v.path != "" {
		set["PATH"] = v.path
	}
	if r.sandbox == "none" {
		// The grader's own Jupyter, wherever it is installed (a virtualenv, conda); there is no
		// sandbox to keep anything from the run anyway.
		for _, k := range []string{"VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHOME", "PYENV_ROOT"} {
			if val, ok := os.LookupEnv(k); ok {
				set[k] = val
			}
		}
	}
	if p := os.Getenv("GRADE_TEST_VICTIM"); p != "" {
		set["GRADE_TEST_VICTIM"] = p // the tests' attackers look for the submissions there
	}
	env := make([]string, 0, len(set))
	for k, val := range set {
		env = append(env, k+"="+val)
	}
	slices.Sort(env)
	return env
}

// quoteArg quotes a path for GOCACHEPROG, which the go command splits at spaces outside quotes.
func quoteArg(s string) string {
	if strings.ContainsAny(s, " \t'\"") {
		return "'" + s + "'"
	}
	return s
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
		return "", fmt.Errorf("jupyter kernelspec list: %v (is Jupyter installed? scripts/install.sh installs it)", err)
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
		return "", errors.New("the gonb Jupyter kernel is not installed (scripts/install.sh installs it)")
	}
	return filepath.Dir(filepath.Dir(k.ResourceDir)), nil // .../jupyter/kernels/gonb -> .../jupyter
}
