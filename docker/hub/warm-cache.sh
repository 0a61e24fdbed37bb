#!/bin/sh
# warm-cache.sh DIR — fills DIR, a Go build cache, with what a student's notebooks compile: GoNB
# runs a notebook (as root, once, while the hub image is built) whose first cell is the
# notebooks' setup line, followed by one cell per package (every package of the workbench, and
# every package the notebooks' cells import), from a home laid out as a student's is. One cell
# per package, because GoNB keeps one import per name: several blank (_) imports in one cell
# leave only the last, and the others were never compiled. The students' GOFLAGS (-trimpath)
# make the cache keys the same for every home folder. docker/test-hub.sh checks that a
# student's build of those packages compiles none of them.
set -eu
cache=$1
module=/opt/sod-workbench
work=$(mktemp -d)
mkdir -p "$work/home/notebooks" "$cache"
for f in go.mod go.sum sod widgets; do ln -s "$module/$f" "$work/home/$f"; done
pkgs=$(cd "$module" && GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off go list ./sod/... ./widgets/... | grep -v '/cmd/' | grep -v '/internal/')
[ -n "$pkgs" ] || { echo "warm-cache.sh: go list found no packages in $module" >&2; exit 1; }
nbpkgs=$(python3 "$module/scripts/kernel_check.py" --imports "$module"/notebooks/[0-9]*.ipynb)
python3 - "$work/home/notebooks/warm.ipynb" "$pkgs $nbpkgs" <<'PY'
import json, sys
path, pkgs = sys.argv[1], sorted(set(sys.argv[2].split()))
setup = '!*cd "$GONB_DIR" && go run sodworkbench.org/workbench/sod/cmd/setup'  # the notebooks' set-up cell
cells = [setup] + ['import _ "%s"\n\n%%%%\n' % p for p in pkgs] + ['%%\nfmt.Println("warm-up: ok")\n']
cell = lambda s: {"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
json.dump({"cells": [cell(s) for s in cells], "metadata": {"kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
           "nbformat": 4, "nbformat_minor": 5}, open(path, "w"))
print("warm-cache.sh: %d packages, one cell each" % len(pkgs))
PY
# The students' Go settings (jupyterhub_config.py), with sod-gocache writing what the builds
# store into the shared folder: it then holds exactly the entries the students' builds look up.
export GOFLAGS="-mod=mod -p=1 -trimpath" GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local \
  GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} GOCACHE=$work/gocache \
  GOCACHEPROG="/usr/local/bin/sod-gocache -rw $cache" PYDEVD_DISABLE_FILE_VALIDATION=1
cd "$work/home/notebooks"
HOME=$work/home jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1200 --output-dir "$work/out" warm.ipynb
grep -q "warm-up: ok" "$work/out/warm.ipynb" || { echo "warm-cache.sh: the warm-up notebook failed" >&2; cat "$work/out/warm.ipynb" >&2; exit 1; }
echo "warm-cache.sh: $(du -sh "$cache" | cut -f1) in $cache (docker/test-hub.sh times a student's first cell)"
rm -rf "$work" /tmp/gonb_*
