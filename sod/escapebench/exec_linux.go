package escapebench

import (
	"os/exec"
	"syscall"
	"unsafe"
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

// limitMemory caps the program's address space at bytes (0: no cap), by
// prlimit(2) on its pid.
func limitMemory(cmd *exec.Cmd, bytes int64) error {
	if bytes <= 0 || cmd.Process == nil {
		return nil
	}
	l := struct{ cur, max uint64 }{uint64(bytes), uint64(bytes)}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(cmd.Process.Pid), syscall.RLIMIT_AS, uintptr(unsafe.Pointer(&l)), 0, 0, 0); e != 0 {
		return e
	}
	return nil
}
