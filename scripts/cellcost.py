"""scripts/cellcost.py: what each Go cell of the notebooks costs, as the gonb kernel runs it.

    python3 scripts/cellcost.py [--quick] [--hub] [--env KEY=VALUE]... [--cells] [--out FILE]
                               [--log FILE] [NOTEBOOK...]

scripts/cellcost.sh runs it (with the PATH the test command uses); see there for the options.

For each notebook (default: every notebooks/*.ipynb) it starts the installed gonb kernel (its
kernel spec, in the notebooks' folder, as Jupyter and the notebook harness do) twice: first to warm
the build cache (the notebook's set-up cells and a blank import of each package its cells import,
as scripts/kernel_check.py --warm-notebooks does for the image: none of the notebook's computations
runs), then to run the notebook's code cells (not the live-only ones) one by one, timed:

  wall   execute_request sent -> execute_reply received;
  build  the `go build` (or `go test -c`) GoNB runs for the cell: compile and link, its wall and
         its CPU (user + system, the go command and the compiler and linker it waits for);
  tools  the other programs GoNB runs before the build: goimports and `go get` (and the go
         commands of `!` lines);
  gonb   the kernel process's own CPU (/proc/PID/stat utime + stime);
  run    the cell's program (and its `!` shell lines): the CPU of the kernel's waited-for children
         (cutime + cstime) minus build and tools.

The build and tools are observed through a small Go program installed as go and goimports first
on the kernel's PATH (only for this measurement): it runs the real program and logs its arguments,
wall time and CPU (wait4's rusage: the program and what it waited for). A cell that fails, or a
notebook where no build was observed, is an error (exit 1): the measurement itself broke.

--hub runs the kernels with the classroom hub's Go settings (docker/hub/jupyterhub_config.py's
defaults, and sod-gocache built from docker/hub/gocache over a shared layer the warm-up kernels
fill, as the hub image's warm-cache.sh does). The report (markdown) is printed and, with --out,
written to FILE.
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no docker/__pycache__ in the working tree
import kernel_check  # noqa: E402  (the notebooks' cells and imports, as the image's warm-up reads them)

REPO = os.path.dirname(HERE)
NOTEBOOKS = os.path.join(REPO, "notebooks")
QUICK = "00-welcome.ipynb"
CELL_TIMEOUT = 900

# The wrapper put first on the kernel's PATH as go and goimports (a Go program: it starts in a
# millisecond, and wait4 gives the CPU of the real program and of everything it waited for).
WRAPPER = """package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	name := filepath.Base(os.Args[0])
	cmd := exec.Command(os.Getenv("CELLCOST_REAL_"+strings.ToUpper(name)), os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// A wrapped program run by a wrapped program (goimports runs go env and go list) is logged as
	// nested: its CPU is already in its parent's.
	nested := os.Getenv("CELLCOST_NESTED") == "1"
	cmd.Env = append(os.Environ(), "CELLCOST_NESTED=1")
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	code := 0
	if err != nil {
		code = 1
		if cmd.ProcessState == nil {
			fmt.Fprintln(os.Stderr, "cellcost wrapper:", err)
			os.Exit(1)
		}
		code = cmd.ProcessState.ExitCode()
	}
	var self syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime() +
		time.Duration(syscall.TimevalToNsec(self.Utime)+syscall.TimevalToNsec(self.Stime))
	args := strings.Join(strings.Fields(strings.Join(os.Args[1:], " ")), " ")
	if nested {
		name = "nested " + name
	}
	if f, err := os.OpenFile(os.Getenv("CELLCOST_LOG"), os.O_APPEND|os.O_WRONLY, 0); err == nil {
		fmt.Fprintf(f, "%s\\t%.6f\\t%.6f\\t%s\\n", name, wall.Seconds(), cpu.Seconds(), args)
		f.Close()
	}
	os.Exit(code)
}
"""


def parse_log_line(line):
    """One wrapper record: (kind, wall, cpu, argv); cpu includes the wrapper's own."""
    f = line.rstrip("\n").split("\t")
    if len(f) != 4:
        raise SystemExit("cellcost: unexpected wrapper record %r" % line)
    name, wall, cpu, argv = f[0], float(f[1]), float(f[2]), f[3]
    kind = name
    if name.startswith("nested "):
        kind = "nested"
    elif name == "go":
        sub = argv.split()[0] if argv.split() else ""
        kind = "build" if sub == "build" or argv.startswith("test -c") else "go " + sub
    return kind, wall, cpu, argv


