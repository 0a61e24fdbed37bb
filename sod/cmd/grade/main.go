// Command grade is the workbench's autograder and student release, after nbgrader's
// "generate" and "autograde" steps, for notebooks that follow the exercise cell convention
// (each exercise an answer cell, a check cell and a solution cell, tagged exercise-answer,
// exercise-check and solution, with metadata {"sod": {"exercise": "NN.k"}}; a check cell is
// exercises.Check("NN.k", answerNNk) alone). README.md in this folder is the instructor's guide:
// how grading works, what it protects against, the limits.
//
// Usage:
//
//	go run ./sod/cmd/grade release [-o DIR] [-self-study] [NOTEBOOK...]
//	go run ./sod/cmd/grade [flags] SUBMISSIONS_DIR
//
// release writes the student copies of the instructor's notebooks (default: the module's
// notebooks/*.ipynb) into DIR (default "release"): without solution cells and without check
// cells (-self-study keeps the checks), the answer cells marked as the cells to edit.
//
// Grading reads SUBMISSIONS_DIR/<student>/.../<notebook>.ipynb. For every notebook of the
// instructor's set that some student submitted, each student's copy is rebuilt by the grader
// (the student's cells; any check or solution cell in it dropped; after the student's answer
// cell of each exercise, a cell that exports the answer as data, package sod/grading) and
// executed headless with nbconvert and the gonb kernel, in a folder of its own, offline, under
// limits. Then the grader checks each exported answer in its own process (sod/exercises.Judge):
// nothing the notebook prints decides a grade, and an answer that is code is judged by its
// outputs on inputs drawn for that run.
//
// A submission is refused before anything runs, with a line per reason, when it is larger than
// -notebook-size, is not JSON the grader can read, or is not valid for nbformat's own validator
// (Debian's python3-nbformat: an nbformat_minor that is not a number, no top-level metadata, a
// markdown cell with outputs, malformed attachments, ...).
//
// Every run has limits on wall time (per cell and per notebook), memory, CPU time, processes,
// the size of each file written, the output and the disk used in its folder; a run that
// reaches one fails the exercises it had not exported with a message naming the limit and the
// cell ("memory limit 2 GiB exceeded in cell 9"). When bubblewrap (bwrap) can make a sandbox
// here without any privilege (a probe says: from outside, no host uid or gid 0; from inside,
// every capability set empty, no_new_privs set, no host-global kernel file writable; inside a
// container bwrap often cannot make one at all), each run is an allow list: it runs as an
// unprivileged host uid (a root grader's runs as the system user sodgrade), sees, read-only,
// /usr, a few files of /etc, the Go toolchain and module cache, and the module's build files (no
// notebook, test or testdata: no solution), the kernel spec and a shared build cache that only
// the grader writes; /proc and /dev read-only; writable, only its own folder, a filesystem of
// -disk bytes of its own (with /tmp and /dev/shm) at a path drawn at random for the run; no
// network, its own processes, and, where the grader can make cgroups, its own memory, process
// and CPU share. -sandbox auto then uses it, grades without a sandbox (printing what is then not
// isolated) where bwrap cannot make one and the grader is not root, and refuses to grade where
// bwrap's sandbox keeps a privilege; -sandbox bwrap stops with the probe's reason instead; a
// root grader never runs a notebook without a sandbox. -sandbox podman runs each notebook in a
// container of its own instead (the workbench image, -image): as the image's user with no
// capability, no network, read-only root, the run's folder its only writable place besides a
// bounded /tmp, and the limits as the container's; the answers are judged by the grader on the
// host as always. README.md has the threat model.
//
// It writes OUT/grades.csv (student, notebook, exercise, passed, message), OUT/summary.txt
// (also printed) and OUT/executed/<student>/<notebook>.ipynb, the executed graded copies, for
// feedback. It exits 0 when every submission was graded (whatever the grades), 1 when grading
// could not run, 2 on usage errors.
//
// Flags:
//
//	-o dir            output folder (default "grade-out")
//	-source dir       the instructor's notebooks (default: the module's notebooks/)
//	-module dir       the workbench module the notebooks run against (default: the module
//	                  that holds the current folder)
//	-notebooks re     grade only the notebooks whose file name matches
//	-jobs n           notebooks executed at once (default min(2, cores))
//	-timeout d        wall time per notebook (default 10m)
//	-cell-timeout d   wall time per cell (default 2m)
//	-memory size      memory per process (RLIMIT_DATA, and 4 times as much address space), and
//	                  of the notebook's processes together where the grader can make a cgroup
//	                  (default 2GiB)
//	-cpu d            CPU time per process (default 5m)
//	-procs n          processes and threads at once (default 256)
//	-file-size size   size of each file written (default 256MiB)
//	-output size      what the cells print: the executed notebook may be this much larger
//	                  than the graded copy (default 32MiB)
//	-disk size        the run's folder, a filesystem of its own (default 1GiB)
//	-notebook-size s  size of a submitted notebook (default 8MiB)
//	-sandbox s        auto, bwrap, podman or none (default auto: bwrap if it works here)
//	-image name       the image of -sandbox podman (default sod-workbench, docker/test-image.sh
//	                  builds it); the workbench module is its home folder, /home/jovyan
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	var ue usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "grade:", err)
		fmt.Fprintln(os.Stderr, "usage: grade [flags] SUBMISSIONS_DIR  |  grade release [-o DIR] [-self-study] [NOTEBOOK...]  (grade -h for the flags)")
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "grade:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "release" {
		return runRelease(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "grade-out", "output folder")
	sourceDir := fs.String("source", "", "the instructor's notebooks (default: the module's notebooks/)")
	module := fs.String("module", "", "the workbench module (default: the module holding the current folder)")
	only := fs.String("notebooks", "", "grade only notebooks whose file name matches this regexp")
	jobs := fs.Int("jobs", min(2, runtime.NumCPU()), "notebooks executed at once")
	timeout := fs.Duration("timeout", 10*time.Minute, "wall time per notebook")
	cellTimeout := fs.Duration("cell-timeout", 2*time.Minute, "wall time per cell")
	lim := defaultLimits
	fs.Var(byteSize{&lim.Memory}, "memory", "memory a process may write to (RLIMIT_DATA; its address space gets 4 times as much), and a notebook's processes together where a cgroup can be made: a `size` such as 2GiB or 512MiB")
	fs.DurationVar(&lim.CPU, "cpu", lim.CPU, "CPU time per process")
	fs.IntVar(&lim.Procs, "procs", lim.Procs, "processes and threads of a notebook at once")
	fs.Var(byteSize{&lim.FileSize}, "file-size", "`size` of each file a notebook writes")
	fs.Var(byteSize{&lim.Output}, "output", "`size` of what the cells print (the executed notebook may be this much larger than the graded copy)")
	fs.Var(byteSize{&lim.Disk}, "disk", "`size` of the run's folder, a filesystem of its own in bubblewrap (with /tmp and /dev/shm)")
	fs.Var(byteSize{&lim.Notebook}, "notebook-size", "`size` of a submitted notebook (a larger one is refused before it runs)")
	sandbox := fs.String("sandbox", "auto", "auto, bwrap, podman or none")
	image := fs.String("image", "sod-workbench", "the container image of -sandbox podman")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{fmt.Sprintf("want one SUBMISSIONS_DIR, got %d arguments", fs.NArg())}
	}
	switch {
	case *jobs < 1 || *jobs > 64:
		return usageError{fmt.Sprintf("-jobs %d: want 1 to 64", *jobs)}
	case *timeout < 10*time.Second || *timeout > 24*time.Hour:
		return usageError{fmt.Sprintf("-timeout %v: want 10s to 24h", *timeout)}
	case *cellTimeout < 5*time.Second || *cellTimeout > *timeout:
		return usageError{fmt.Sprintf("-cell-timeout %v: want 5s to the notebook's -timeout (%v)", *cellTimeout, *timeout)}
	case *sandbox != "auto" && *sandbox != "bwrap" && *sandbox != "podman" && *sandbox != "none":
		return usageError{fmt.Sprintf("-sandbox %q: want auto, bwrap, podman or none", *sandbox)}
	}
	if err := lim.check(); err != nil {
		return usageError{err.Error()}
	}
	var match *regexp.Regexp
	if *only != "" {
		var err error
		if match, err = regexp.Compile(*only); err != nil {
			return usageError{fmt.Sprintf("-notebooks %q: %v", *only, err)}
		}
	}
	subDir := fs.Arg(0)
	if st, err := os.Stat(subDir); err != nil || !st.IsDir() {
		return usageError{fmt.Sprintf("SUBMISSIONS_DIR %q is not a folder", subDir)}
	}
	mod, src, err := moduleAndSource(*module, *sourceDir)
	if err != nil {
		return usageError{err.Error()}
	}

	// The instructor's exercises, by notebook file name.
	instr := map[string][]exercise{}
	paths, _ := filepath.Glob(filepath.Join(src, "*.ipynb"))
	for _, p := range paths {
		name := filepath.Base(p)
		if match != nil && !match.MatchString(name) {
			continue
		}
		nb, err := readNotebook(p)
		if err != nil {
			return fmt.Errorf("instructor notebook %s: %v", p, err)
		}
		exs, err := exercises(nb)
		if err != nil {
			return fmt.Errorf("instructor notebook %s: %v", p, err)
		}
		if len(exs) > 0 {
			instr[name] = exs
		}
	}
	if len(instr) == 0 {
		return usageError{fmt.Sprintf("no notebook with exercises in %s", src)}
	}

	subs, ignored, err := collect(subDir, instr, lim.Notebook)
	if err != nil {
		return err
	}
	if len(subs) == 0 {
		return usageError{fmt.Sprintf("no submissions in %s (want SUBMISSIONS_DIR/<student>/<notebook>.ipynb, notebooks named as in %s)", subDir, src)}
	}

	r := &runner{timeout: *timeout, cellTimeout: *cellTimeout, limits: lim}
	if r.prlimit, err = findPrlimit(); err != nil {
		return err
	}
	if r.python, err = nbformatPython(); err != nil {
		return err
	}
	var noCgroup string // why the process limit is not a cgroup
	r.procs, noCgroup = procMode(lim)
	r.sandbox = *sandbox
	var noSandbox string // why auto mode runs without a sandbox
	if r.sandbox == "podman" {
		r.image = *image
		if err := podmanProblem(ctx, r.image); err != nil {
			return errors.New("-sandbox podman: " + err.Error())
		}
		r.procs = procsByContainer
	} else if r.sandbox != "none" {
		id, made, err := runIdentity()
		if err != nil {
			return err
		}
		if made != "" {
			fmt.Fprintln(stdout, made)
		}
		why, unsafe := bwrapProblem(ctx, id)
		switch {
		case unsafe:
			return errors.New("bwrap: " + why)
		case why != "" && r.sandbox == "bwrap":
			return errors.New("-sandbox bwrap: " + why)
		case why != "" && os.Getuid() == 0:
			return fmt.Errorf("-sandbox auto: no sandbox can be made here (%s), and a root grader never runs a notebook without one. Install bubblewrap (scripts/install.sh --with-grader), grade with -sandbox podman, or grade as an ordinary user", why)
		case why != "":
			r.sandbox, noSandbox = "none", why
		default:
			r.sandbox = "bwrap"
			r.bwrap, _ = exec.LookPath("bwrap")
			r.setpriv, _ = setprivArgs(id)
		}
	}
	if r.sandbox == "none" && os.Getuid() == 0 {
		return usageError{"-sandbox none: a root grader never runs a notebook without a sandbox (it would run as the host's root); grade with bubblewrap or podman, or as an ordinary user"}
	}
	if r.procs == procsByRlimit && *jobs > 1 {
		// Without a cgroup of its own, a run's process limit is the user's, shared with every run
		// graded at the same time: one notebook holding processes would fail another's build.
		fmt.Fprintf(stdout, "grading one notebook at a time, not %d: no cgroup can be made here (%s), so runs at once would share one process limit\n", *jobs, noCgroup)
		*jobs = 1
	}
	outFolder, err := openOut(*out)
	if err != nil {
		return err
	}
	defer outFolder.Close()
	absOut, _ := filepath.Abs(*out)
	absSub, _ := filepath.Abs(subDir)
	absSrc, _ := filepath.Abs(src)
	cache := os.Getenv("SOD_GRADE_GOCACHE")
	if cache == "" {
		cache = filepath.Join(goEnv("GOCACHE"), "..", "sod-grade-shared")
	}
	cache, _ = filepath.Abs(cache)
	fmt.Fprintf(stdout, "preparing: the module's build files, the kernel spec, the build cache program; the shared build cache %s\n", cache)
	if r.sh, err = newShared(ctx, mod, cache, []string{absOut, absSub, absSrc}); err != nil {
		return err
	}
	defer r.sh.close()
	if err := r.sh.warm(ctx); err != nil {
		return err
	}

	fmt.Fprintf(stdout, "grading %d submissions of %d students, %d at a time (sandbox: %s)\n",
		len(subs), countStudents(subs), *jobs, r.sandbox)
	iso := r.isolation(noSandbox, noCgroup)
	fmt.Fprint(stdout, iso)
	for _, ig := range ignored {
		fmt.Fprintln(stdout, "ignored:", ig)
	}
	harden(r.sandbox != "podman")
	start := time.Now()
	outcomes := make([]outcome, len(subs))
	sem := make(chan struct{}, *jobs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if s.missing {
				o := outcome{Student: s.student, Notebook: s.notebook}
				for _, ex := range instr[s.notebook] {
					o.Rows = append(o.Rows, row{ex.ID, false, "not submitted"})
				}
				outcomes[i] = o
				return
			}
			o := r.grade(ctx, s.student, s.notebook, s.data, instr[s.notebook])
			outcomes[i] = o
			mu.Lock()
			defer mu.Unlock()
			pass := 0
			for _, rw := range o.Rows {
				if rw.Passed {
					pass++
				}
			}
			fmt.Fprintf(stdout, "  %-20s %-40s %d/%d  %5.1fs\n", csvField(o.Student, maxNameBytes), o.Notebook, pass, len(o.Rows), o.Duration.Seconds())
			for _, n := range o.Notes {
				fmt.Fprintf(stdout, "  %-20s   %s\n", "", csvField(n, maxMessageBytes))
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted")
	}
	if err := writeResults(outFolder, outcomes); err != nil {
		return err
	}
	sum := summary(outcomes, time.Since(start)) + "\n" + iso
	fmt.Fprint(stdout, sum)
	if err := outFolder.write("summary.txt", []byte(sum)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s, %s and the executed notebooks in %s\n",
		filepath.Join(*out, "grades.csv"), filepath.Join(*out, "summary.txt"), filepath.Join(*out, "executed"))
	return nil
}

