package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// shared is what every run of one grading session is given, read-only: a copy of the workbench
// module holding only the files its packages build from (go list's Go and embedded files, go.mod
// and go.sum: no notebook, no test, no testdata, hence no solution wherever -source lives), a
// Jupyter kernel spec for gonb, the Go build cache program (GOCACHEPROG) and the shared build
// cache. The grader makes all of it before any notebook runs and is the only writer: a run
// reads the shared build cache through the cache program and writes what it compiles to a
// layer of its own, in its own folder.
type shared struct {
	dir        string // the grader's private folder: mod/, bin/, jupyter/
	module     string // the workbench module (the host's checkout)
	cache      string // the shared build cache, in the go command's GOCACHE layout
	goroot     string
	gomodcache string
	exclude    []string // folders left out of the module copy
	tools      []string // gonb and goimports: the programs a run needs besides the toolchain and /usr
	modEntries []string // the module copy's top-level files and folders (but notebooks/)
	staged     []string // host paths a root grader's sandbox binds from stage/ (runner.stagedPath)
}

// newShared makes the session's read-only material in a fresh private folder: the module copy,
// the kernel spec and the cache program; then it fills the shared build cache (warm).
//
// exclude are folders whose files the module copy never holds, even if a package lay there (the
// instructor's notebooks, the submissions, the output).
func newShared(ctx context.Context, module, cache string, exclude []string) (*shared, error) {
	dir, err := os.MkdirTemp("", "sodgrade-session-*")
	if err != nil {
		return nil, err
	}
	s := &shared{dir: dir, module: module, cache: cache, goroot: goEnv("GOROOT"), gomodcache: goEnv("GOMODCACHE")}
	if s.goroot == "" || s.gomodcache == "" {
		s.close()
		return nil, errors.New("go env GOROOT GOMODCACHE: the Go toolchain is not on PATH")
	}
	s.exclude = exclude
	// A root grader's sandboxes start as gradeUser, who must reach the session's files.
	if err := os.Chmod(dir, 0o755); err != nil {
		s.close()
		return nil, err
	}
	for _, step := range []func(context.Context) error{s.copyModule, s.kernelSpec, s.buildCacheProg, s.stage} {
		if err := step(ctx); err != nil {
			s.close()
			return nil, err
		}
	}
	return s, nil
}

func (s *shared) close() { removeAll(s.dir) }

func (s *shared) mod() string       { return filepath.Join(s.dir, "mod") }
func (s *shared) bin() string       { return filepath.Join(s.dir, "bin") }
func (s *shared) jupyter() string   { return filepath.Join(s.dir, "jupyter") }
func (s *shared) cacheProg() string { return filepath.Join(s.bin(), "gocacheprog") }

// copyModule copies, from the module, go.mod, go.sum and the files that `go list` says its
// packages build from. An allow list: whatever else the checkout holds (notebooks with their
// solution cells, tests with worked answers, testdata with the instructor's fixtures, an
// output or submissions folder someone left there) is not in the copy.
func (s *shared) copyModule(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-json=Dir,GoFiles,CgoFiles,CFiles,HFiles,SFiles,EmbedFiles", "./...")
	cmd.Dir = s.module
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list ./... in %s: %v: %s", s.module, err, lastLines(stderr.String(), 3))
	}
	files := []string{"go.mod", "go.sum"}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			Dir                                                   string
			GoFiles, CgoFiles, CFiles, HFiles, SFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("go list ./...: %v", err)
		}
		rel, err := filepath.Rel(s.module, p.Dir)
		if err != nil || strings.HasPrefix(rel, "..") || slices.ContainsFunc(s.exclude, func(x string) bool {
			return p.Dir == x || strings.HasPrefix(p.Dir, x+"/")
		}) {
			continue
		}
		for _, l := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.HFiles, p.SFiles, p.EmbedFiles} {
			for _, f := range l {
				files = append(files, filepath.Join(rel, f))
			}
		}
	}
	dst := s.mod()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, ".ipynb") {
			continue // go list does not list tests in GoFiles; an embedded notebook is refused all the same
		}
		if err := copyRegular(filepath.Join(s.module, f), filepath.Join(dst, f)); err != nil {
			return fmt.Errorf("copying the module: %v", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dst, "notebooks"), 0o755); err != nil { // where a run's notebook folder is mounted (podman)
		return err
	}
	ents, err := os.ReadDir(dst)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.Name() != "notebooks" {
			s.modEntries = append(s.modEntries, e.Name())
		}
	}
	return nil
}

