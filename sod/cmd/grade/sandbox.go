package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// procMode says how the process limit is enforced here, and if not by a cgroup, why: a
// cgroup per run where the grader can make one; otherwise RLIMIT_NPROC, which does not hold for
// root.
func procMode(l limits) (procLimit, string) {
	cg, err := newCgroups(l)
	if err == nil {
		cg.remove()
		return procsByCgroup, ""
	}
	if os.Getuid() != 0 {
		return procsByRlimit, err.Error()
	}
	return procsNone, err.Error()
}

// isolation is the summary's account of the limits and the isolation of each run: what holds,
// and without bubblewrap, what does not.
func (r *runner) isolation(noSandbox, noCgroup string) string {
	var sb strings.Builder
	l := r.limits
	fmt.Fprintf(&sb, "limits per notebook: wall time %v (%v per cell); memory %s per process", r.timeout, r.cellTimeout, formatBytes(l.Memory))
	switch r.procs {
	case procsByContainer:
		fmt.Fprintf(&sb, " and %s for all its processes; %d processes and threads (the container's limits)", formatBytes(l.Memory), l.Procs)
	case procsByCgroup:
		fmt.Fprintf(&sb, " and %s for all its processes; %d processes and threads and its own share of the CPUs (cgroups of its own)", formatBytes(l.Memory), l.Procs)
	case procsByRlimit:
		fmt.Fprintf(&sb, "; %d processes and threads more than this user runs (RLIMIT_NPROC; no cgroup: %s; so one notebook at a time)", l.Procs, noCgroup)
	default:
		fmt.Fprintf(&sb, "; processes NOT limited (root ignores RLIMIT_NPROC and no cgroup can be made: %s)", noCgroup)
	}
	fmt.Fprintf(&sb, "; CPU time %v per process; files up to %s each; output %s; %s in its folder; submitted notebooks up to %s\n",
		l.CPU, formatBytes(l.FileSize), formatBytes(l.Output), formatBytes(l.Disk), formatBytes(l.Notebook))
	if r.sandbox == "podman" {
		fmt.Fprintf(&sb, "isolation: a podman container per notebook (image %s), as the image's user with no capability: read-only root, no network, its own processes only, writable only its own folder and a /tmp of %s; of the host's only the run's folder, the module's build files and the shared build cache (read-only) mounted\n", r.image, formatBytes(l.Disk))
		return sb.String()
	}
	if r.sandbox == "bwrap" {
		who := "this user's uid"
		if os.Getuid() == 0 {
			who = "the system user " + gradeUser + ", never root"
		}
		fmt.Fprintf(&sb, "isolation: bubblewrap sandbox per notebook, run as %s, no capability, /proc and /dev read-only (checked from outside and inside the sandbox): it sees only /usr, a few files of /etc, the Go toolchain, the module cache, the module's build files and the shared build cache, all read-only, and its own folder (at a random path), a filesystem of %s of its own with its /tmp and /dev/shm; no network, its own processes only; what it compiles goes to its own layer of the build cache\n", who, formatBytes(r.limits.Disk))
		return sb.String()
	}
	if noSandbox == "" {
		noSandbox = "-sandbox none"
	}
	who := "this user"
	if os.Getuid() == 0 {
		who = "root"
	}
	verdicts := "Verdicts are still decided by the grader alone: it is not dumpable (no ptrace, no /proc/PID/mem) and kills whatever a notebook leaves running."
	if os.Getuid() == 0 {
		verdicts = "As root, a notebook can do anything to the machine, this grader included: never grade as root without a sandbox."
	}
	fmt.Fprintf(&sb, `warning: no sandbox (%s). A notebook is NOT isolated:
  - files: it can read, change and delete whatever %s can: the instructor's notebooks (solutions included, which it could print into its own feedback), the other submissions, the output folder, the other runs' folders and exported answers, the shared Go build cache;
  - network: it can reach the network;
  - processes: it can see and signal %s's other processes, the other runs included;
  - disk: outside its own folder only the size of each file is limited.
  %s
  To grade in isolation without bubblewrap, run each notebook in a container of its own: grade -sandbox podman (the workbench image, --network none, read-only root, the limits as the container's); see sod/cmd/grade/README.md.
`, noSandbox, who, who, verdicts)
	return sb.String()
}

