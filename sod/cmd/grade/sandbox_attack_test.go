package main

import (
	"context"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// inSandbox runs the shell script in a sandbox made as a run's is (as the grader's runs run:
// through setpriv to gradeUser for a root grader; bwrapBase with a folder root of disk bytes,
// bwrapSeal), and returns what it printed and the sandbox's folder, held open as the grader
// holds a run's.
func inSandbox(t *testing.T, disk int64, script string) (string, *os.File) {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatal("bwrap not found")
		}
		t.Skip("bwrap not found (scripts/install.sh --with-grader)")
	}
	drop, err := setprivArgs(testID(t))
	if err != nil {
		t.Fatal(err)
	}
	root := "/sodgrade-" + randomHex(8)
	args := append(append(append(drop, bwrap), bwrapBase(root, disk)...), bwrapSeal()...)
	args = append(args, "--chdir", root, "--setenv", "R", root, "--", "/bin/sh", "-c", script)
	cmd := exec.Command(args[0], args[1:]...)
	infoR, infoW, _ := os.Pipe()
	blockR, blockW, _ := os.Pipe()
	cmd.ExtraFiles = []*os.File{infoW, blockR}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	infoW.Close()
	blockR.Close()
	exited := make(chan struct{})
	done := make(chan error, 1)
	go func() { err := cmd.Wait(); close(exited); done <- err }()
	sb, err := startSandbox(context.Background(), infoR, blockW, root, exited)
	if err != nil {
		<-done
		t.Fatalf("the sandbox: %v: %s", err, out.String())
	}
	if err := <-done; err != nil {
		t.Errorf("the script in the sandbox: %v", err)
	}
	t.Cleanup(func() { sb.root.Close() })
	return out.String(), sb.root
}

// TestSandboxAttacks tries, in a sandbox made as a run's, each attack on the kernel's surface
// and on the disk limit that once went through, as whoever runs the test (root in CI: then the
// sandbox runs as gradeUser; TestSandboxAttacksAsUser runs it again as an ordinary user):
//
//   - the host's kernel: kernel.core_pattern written back with its own value (so that nothing
//     changes even if it went through), /proc/sysrq-trigger opened for writing (never written),
//     any writable file under /proc/sys, a file made in /dev; and the uid the sandbox has on
//     the host (startSandbox checks it from outside; the script prints its own view);
//   - the disk limit (16 MiB here), each tried with 3 times as much: a file under a path longer
//     than PATH_MAX, a deleted file held open, 4,000-byte symbolic links (a page each), /dev/shm
//     and /tmp. Each stops at "No space left on device".
func TestSandboxAttacks(t *testing.T) {
	corePattern, err := os.ReadFile("/proc/sys/kernel/core_pattern")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if now, _ := os.ReadFile("/proc/sys/kernel/core_pattern"); string(now) != string(corePattern) {
			os.WriteFile("/proc/sys/kernel/core_pattern", corePattern, 0o644)
			t.Errorf("the host's core_pattern changed: %q, was %q (restored)", now, corePattern)
		}
	}()
	const disk = 16 << 20
	script := `cp=$(cat /proc/sys/kernel/core_pattern)
(printf '%s\n' "$cp" > /proc/sys/kernel/core_pattern) 2>&1 && echo ESCAPED: core_pattern written
if [ -e /proc/sysrq-trigger ]; then (exec 3>>/proc/sysrq-trigger) 2>&1 && echo ESCAPED: sysrq-trigger opened for writing; else echo "/proc/sysrq-trigger: absent"; fi
echo "writable under /proc/sys: $(find /proc/sys -type f -writable 2>/dev/null | wc -l)"
(echo x > /dev/sodgrade-x) 2>&1 && echo ESCAPED: a file made in /dev
echo "inside: $(grep '^Uid:' /proc/self/status | tr -s '\t' ' ')"
enospc() { if grep -q 'No space left on device'; then echo "$1: stopped"; else echo "ESCAPED: $1"; fi; }
python3 -c '
import os, sys
os.chdir(sys.argv[1])
for i in range(20):
    os.mkdir("d" * 250); os.chdir("d" * 250)
print("deep path of", 20 * 251, "bytes")
try:
    with open("fill", "wb") as f:
        for i in range(48):
            f.write(bytes(1 << 20))
except OSError as e:
    print(e.strerror)' "$R" 2>&1 | enospc "deep path"
python3 -c '
import os, sys
os.chdir(sys.argv[1])
for i in range(20):
    os.chdir("d" * 250)
os.remove("fill")' "$R"
(exec 3>"$R/held"; rm "$R/held"; dd if=/dev/zero bs=1M count=48 2>&1 >&3) | enospc "held open"
python3 -c '
import os, sys
n = 0
try:
    while n < 12288:
        os.symlink("x" * 4000, "%s/l%d" % (sys.argv[1], n)); n += 1
except OSError as e:
    print(e.strerror)
print("links made:", n)' "$R" 2>&1 | tee "$R/../links.txt" 2>/dev/null | enospc "links"
find "$R" -maxdepth 1 -name 'l*' -delete
dd if=/dev/zero of=/dev/shm/fill bs=1M count=48 2>&1 | enospc "/dev/shm"
rm -f /dev/shm/fill
dd if=/dev/zero of=/tmp/fill bs=1M count=48 2>&1 | enospc "/tmp"
echo attacks done`
	out, root := inSandbox(t, disk, script)
	t.Logf("the sandbox printed:\n%s", out)
	if !strings.Contains(out, "/proc/sysrq-trigger: Read-only file system") && !strings.Contains(out, "/proc/sysrq-trigger: absent") {
		t.Errorf("/proc/sysrq-trigger neither read-only nor absent")
	}
	for _, want := range []string{"/proc/sys/kernel/core_pattern: Read-only file system",
		"writable under /proc/sys: 0\n", "/dev/sodgrade-x: Read-only file system",
		"deep path: stopped", "held open: stopped", "links: stopped", "/dev/shm: stopped", "/tmp: stopped", "attacks done"} {
		if !strings.Contains(out, want) {
			t.Errorf("the sandbox did not print %q", want)
		}
	}
	if strings.Contains(out, "ESCAPED") || strings.Contains(out, "inside: Uid: 0 ") {
		t.Errorf("an attack went through:\n%s", out)
	}
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(root.Fd()), &st); err != nil || st.Type != unix.TMPFS_MAGIC || int64(st.Blocks)*st.Bsize != disk {
		t.Errorf("the run's folder is not a tmpfs of %d bytes: type %#x, %d blocks of %d (%v)", disk, st.Type, st.Blocks, st.Bsize, err)
	}
}