def proc_cpu(pid):
    """(own, children) CPU seconds of a process, from /proc/PID/stat."""
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()
    tick = os.sysconf("SC_CLK_TCK")
    # after the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


class Kernel:
    """A gonb kernel from the installed kernel spec, with the wrappers first on its PATH."""

    def __init__(self, wrapdir, log, extra_env):
        self.km = KernelManager(kernel_name="gonb")
        spec = self.km.kernel_spec
        env = dict(spec.env or {})
        env["PATH"] = wrapdir + ":" + env.get("PATH", "${PATH}")
        env["CELLCOST_LOG"] = log
        env.update(extra_env)
        spec.env = env
        self.km.start_kernel(cwd=NOTEBOOKS)
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=120)
        except RuntimeError as e:
            self.stop()
            raise SystemExit("cellcost: the gonb kernel did not start: %s (its log: the kernel spec's -log_dir)" % e)
        self.pid = self.km.provisioner.process.pid

    def execute(self, code):
        """Runs code; returns (wall seconds, error text or None)."""
        t0 = time.time()
        msg_id = self.kc.execute(code, store_history=True, allow_stdin=False, stop_on_error=True)
        reply = self.kc.get_shell_msg(timeout=CELL_TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=CELL_TIMEOUT)
        wall = time.time() - t0
        error = None
        if reply["content"]["status"] != "ok":
            error = "%s: %s" % (reply["content"].get("ename"), reply["content"].get("evalue"))
        # Drain the outputs of this cell: errors, and failed `!` lines ("exit status N").
        while True:
            try:
                m = self.kc.get_iopub_msg(timeout=5)
            except Exception:
                break
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            t = m["msg_type"]
            if t == "error" and error is None:
                error = "%s: %s" % (m["content"].get("ename"), m["content"].get("evalue"))
            elif t == "stream":
                s = re.search(r"(?m)^exit status ([0-9]+)\s*$", m["content"].get("text", ""))
                if s and s.group(1) != "0" and error is None:
                    error = "a command failed: " + s.group(0).strip()
            elif t == "status" and m["content"].get("execution_state") == "idle":
                break
        return wall, error

    def stop(self):
        # A shutdown request, not a kill: GoNB then stops the gopls it may have started.
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=False)


def warm_cells(path):
    """The set-up cells and one blank import per package, as the image's warm-up does."""
    setup = []
    for src in kernel_check.code_cells(path):
        if not kernel_check.only_magic(src):
            break
        setup.append(src)
    return setup + ['import _ "%s"\n\n%%%%\n' % p for p in kernel_check.imports([path])]


def read_new(log, pos):
    with open(log) as f:
        f.seek(pos)
        lines = f.readlines()
        return [parse_log_line(l) for l in lines if l.strip()], f.tell()


