#!/bin/sh
# docker/healthcheck.sh — the image's HEALTHCHECK: is the notebook server answering?
#
# Asks the server's /api endpoint, which answers without a token (it only gives the server's
# version), on 127.0.0.1:$SOD_PORT (default 8888). Under JupyterHub the single-user server lives
# under $JUPYTERHUB_SERVICE_PREFIX, which is honoured too. Exit 0 = healthy.
port=${SOD_PORT:-8888}
prefix=${JUPYTERHUB_SERVICE_PREFIX:-/}
exec python3 - "http://127.0.0.1:$port${prefix%/}/api" <<'PY'
import json, sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
        json.load(r)["version"]
except Exception as e:
    print(f"unhealthy: {sys.argv[1]}: {e}")
    sys.exit(1)
PY
