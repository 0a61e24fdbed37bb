"""docker/hub/hub_check.py: drives a running hub through its REST APIs, as docker/test-hub.sh asks.

    python3 hub_check.py HUB_URL PHASE STATE_FILE USER:PASSWORD...

It runs inside the hub's container (podman exec -i NAME python3 - ... < hub_check.py), with the
Python and tornado that JupyterHub already has. Each check prints one line, `CHECK<TAB>name<TAB>
ok|FAIL<TAB>detail`, which test-hub.sh collects into its table; the exit status is 1 if any
check failed. Phases:

  login     log each user in (POST /hub/api/users/NAME/tokens with the password), start their
            servers, run a Go cell that uses the workbench in each (REST + kernel websocket),
            save an edited notebook; A's token against B's server and files, requests without a
            token. Tokens are written to STATE_FILE for the later phases.
  restart   after the hub was restarted: the old tokens still work, the servers start again and
            each student's work (the file their cell wrote, their edited notebook) is there.
  cull      an idle kernel is shut down and an idle server stops, within the configured times.
  load      K students at once open a notebook and run its code cells; per-cell latency.
"""

import asyncio
import json
import statistics
import sys
import time
import urllib.error
import urllib.request
import uuid

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

FAILED = False


def check(name, ok, detail=""):
    global FAILED
    FAILED |= not ok
    print("CHECK\t%s\t%s\t%s" % (name, "ok" if ok else "FAIL", str(detail).replace("\n", " ")[:160]), flush=True)
    return ok


def call(base, method, path, token=None, body=None, timeout=180):
    """An HTTP request; returns (status, parsed JSON or text). Redirects are not followed."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "token " + token
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=timeout) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode(errors="replace")


def login(base, name, password):
    st, r = call(base, "POST", "/hub/api/users/%s/tokens" % name,
                 body={"auth": {"username": name, "password": password}, "note": "test-hub", "expires_in": 7200})
    if st in (200, 201) and isinstance(r, dict):
        return r["token"]
    LAST_LOGIN_ERROR[0] = "HTTP %d %s" % (st, str(r)[:100])
    return None


LAST_LOGIN_ERROR = [""]


def start_server(base, name, token, timeout=180):
    t0 = time.time()
    st, _ = call(base, "POST", "/hub/api/users/%s/server" % name, token)
    if st not in (201, 202, 400):  # 400: already running
        return None, "POST server: HTTP %d" % st
    while time.time() - t0 < timeout:
        st, u = call(base, "GET", "/hub/api/users/%s" % name, token)
        srv = (u or {}).get("servers", {}).get("") if st == 200 else None
        if srv and srv.get("ready"):
            return time.time() - t0, ""
        time.sleep(1)
    return None, "not ready after %ds" % timeout


def server_running(base, name, token):
    st, u = call(base, "GET", "/hub/api/users/%s" % name, token)
    return st == 200 and bool((u or {}).get("servers", {}).get(""))


async def run_cells(base, name, token, cells, timeout=300):
    """Starts a gonb kernel on NAME's server, runs the cells in order; returns (outputs,
    seconds per cell, error). The kernel is left running (the cull phase relies on it)."""
    auth = {"Authorization": "token " + token}
    st, k = call(base, "POST", "/user/%s/api/kernels" % name, token, {"name": "gonb"})
    if st != 201:
        return None, None, "POST kernels: HTTP %d %s" % (st, str(k)[:80]), None
    kid = k["id"]
    ws = await websocket_connect(HTTPRequest(
        "ws" + base[len("http"):] + "/user/%s/api/kernels/%s/channels" % (name, kid), headers=auth,
        connect_timeout=180, request_timeout=180))
    outs, times = [], []
    for code in cells:
        t0 = time.time()
        msg_id = uuid.uuid4().hex
        ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": name, "session": uuid.uuid4().hex,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        out, status, idle = "", None, False
        while not (status and idle):
            raw = await asyncio.wait_for(ws.read_message(), timeout=timeout)
            if raw is None:
                return outs, times, "websocket closed", kid
            m = json.loads(raw)
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = m["header"]["msg_type"]
            if kind == "stream":
                out += m["content"]["text"]
            elif kind == "error":
                return outs, times, "cell failed: %s: %s" % (m["content"]["ename"], m["content"]["evalue"][:200]), kid
            elif kind == "execute_reply":
                status = m["content"]["status"]
            elif kind == "status" and m["content"]["execution_state"] == "idle":
                idle = True
        times.append(time.time() - t0)
        outs.append(out)
    ws.close()
    return outs, times, "", kid


def setup_cell(base, name, token, notebook):
    """The first code cell of one of the student's notebooks (the setup line)."""
    st, nb = call(base, "GET", "/user/%s/api/contents/notebooks/%s" % (name, notebook), token)
    if st != 200:
        return None, None
    cells = [c for c in nb["content"]["cells"] if c["cell_type"] == "code"]
    return nb, cells


