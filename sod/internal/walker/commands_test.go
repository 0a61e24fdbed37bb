//go:build unix

package walker_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sodworkbench.org/workbench/sod/internal/walker"
)

// The commands' flags are walked as the library's entry points are: every
// command of every module of the tree (walker.Modules finds the modules
// by their go.mod, the live book's engine included; walker.Commands each
// package main, found, not listed) is built, its subcommands are read from its usage lines and
// confirmed by their own -h, its flags from each -h, and every flag gets
// each bad value below, one per call. A call must end within
// commandTimeout, without a Go panic or runtime trace, with exit status
// 0, 1 or 2, and a value it refuses must be refused as a usage error
// (status 2) whose message names the flag.
//
// So that a value that is accepted does not start the command's work, the
// bad flag is followed by an undefined flag (sentinelFlag): flag parsing
// then stops there with status 2. The file-like values (a FIFO, a
// directory, a device) are passed a second time without the sentinel, the
// command's other arguments left out: the command must refuse a FIFO or
// finish, and never block on opening it (an existing directory or device
// may be accepted: -out dir; the command then starts its work and is
// stopped at the timeout).

// commandTimeout bounds one call of a command.
const commandTimeout = 30 * time.Second

// sentinelFlag is a flag no command defines.
const sentinelFlag = "-walker-undefined-flag"

// badFlagValues are the values every value flag gets (an argument cannot
// hold a NUL byte: the system refuses it before any command sees it).
func badFlagValues(dir string) map[string]string {
	return map[string]string{
		"empty": "", "negative": "-1", "zero": "0", "NaN": "NaN", "Inf": "Inf", "-Inf": "-Inf", "1e400": "1e400",
		"2^64": "18446744073709551616", "-2^63-1": "-9223372036854775809", "word": "abc", "list holes": "1,,2", "control": "a\x01\x1b[2Jb",
		"CR": "a\rb", "long": strings.Repeat("9", 10000), "FIFO": filepath.Join(dir, "fifo"), "directory": dir, "device": "/dev/null",
	}
}

// fileValues are the bad values also passed without the sentinel.
var fileValues = []string{"FIFO", "directory", "device"}

// commandFlag is one flag of a command line: the subcommand path, the
// flag's name and whether it takes a value.
type commandFlag struct {
	sub   []string
	name  string
	value bool
}

var (
	flagLine  = regexp.MustCompile(`^\s+-([A-Za-z][\w-]*)(?:\s+(\S+))?\s*$`)
	subSplit  = regexp.MustCompile(`\s*\|\s*`)
	wordToken = regexp.MustCompile(`^[a-z][a-z-]*$`)
)

// runCommand runs bin with args in dir and returns its output and exit
// status (−1: killed after commandTimeout).
func runCommand(bin, dir string, args ...string) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.WaitDelay = time.Second
	// Its own process group, killed whole on timeout: a command that
	// accepted a value and started work (a grader's sandboxes) leaves no
	// process behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it left behind
	}
	if ctx.Err() != nil {
		return out.String(), -1
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return err.Error(), -2 // not started
	}
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return out.String(), 128 + int(ws.Signal())
		}
		return out.String(), ee.ExitCode()
	}
	return out.String(), 0
}

// commandFlags reads the flags of bin and of its subcommands from their -h.
func commandFlags(t *testing.T, bin, dir string) []commandFlag {
	var out []commandFlag
	seen := map[string]bool{}
	names := map[string]string{} // subcommand path → its sorted flag names
	var visit func(sub []string)
	visit = func(sub []string) {
		key := strings.Join(sub, " ")
		if seen[key] || len(sub) > 2 {
			return
		}
		seen[key] = true
		help, code := runCommand(bin, dir, append(slices.Clone(sub), "-h")...)
		if code != 0 && code != 2 {
			if len(sub) == 0 {
				t.Errorf("%s -h: status %d\n%s", filepath.Base(bin), code, help)
			}
			return
		}
		var flags []commandFlag
		for _, l := range strings.Split(help, "\n") {
			if m := flagLine.FindStringSubmatch(l); m != nil {
				flags = append(flags, commandFlag{sub: sub, name: m[1], value: m[2] != ""})
			}
		}
		var fl []string
		for _, f := range flags {
			fl = append(fl, f.name)
		}
		sort.Strings(fl)
		names[key] = strings.Join(fl, " ")
		if len(sub) > 0 && (len(flags) == 0 || names[key] == names[strings.Join(sub[:len(sub)-1], " ")]) {
			return // a word of the usage (an experiment name), not a subcommand with flags of its own
		}
		out = append(out, flags...)
		// Subcommands: the leading lower-case words of the usage lines'
		// alternatives ("reproduce bench [flags] | bench merge …").
		name := filepath.Base(bin)
		for _, l := range strings.Split(help, "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "usage:"))
			if !strings.HasPrefix(l, name+" ") {
				continue
			}
			for _, seg := range subSplit.Split(strings.TrimPrefix(l, name+" "), -1) {
				var path []string
				for _, w := range strings.Fields(seg) {
					if !wordToken.MatchString(w) {
						break
					}
					path = append(path, w)
				}
				for i := range path {
					visit(path[:i+1])
				}
			}
		}
	}
	visit(nil)
	return out
}

