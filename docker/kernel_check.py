"""docker/kernel_check.py: run one Go cell through a running notebook server, as a browser would.

    python3 kernel_check.py BASE_URL TOKEN

It starts a gonb kernel with the server's REST API (POST /api/kernels), connects to the kernel's
websocket (/api/kernels/ID/channels), sends one execute_request, and checks that the kernel
prints 42. Then it shuts the kernel down. It exits 0 on success. docker/test-image.sh runs it
inside the container (`podman exec -i NAME python3 - URL TOKEN < docker/kernel_check.py`),
with the tornado that Jupyter Notebook 6 already needs, so the host needs no Jupyter.
"""

import asyncio
import json
import sys
import time
import uuid

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

CODE = 'import "fmt"\n\n%%\nfmt.Println(6 * 7)\n'
WANT = "42"


async def main(base, token):
    http = AsyncHTTPClient()
    auth = {"Authorization": "token " + token}
    r = await http.fetch(base + "/api/kernels", method="POST", headers=auth,
                         body=json.dumps({"name": "gonb"}))
    kid = json.loads(r.body)["id"]
    t0 = time.time()
    try:
        ws = await websocket_connect(HTTPRequest(
            "ws" + base[len("http"):] + "/api/kernels/" + kid + "/channels", headers=auth))
        msg_id = uuid.uuid4().hex
        ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": "kernel_check", "session": uuid.uuid4().hex,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": CODE, "silent": False, "store_history": False,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
        }))
        out, status, idle = "", None, False
        while not (status and idle):
            raw = await asyncio.wait_for(ws.read_message(), timeout=max(1, 180 - (time.time() - t0)))
            if raw is None:
                sys.exit("the kernel's websocket closed")
            m = json.loads(raw)
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = m["header"]["msg_type"]
            if kind == "stream":
                out += m["content"]["text"]
            elif kind == "error":
                sys.exit("the cell failed: %s: %s" % (m["content"]["ename"], m["content"]["evalue"]))
            elif kind == "execute_reply":
                status = m["content"]["status"]
            elif kind == "status" and m["content"]["execution_state"] == "idle":
                idle = True
        ws.close()
        print("  kernel %s: execute_reply %s in %.1f s, output %r" % (kid[:8], status, time.time() - t0, out.strip()))
        if status != "ok" or out.strip() != WANT:
            sys.exit("expected status ok and output %r" % WANT)
    finally:
        await http.fetch(base + "/api/kernels/" + kid, method="DELETE", headers=auth)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: kernel_check.py BASE_URL TOKEN")
    asyncio.run(main(sys.argv[1].rstrip("/"), sys.argv[2]))
