package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// gradeUser is the system user as whom a root grader runs the notebooks: untrusted code never
// runs as the host's uid 0, which stays root for file permissions and sysctl writes (both check
// the uid, not capabilities) even with every capability dropped.
const gradeUser = "sodgrade"

// hostID is the host's uid and gid of a run's processes.
type hostID struct{ uid, gid int }

// runIdentity is the host uid and gid the notebooks run as: the grader's own for an ordinary
// user; for root, the system user gradeUser, made (useradd --system, no home, no shell) if the
// machine has none. It is never 0.
func runIdentity() (hostID, string, error) {
	if os.Getuid() != 0 {
		return hostID{os.Getuid(), os.Getgid()}, "", nil
	}
	made := ""
	u, err := user.Lookup(gradeUser)
	if err != nil {
		out, err := exec.Command("useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
			"--shell", "/usr/sbin/nologin", "--comment", "SOD Workbench grader: graded notebooks run as this user", gradeUser).CombinedOutput()
		if err != nil {
			return hostID{}, "", fmt.Errorf("a root grader runs the notebooks as the system user %s, and cannot make it (useradd: %v: %s); make it yourself (useradd --system --user-group %s) or grade as an ordinary user", gradeUser, err, strings.TrimSpace(string(out)), gradeUser)
		}
		if u, err = user.Lookup(gradeUser); err != nil {
			return hostID{}, "", fmt.Errorf("user %s: %v", gradeUser, err)
		}
		made = "made the system user " + gradeUser + " (useradd --system), as whom the notebooks run"
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil || uid == 0 || gid == 0 {
		return hostID{}, "", fmt.Errorf("user %s has uid %s and gid %s: the notebooks must run as an unprivileged uid and gid, not 0", gradeUser, u.Uid, u.Gid)
	}
	return hostID{uid, gid}, made, nil
}

// setprivArgs is the command that drops from root to id before the sandbox starts: util-linux
// setpriv, with no supplementary group. Empty for an ordinary user.
func setprivArgs(id hostID) ([]string, error) {
	if os.Getuid() != 0 {
		return nil, nil
	}
	p, err := exec.LookPath("setpriv")
	if err != nil {
		return nil, errors.New("setpriv not found: a root grader drops to the user " + gradeUser + " with it (apt-get install util-linux)")
	}
	return []string{p, "--reuid=" + strconv.Itoa(id.uid), "--regid=" + strconv.Itoa(id.gid), "--clear-groups", "--"}, nil
}

// bwrapSecurity are the flags that take every privilege from a run: all namespaces of its own
// (a user namespace in which no further one can be made, so `unshare -U` gets nowhere), no
// capability at all, a session of its own, and death with the grader. bwrap also sets
// no_new_privs, so a setuid program gains nothing; the probe checks all of it
// (sandboxStatusProblem, probeScript).
var bwrapSecurity = []string{"--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
	"--die-with-parent", "--new-session", "--clearenv"}

// The file descriptors a sandbox is given, in the grader's exec.Cmd.ExtraFiles order: bwrap
// writes the sandbox's pid to sandboxInfoFD once it has made its namespaces, and waits, its
// mounts made and before it starts the run's program, until the grader writes to
// sandboxBlockFD. A run's graded notebook comes on sandboxFileFD.
const (
	sandboxInfoFD  = 3
	sandboxBlockFD = 4
	sandboxFileFD  = 5
)

// devices are the device nodes a sandbox's /dev holds (bound from the host); nothing else of
// /dev is there, and /dev is read-only.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// bwrapBase is the part of a sandbox's command line every sandbox shares: the host's system,
// read-only (/usr and the top-level links into it, the few files of /etc that programs read);
// a /proc of its own; a /dev of the devices alone; and the run's folder root, a filesystem of
// its own of disk bytes (a tmpfs: the kernel stops a write past the size, whatever path, link or
// deleted-but-open file it goes through), with /tmp and /dev/shm links into it, so that every
// place a run can write is one filesystem of disk bytes.
func bwrapBase(root string, disk int64) []string {
	b := []string{"--ro-bind", "/usr", "/usr"}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if t, err := os.Readlink(d); err == nil {
			b = append(b, "--symlink", t, d)
		} else if st, err := os.Stat(d); err == nil && st.IsDir() {
			b = append(b, "--ro-bind", d, d)
		}
	}
	for _, f := range []string{"/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/ld.so.cache", "/etc/ld.so.conf",
		"/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime", "/etc/mime.types", "/etc/ssl", "/etc/ca-certificates",
		"/etc/python3", "/etc/python3.11", "/etc/hosts"} {
		if _, err := os.Stat(f); err == nil {
			b = append(b, "--ro-bind", f, f)
		}
	}
	b = append(b, "--proc", "/proc", "--size", "65536", "--tmpfs", "/dev")
	for _, d := range devices {
		if _, err := os.Stat(d); err == nil {
			b = append(b, "--dev-bind", d, d)
		}
	}
	b = append(b, "--symlink", "/proc/self/fd", "/dev/fd", "--symlink", "/proc/self/fd/0", "/dev/stdin",
		"--symlink", "/proc/self/fd/1", "/dev/stdout", "--symlink", "/proc/self/fd/2", "/dev/stderr",
		"--size", strconv.FormatInt(disk, 10), "--tmpfs", root, "--dir", root+"/tmp", "--dir", root+"/shm",
		"--symlink", root+"/shm", "/dev/shm", "--symlink", root+"/tmp", "/tmp")
	return b
}