// parseFlags parses flags given before or after the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// moduleAndSource resolves the workbench module's root and the instructor's notebooks folder.
func moduleAndSource(module, src string) (string, string, error) {
	if module == "" {
		wd, _ := os.Getwd()
		for d := wd; ; d = filepath.Dir(d) {
			if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(b), "module sodworkbench.org/workbench\n") {
				module = d
				break
			}
			if d == filepath.Dir(d) {
				return "", "", errors.New("not inside the workbench module: run from a checkout or give -module")
			}
		}
	}
	module, _ = filepath.Abs(module)
	if _, err := os.Stat(filepath.Join(module, "go.mod")); err != nil {
		return "", "", fmt.Errorf("-module %s: no go.mod there", module)
	}
	if src == "" {
		src = filepath.Join(module, "notebooks")
	}
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return "", "", fmt.Errorf("-source %s: not a folder", src)
	}
	return module, src, nil
}

func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// submission is one student's copy of one notebook (or its absence, when others submitted it).
type submission struct {
	student, notebook string
	data              []byte
	missing           bool
}

// collect reads SUBMISSIONS_DIR/<student>/.../<notebook>.ipynb into memory (so that nothing a
// notebook does while graded changes what is graded), and adds a "missing" entry for each
// student who did not submit a notebook that another student did.
// A notebook larger than max is read only up to max+1 bytes (grade refuses it).
func collect(dir string, instr map[string][]exercise, max int64) ([]submission, []string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var subs []submission
	var ignored []string
	byStudent := map[string]map[string]bool{}
	assigned := map[string]bool{}
	var students []string
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		student := e.Name()
		students = append(students, student)
		byStudent[student] = map[string]bool{}
		err := filepath.WalkDir(filepath.Join(dir, student), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if strings.HasPrefix(d.Name(), ".") && p != filepath.Join(dir, student) {
					return filepath.SkipDir // .ipynb_checkpoints and the like
				}
				return nil
			}
			name := d.Name()
			if !strings.HasSuffix(name, ".ipynb") {
				return nil
			}
			if _, ok := instr[name]; !ok {
				ignored = append(ignored, fmt.Sprintf("%s (no notebook with exercises of that name)", p))
				return nil
			}
			if byStudent[student][name] {
				ignored = append(ignored, fmt.Sprintf("%s (a second copy of %s for %s)", p, name, student))
				return nil
			}
			if !d.Type().IsRegular() {
				ignored = append(ignored, fmt.Sprintf("%s (not a regular file)", p))
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			b, err := io.ReadAll(io.LimitReader(f, max+1))
			f.Close()
			if err != nil {
				return err
			}
			byStudent[student][name] = true
			assigned[name] = true
			subs = append(subs, submission{student: student, notebook: name, data: b})
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	for _, st := range students {
		for name := range assigned {
			if !byStudent[st][name] {
				subs = append(subs, submission{student: st, notebook: name, missing: true})
			}
		}
	}
	sort.Slice(subs, func(i, j int) bool {
		if subs[i].student != subs[j].student {
			return subs[i].student < subs[j].student
		}
		return subs[i].notebook < subs[j].notebook
	})
	return subs, ignored, nil
}

func countStudents(subs []submission) int {
	seen := map[string]bool{}
	for _, s := range subs {
		seen[s.student] = true
	}
	return len(seen)
}

// writeResults writes grades.csv and the executed notebooks, through out (never through a link).
func writeResults(out *outDir, outcomes []outcome) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"student", "notebook", "exercise", "passed", "message"})
	var executed *outDir
	for _, o := range outcomes {
		for _, r := range o.Rows {
			w.Write([]string{csvField(o.Student, maxNameBytes), csvField(o.Notebook, maxNameBytes), csvField(r.Exercise, maxNameBytes),
				strconv.FormatBool(r.Passed), csvField(r.Message, maxMessageBytes)})
		}
		if o.Executed == nil {
			continue
		}
		if executed == nil {
			var err error
			if executed, err = out.sub("executed"); err != nil {
				return err
			}
			defer executed.Close()
		}
		d, err := executed.sub(o.Student)
		if err != nil {
			return err
		}
		err = d.write(o.Notebook, o.Executed)
		d.Close()
		if err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return out.write("grades.csv", buf.Bytes())
}

