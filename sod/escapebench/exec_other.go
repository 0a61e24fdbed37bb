//go:build !linux

package escapebench

import "os/exec"

// setProcessGroup does nothing here: only Linux gets a process group.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the program.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// limitMemory does nothing here: the cap is Linux's RLIMIT_AS.
func limitMemory(*exec.Cmd, int64) error { return nil }