WORK_CELL = ('import (\n\t"fmt"\n\t"os"\n\t"strings"\n\n\t"sodworkbench.org/workbench/sod"\n)\n\n%%\nerr := os.WriteFile("hub-check.txt", []byte("work of "+os.Getenv("USER")), 0o644)\n'
             'fmt.Println(sod.ModulePath, err, os.Getuid())\n'
             '_, err = os.ReadDir("/srv/homes/OTHER")\nfmt.Println("neighbour:", err)\n'
             '_, err = os.ReadDir("/opt/sod-workbench/notebooks")\nfmt.Println("instructor:", err)\n'
             'err = os.WriteFile("/opt/sod-gocache/hub-check", nil, 0o644)\nfmt.Println("shared cache:", err)\n'
             'status, _ := os.ReadFile("/proc/self/status")\nfor _, l := range strings.Split(string(status), "\\n") {\n'
             '\tif strings.HasPrefix(l, "Cap") || strings.HasPrefix(l, "NoNewPrivs") {\n\t\tfmt.Println(l)\n\t}\n}\n')
# A student's kernel has no capability and can gain none (jupyterhub_config.py, without_privileges).
NO_PRIVILEGES = ["CapInh:\t0000000000000000", "CapPrm:\t0000000000000000", "CapEff:\t0000000000000000",
                 "CapBnd:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1"]


def phase_login(base, state, users):
    names = [u for u, _ in users]
    tokens = {}
    for name, pw in users:
        tok = login(base, name, pw)
        check("login %s (REST, PAM password)" % name, tok is not None, "" if tok else LAST_LOGIN_ERROR[0])
        if tok:
            tokens[name] = tok
    check("wrong password refused", login(base, names[0], "not-the-password") is None)
    if len(tokens) < len(names):
        return
    for name in names:
        took, err = start_server(base, name, tokens[name])
        check("start %s's server" % name, took is not None, err or "%.1fs" % took)
    nbname = None
    for name in names:
        tok = tokens[name]
        st, listing = call(base, "GET", "/user/%s/api/contents/notebooks" % name, tok)
        files = sorted(x["name"] for x in (listing or {}).get("content", []) if x["name"].endswith(".ipynb")) if st == 200 else []
        if not check("%s has the notebooks in ~/notebooks" % name, len(files) > 0,
                     "%d notebooks" % len(files) if st == 200 else "HTTP %d %s" % (st, str(listing)[:100])):
            continue
        nbname = nbname or files[0]
        nb, cells = setup_cell(base, name, tok, nbname)
        other = names[(names.index(name) + 1) % len(names)]
        outs, times, err, _ = asyncio.run(run_cells(base, name, tok, [cells[0]["source"], WORK_CELL.replace("OTHER", other)]))
        ok = (not err and outs and "sodworkbench.org/workbench <nil>" in outs[-1] and outs[-1].count("permission denied") == 3
              and all(p in outs[-1] for p in NO_PRIVILEGES))
        check("%s runs a Go cell using sod, without any capability; cannot read B's home or the instructor's notebooks, "
              "nor write the shared build cache" % name, ok,
              err or "cells %.1fs + %.1fs; %s" % (times[0], times[1], outs[-1].strip()))
        # an edit to a notebook, saved through the contents API
        nb["content"]["cells"].append({"cell_type": "markdown", "metadata": {}, "source": "edited by " + name, "id": "edit-" + name})
        st, _ = call(base, "PUT", "/user/%s/api/contents/notebooks/%s" % (name, nbname), tok,
                     {"type": "notebook", "format": "json", "content": nb["content"]})
        check("%s saves an edited notebook" % name, st == 200, "HTTP %d" % st)
    a, b = names[0], names[1]
    for what, method, path in [
            ("B's contents", "GET", "/user/%s/api/contents" % b),
            ("B's file", "GET", "/user/%s/api/contents/hub-check.txt" % b),
            ("B's kernels", "POST", "/user/%s/api/kernels" % b),
            ("B's server via the hub", "DELETE", "/hub/api/users/%s/server" % b)]:
        st, _ = call(base, method, path, tokens[a], {"name": "gonb"} if method == "POST" else None)
        check("A's token on %s refused" % what, st in (403, 404), "%s %s -> HTTP %d" % (method, path, st))
    for path in ["/user/%s/api/contents" % a, "/user/%s/api/kernels" % b, "/user/%s/files/hub-check.txt" % a,
                 "/hub/api/users", "/hub/api/users/%s/tokens" % a]:
        st, _ = call(base, "GET", path)
        check("no token: %s refused" % path, st in (302, 401, 403), "HTTP %d" % st)
    st, _ = call(base, "GET", "/user/%s/api/contents" % a, "0" * 32)
    check("a made-up token refused", st in (302, 401, 403), "HTTP %d" % st)
    json.dump({"tokens": tokens, "notebook": nbname}, open(state, "w"))


