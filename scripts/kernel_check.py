"""scripts/kernel_check.py: run Go cells through a running notebook server, as a browser would.

    python3 kernel_check.py BASE_URL TOKEN                 # one cell that must print 42
    python3 kernel_check.py BASE_URL TOKEN NOTEBOOK...     # the first cells of each notebook, timed

It opens a session with a gonb kernel through the server's REST API (POST /api/sessions, as
JupyterLab and Notebook 6 do when a notebook is opened), connects to the kernel's websocket
(/api/kernels/ID/channels) and sends execute_requests. Then it deletes the session. It exits 0 on
success.

With NOTEBOOK arguments (paths relative to the server's root, readable at ~/notebooks/NOTEBOOK, as in
the image), each notebook gets a fresh kernel and runs its code
cells up to and including its first cell (below); it prints how long that took from the session
request (kernel start included) and how long the first cell itself took: the first-cell latency a
student sees. A cell error fails.

    python3 kernel_check.py --imports NOTEBOOK...          # the packages the notebooks' cells import
    python3 kernel_check.py --warm-notebooks DIR NOTEBOOK...  # notebooks that compile those (image build)

The first cell of a notebook, here, is its first cell that runs code (a `%%` line or a func main),
with the cells before it (the go.mod set-up, imports, declarations). The warm notebooks (used by
docker/image-build.sh to fill the image's build cache) are each notebook's set-up cells (only `!`
or `%` lines) and, for each package the notebook's cells import (and no notebook before it), a cell
that imports it blank: running them compiles those packages, and none of the notebook's own
computations runs.

docker/test-image.sh runs it inside the container (`podman exec -i NAME python3 - URL TOKEN ... <
scripts/kernel_check.py`), with the tornado that Jupyter already needs, so the host needs no Jupyter.
"""

import asyncio
import json
import os
import re
import sys
import time
import uuid

CODE = 'import "fmt"\n\n%%\nfmt.Println(6 * 7)\n'
WANT = "42"
TIMEOUT = 300


def code_cells(path):
    """The sources of a notebook's code cells, without the live-only ones (they need a browser)."""
    return ["".join(c["source"]) for c in json.load(open(path))["cells"]
            if c["cell_type"] == "code" and "live-only" not in c.get("metadata", {}).get("tags", [])]


def runs_code(src):
    """Whether a GoNB cell runs code: a `%%` line or a func main (else it only declares)."""
    return re.search(r"(?m)^(%%|func\s+main\s*\()", src) is not None


def only_magic(src):
    """Whether a cell has only shell (!) and magic (%) lines: the go.mod set-up."""
    return all(not l.strip() or l.lstrip().startswith(("!", "%")) for l in src.splitlines())


def first_cells(path):
    """The code cells of a notebook up to and including its first cell that runs code."""
    cells = []
    for src in code_cells(path):
        cells.append(src)
        if runs_code(src):
            break
    return cells


def imports(paths, live=True):
    """The packages the code cells of the notebooks import (live-only cells too: a browser runs them)."""
    seen = set()
    for path in paths:
        for c in json.load(open(path))["cells"]:
            if c["cell_type"] != "code":
                continue
            src = "".join(c["source"])
            for block in (re.findall(r"(?ms)^import\s*\((.*?)\)", src) +
                          re.findall(r'(?m)^import\s+((?:[\w.]+\s+)?"[^"]+")', src)):
                seen.update(re.findall(r'"([^"]+)"', block))
    return sorted(seen)


def warm_notebooks(out, paths):
    """Writes, for each notebook, its set-up cells and a cell per package it imports that no
    notebook before it imports (no notebook if there is no such package)."""
    os.makedirs(out, exist_ok=True)
    seen = set()
    for path in paths:
        nb = json.load(open(path))
        setup = []
        for src in code_cells(path):
            if not only_magic(src):
                break
            setup.append(src)
        # One cell per package: GoNB keeps one import per name, so several blank (_) imports in one
        # cell would leave only the last.
        pkgs = [p for p in imports([path]) if p not in seen]
        if not pkgs:
            continue
        seen.update(pkgs)
        warm = ['import _ "%s"\n\n%%%%\n' % p for p in pkgs]
        nb["cells"] = [{"cell_type": "code", "execution_count": None, "id": "warm%d" % i, "metadata": {},
                        "outputs": [], "source": src} for i, src in enumerate(setup + warm)]
        json.dump(nb, open(os.path.join(out, os.path.basename(path)), "w"))


