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
	"testing"
	"time"
)

// standIn is the start of a stand-in for bwrap: it reports its pid on --info-fd and waits on
// --block-fd, as bwrap does, then runs what follows.
const standIn = `prev=; for a; do case $prev in --info-fd) info=$a;; --block-fd) block=$a;; esac; prev=$a; done
eval "printf '{\"child-pid\": %d}\n' $$ >&$info"; eval "exec $info>&-"; eval "read -r _ <&$block"
`

// TestBwrapProblem checks the sandbox probe against stand-ins for bwrap: none on PATH, one that
// cannot create namespaces (as in a container), one whose sandbox keeps capabilities (bwrap
// run by root without --cap-drop ALL) or lets a setuid program gain some, one that can write a
// host-global kernel file (/proc/sys/kernel/core_pattern: bwrap 0.8 leaves /proc/sys writable),
// one that prints nothing, and one that works. A root grader starts the stand-in as gradeUser,
// as it starts bwrap; the check from outside that no sandbox process has the host's uid 0 is
// TestHostUIDProblem.
func TestBwrapProblem(t *testing.T) {
	status := func(eff, nnp string, more ...string) string {
		return standIn + "printf 'Name:\\tcat\\nCapInh:\\t0000000000000000\\nCapPrm:\\t" + eff + "\\nCapEff:\\t" + eff +
			"\\nCapBnd:\\t" + eff + "\\nCapAmb:\\t0000000000000000\\nNoNewPrivs:\\t" + nnp + "\\n" + strings.Join(more, "") + "probe done\\n'"
	}
	const none, all = "0000000000000000", "000001fffeffffff"
	for _, tc := range []struct {
		name   string
		script string // the stand-in bwrap; "" for none
		want   string // in the reason; "" for a usable sandbox
		unsafe bool
	}{
		{"missing", "", "bwrap not found", false},
		{"no namespaces", "echo 'bwrap: No permissions to create new namespace' >&2; exit 1", "No permissions to create new namespace", false},
		{"silent failure", "exit 1", "exit status 1", false},
		{"keeps capabilities", status(all, "1"), "CapPrm 000001fffeffffff, CapEff 000001fffeffffff, CapBnd 000001fffeffffff", true},
		{"new privileges", status(none, "0"), "NoNewPrivs 0", true},
		{"core_pattern writable", status(none, "1", "Writable: /proc/sys/kernel/core_pattern\\n"), "can write host-global kernel files (/proc/sys/kernel/core_pattern)", true},
		{"sysrq writable", status(none, "1", "Writable: /proc/sysrq-trigger\\n"), "(/proc/sysrq-trigger)", true},
		{"prints nothing", standIn + "exit 0", "did not print its capabilities", true},
		{"works", status(none, "1"), "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			reachable(dir)
			path := dir
			if tc.script != "" {
				if err := os.WriteFile(filepath.Join(dir, "bwrap"), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				path += ":/usr/bin:/bin"
			}
			t.Setenv("PATH", path)
			got, unsafe := bwrapProblem(context.Background(), testID(t))
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) || unsafe != tc.unsafe {
				t.Errorf("bwrapProblem() = %q, %v; want %q, %v", got, unsafe, tc.want, tc.unsafe)
			}
		})
	}
}

// reachable makes the folders from dir up to the temporary folder readable by all: a root
// grader's stand-in bwrap runs as gradeUser, who must reach it.
func reachable(dir string) {
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
}

