package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// The grader's own process is hardened against the notebooks it runs, for the case without a
// sandbox, where they run as the same user:
//
//   - not dumpable (PR_SET_DUMPABLE 0): a process of the same user cannot ptrace it or read
//     and write its memory (/proc/PID/mem), so it cannot change a verdict in the grader;
//   - a child subreaper (PR_SET_CHILD_SUBREAPER): a process a notebook leaves behind (started
//     in a new session, in another folder) becomes the grader's child when its parent ends, and
//     the grader kills it after the run (reapOrphans), so it cannot linger and rewrite
//     grades.csv once the grader has written it.
const (
	prSetDumpable       = 4
	prSetChildSubreaper = 36
)

// harden makes the grader not dumpable and, if subreaper, a child subreaper. (With -sandbox
// podman it is not one: podman's monitor, conmon, detaches from podman on purpose, and the
// notebook's processes end with their container.)
func harden(subreaper bool) {
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
	if subreaper {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	}
}

// children are the processes the grader started on purpose (the runs), which reapOrphans leaves
// alone.
var children = struct {
	sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

func removeChild(pid int) { children.Lock(); delete(children.pids, pid); children.Unlock() }

// reapOrphans kills and reaps the grader's children that it did not start: processes of the
// notebooks that outlived their parents.
func reapOrphans() {
	self := os.Getpid()
	for range 5 {
		stats, _ := filepath.Glob("/proc/[0-9]*/stat")
		n := 0
		for _, p := range stats {
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			// pid (comm) state ppid ...: comm may hold spaces and parentheses; the last ')' ends it.
			s := string(b)
			i := strings.LastIndexByte(s, ')')
			f := strings.Fields(s[i+1:])
			if i < 0 || len(f) < 2 {
				continue
			}
			ppid, _ := strconv.Atoi(f[1])
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			children.Lock()
			mine := children.pids[pid]
			children.Unlock()
			if ppid != self || mine || pid == self {
				continue
			}
			syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
			n++
		}
		if n == 0 {
			return
		}
	}
}