// TestWalkCommandFlags walks every flag of every command with bad values.
func TestWalkCommandFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command and runs it once per flag and bad value; run without -short")
	}
	root := filepath.Join("..", "..", "..")
	mods, err := walker.Modules(root)
	if err != nil {
		t.Fatal(err)
	}
	// Each module's commands, built in their module (the live book's
	// engine is a module of its own, found by its go.mod).
	bin := t.TempDir()
	var cmds []walker.Package
	for _, m := range mods {
		mc, err := walker.Commands(filepath.Join(root, m))
		if err != nil {
			t.Fatal(err)
		}
		if len(mc) == 0 {
			continue
		}
		out := filepath.Join(bin, strings.ReplaceAll(m, "/", "_"))
		os.MkdirAll(out, 0o755)
		for _, c := range mc {
			build := exec.Command("go", "build", "-o", out+string(filepath.Separator), "./"+c.Dir)
			build.Dir = filepath.Join(root, m)
			if msg, err := build.CombinedOutput(); err != nil {
				if strings.Contains(string(msg), "build constraints exclude all Go files") {
					t.Logf("module %s: %s is not built here (build constraints)", m, c.Dir)
					continue
				}
				t.Fatalf("module %s: go build ./%s: %v\n%s", m, c.Dir, err, msg)
			}
			cmds = append(cmds, walker.Package{Dir: filepath.Join(out, filepath.Base(c.Dir)), Name: m + "/" + c.Dir})
		}
	}
	if len(cmds) == 0 {
		t.Fatal("no command found")
	}
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := badFlagValues(dir)
	labels := make([]string, 0, len(bad))
	for l := range bad {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	type call struct {
		cmd  string
		args []string
		what string
		flag string
		free bool // without the sentinel
	}
	var calls []call
	nflags := 0
	for _, c := range cmds {
		b := c.Dir // the binary
		for _, f := range commandFlags(t, b, dir) {
			nflags++
			pre := append(slices.Clone(f.sub), "-"+f.name)
			if !f.value {
				calls = append(calls, call{b, append(slices.Clone(f.sub), "-"+f.name+"=maybe", sentinelFlag), "bool maybe", f.name, false})
				continue
			}
			for _, l := range labels {
				calls = append(calls, call{b, append(slices.Clone(pre), bad[l], sentinelFlag), l, f.name, false})
			}
			for _, l := range fileValues {
				calls = append(calls, call{b, append(slices.Clone(pre), bad[l]), l + " (no sentinel)", f.name, true})
			}
		}
	}
	var mu sync.Mutex
	var findings []string
	jobs := make(chan call)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				out, code := runCommand(c.cmd, dir, c.args...)
				line := fmt.Sprintf("%s %s (%s)", filepath.Base(c.cmd), strings.Join(quoteArgs(c.args), " "), c.what)
				var f string
				switch {
				case code == -1 && c.free && c.what != "FIFO (no sentinel)":
					// An existing directory or device accepted (-out dir):
					// the command started its work, which is no finding.
				case code == -1:
					f = "HANG (> " + commandTimeout.String() + "): " + line
				case code == -2:
					f = "NOT STARTED: " + line + ": " + out
				case strings.Contains(out, "panic:") || strings.Contains(out, "goroutine ") || code > 2 || code < 0:
					f = fmt.Sprintf("CRASH (status %d): %s: %.300s", code, line, out)
				case !c.free && code != 2:
					f = fmt.Sprintf("status %d, want 2 (a usage error: the value's or the undefined sentinel's): %s", code, line)
				case !c.free && !strings.Contains(out, sentinelFlag) && !strings.Contains(out, "-"+c.flag) && !strings.Contains(out, c.flag):
					f = fmt.Sprintf("refused without naming -%s: %s: %.200s", c.flag, line, firstLine(out))
				}
				if f != "" {
					mu.Lock()
					findings = append(findings, f)
					mu.Unlock()
				}
			}
		}()
	}
	for _, c := range calls {
		jobs <- c
	}
	close(jobs)
	wg.Wait()
	sort.Strings(findings)
	t.Logf("walker: %d commands, %d flags, %d calls, %d findings", len(cmds), nflags, len(calls), len(findings))
	for _, f := range findings {
		t.Error(f)
	}
	if nflags < 10 {
		t.Errorf("only %d flags found: the help parsing broke", nflags)
	}
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if len(a) > 40 {
			a = a[:20] + fmt.Sprintf("…(%d bytes)", len(a))
		}
		out[i] = fmt.Sprintf("%q", a)
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
