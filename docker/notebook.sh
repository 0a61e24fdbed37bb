#!/usr/bin/env bash
# docker/notebook.sh — serve the SOD Workbench notebooks with Jupyter Notebook.
#
#   docker/notebook.sh [--ip ADDR] [--port PORT] [--no-browser] [extra jupyter options...]
#
# Binds to 127.0.0.1:8888 by default. Token authentication is always on: the token is
# $SOD_TOKEN (or $JUPYTER_TOKEN) if set, otherwise a fresh random one, printed with the URL.
# Binding to another address (e.g. --ip 0.0.0.0 in a container) keeps the token.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ip=127.0.0.1 port=8888 browser=--no-browser
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
  --ip) ip=$2; shift 2 ;;
  --ip=*) ip=${1#--ip=}; shift ;;
  --port) port=$2; shift 2 ;;
  --port=*) port=${1#--port=}; shift ;;
  --browser) browser=; shift ;;
  --no-browser) browser=--no-browser; shift ;;
  -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) extra+=("$1"); shift ;;
  esac
done

for arg in "${extra[@]}"; do
  case "$arg" in
  *token=\'\'* | *token=\"\"* | *token= | *password=*)
    echo "notebook.sh: refusing '$arg': token authentication stays on (set SOD_TOKEN to choose the token)" >&2
    exit 2
    ;;
  esac
done

command -v jupyter >/dev/null || {
  echo "notebook.sh: jupyter not found. Run docker/install.sh first (see README)." >&2
  exit 1
}
# gonb and goimports live where docker/install.sh put them.
export PATH="${SOD_BIN:-$HOME/.local/bin}:/usr/local/bin:/usr/local/go/bin:$PATH"
jupyter kernelspec list 2>/dev/null | grep -qw gonb || {
  echo "notebook.sh: the gonb kernel is not installed. Run docker/install.sh --user first." >&2
  exit 1
}

token=${SOD_TOKEN:-${JUPYTER_TOKEN:-}}
if [ -z "$token" ]; then
  token=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
fi
[ ${#token} -ge 8 ] || {
  echo "notebook.sh: the token must have at least 8 characters" >&2
  exit 2
}
export JUPYTER_TOKEN=$token

[ "$(id -u)" = 0 ] && extra+=(--allow-root)

host=$ip
[ "$ip" = 0.0.0.0 ] && host=127.0.0.1
echo "SOD Workbench: serving $repo/notebooks"
echo "Open this URL in your browser:"
echo
echo "    http://$host:$port/tree?token=$token"
echo
exec jupyter notebook --notebook-dir="$repo/notebooks" --ip="$ip" --port="$port" --port-retries=0 \
  $browser --NotebookApp.token="$token" "${extra[@]}"