// bwrapSeal ends a sandbox's command line: /dev and all of /proc read-only (so /proc/sys,
// /proc/sysrq-trigger and every other host-global file of /proc cannot be written, whatever the
// uid: bwrap 0.8 covers /proc/sys only when its own check finds it writable), no privilege, and
// the pid report and the wait for the grader (sandboxInfoFD, sandboxBlockFD).
func bwrapSeal() []string {
	b := []string{"--remount-ro", "/dev", "--remount-ro", "/proc"}
	b = append(b, bwrapSecurity...)
	return append(b, "--info-fd", strconv.Itoa(sandboxInfoFD), "--block-fd", strconv.Itoa(sandboxBlockFD))
}

// sandbox is a started sandbox, held between bwrap's report and the start of its program.
type sandbox struct {
	pid  int      // the sandbox's first process (host pid)
	root *os.File // its run folder, if asked for: held open, it outlives the sandbox
}

// startSandbox waits for the sandbox's report on info (its pid), checks from outside that its
// processes do not run as the host's uid 0, opens its folder root (if root is not "") through
// /proc/PID/root, and then lets it start its program (block). exited reports the sandbox's end.
func startSandbox(ctx context.Context, info, block *os.File, root string, exited <-chan struct{}) (*sandbox, error) {
	defer block.Close()
	type report struct {
		Pid int `json:"child-pid"`
	}
	got := make(chan report, 1)
	go func() {
		var r report
		json.NewDecoder(info).Decode(&r)
		got <- r
		info.Close()
	}()
	var rep report
	select {
	case rep = <-got:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(2 * time.Minute):
		return nil, errors.New("the sandbox did not report its process in 2 minutes")
	}
	if rep.Pid <= 0 {
		return nil, errors.New("the sandbox ended before reporting its process")
	}
	if why := hostUIDProblem(rep.Pid); why != "" {
		return nil, errors.New(why)
	}
	s := &sandbox{pid: rep.Pid}
	if root != "" {
		path := fmt.Sprintf("/proc/%d/root%s", rep.Pid, root)
		for {
			fd, err := unix.Open(path, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err == nil {
				s.root = os.NewFile(uintptr(fd), root)
				break
			}
			if !errors.Is(err, unix.ENOENT) {
				return nil, fmt.Errorf("opening the sandbox's folder: %v", err)
			}
			select { // bwrap is still making the sandbox's mounts
			case <-exited:
				return nil, errors.New("the sandbox ended before it started its program")
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
		var st unix.Statfs_t
		if err := unix.Fstatfs(int(s.root.Fd()), &st); err != nil || st.Type != unix.TMPFS_MAGIC {
			s.root.Close()
			return nil, errors.New("the sandbox's folder is not the filesystem the grader asked for")
		}
	}
	if _, err := block.Write([]byte{1}); err != nil {
		if s.root != nil {
			s.root.Close()
		}
		return nil, fmt.Errorf("starting the sandbox's program: %v", err)
	}
	return s, nil
}

// hostUIDProblem reads, from outside, the host's uid and gid of process pid (a sandbox's
// first process) and says if any is 0: a process with the host's uid 0 is root for file
// permissions and sysctl writes, capabilities or not.
func hostUIDProblem(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return fmt.Sprintf("cannot read the sandbox's process status: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		if k != "Uid" && k != "Gid" {
			continue
		}
		seen++
		for _, f := range strings.Fields(v) {
			if f == "0" {
				return fmt.Sprintf("the sandbox's processes run as the host's %s 0 (%s:%s); refusing to run a notebook as the host's root", strings.ToLower(k), k, v)
			}
		}
	}
	if seen != 2 {
		return "the sandbox's process status has no Uid and Gid lines"
	}
	return ""
}

// hostGlobalFiles are files of the kernel's whose writing changes the whole machine; the
// probe tries to open each for writing (it never writes) and refuses the sandbox if one opens.
var hostGlobalFiles = []string{"/proc/sys/kernel/core_pattern", "/proc/sys/kernel/modprobe", "/proc/sys/kernel/sysrq",
	"/proc/sys/kernel/hotplug", "/proc/sys/vm/drop_caches", "/proc/sys/fs/binfmt_misc/register", "/proc/sysrq-trigger",
	"/proc/sys/user/max_user_namespaces", "/sys/kernel/uevent_helper", "/sys/power/state"}

// probeScript is what the probe's sandbox runs: it prints its status (capabilities,
// no_new_privs), then a line "Writable: PATH" for each host-global file it can open for writing
// (hostGlobalFiles, and any file under /proc/sys, /proc/sysrq-trigger, /proc/irq, /proc/bus,
// /proc/fs, /proc/acpi and /sys that access(2) finds writable), then "probe done".
func probeScript() string {
	return `cat /proc/self/status
for f in ` + strings.Join(hostGlobalFiles, " ") + `; do
  if [ -e "$f" ] && (exec 3>>"$f") 2>/dev/null; then echo "Writable: $f"; fi
done
for d in /proc/sys /proc/sysrq-trigger /proc/irq /proc/bus /proc/fs /proc/acpi /sys; do
  [ -e "$d" ] && find "$d" -type f -writable 2>/dev/null | head -n 20 | sed 's/^/Writable: /'
done
if (: > /dev/sodgrade-probe) 2>/dev/null; then echo "Writable: /dev"; fi
echo "probe done"`
}

// bwrapProblem says why bubblewrap cannot sandbox a run on this host, or "" if it can. Having
// the bwrap binary is not enough: inside a container, or where unprivileged user namespaces are
// off, bwrap is installed but cannot create its namespaces; and a sandbox that keeps a
// privilege is no sandbox. So the probe starts a sandbox exactly as a run's is started (as id,
// through setpriv for a root grader; bwrapBase, bwrapSeal), checks from outside that its process
// has no host uid or gid 0 (hostUIDProblem), and runs in it probeScript, whose output must show
// every capability set empty, no_new_privs set and no host-global file writable.
//
// unsafe is true when bwrap made a sandbox but it keeps a privilege: then the grader must not
// grade at all, not even without a sandbox.
func bwrapProblem(ctx context.Context, id hostID) (why string, unsafe bool) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "bwrap not found (apt-get install bubblewrap; scripts/install.sh --with-grader)", false
	}
	drop, err := setprivArgs(id)
	if err != nil {
		return err.Error(), false
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	root := "/sodgrade-probe-" + randomHex(8)
	args := append(append(append(drop, path), bwrapBase(root, 1<<20)...), bwrapSeal()...)
	args = append(args, "--", "/bin/sh", "-c", probeScript())
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	infoR, infoW, err := os.Pipe()
	if err != nil {
		return err.Error(), false
	}
	blockR, blockW, err := os.Pipe()
	if err != nil {
		return err.Error(), false
	}
	cmd.ExtraFiles = []*os.File{infoW, blockR}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Start()
	infoW.Close()
	blockR.Close()
	if err != nil {
		infoR.Close()
		blockW.Close()
		return "bwrap: " + err.Error(), false
	}
	exited := make(chan struct{})
	done := make(chan error, 1)
	go func() { err := cmd.Wait(); close(exited); done <- err }()
	_, serr := startSandbox(ctx, infoR, blockW, "", exited)
	err = <-done
	switch {
	case serr != nil && strings.Contains(serr.Error(), "host's"):
		return serr.Error(), true
	case err != nil || serr != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" && err != nil {
			msg = err.Error()
		} else if msg == "" {
			msg = serr.Error()
		}
		return "bwrap is installed but cannot make a sandbox here: " + msg, false
	}
	why = sandboxStatusProblem(stdout.String())
	return why, why != ""
}