// maxMessageBytes and maxNameBytes are the longest message and name grades.csv holds: a
// message is cut there (marked, with its full length), far below what any CSV reader accepts
// in a field (Python's csv module: 131072 characters by default).
const (
	maxMessageBytes = 2000
	maxNameBytes    = 256
)

// csvField is s as grades.csv holds it: valid UTF-8, every control character (C0, DEL, C1:
// line breaks, carriage returns, escape sequences of terminals) written as \n, \r, \t or
// \xNN (and a backslash as \\), and cut to max bytes, so that no message a notebook provokes
// (a panic with a 200,000-byte message, a CR that starts a row) breaks the file for any reader.
func csvField(s string, max int) string {
	var sb strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		var e string
		switch {
		case r == '\\':
			e = `\\`
		case r == '\n':
			e = `\n`
		case r == '\r':
			e = `\r`
		case r == '\t':
			e = `\t`
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			e = fmt.Sprintf(`\x%02x`, r)
		default:
			e = string(r)
		}
		if sb.Len()+len(e) > max {
			return sb.String() + fmt.Sprintf("… (cut: %d bytes in all)", len(s))
		}
		sb.WriteString(e)
	}
	return sb.String()
}

// summary is the per-student and per-exercise tally.
func summary(outcomes []outcome, took time.Duration) string {
	var sb strings.Builder
	type tally struct{ pass, total int }
	students := map[string]*tally{}
	exs := map[string]*tally{}
	var snames, enames []string
	for _, o := range outcomes {
		if students[o.Student] == nil {
			students[o.Student] = &tally{}
			snames = append(snames, o.Student)
		}
		for _, r := range o.Rows {
			key := o.Notebook + " " + r.Exercise
			if exs[key] == nil {
				exs[key] = &tally{}
				enames = append(enames, key)
			}
			for _, t := range []*tally{students[o.Student], exs[key]} {
				t.total++
				if r.Passed {
					t.pass++
				}
			}
		}
	}
	sort.Strings(snames)
	sort.Strings(enames)
	fmt.Fprintf(&sb, "\nsummary (%d students, %.0fs)\n\nstudent                passed\n", len(snames), took.Seconds())
	for _, s := range snames {
		fmt.Fprintf(&sb, "%-22s %3d/%d\n", csvField(s, maxNameBytes), students[s].pass, students[s].total)
	}
	fmt.Fprintf(&sb, "\nexercise                                          passed\n")
	for _, e := range enames {
		fmt.Fprintf(&sb, "%-49s %3d/%d\n", e, exs[e].pass, exs[e].total)
	}
	stops := false
	for _, o := range outcomes {
		for _, n := range o.Notes {
			if !stops {
				fmt.Fprintf(&sb, "\nlimits reached and runs stopped\n")
				stops = true
			}
			fmt.Fprintf(&sb, "%-22s %s: %s\n", csvField(o.Student, maxNameBytes), o.Notebook, csvField(n, maxMessageBytes))
		}
	}
	return sb.String()
}