def phase_restart(base, state, users):
    st = json.load(open(state))
    for name, _ in users:
        tok = st["tokens"][name]
        took, err = start_server(base, name, tok)
        check("after the hub restart %s's server starts (old token)" % name, took is not None, err or "%.1fs" % took)
        code, f = call(base, "GET", "/user/%s/api/contents/hub-check.txt" % name, tok)
        check("%s's file survived" % name, code == 200 and f.get("content") == "work of " + name,
              "HTTP %d %r" % (code, (f or {}).get("content") if isinstance(f, dict) else f))
        code, nb = call(base, "GET", "/user/%s/api/contents/notebooks/%s" % (name, st["notebook"]), tok)
        edited = code == 200 and any(c.get("source") == "edited by " + name for c in nb["content"]["cells"])
        check("%s's edited notebook survived" % name, edited)


def phase_cull(base, state, users, kernel_s, server_s):
    st = json.load(open(state))
    name = users[0][0]
    tok = st["tokens"][name]
    # a fresh server, so that the idle times start now
    call(base, "DELETE", "/hub/api/users/%s/server" % name, tok)
    for _ in range(60):
        if not server_running(base, name, tok):
            break
        time.sleep(1)
    took, err = start_server(base, name, tok)
    if err:
        check("cull: %s's server starts" % name, False, err)
        return
    _, _, err, kid = asyncio.run(run_cells(base, name, tok, ['%%\nfmt.Println("idle from now on")']))
    if err:
        check("cull: a cell runs", False, err)
        return
    t0 = time.time()
    gone_kernel = gone_server = None
    while time.time() - t0 < kernel_s + server_s + 120:
        # Requests to the server count as activity: ask it about its kernels only until the
        # kernel is gone, then ask only the hub whether the server still runs.
        if gone_kernel is None:
            code, ks = call(base, "GET", "/user/%s/api/kernels" % name, tok)
            if code == 200 and kid not in [k["id"] for k in ks]:
                gone_kernel = time.time() - t0
        if not server_running(base, name, tok):
            gone_server = time.time() - t0
            break
        time.sleep(2)
    check("idle kernel culled (cull_idle_timeout %ds)" % kernel_s, gone_kernel is not None,
          "after %.0fs" % gone_kernel if gone_kernel else "still there")
    check("idle server stopped (shutdown_no_activity_timeout %ds)" % server_s, gone_server is not None,
          "after %.0fs (%.0fs after its last kernel)" % (gone_server, gone_server - (gone_kernel or 0)) if gone_server else "still running")


async def one_student(base, name, tok, cells):
    took, err = start_server(base, name, tok)
    if err:
        return name, None, err
    outs, times, err, _ = await run_cells(base, name, tok, cells, timeout=900)
    return name, times, err


def phase_load(base, state, users, notebook):
    """K students at once: log in, start, open NOTEBOOK and run its code cells (those not tagged
    live-only). Prints per-cell latencies as LOAD lines for test-hub.sh."""
    tokens = {}
    for name, pw in users:
        tokens[name] = login(base, name, pw)
    nb, cells = setup_cell(base, users[0][0], tokens[users[0][0]], notebook) if start_server(base, users[0][0], tokens[users[0][0]])[0] else (None, None)
    if not cells:
        check("load: read %s" % notebook, False)
        return
    srcs = [c["source"] for c in cells if "live-only" not in c.get("metadata", {}).get("tags", [])]

    async def everyone():
        return await asyncio.gather(*[one_student(base, n, tokens[n], srcs) for n, _ in users])
    t0 = time.time()
    res = asyncio.run(everyone())
    wall = time.time() - t0
    lat = [t for _, times, _ in res if times for t in times]
    errs = [(n, e) for n, _, e in res if e]
    first = [times[0] for _, times, _ in res if times]
    if lat:
        lat.sort()
        p95 = lat[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))]
        print("LOAD\tk=%d\tcells=%d\tmedian=%.2f\tp95=%.2f\tmax=%.2f\tfirst_median=%.2f\twall=%.1f\terrors=%d" % (
            len(users), len(lat), statistics.median(lat), p95, lat[-1], statistics.median(first), wall, len(errs)), flush=True)
    check("load K=%d: every student ran every cell" % len(users), not errs, "; ".join("%s: %s" % e for e in errs[:2]))


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: hub_check.py HUB_URL PHASE STATE_FILE USER:PASSWORD... (see the docstring)")
    base, phase, state = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    if phase == "cull":
        kernel_s, server_s, args = int(args[0]), int(args[1]), args[2:]
    if phase == "load":
        notebook, args = args[0], args[1:]
    users = [tuple(a.split(":", 1)) for a in args]
    if phase == "login":
        phase_login(base, state, users)
    elif phase == "restart":
        phase_restart(base, state, users)
    elif phase == "cull":
        phase_cull(base, state, users, kernel_s, server_s)
    elif phase == "load":
        phase_load(base, state, users, notebook)
    else:
        sys.exit("unknown phase " + phase)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
