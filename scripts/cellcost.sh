#!/usr/bin/env bash
# scripts/cellcost.sh — what each Go cell of the notebooks costs under the gonb kernel. Prints the
# report; the full run also writes it to notebooks/CELLCOST.md.
#
#   scripts/cellcost.sh                       every notebooks/*.ipynb, one at a time: notebooks/CELLCOST.md
#   scripts/cellcost.sh notebooks/07-*.ipynb  only these notebooks (printed only)
#   scripts/cellcost.sh --quick               only notebook 00 (printed only; the test command's form)
#   scripts/cellcost.sh --env KEY=VALUE       add to the kernel's environment, to measure a setting
#                                            before it goes into the kernel spec (printed only)
#   scripts/cellcost.sh --hub                 with the classroom hub's Go settings (docker/hub/jupyterhub_config.py:
#                                            its GOFLAGS, GOPROXY=off, ..., sod-gocache over a shared
#                                            read-only cache the warm-up kernels fill); printed only
#   scripts/cellcost.sh --out FILE            (also) write the report to FILE
#   scripts/cellcost.sh --cells               also list every cell
#   scripts/cellcost.sh --log FILE            keep the wrappers' records (program, wall, CPU, arguments)
#
# For each notebook a first kernel warms the build cache, a second runs the code cells one by one:
# wall time per cell, and its CPU split into the build (go build: compile + link), the tools GoNB
# runs before it (goimports, go get), GoNB itself and the cell's program (scripts/cellcost.py says
# how). It uses the installed gonb kernel spec (scripts/install.sh), so it runs what a reader runs.
# A failing cell, or no build observed, exits 1. Speed is reported, never asserted.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
export PATH="${SOD_BIN:-$HOME/.local/bin}:/usr/local/bin:/usr/local/go/bin:$PATH"
export PYDEVD_DISABLE_FILE_VALIDATION=1

out="" partial=0 quick=0 args=() cmd=(scripts/cellcost.sh)
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) partial=1 quick=1 args+=(--quick) cmd+=(--quick) ;;
  --cells) args+=(--cells) cmd+=(--cells) ;;
  --hub) partial=1 args+=(--hub) cmd+=(--hub) ;;
  --out | --log)
    [ $# -ge 2 ] || { echo "cellcost.sh: $1 needs a file" >&2; exit 2; }
    if [ "$1" = --out ]; then out=$2; else args+=(--log "$2"); fi
    shift
    ;;
  --env)
    if [ $# -lt 2 ] || [[ $2 != *=* ]]; then
      echo "cellcost.sh: --env needs KEY=VALUE" >&2
      exit 2
    fi
    partial=1 args+=(--env "$2") cmd+=(--env "$2")
    shift
    ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "cellcost.sh: unknown option $1 (see --help)" >&2
    exit 2
    ;;
  *) partial=1 args+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")") cmd+=("$1") ;;
  esac
  shift
done
if [ -z "$out" ] && [ "$partial" = 0 ]; then out=notebooks/CELLCOST.md; fi

# Without Jupyter or the gonb kernel the quick form (the test command's) is skipped, as the notebook
# harness skips, unless SOD_REQUIRE_NOTEBOOKS=1.
specs=""
if command -v jupyter >/dev/null; then specs=$(jupyter kernelspec list 2>/dev/null || true); fi
if ! grep -qw gonb <<<"$specs"; then
  if [ "$quick" = 1 ] && [ "${SOD_REQUIRE_NOTEBOOKS:-}" != 1 ]; then
    echo "cell cost SKIPPED: Jupyter or the gonb kernel is not installed (scripts/install.sh)"
    exit 0
  fi
  echo "cellcost.sh: Jupyter or the gonb kernel is not installed: run scripts/install.sh" >&2
  exit 1
fi
# The Python that Jupyter itself runs (it has jupyter_client), not whatever python3 is first on PATH.
py=$(sed -n '1s/^#! *//p' "$(command -v jupyter)")
case "$py" in */python3*) ;; *) py=python3 ;; esac
"$py" -c 'import jupyter_client' 2>/dev/null || { echo "cellcost.sh: $py has no jupyter_client: run scripts/install.sh" >&2; exit 1; }
"$py" scripts/cellcost.py --command "${cmd[*]}" ${out:+--out "$out"} "${args[@]}"
