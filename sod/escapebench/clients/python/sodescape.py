"""Reference client of the SOD escape benchmark's protocol, version 1.

The benchmark (sod/escapebench, PROTOCOL.md) starts the program once per
run and talks JSON lines over its stdin and stdout. serve(escape) answers
the hello, then calls escape(inst, rnd, oracle) at each escape round and
sends back its candidates. Every oracle call is served (and counted) by
the benchmark. NumPy only.
"""
import json
import sys

import numpy as np

PROTOCOL = 1


def _num(v):
    return float("inf") if v is None else float(v)


class Oracle:
    """The benchmark's oracle calls at one round (each costs what the benchmark counts)."""

    def __init__(self, inst, rin, rout):
        self.n, self.r, self._in, self._out = inst["n"], inst["r"], rin, rout

    def _call(self, msg):
        _send(self._out, msg)
        return _recv(self._in)

    def h(self, x):
        """h(X) = 1/2 ||A(XX^T) - b||^2."""
        return _num(self._call({"type": "h", "x": np.ravel(x).tolist()})["h"])

    def grad(self, x):
        """(h(X), grad h(X)) as an n x r array."""
        m = self._call({"type": "grad", "x": np.ravel(x).tolist()})
        return _num(m["h"]), np.array(m["grad"], dtype=float).reshape(self.n, self.r)

    def hessvec(self, x, d):
        """The Hessian of h at X applied to D."""
        m = self._call({"type": "hessvec", "x": np.ravel(x).tolist(), "d": np.ravel(d).tolist()})
        return np.array(m["hv"], dtype=float).reshape(self.n, self.r)

    def critical(self):
        """The critical-point analysis at the stalled point (lambda_n, u_n, sigma_r, v_r, q_r, ...)."""
        m = self._call({"type": "critical"})
        return {k: (np.array(v, dtype=float) if isinstance(v, list) else v) for k, v in m.items()}


def _send(out, msg):
    out.write(json.dumps(msg, separators=(",", ":")) + "\n")
    out.flush()


def _recv(rin):
    line = rin.readline()
    if not line:
        sys.exit(0)  # the benchmark closed our input: the run is over
    return json.loads(line)


def serve(escape, rin=sys.stdin, out=sys.stdout):
    """Answer the benchmark: escape(inst, rnd, oracle) returns a list of
    (x, label, probe) candidates, x an n x r array (probe 0: judged by h)."""
    inst = _recv(rin)
    if inst.get("type") != "hello" or inst.get("sod_escape") != PROTOCOL:
        _send(out, {"type": "fail", "reason": "client speaks protocol %d, got %r" % (PROTOCOL, inst.get("sod_escape"))})
        return
    _send(out, {"type": "hello", "sod_escape": PROTOCOL})
    oracle = Oracle(inst, rin, out)
    while True:
        rnd = _recv(rin)
        if rnd.get("type") != "round":
            return  # "end"
        rnd["x"] = np.array(rnd["x"], dtype=float).reshape(inst["n"], inst["r"])
        try:
            cands = escape(inst, rnd, oracle)
        except Exception as e:  # the run ends with the reason, not a hang
            _send(out, {"type": "fail", "reason": "%s: %s" % (type(e).__name__, e)})
            continue
        _send(out, {"type": "propose", "candidates": [
            {"x": np.ravel(x).tolist(), "label": str(label), "probe": int(probe)} for x, label, probe in cands]})
