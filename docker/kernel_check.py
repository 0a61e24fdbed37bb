"""docker/kernel_check.py: run Go cells through a running notebook server, as a browser would.

    python3 kernel_check.py BASE_URL TOKEN                 # one cell that must print 42
    python3 kernel_check.py BASE_URL TOKEN NOTEBOOK...     # the first cells of each notebook, timed

It opens a session with a gonb kernel through the server's REST API (POST /api/sessions, as
JupyterLab and Notebook 6 do when a notebook is opened), connects to the kernel's websocket
(/api/kernels/ID/channels) and sends execute_requests. Then it deletes the session. It exits 0 on
success.

With NOTEBOOK arguments (paths relative to the server's root, readable at ROOT/NOTEBOOK where ROOT
is $SOD_NOTEBOOK_ROOT, default ~/notebooks), each notebook gets a fresh kernel and runs its code
cells up to and including its first Go cell (the cells before it are `!` or `%` lines, e.g. the
go.mod set-up); it prints how long that took from the session request (kernel start included): the first-cell
latency a student sees. A cell error fails.

docker/test-image.sh runs it inside the container (`podman exec -i NAME python3 - URL TOKEN ... <
docker/kernel_check.py`), with the tornado that Jupyter already needs, so the host needs no Jupyter.
"""

import asyncio
import json
import os
import sys
import time
import uuid

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

CODE = 'import "fmt"\n\n%%\nfmt.Println(6 * 7)\n'
WANT = "42"
TIMEOUT = 300


def first_cells(path):
    """The code cells of a notebook up to and including its first Go cell."""
    cells = []
    for c in json.load(open(path))["cells"]:
        if c["cell_type"] != "code" or "live-only" in c.get("metadata", {}).get("tags", []):
            continue
        src = "".join(c["source"])
        cells.append(src)
        if any(l.strip() and not l.lstrip().startswith(("!", "%")) for l in src.splitlines()):
            break
    return cells


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
    http = AsyncHTTPClient()
    t0 = time.time()
    sid, kid = await session(http, base, auth, path)
    try:
        ws = await websocket_connect(HTTPRequest(
            "ws" + base[len("http"):] + "/api/kernels/" + kid + "/channels", headers=auth))
        out = ""
        for code in cells:
            _, o = await execute(ws, code, t0)
            out += o
        ws.close()
        return time.time() - t0, out
    finally:
        await http.fetch(base + "/api/sessions/" + sid, method="DELETE", headers=auth)


async def main(base, token, notebooks):
    auth = {"Authorization": "token " + token}
    if not notebooks:
        total, out = await run(base, auth, "kernel_check.ipynb", [CODE])
        print("  a Go cell through the server: %.1f s (kernel start included), output %r" % (total, out.strip()))
        if out.strip() != WANT:
            sys.exit("expected the output %r" % WANT)
        return
    root = os.environ.get("SOD_NOTEBOOK_ROOT", os.path.expanduser("~/notebooks"))
    for nb in notebooks:
        cells = first_cells(os.path.join(root, nb))
        if not cells:
            sys.exit("%s has no code cell" % nb)
        total, _ = await run(base, auth, nb, cells)
        print("  first-cell latency %-45s %5.1f s (kernel start and the %d cell(s) up to the first Go cell)"
              % (nb, total, len(cells)))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: kernel_check.py BASE_URL TOKEN [NOTEBOOK...]")
    asyncio.run(main(sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3:]))
