package escapebench

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setProcessGroup puts the program in a process group of its own, so
// that killGroup ends it with every process it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the program's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
	}
}

// limitMemory caps the program's address space at bytes (0: no cap).
func limitMemory(cmd *exec.Cmd, bytes int64) error {
	if bytes <= 0 || cmd.Process == nil {
		return nil
	}
	l := unix.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	return unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_AS, &l, nil)
}