// stage makes, for a root grader, the mount points stage/N of the host paths its sandboxes bind
// that lie outside /usr (the shared build cache, the module cache, the toolchain and tools
// elsewhere): a sandbox starts as gradeUser, who may not reach them where they are (under
// /root, say), so each run binds them there first, in a mount namespace of its own, as root.
func (s *shared) stage(context.Context) error {
	if os.Getuid() != 0 {
		return nil
	}
	if err := os.MkdirAll(s.cache, 0o755); err != nil {
		return err
	}
	for _, p := range append([]string{s.cache, s.gomodcache, s.goroot}, s.tools...) {
		if strings.HasPrefix(p, "/usr/") || slices.Contains(s.staged, p) {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(s.dir, "stage", strconv.Itoa(len(s.staged)))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if st.IsDir() {
			err = os.Mkdir(dst, 0o755)
		} else {
			err = os.WriteFile(dst, nil, 0o644)
		}
		if err != nil {
			return err
		}
		s.staged = append(s.staged, p)
	}
	return nil
}

// copyRegular copies the regular file src (not a link) to dst, readable by all.
func copyRegular(src, dst string) error {
	st, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// kernelSpec writes the gonb kernel spec the runs use: the installed one's program and flags,
// without its log folder (a folder of the host) and without its environment (the run's own is
// set by the grader).
func (s *shared) kernelSpec(context.Context) error {
	host, err := kernelSpecPath()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(host, "kernels", "gonb", "kernel.json"))
	if err != nil {
		return err
	}
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil {
		return fmt.Errorf("the gonb kernel spec: %v", err)
	}
	argv, _ := spec["argv"].([]any)
	var keep []any
	for _, a := range argv {
		if str, ok := a.(string); ok && !strings.HasPrefix(str, "-log_dir=") {
			keep = append(keep, str)
		}
	}
	if len(keep) == 0 {
		return errors.New("the gonb kernel spec has no program (argv)")
	}
	gonb, _ := keep[0].(string)
	if !filepath.IsAbs(gonb) {
		if gonb, err = exec.LookPath(gonb); err != nil {
			return fmt.Errorf("the gonb kernel's program: %v", err)
		}
		keep[0] = gonb
	}
	spec["argv"] = keep
	delete(spec, "env")
	s.tools = []string{gonb}
	if p, err := exec.LookPath("goimports"); err == nil { // gonb formats cells with it
		s.tools = append(s.tools, p)
	}
	b, _ = json.MarshalIndent(spec, "", " ")
	d := filepath.Join(s.jupyter(), "kernels", "gonb")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(d, "kernel.json"), b, 0o644)
}

// buildCacheProg builds the cache program (the module's docker/hub/gocache, which the hub's
// servers use too) into the session's bin/.
func (s *shared) buildCacheProg(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-o", s.cacheProg(), "./docker/hub/gocache")
	cmd.Dir = s.module
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the build cache program (docker/hub/gocache): %v: %s", err, lastLines(string(out), 3))
	}
	return nil
}

// runGoFlags are the go command's flags in every run and in the warm-up: -trimpath keeps the
// module's folder out of the build cache's keys, so that runs with folders of their own find
// the shared cache's entries.
const runGoFlags = "-mod=mod -buildvcs=false -trimpath"

// warm fills the shared build cache, as the grader (outside any sandbox), with the workbench's
// packages as a notebook builds them: a dependency of another module, replaced by the module's
// copy. Runs then compile only their own cells. The cache is never writable by a run.
func (s *shared) warm(ctx context.Context) error {
	if err := os.MkdirAll(s.cache, 0o755); err != nil {
		return err
	}
	w := filepath.Join(s.dir, "warm")
	if err := os.MkdirAll(w, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(w)
	gomod := "module sodgradewarm\n\ngo 1.24\n\nrequire sodworkbench.org/workbench v0.0.0-00010101000000-000000000000\n\nreplace sodworkbench.org/workbench => " + s.mod() + "\n"
	sum, err := os.ReadFile(filepath.Join(s.mod(), "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	env := []string{"GOCACHE=" + s.cache, "GOFLAGS=" + runGoFlags, "GOPROXY=off", "GOSUMDB=off", "GOWORK=off",
		"GOTOOLCHAIN=local", "GOMODCACHE=" + s.gomodcache, "GOCACHEPROG="}
	golist := exec.CommandContext(ctx, "go", "list", "-e", "-f", `{{if ne .Name "main"}}{{.ImportPath}}{{end}}`, "sodworkbench.org/workbench/...")
	golist.Dir, golist.Env = w, append(os.Environ(), env...)
	out, err := golist.Output()
	if err != nil {
		return fmt.Errorf("warming the build cache: go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	start := time.Now()
	build := exec.CommandContext(ctx, "go", append([]string{"build"}, pkgs...)...)
	build.Dir, build.Env = w, append(os.Environ(), env...)
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("warming the build cache (%d packages, %.0fs): %v: %s", len(pkgs), time.Since(start).Seconds(), err, lastLines(string(b), 5))
	}
	return nil
}
