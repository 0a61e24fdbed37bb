package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// limits are the resources one graded notebook may use. Every run gets them, with or without
// bubblewrap: per process through setrlimit (util-linux prlimit starts the run), and for the
// notebook's processes together through a cgroup where the grader can make one (as root with a
// writable cgroup file system), else through RLIMIT_NPROC.
type limits struct {
	Memory   int64         // bytes: data (written memory) per process; all processes together where a cgroup can be made
	CPU      time.Duration // CPU time per process
	Procs    int           // processes and threads at once
	FileSize int64         // bytes per file written
	Output   int64         // bytes the cells print: the executed notebook may be this much larger than the graded copy
	Disk     int64         // bytes in the run's own folder
	Notebook int64         // bytes of a submitted notebook
}

// defaultLimits are the limits of `grade -h`.
var defaultLimits = limits{
	Memory:   2 << 30,
	CPU:      5 * time.Minute,
	Procs:    256,
	FileSize: 256 << 20,
	Output:   32 << 20,
	Disk:     1 << 30,
	Notebook: 8 << 20,
}

// byteSize is a flag.Value for sizes: "2GiB", "512MiB", "64KiB", "1000000".
type byteSize struct{ p *int64 }

func (b byteSize) String() string {
	if b.p == nil {
		return ""
	}
	return formatBytes(*b.p)
}

func (b byteSize) Set(s string) error {
	n, err := parseBytes(s)
	if err != nil {
		return err
	}
	*b.p = n
	return nil
}

var units = []struct {
	suffix string
	n      int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}, {"", 1}}

func parseBytes(s string) (int64, error) {
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
			if err != nil || n < 0 || n > (1<<50)/u.n {
				break
			}
			return n * u.n, nil
		}
	}
	return 0, fmt.Errorf("%q: want a size like 2GiB, 512MiB or 65536", s)
}