// runRelease is `grade release`.
func runRelease(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("grade release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "release", "output folder")
	self := fs.Bool("self-study", false, "keep the check cells (solutions are dropped all the same)")
	module := fs.String("module", "", "the workbench module (default: the module holding the current folder)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		mod, src, err := moduleAndSource(*module, "")
		if err != nil {
			return usageError{err.Error()}
		}
		_ = mod
		paths, _ = filepath.Glob(filepath.Join(src, "*.ipynb"))
		sort.Strings(paths)
	}
	for _, p := range paths {
		if !strings.HasSuffix(p, ".ipynb") {
			return usageError{fmt.Sprintf("%s: not a .ipynb notebook", p)}
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	total := 0
	for _, p := range paths {
		nb, err := readNotebook(p)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		rel, n, err := release(nb, *self)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		dst := filepath.Join(*out, filepath.Base(p))
		if err := rel.write(dst); err != nil {
			return err
		}
		total += n
		fmt.Fprintf(stdout, "%-45s %d exercises\n", dst, n)
	}
	kind := "checks kept by the instructor"
	if *self {
		kind = "self-study: checks kept, solutions dropped"
	}
	fmt.Fprintf(stdout, "released %d notebooks, %d exercises (%s)\n", len(paths), total, kind)
	return nil
}