// sandboxStatusProblem reads what probeScript printed inside a sandbox and says which privilege
// the sandbox left (a capability set that is not empty, no_new_privs not set, a host-global
// file writable), or "" if it left none.
func sandboxStatusProblem(status string) string {
	want := map[string]string{"CapInh": "0000000000000000", "CapPrm": "0000000000000000", "CapEff": "0000000000000000",
		"CapBnd": "0000000000000000", "CapAmb": "0000000000000000", "NoNewPrivs": "1"}
	var bad, writable []string
	seen, done := 0, false
	for _, line := range strings.Split(status, "\n") {
		if line == "probe done" {
			done = true
		}
		k, v, ok := strings.Cut(line, ":")
		if ok && k == "Writable" {
			writable = append(writable, strings.TrimSpace(v))
			continue
		}
		w, known := want[k]
		if !ok || !known {
			continue
		}
		seen++
		if v = strings.TrimSpace(v); v != w {
			bad = append(bad, k+" "+v)
		}
	}
	switch {
	case seen != len(want) || !done:
		return fmt.Sprintf("the sandbox's probe did not print its capabilities, no_new_privs and the files it can write (got %q); refusing to grade in a sandbox that cannot be checked", lastLines(status, 2))
	case len(bad) > 0:
		return "the sandbox keeps privileges (" + strings.Join(bad, ", ") + "; want every capability set empty and NoNewPrivs 1); refusing to grade in it: is bwrap older than 0.8, or setuid?"
	case len(writable) > 0:
		return "the sandbox can write host-global kernel files (" + strings.Join(writable, ", ") + "); refusing to grade in it"
	}
	return ""
}