func formatBytes(n int64) string {
	for _, u := range units[:4] {
		if n >= u.n && n%u.n == 0 {
			return fmt.Sprintf("%d %s", n/u.n, u.suffix)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// check reports a limit outside its accepted range, naming the flag.
func (l limits) check() error {
	switch {
	case l.Memory < 256<<20 || l.Memory > 1<<40:
		return fmt.Errorf("-memory %s: want 256 MiB to 1 TiB (the Go toolchain needs a few hundred MiB)", formatBytes(l.Memory))
	case l.CPU < 10*time.Second || l.CPU > 24*time.Hour:
		return fmt.Errorf("-cpu %v: want 10s to 24h", l.CPU)
	case l.Procs < 64 || l.Procs > 65536:
		return fmt.Errorf("-procs %d: want 64 to 65536 (the kernel, the Go toolchain and nbconvert use some 60 threads)", l.Procs)
	case l.FileSize < 1<<20 || l.FileSize > 1<<40:
		return fmt.Errorf("-file-size %s: want 1 MiB to 1 TiB", formatBytes(l.FileSize))
	case l.Output < 1<<20 || l.Output > l.FileSize:
		return fmt.Errorf("-output %s: want 1 MiB to the -file-size (%s): what the cells print is written to a file", formatBytes(l.Output), formatBytes(l.FileSize))
	case l.Disk < l.FileSize:
		return fmt.Errorf("-disk %s: want at least the -file-size (%s)", formatBytes(l.Disk), formatBytes(l.FileSize))
	case l.Notebook < 64<<10 || l.Notebook > l.FileSize:
		return fmt.Errorf("-notebook-size %s: want 64 KiB to the -file-size (%s)", formatBytes(l.Notebook), formatBytes(l.FileSize))
	}
	return nil
}

// cgroupMemory is the memory limit of a run's cgroup: -memory for its processes together, plus
// its filesystems, which are in memory (bubblewrap's tmpfs of -disk bytes, and out/, of at most
// the largest graded copy twice plus -output: runner.executedMax), and whose pages the kernel
// charges to the cgroup of the process that wrote them. Without the filesystems' share, a run
// whose files fill its folder would leave its processes that much less than -memory.
func (l limits) cgroupMemory() int64 { return l.Memory + l.Disk + 2*l.Notebook + l.Output + 1<<20 }

// procLimit is how processes are counted on this host.
type procLimit int

const (
	procsByCgroup    procLimit = iota // a pids cgroup per run
	procsByRlimit                     // RLIMIT_NPROC: the user's processes, not root's
	procsNone                         // root without a writable cgroup: not limited
	procsByContainer                  // the container's pids limit (-sandbox podman)
)

func (p procLimit) String() string {
	switch p {
	case procsByCgroup:
		return "cgroup"
	case procsByRlimit:
		return "rlimit"
	case procsByContainer:
		return "container"
	}
	return "none"
}

// cgroupV1Root is where cgroup v1 hierarchies are mounted.
const cgroupV1Root = "/sys/fs/cgroup"

// ownCgroup returns this process's cgroup (v1) in the hierarchy with the given controller.
func ownCgroup(controller string) string {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) == 3 && parts[1] == controller {
			return parts[2]
		}
	}
	return ""
}

// cgroups are the memory, pids and cpu cgroups (v1) of one run: its own memory, its own
// processes and its own share of the CPUs (the default weight, equal for every run).
type cgroups struct{ mem, pids, cpu string }

// newCgroups makes the cgroups of a run, or returns nil and the reason they cannot be made.
func newCgroups(l limits) (*cgroups, error) {
	c := &cgroups{}
	name := "sodgrade-" + randomHex(8)
	for _, ctl := range []struct {
		name string
		dst  *string
	}{{"memory", &c.mem}, {"pids", &c.pids}, {"cpu", &c.cpu}} {
		base := filepath.Join(cgroupV1Root, ctl.name)
		if _, err := os.Stat(filepath.Join(base, "cgroup.procs")); err != nil {
			c.remove()
			return nil, fmt.Errorf("no cgroup v1 %s hierarchy at %s", ctl.name, base)
		}
		d := filepath.Join(base, ownCgroup(ctl.name), name)
		if err := os.Mkdir(d, 0o755); err != nil {
			c.remove()
			return nil, fmt.Errorf("cannot make a cgroup: %v", err)
		}
		*ctl.dst = d
	}
	for _, w := range [][2]string{
		{filepath.Join(c.mem, "memory.limit_in_bytes"), strconv.FormatInt(l.cgroupMemory(), 10)},
		{filepath.Join(c.pids, "pids.max"), strconv.Itoa(l.Procs)},
	} {
		if err := os.WriteFile(w[0], []byte(w[1]), 0o644); err != nil {
			c.remove()
			return nil, fmt.Errorf("cannot set %s: %v", w[0], err)
		}
	}
	// A run weighs as much as as many busy processes as there are CPUs (the most it can use):
	// runs share the CPUs equally among themselves, and a run is not one process's weight
	// against the machine's other processes.
	_ = os.WriteFile(filepath.Join(c.cpu, "cpu.shares"), []byte(strconv.Itoa(min(1024*runtime.NumCPU(), 262144))), 0o644)
	_ = os.WriteFile(filepath.Join(c.mem, "memory.memsw.limit_in_bytes"), []byte(strconv.FormatInt(l.cgroupMemory(), 10)), 0o644) // where swap is accounted
	return c, nil
}

// procs returns the paths the run's first process writes its pid to.
func (c *cgroups) procs() []string {
	return []string{filepath.Join(c.mem, "cgroup.procs"), filepath.Join(c.pids, "cgroup.procs"), filepath.Join(c.cpu, "cgroup.procs")}
}

// stat reads a "key value" line of a cgroup file (0 if absent).
func statValue(path, key string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, " "); ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// oomKills is the number of processes the kernel killed for memory in the run.
func (c *cgroups) oomKills() int64 {
	return statValue(filepath.Join(c.mem, "memory.oom_control"), "oom_kill")
}

// procsHit reports whether a fork failed at the process limit.
func (c *cgroups) procsHit() bool { return statValue(filepath.Join(c.pids, "pids.events"), "max") > 0 }

// kill kills every process of the run and removes the cgroups.
func (c *cgroups) kill() {
	for range 50 {
		n := 0
		for _, d := range []string{c.pids, c.mem, c.cpu} {
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
					syscall.Kill(pid, syscall.SIGKILL)
					n++
				}
			}
		}
		if n == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.remove()
}

func (c *cgroups) remove() {
	for _, d := range []string{c.mem, c.pids, c.cpu} {
		if d != "" {
			for range 20 {
				if os.Remove(d) == nil || os.IsNotExist(os.Remove(d)) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
}

// threadsOf counts the threads of every process of uid (what RLIMIT_NPROC counts).
func threadsOf(uid int) int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*/status")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var puid, threads int
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Uid:"); ok {
				fmt.Sscan(v, &puid)
			}
			if v, ok := strings.CutPrefix(l, "Threads:"); ok {
				fmt.Sscan(v, &threads)
			}
		}
		if puid == uid {
			n += threads
		}
	}
	return n
}