// imageModule is where the workbench image (Dockerfile) has the module: its user's home.
const imageModule = "/home/jovyan"

// podmanProblem says why -sandbox podman cannot run here: no podman, or no such image.
func podmanProblem(ctx context.Context, image string) error {
	path, err := exec.LookPath("podman")
	if err != nil {
		return errors.New("podman not found (apt-get install podman)")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, path, "image", "inspect", "--format", "{{.Id}}", image).CombinedOutput(); err != nil {
		return fmt.Errorf("no image %s (docker/test-image.sh builds sod-workbench): %s", image, strings.TrimSpace(string(out)))
	}
	return nil
}

// imageUser is the workbench image's user (Dockerfile: NB_UID, NB_GID), as whom -sandbox podman
// runs a notebook.
const imageUser = "1000:100"

// podmanArgs is the command line that runs args (nbconvert) in a container of its own, as the
// image's user with no capability at all: the run's folder writable at v.root, the module copy,
// the cache program and the shared build cache read-only at their paths in v, everything else
// the image's, read-only; no network; the limits as the container's.
func (r *runner) podmanArgs(name, dir, nbDir string, v view, env, args []string) []string {
	l := r.limits
	user := []string{"--user", imageUser}
	if os.Getuid() != 0 {
		user = []string{"--userns", "keep-id", "--user", fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())}
	}
	b := []string{"podman", "run", "--rm", "--name", name, "--network", "none", "--read-only"}
	b = append(b, user...)
	b = append(b, "--cap-drop", "all", "--security-opt", "no-new-privileges",
		"--tmpfs", "/tmp:rw,mode=1777,size="+strconv.FormatInt(l.Disk, 10),
		"-v", dir+":"+v.root+":rw", "-v", r.sh.mod()+":"+v.mod+":ro", "-v", nbDir+":"+filepath.Join(v.mod, "notebooks")+":rw",
		"-v", r.sh.bin()+":"+v.bin+":ro", "-v", r.sh.cache+":"+v.cache+":ro",
		"--memory", strconv.FormatInt(l.Memory, 10), "--memory-swap", strconv.FormatInt(l.Memory, 10),
		"--pids-limit", strconv.Itoa(l.Procs),
		"--ulimit", fmt.Sprintf("fsize=%d:%d", l.FileSize, l.FileSize),
		"--ulimit", fmt.Sprintf("cpu=%d:%d", int(l.CPU.Seconds()), int(l.CPU.Seconds())),
		"--ulimit", "core=0:0",
		"--ulimit", fmt.Sprintf("nofile=%[1]d:%[1]d", hostLimit(syscall.RLIMIT_NOFILE, maxContainerNofile)),
		"--ulimit", fmt.Sprintf("nproc=%[1]d:%[1]d", hostLimit(rlimitNproc, maxContainerNproc)),
		"--no-healthcheck",
		"-w", filepath.Join(v.mod, "notebooks"))
	for _, kv := range env {
		b = append(b, "-e", kv)
	}
	return append(append(b, r.image), args...)
}

// chownRun gives the run's folder to the image's user, for a root grader's podman runs (the
// container has no capability to write a folder it does not own).
func chownRun(dir string) error {
	uid, gid := 1000, 100
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// maxContainerNofile and maxContainerNproc cap a graded notebook's container's open files and
// processes per user: enough for Jupyter, the kernel and the Go toolchain (the container's
// process count is capped by --pids-limit anyway), and low enough that a runtime started with
// a lower limit than the grader's accepts them (one such host refused nproc 65536 with a hard
// limit of 96365, and took 32768).
const (
	maxContainerNofile = 16384
	maxContainerNproc  = 4096
)

// rlimitNproc is Linux's RLIMIT_NPROC, which package syscall does not name.
const rlimitNproc = 6

// hostLimit is the container's value of an rlimit that podman raises by default when run as root
// (nofile 1048576, nproc 4194304): a host, or an outer container, whose own hard limit is lower
// refuses those ("error setting rlimit type 7: operation not permitted"). The grader's own hard
// limit, at most max, is always allowed.
func hostLimit(resource int, max uint64) uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(resource, &rl); err != nil || rl.Max == 0 {
		return 1024
	}
	return min(rl.Max, max)
}
