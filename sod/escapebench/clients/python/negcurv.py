#!/usr/bin/env python3
"""Example escape in Python: step from the stalled point along u_n q_r^T
(the eigenvector of the smallest eigenvalue of grad f(XX^T) times the
right singular vector of X), scanning step lengths with h calls, and
propose the best point. Run by the benchmark:

    reproduce bench -profile quick -method 'exec:python3 sod/escapebench/clients/python/negcurv.py'
"""
import numpy as np

import sodescape


def escape(inst, rnd, oracle):
    cp = oracle.critical()
    if cp["lambda_n"] is None or cp["lambda_n"] >= 0 or cp["u_n"] is None:
        return []
    x = rnd["x"]
    q = cp["q_r"] if cp.get("q_r") is not None else np.eye(inst["r"])[0]
    d = np.outer(cp["u_n"], q)
    scale = max(np.linalg.norm(x), 1.0)
    best = None
    for t in scale * 2.0 ** -np.arange(0, 16):
        for s in (1.0, -1.0):
            y = x + s * t * d
            hy = oracle.h(y)
            if best is None or hy < best[0]:
                best = (hy, y, "u_n q_r t=%.3g" % (s * t))
    return [(best[1], best[2], 0)]


if __name__ == "__main__":
    sodescape.serve(escape)
