package main

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// bwrapProblem says why bubblewrap cannot sandbox a run on this host, or "" if it can. Having
// the bwrap binary is not enough: inside a container, or where unprivileged user namespaces are
// off, bwrap is installed but cannot create its namespaces. So the probe runs `true` with the
// same kind of sandbox a run gets (read-only root, fresh /dev, /proc and /tmp, every namespace
// unshared).
func bwrapProblem(ctx context.Context) string {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "bwrap not found (apt-get install bubblewrap; docker/install.sh --with-grader)"
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--tmpfs", "/tmp", "--unshare-all", "--die-with-parent", "--new-session", "true").CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		return "bwrap is installed but cannot make a sandbox here: " + msg
	}
	return ""
}