def measure(path, wrapdir, log, extra_env, warm_env=None):
    """The per-cell records of one notebook (after a warm-up kernel, with warm_env added)."""
    name = os.path.basename(path)
    k = Kernel(wrapdir, log, dict(extra_env, **(warm_env or {})))
    try:
        for src in warm_cells(path):
            _, err = k.execute(src)
            if err:
                raise SystemExit("cellcost: %s: warm-up cell failed: %s\n%s" % (name, err, src))
    finally:
        k.stop()
    k = Kernel(wrapdir, log, extra_env)
    cells = []
    try:
        pos = os.path.getsize(log)
        for i, src in enumerate(kernel_check.code_cells(path)):
            own0, ch0 = proc_cpu(k.pid)
            wall, err = k.execute(src)
            own1, ch1 = proc_cpu(k.pid)
            if err:
                raise SystemExit("cellcost: %s: cell %d failed: %s" % (name, i + 1, err))
            recs, pos = read_new(log, pos)
            build = [r for r in recs if r[0] == "build"]
            tools = [r for r in recs if r[0] not in ("build", "nested")]
            c = {
                "wall": wall,
                "build_wall": sum(r[1] for r in build),
                "build_cpu": sum(r[2] for r in build),
                "tools_wall": sum(r[1] for r in tools),
                "tools_cpu": sum(r[2] for r in tools),
                "goimports_cpu": sum(r[2] for r in tools if r[0] == "goimports"),
                "get_cpu": sum(r[2] for r in tools if r[0] == "go get"),
                "gonb_cpu": own1 - own0,
                "builds": len(build),
                "tools": sorted({r[0] for r in tools}),
            }
            c["run_cpu"] = max(0.0, (ch1 - ch0) - c["build_cpu"] - c["tools_cpu"])
            c["cpu"] = c["gonb_cpu"] + c["build_cpu"] + c["tools_cpu"] + c["run_cpu"]
            cells.append(c)
    finally:
        k.stop()
    if not any(c["builds"] for c in cells):
        raise SystemExit("cellcost: %s: no `go build` observed: the measurement broke" % name)
    return cells


HUB_CONFIG = os.path.join(HERE, "hub", "jupyterhub_config.py")


def hub_env():
    """The Go settings the classroom hub gives every student's server (jupyterhub_config.py's
    c.Spawner.environment, their defaults), but PATH and GOMODCACHE (this machine's)."""
    text = open(HUB_CONFIG).read()
    env = {"GOPROXY": "off", "GOSUMDB": "off", "GOTOOLCHAIN": "local"}
    for key, var in (("GOFLAGS", "SOD_HUB_GOFLAGS"), ("GOMEMLIMIT", "SOD_HUB_GOMEMLIMIT")):
        m = re.search(r'"%s": env\("%s", "([^"]*)"\)' % (key, var), text)
        if not m:
            raise SystemExit("cellcost: --hub: no %s default found in %s" % (key, HUB_CONFIG))
        env[key] = m.group(1)
    for key, value in env.items():
        if not re.search(r'"%s": [^\n]*"%s"' % (key, re.escape(value)), text):
            raise SystemExit("cellcost: --hub: %s=%s is not what %s sets" % (key, value, HUB_CONFIG))
    return env


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def med(xs):
    return statistics.median(xs) if xs else 0.0


COLUMNS = ["Notebook", "cells", "wall median", "wall p90", "wall total", "build wall median",
           "build CPU median", "tools wall median", "tools CPU median", "goimports CPU median", "go get CPU median", "GoNB CPU median", "run CPU median", "cell CPU median"]


def row(label, cells):
    built = [c for c in cells if c["builds"]]
    return [label, str(len(cells)),
            "%.2f" % med([c["wall"] for c in cells]),
            "%.2f" % p90([c["wall"] for c in cells]),
            "%.1f" % sum(c["wall"] for c in cells),
            "%.2f" % med([c["build_wall"] for c in built]),
            "%.2f" % med([c["build_cpu"] for c in built]),
            "%.2f" % med([c["tools_wall"] for c in cells]),
            "%.2f" % med([c["tools_cpu"] for c in cells]),
            "%.2f" % med([c["goimports_cpu"] for c in cells]),
            "%.2f" % med([c["get_cpu"] for c in cells]),
            "%.2f" % med([c["gonb_cpu"] for c in cells]),
            "%.2f" % med([c["run_cpu"] for c in cells]),
            "%.2f" % med([c["cpu"] for c in cells])]