// wrap returns the command line that starts args under the limits: a shell that (for a root
// grader's sandbox, in a mount namespace of the run's own, made by unshare) binds the staged
// paths (runner.stageBinds), joins the run's cgroups (if any), and then prlimit with the
// per-process limits; args then start with setpriv where the run drops from root to gradeUser.
func (r *runner) wrap(cg *cgroups, stage [][2]string, args []string) []string {
	l := r.limits
	// RLIMIT_DATA bounds the memory a process writes to (Go reserves address space it does not
	// use, so an address-space limit of the same size would stop programs well below it); the
	// address space gets four times as much, as a backstop.
	pl := []string{r.prlimit,
		"--data=" + strconv.FormatInt(l.Memory, 10),
		"--as=" + strconv.FormatInt(4*l.Memory, 10),
		"--cpu=" + strconv.Itoa(int(l.CPU.Seconds())),
		"--fsize=" + strconv.FormatInt(l.FileSize, 10),
		"--core=0"}
	if r.procs == procsByRlimit {
		// RLIMIT_NPROC counts all of this user's threads: the run may add Procs to those running now
		// (runs are then graded one at a time, so no other run shares the count).
		pl = append(pl, "--nproc="+strconv.Itoa(threadsOf(os.Getuid())+l.Procs))
	}
	pl = append(append(pl, "--"), args...)
	var join []string
	if cg != nil {
		join = cg.procs()
	}
	if len(join) == 0 && len(stage) == 0 {
		return pl
	}
	sh := []string{"/bin/sh", "-c", `n=$1; shift; while [ "$n" -gt 0 ]; do mount --bind "$1" "$2" || exit 96; shift 2; n=$((n-1)); done
n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 97; shift; n=$((n-1)); done; exec "$@"`,
		"sh", strconv.Itoa(len(stage))}
	if len(stage) > 0 {
		sh = append([]string{"unshare", "--mount", "--propagation", "private", "--"}, sh...)
	}
	for _, b := range stage {
		sh = append(sh, b[0], b[1])
	}
	sh = append(sh, strconv.Itoa(len(join)))
	return append(append(sh, join...), pl...)
}

// dirSize is the number of bytes the files, folders and links under dir take (blocks
// allocated), for a run's folder on the host's filesystem (podman, or no sandbox; in bubblewrap
// the folder is a filesystem of its own and the kernel bounds it). It walks from directory
// descriptors, one name at a time, so that no path is ever longer than a name (a folder nested
// past PATH_MAX is counted too), and follows no link.
func dirSize(dir string) int64 {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	return sizeAt(fd, 0)
}

// sizeAt is dirSize of the open folder fd (which it closes), depth folders down.
func sizeAt(fd, depth int) int64 {
	f := os.NewFile(uintptr(fd), "")
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	var n int64
	for _, name := range names {
		var st unix.Stat_t
		if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		n += st.Blocks * 512
		if st.Mode&unix.S_IFMT == unix.S_IFDIR && depth < 512 {
			if sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0); err == nil {
				n += sizeAt(sub, depth+1)
			}
		}
	}
	return n
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// findPrlimit returns the path of util-linux's prlimit, or an error saying how to get it.
func findPrlimit() (string, error) {
	p, err := exec.LookPath("prlimit")
	if err != nil {
		return "", fmt.Errorf("prlimit not found: the grader sets the limits of each run with it (apt-get install util-linux)")
	}
	return p, nil
}

// limitSignatures are what a cell's output shows when a process of the cell reached a limit,
// with the limit's description.
func (l limits) signatures() []struct{ pattern, what string } {
	return []struct{ pattern, what string }{
		{"fatal error: out of memory", "memory limit " + formatBytes(l.Memory)},
		{"runtime: out of memory", "memory limit " + formatBytes(l.Memory)},
		{"cannot allocate memory", "memory limit " + formatBytes(l.Memory)},
		{"MemoryError", "memory limit " + formatBytes(l.Memory)},
		{"failed to create new OS thread", fmt.Sprintf("process limit (%d)", l.Procs)},
		{"resource temporarily unavailable", fmt.Sprintf("process limit (%d)", l.Procs)},
		{"Resource temporarily unavailable", fmt.Sprintf("process limit (%d)", l.Procs)},
		{"CPU time limit exceeded", fmt.Sprintf("CPU time limit %v", l.CPU)},
		{"SIGXCPU", fmt.Sprintf("CPU time limit %v", l.CPU)},
		{"file too large", "file size limit " + formatBytes(l.FileSize)},
		{"File size limit exceeded", "file size limit " + formatBytes(l.FileSize)},
		{"SIGXFSZ", "file size limit " + formatBytes(l.FileSize)},
	}
}