async def session(http, base, auth, path):
    r = await http.fetch(base + "/api/sessions", method="POST", headers=auth, body=json.dumps(
        {"path": path, "name": os.path.basename(path), "type": "notebook", "kernel": {"name": "gonb"}}))
    s = json.loads(r.body)
    return s["id"], s["kernel"]["id"]


async def execute(ws, code, t0):
    """Runs code; returns (status, stdout) or exits on a cell error."""
    msg_id = uuid.uuid4().hex
    ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "username": "kernel_check", "session": uuid.uuid4().hex,
                   "msg_type": "execute_request", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell",
        "content": {"code": code, "silent": False, "store_history": True,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
    }))
    out, status, idle = "", None, False
    while not (status and idle):
        raw = await asyncio.wait_for(ws.read_message(), timeout=max(1, TIMEOUT - (time.time() - t0)))
        if raw is None:
            sys.exit("the kernel's websocket closed")
        m = json.loads(raw)
        if m.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind = m["header"]["msg_type"]
        if kind == "stream":
            out += m["content"]["text"]
        elif kind == "error":
            sys.exit("the cell failed: %s: %s\n%s" % (m["content"]["ename"], m["content"]["evalue"], code))
        elif kind == "execute_reply":
            status = m["content"]["status"]
        elif kind == "status" and m["content"]["execution_state"] == "idle":
            idle = True
    if status != "ok":
        sys.exit("the cell ended with status %s:\n%s" % (status, code))
    for line in out.splitlines():
        if line.startswith("exit status ") and line.split()[-1] != "0":
            sys.exit("a ! line failed (%s):\n%s" % (line, code))
    return status, out


async def run(base, auth, path, cells):
    """Runs the cells in a new session; returns the time from the session request, the time of
    the last cell, and the output."""
    # tornado (Jupyter's own) only here: --imports and --warm-notebooks need nothing but Python.
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect
    http = AsyncHTTPClient()
    t0 = time.time()
    sid, kid = await session(http, base, auth, path)
    try:
        ws = await websocket_connect(HTTPRequest(
            "ws" + base[len("http"):] + "/api/kernels/" + kid + "/channels", headers=auth))
        out, last = "", 0.0
        for code in cells:
            t1 = time.time()
            _, o = await execute(ws, code, t0)
            last = time.time() - t1
            out += o
        ws.close()
        return time.time() - t0, last, out
    finally:
        await http.fetch(base + "/api/sessions/" + sid, method="DELETE", headers=auth)


async def main(base, token, notebooks):
    auth = {"Authorization": "token " + token}
    if not notebooks:
        total, _, out = await run(base, auth, "kernel_check.ipynb", [CODE])
        print("  a Go cell through the server: %.1f s (kernel start included), output %r" % (total, out.strip()))
        if out.strip() != WANT:
            sys.exit("expected the output %r" % WANT)
        return
    root = os.path.expanduser("~/notebooks")
    for nb in notebooks:
        cells = first_cells(os.path.join(root, nb))
        if not cells:
            sys.exit("%s has no code cell" % nb)
        total, last, out = await run(base, auth, nb, cells)
        lines = [l for l in out.splitlines() if l.strip() and not l.startswith("workbench module:")]
        print("  first-cell latency %-40s %5.1f s from opening it; its first cell (code cell %d) %5.1f s: %s"
              % (nb, total, len(cells), last, (lines[0][:50] + "…") if lines else "(no text output)"))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--imports":
        print(" ".join(imports(sys.argv[2:])))
        sys.exit(0)
    if len(sys.argv) >= 3 and sys.argv[1] == "--warm-notebooks":
        warm_notebooks(sys.argv[2], sys.argv[3:])
        sys.exit(0)
    if len(sys.argv) < 3:
        sys.exit("usage: kernel_check.py BASE_URL TOKEN [NOTEBOOK...]")
    asyncio.run(main(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3:]))