def table(rows):
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def machine(extra_env, hub=False):
    go = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    gomaxprocs = os.environ.get("GOMAXPROCS") or "unset (= %d)" % os.cpu_count()
    facts = ["- cores: %d (%s)" % (os.cpu_count(), platform.machine()),
             "- GOMAXPROCS: %s" % gomaxprocs,
             "- %s" % go]
    spec_env = {k: v for k, v in (KernelManager(kernel_name="gonb").kernel_spec.env or {}).items() if k != "PATH"}
    if spec_env:
        facts.append("- the kernel spec's environment: " + ", ".join("`%s=%s`" % kv for kv in sorted(spec_env.items())))
    if hub:
        facts.append("- the classroom hub's Go settings (--hub: docker/hub/jupyterhub_config.py's defaults; "
                     "SHARED filled by the warm-up kernels, STUDENT empty at the start)")
    if extra_env:
        facts.append("- kernel environment added: " + ", ".join("`%s=%s`" % kv for kv in sorted(extra_env.items())))
    return "\n".join(facts)


def report(command, results, extra_env, per_cell, hub=False):
    allcells = [c for _, cells in results for c in cells]
    rows = [row(n.replace(".ipynb", ""), cells) for n, cells in results]
    if len(results) > 1:
        rows.append(row("**all notebooks**", allcells))
    lines = [
        "# What a cell costs",
        "",
        "Generated by scripts/cellcost.sh; do not edit. Regenerate with:",
        "",
        "    " + command,
        "",
        "Every code cell of each notebook as the gonb kernel runs it, with a warm build cache (a",
        "kernel first compiles what the notebook imports), in seconds. *wall*: from the execute",
        "request to the reply. *build*: the `go build` GoNB runs for the cell (compile and link; the",
        "CPU of the go command, the compiler and the linker), over the cells that build a program.",
        "*tools*: goimports and `go get`, which GoNB runs before each build, and the go commands of",
        "`!` lines (the set-up cell). *GoNB*: the kernel process's own CPU. *run*: the cell's program",
        "(and its `!` lines). *cell CPU*: all four. Medians and the 90th percentile are over a",
        "notebook's cells; the last row over all cells of all notebooks.",
        "",
        machine(extra_env, hub),
        "",
        table(rows),
    ]
    if per_cell:
        for n, cells in results:
            lines += ["", "## " + n, "", "| cell | wall | build wall | build CPU | tools CPU | goimports CPU | go get CPU | GoNB CPU | run CPU |",
                      "|---|---|---|---|---|---|---|---|---|"]
            for i, c in enumerate(cells):
                lines.append("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
                    i + 1, c["wall"], c["build_wall"], c["build_cpu"], c["tools_cpu"], c["goimports_cpu"],
                    c["get_cpu"], c["gonb_cpu"], c["run_cpu"]))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description="Per-cell cost of the notebooks under the gonb kernel.")
    ap.add_argument("--quick", action="store_true", help="only " + QUICK + " (the test command's form)")
    ap.add_argument("--out", help="also write the report to this file")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="add to the kernel's environment (to measure a setting)")
    ap.add_argument("--cells", action="store_true", help="also list every cell")
    ap.add_argument("--hub", action="store_true",
                    help="the classroom hub's Go settings: its GOFLAGS, GOPROXY=off, ..., and sod-gocache "
                         "over a shared read-only cache that the warm-up kernel fills (--env overrides)")
    ap.add_argument("--log", help="keep the wrappers' records (program, wall, CPU, arguments) in this file")
    ap.add_argument("--command", default="scripts/cellcost.sh", help=argparse.SUPPRESS)
    ap.add_argument("notebooks", nargs="*", help="notebook files (default: notebooks/*.ipynb)")
    a = ap.parse_args()
    extra_env = {}
    for kv in a.env:
        if "=" not in kv:
            ap.error("--env %r: want KEY=VALUE" % kv)
        k, v = kv.split("=", 1)
        extra_env[k] = v
    if a.quick and a.notebooks:
        ap.error("--quick runs %s only: give no notebooks with it" % QUICK)
    paths = [os.path.join(NOTEBOOKS, QUICK)] if a.quick else [os.path.abspath(p) for p in a.notebooks]
    if not paths:
        paths = sorted(os.path.join(NOTEBOOKS, f) for f in os.listdir(NOTEBOOKS) if f.endswith(".ipynb"))
    for p in paths:
        if not os.path.isfile(p) or not p.endswith(".ipynb"):
            ap.error("%s: not a notebook file (.ipynb)" % p)
        if os.path.dirname(p) != NOTEBOOKS:
            ap.error("%s: only the notebooks of %s (their first cell finds the module from there)" % (p, NOTEBOOKS))

    with tempfile.TemporaryDirectory(prefix="cellcost-") as tmp:
        extra_real = {}
        kpath = KernelManager(kernel_name="gonb").kernel_spec.env.get("PATH", "").replace("${PATH}", os.environ.get("PATH", ""))
        src = os.path.join(tmp, "src")
        os.mkdir(src)
        with open(os.path.join(src, "main.go"), "w") as f:
            f.write(WRAPPER)
        with open(os.path.join(src, "go.mod"), "w") as f:
            f.write("module cellcostwrapper\n\ngo 1.21\n")
        wrapdir = os.path.join(tmp, "bin")
        os.mkdir(wrapdir)
        env = dict(os.environ, GOFLAGS="", GOWORK="off")
        subprocess.run(["go", "build", "-o", os.path.join(wrapdir, "go")], cwd=src, env=env, check=True)
        os.link(os.path.join(wrapdir, "go"), os.path.join(wrapdir, "goimports"))
        for name in ("go", "goimports"):
            real = shutil.which(name, path=kpath)
            if not real:
                raise SystemExit("cellcost: %s not found on the kernel's PATH %s" % (name, kpath))
            extra_real["CELLCOST_REAL_" + name.upper()] = real
        log = os.path.join(tmp, "tools.log")
        open(log, "w").close()
        kernel_env, warm_env = dict(extra_real), {}
        if a.hub:
            # As docker/hub/Dockerfile: sod-gocache built from its source; the shared layer
            # filled by the warm-up kernels, read-only for the measured ones, which write to a
            # student's layer of their own.
            gocache = os.path.join(wrapdir, "sod-gocache")
            subprocess.run(["go", "build", "-trimpath", "-o", gocache, "./docker/hub/gocache"],
                           cwd=REPO, env=dict(os.environ, GOFLAGS=""), check=True)
            shared, student = os.path.join(tmp, "shared"), os.path.join(tmp, "student")
            kernel_env.update(hub_env())
            kernel_env["GOCACHEPROG"] = "%s -ro %s -rw %s" % (gocache, shared, student)
            if "GOCACHEPROG" not in extra_env:  # --env GOCACHEPROG= measures the hub without it
                warm_env["GOCACHEPROG"] = "%s -rw %s" % (gocache, shared)
            hub_shown = {k: v for k, v in hub_env().items()}
            hub_shown["GOCACHEPROG"] = "sod-gocache -ro SHARED -rw STUDENT"
        kernel_env.update(extra_env)
        results = []
        for p in paths:
            t0 = time.time()
            cells = measure(p, wrapdir, log, kernel_env, warm_env)
            print("cellcost: %s: %d cells in %.0f s" % (os.path.basename(p), len(cells), time.time() - t0),
                  file=sys.stderr, flush=True)
            results.append((os.path.basename(p), cells))
        if a.log:
            shutil.copy(log, a.log)
    shown = extra_env
    if a.hub:
        shown = dict(hub_shown, **extra_env)
    text = report(a.command, results, shown, a.cells, a.hub)
    print(text, end="")
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