// stagedPath is where a run's sandbox binds the host path p from: p itself, or, for a root
// grader, the folder of its session that p is bound onto first (shared.stage, stageBinds), for a
// host folder outside /usr that gradeUser, as whom the sandbox starts, may be unable to reach
// (under /root, say).
func (r *runner) stagedPath(p string) string {
	if os.Getuid() != 0 || strings.HasPrefix(p, "/usr/") {
		return p
	}
	for i, s := range r.sh.staged {
		if s == p {
			return filepath.Join(r.sh.dir, "stage", strconv.Itoa(i))
		}
	}
	return p
}

// stageBinds are the (source, mount point) pairs of stagedPath, for the run's mount namespace.
func (r *runner) stageBinds() [][2]string {
	if os.Getuid() != 0 {
		return nil
	}
	var b [][2]string
	for i, s := range r.sh.staged {
		b = append(b, [2]string{s, filepath.Join(r.sh.dir, "stage", strconv.Itoa(i))})
	}
	return b
}

// bwrapArgs is the command line of a run's sandbox (without the program): an allow list. The
// sandbox's file system is a fresh one holding the host's system (bwrapBase), the toolchain
// and the module cache read-only, the session's module copy, cache program, kernel spec and
// shared build cache read-only, and the run's folder, a filesystem of its own of -disk bytes
// (out/, where nbconvert writes the executed notebook, is one of outSize bytes); all at the
// run's random paths (v). The run's mod/ is a folder of links to the module copy's files and
// folders beside notebooks/, which holds the graded copy (given on sandboxFileFD). No other
// run's folder, no submission, no instructor notebook, no grader output and nothing else of
// the host is there to hide.
func (r *runner) bwrapArgs(v view, name string, outSize int64, env []string) []string {
	b := append([]string{r.bwrap}, bwrapBase(v.root, r.limits.Disk)...)
	modCopy := v.root + "/modcopy"
	for _, d := range []string{"home", "export", "cache", "cache/go", "cache/layer", "mod", "mod/notebooks"} {
		b = append(b, "--dir", v.root+"/"+d)
	}
	b = append(b, "--size", strconv.FormatInt(outSize, 10), "--tmpfs", v.root+"/out",
		"--ro-bind", r.sh.mod(), modCopy,
		"--ro-bind", r.sh.bin(), v.bin,
		"--ro-bind", r.sh.jupyter(), v.jupyter,
		"--ro-bind", r.stagedPath(r.sh.cache), v.cache,
		"--ro-bind", r.stagedPath(r.sh.gomodcache), v.gomodcache)
	for _, e := range r.sh.modEntries {
		b = append(b, "--symlink", "../modcopy/"+e, v.mod+"/"+e)
	}
	for _, p := range append([]string{r.sh.goroot}, r.sh.tools...) {
		if !strings.HasPrefix(p, "/usr/") {
			b = append(b, "--ro-bind", r.stagedPath(p), p)
		}
	}
	b = append(b, "--file", strconv.Itoa(sandboxFileFD), v.mod+"/notebooks/"+name)
	b = append(b, bwrapSeal()...)
	b = append(b, "--chdir", v.mod+"/notebooks")
	for _, kv := range env {
		k, val, _ := strings.Cut(kv, "=")
		b = append(b, "--setenv", k, val)
	}
	return append(b, "--")
}