// TestHostUIDProblem: the check from outside refuses a process with the host's uid 0 (this
// test's own, when run by root) and accepts one of gradeUser's.
func TestHostUIDProblem(t *testing.T) {
	if got := hostUIDProblem(os.Getpid()); (os.Getuid() == 0) != strings.Contains(got, "the host's uid 0") {
		t.Errorf("hostUIDProblem(self, uid %d) = %q", os.Getuid(), got)
	}
	if os.Getuid() != 0 {
		return
	}
	id := testID(t)
	cmd := exec.Command("setpriv", "--reuid="+strconv.Itoa(id.uid), "--regid="+strconv.Itoa(id.gid), "--clear-groups", "--", "sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var got string
	for range 100 { // until setpriv has dropped to gradeUser
		if got = hostUIDProblem(cmd.Process.Pid); got == "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got != "" {
		t.Errorf("hostUIDProblem(a process of %s) = %q, want none", gradeUser, got)
	}
}

// TestSandboxBwrapRefused: asked for bwrap where it cannot sandbox, the grader stops with the
// reason before it grades anything, rather than running unsandboxed.
func TestSandboxBwrapRefused(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	subs := filepath.Join(dir, "subs", "alice")
	for _, d := range []string{bin, subs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "bwrap"), []byte("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	reachable(bin)
	nb, err := os.ReadFile(filepath.Join("testdata", "submissions", "good", "99-fixture.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(subs, "99-fixture.ipynb"), nb, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out strings.Builder
	err = run(context.Background(), []string{"-source", "testdata/instructor", "-sandbox", "bwrap", "-o", filepath.Join(dir, "out"), filepath.Join(dir, "subs")}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "setting up uid map: Permission denied") {
		t.Fatalf("grade -sandbox bwrap with a broken bwrap: error %v, want the probe's reason", err)
	}
	if strings.Contains(out.String(), "grading") {
		t.Errorf("it started grading: %s", out.String())
	}
}

// TestSandboxAutoRootRefused: a root grader in auto mode where no sandbox can be made (a
// stand-in bwrap that cannot create namespaces) stops before grading, naming the ways out;
// and a stand-in whose sandbox keeps capabilities is refused in auto mode too.
func TestSandboxAutoRootRefused(t *testing.T) {
	nb, err := os.ReadFile(filepath.Join("testdata", "submissions", "good", "99-fixture.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, script, want string
		rootOnly           bool
	}{
		{"no namespaces", "echo 'bwrap: No permissions to create new namespace' >&2; exit 1", "a root grader never runs a notebook without one", true},
		{"keeps capabilities", standIn + "printf 'CapInh:\\t0\\nCapPrm:\\t1\\nCapEff:\\t1\\nCapBnd:\\t1\\nCapAmb:\\t0\\nNoNewPrivs:\\t1\\nprobe done\\n'", "the sandbox keeps privileges", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rootOnly && os.Getuid() != 0 {
				t.Skip("only a root grader refuses to run without a sandbox")
			}
			dir := t.TempDir()
			bin, subs := filepath.Join(dir, "bin"), filepath.Join(dir, "subs", "alice")
			for _, d := range []string{bin, subs} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(bin, "bwrap"), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			reachable(bin)
			if err := os.WriteFile(filepath.Join(subs, "99-fixture.ipynb"), nb, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			var out strings.Builder
			err := run(context.Background(), []string{"-source", "testdata/instructor", "-o", filepath.Join(dir, "out"), filepath.Join(dir, "subs")}, &out, &out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("grade (auto) with a stand-in bwrap: error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(out.String(), "grading") {
				t.Errorf("it started grading: %s", out.String())
			}
		})
	}
}

// TestSandboxNoneRootRefused: a root grader refuses -sandbox none (a notebook would run as the
// host's root), as a usage error, before it grades anything.
func TestSandboxNoneRootRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("only a root grader refuses -sandbox none")
	}
	dir := t.TempDir()
	subs := filepath.Join(dir, "subs", "alice")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	nb, err := os.ReadFile(filepath.Join("testdata", "submissions", "good", "99-fixture.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(subs, "99-fixture.ipynb"), nb, 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = run(context.Background(), []string{"-source", "testdata/instructor", "-sandbox", "none", "-o", filepath.Join(dir, "out"), filepath.Join(dir, "subs")}, &out, &out)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "never runs a notebook without a sandbox") {
		t.Fatalf("grade -sandbox none as root: error %v, want a usage error saying it never runs without a sandbox", err)
	}
	if strings.Contains(out.String(), "grading") {
		t.Errorf("it started grading: %s", out.String())
	}
}

// TestPodmanArgs: a container run has no network, a read-only root, no capability at all (as
// the image's user, or the grader's own with a rootless podman), the run's folder as its only
// writable host folder, the module copy, cache program and shared build cache read-only, only
// the run's environment, and the limits.
func TestPodmanArgs(t *testing.T) {
	r := &runner{limits: defaultLimits, image: "sod-workbench", sh: &shared{dir: "/s", cache: "/cache"}}
	v := view{root: "/sodgrade-ab", mod: "/sodgrade-ab/mod", bin: "/sodgrade-ab/bin", cache: "/sodgrade-ab/shared-cache"}
	args := strings.Join(r.podmanArgs("c1", "/s/run-1", "/s/run-1/notebooks", v, []string{"HOME=/sodgrade-ab/home"}, []string{"jupyter", "nbconvert"}), " ")
	user := "--user " + imageUser
	if os.Getuid() != 0 {
		user = "--userns keep-id --user "
	}
	for _, want := range []string{"--network none", "--read-only", user, "--cap-drop all --security-opt no-new-privileges",
		"-v /s/run-1:/sodgrade-ab:rw", "-v /s/mod:/sodgrade-ab/mod:ro", "-v /s/run-1/notebooks:/sodgrade-ab/mod/notebooks:rw",
		"-v /s/bin:/sodgrade-ab/bin:ro", "-v /cache:/sodgrade-ab/shared-cache:ro",
		"--memory 2147483648", "--pids-limit 256", "--ulimit fsize=268435456:268435456", "--ulimit nofile=", "-e HOME=/sodgrade-ab/home",
		"sod-workbench jupyter nbconvert"} {
		if !strings.Contains(args, want) {
			t.Errorf("podman command lacks %q:\n%s", want, args)
		}
	}
	for _, not := range []string{"--cap-add", "/cache:/sodgrade-ab/shared-cache:rw", "/s/mod:/sodgrade-ab/mod:rw"} {
		if strings.Contains(args, not) {
			t.Errorf("podman command has %q:\n%s", not, args)
		}
	}
}

// TestGradeInPodman grades good, mallory and hog, and the attackers a-escaper and a-poisoner
// beside the colluder, with -sandbox podman, where podman and the workbench image
// (docker/test-image.sh builds it) are present; it is skipped otherwise. (a-reader and a-linker
// are not graded here: the image's own notebooks, which hold the workbench's solution cells, are
// public and visible in its containers.)
func TestGradeInPodman(t *testing.T) {
	image := os.Getenv("SOD_IMAGE")
	if image == "" {
		image = "sod-workbench"
	}
	if err := podmanProblem(context.Background(), image); err != nil {
		t.Skipf("-sandbox podman cannot run here: %v", err)
	}
	subs := filepath.Join(t.TempDir(), "subs")
	for _, s := range []string{"submissions/good", "submissions/mallory", "submissions/hog", "attacks/a-escaper", "attacks/a-poisoner", "attacks/z-colluder"} {
		if err := os.CopyFS(filepath.Join(subs, filepath.Base(s)), os.DirFS(filepath.Join("testdata", s))); err != nil {
			t.Fatal(err)
		}
	}
	// The first run compiles the workbench into its own layer if the image's Go is not the host's.
	g := gradeAttacks(t, subs, "-sandbox", "podman", "-image", image)
	for key, want := range map[string]string{
		"good 99.1": "true correct", "good 99.2": "true correct", "mallory 99.1": "false no answer exported",
		"hog 99.1": "true correct", "hog 99.2": "false", "a-escaper 99.1": "false 41 is not 6·7", "a-poisoner 99.1": "false 41 is not 6·7",
		"z-colluder 99.1": "false 41 is not 6·7", "z-colluder 99.2": "false answer992(",
	} {
		if got := g.grades[key][0] + " " + g.grades[key][1]; !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q…", key, got, want)
		}
	}
	escape := g.printed["a-escaper escape"]
	for _, w := range []string{"CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "NoNewPrivs:\t1", "escape attempts done"} {
		if !strings.Contains(escape, w) || strings.Contains(escape, "ESCAPED") {
			t.Errorf("a-escaper's cell printed, in its container:\n%s\nwant %q and no ESCAPED", escape, w)
		}
	}
	if p := g.printed["a-poisoner poison"]; !strings.Contains(p, "poisoned 0 of ") || strings.Contains(p, "poisoned 0 of 0 ") {
		t.Errorf("a-poisoner's cell printed %q, want 0 of the shared cache's outputs poisoned", p)
	}
}

// TestReapOrphans: a process a notebook leaves behind in a session and folder of its own (out of
// reach of the process group and of the sweep by folder) becomes the grader's child once its
// parent ends, and reapOrphans kills it; the grader is not dumpable.
func TestReapOrphans(t *testing.T) {
	harden(true)
	if d, _, _ := syscall.RawSyscall(syscall.SYS_PRCTL, 3 /* PR_GET_DUMPABLE */, 0, 0); d != 0 {
		t.Errorf("the grader is dumpable (%d)", d)
	}
	out, err := exec.Command("/bin/sh", "-c", "cd / && setsid sleep 300 >/dev/null 2>&1 & echo $!").Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	for range 50 { // the shell has ended; the sleep is the grader's child now
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if f := strings.Fields(string(b)); len(f) > 3 && f[3] == strconv.Itoa(os.Getpid()) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	reapOrphans()
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
		t.Errorf("the left-behind process %d is still there", pid)
	}
}