// testUser is the ordinary user as whom TestSandboxAttacksAsUser runs the tests again.
const testUser = "sodgradetest"

// TestSandboxAttacksAsUser runs TestSandboxAttacks and TestBwrapProblem again as an ordinary
// user (made with useradd if missing, removed after), when the tests run as root: the sandbox
// is then started by that user's bwrap, without setpriv, as an ordinary user's grader starts it.
func TestSandboxAttacksAsUser(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap not found")
	}
	out := asTestUser(t, "^(TestSandboxAttacks|TestBwrapProblem|TestHostUIDProblem)$", nil)
	for _, want := range []string{"--- PASS: TestSandboxAttacks ", "--- PASS: TestBwrapProblem ", "--- PASS: TestHostUIDProblem "} {
		if !strings.Contains(out, want) {
			t.Errorf("as %s: no %q", testUser, want)
		}
	}
}

// asTestUser runs this test binary's tests matching pattern as testUser (made with useradd if
// missing, removed after), from this folder, with a home and TMPDIR of that user's and env, and
// returns what they printed; it fails the test if they fail. It skips unless the tests run as
// root (as an ordinary user, the tests themselves are that). binds are (host path, path under
// the folder of the binary; "{dir}" in env) pairs bound, read-only for the user by their modes, in a mount namespace of
// the child's own (unshare -m): what root has and the user needs (the module cache).
func asTestUser(t *testing.T, pattern string, env []string, binds ...[2]string) string {
	t.Helper()
	if os.Getenv("SOD_GRADE_TEST_AS_USER") == "1" || os.Getuid() != 0 {
		t.Skip("run as root only (as an ordinary user, the tests it runs are this test)")
	}
	if _, err := user.Lookup(testUser); err != nil {
		if out, err := exec.Command("useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", testUser).CombinedOutput(); err != nil {
			t.Fatalf("useradd %s: %v: %s", testUser, err, out)
		}
		t.Cleanup(func() { exec.Command("userdel", testUser).Run() })
	}
	u, err := user.Lookup(testUser)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// The test binary, where that user can run it, and a home of the user's.
	dir := t.TempDir()
	reachable(dir)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "grade.test")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil || os.Chown(home, uid, gid) != nil {
		t.Fatal("cannot make the user's home")
	}
	t.Cleanup(func() { exec.Command("chown", "-R", "0:0", home).Run() }) // so that TempDir can remove it
	wd, _ := os.Getwd()
	args := []string{"setpriv", "--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups", "--", bin,
		"-test.run", pattern, "-test.v", "-test.count=1", "-test.timeout=60m"}
	if len(binds) > 0 {
		script := ""
		for _, bd := range binds {
			mp := filepath.Join(dir, bd[1])
			if err := os.MkdirAll(mp, 0o755); err != nil {
				t.Fatal(err)
			}
			script += "mount --bind '" + bd[0] + "' '" + mp + "' && "
		}
		args = append([]string{"unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script + `exec "$@"`, "sh"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = wd
	cmd.Env = append([]string{"PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home,
		"SOD_GRADE_TEST_AS_USER=1", "SOD_REQUIRE_NOTEBOOKS=" + os.Getenv("SOD_REQUIRE_NOTEBOOKS")}, env...)
	for i, kv := range cmd.Env {
		cmd.Env[i] = strings.ReplaceAll(kv, "{dir}", dir) // where the binds are
	}
	out, err := cmd.CombinedOutput()
	t.Logf("as %s (uid %s):\n%s", testUser, u.Uid, out)
	if err != nil {
		t.Fatalf("as %s: %v", testUser, err)
	}
	return string(out)
}
