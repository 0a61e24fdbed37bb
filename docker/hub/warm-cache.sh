#!/bin/sh
# warm-cache.sh DIR — fills DIR, a Go build cache, with what a student's notebooks compile: GoNB
# runs a notebook (as root, once, while the hub image is built) whose first cell is the
# notebooks' setup line and whose second imports every package of the workbench, from a home
# laid out as a student's is. The students' GOFLAGS (-trimpath) make the cache keys the same
# for every home folder.
set -eu
cache=$1
module=/opt/sod-workbench
work=$(mktemp -d)
mkdir -p "$work/home/notebooks" "$cache"
for f in go.mod go.sum sod widgets; do ln -s "$module/$f" "$work/home/$f"; done
pkgs=$(cd "$module" && GOFLAGS=-mod=mod GOPROXY=off go list ./sod/... ./widgets/... | grep -v '/cmd/' | grep -v '/internal/' || true)
python3 - "$work/home/notebooks/warm.ipynb" "$pkgs" <<'PY'
import json, sys
path, pkgs = sys.argv[1], sys.argv[2].split()
setup = ('!*go mod edit -require=sodworkbench.org/workbench@v0.0.0-00010101000000-000000000000 '
         '-replace=sodworkbench.org/workbench=$(cd "$GONB_DIR" && dirname "$(go env GOMOD)")')
imports = "import (\n" + "".join('\t_ "%s"\n' % p for p in pkgs) + ")\n\n%%\nfmt.Println(\"SOD_WARM_OK\")\n"
cell = lambda s: {"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
json.dump({"cells": [cell(setup), cell(imports)], "metadata": {"kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
           "nbformat": 4, "nbformat_minor": 5}, open(path, "w"))
PY
cd "$work/home/notebooks"
HOME=$work/home GOCACHE=$cache GOFLAGS="-mod=mod -trimpath" GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local \
  GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} PYDEVD_DISABLE_FILE_VALIDATION=1 \
  jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1200 --output-dir "$work/out" warm.ipynb
grep -q SOD_WARM_OK "$work/out/warm.ipynb" || { echo "warm-cache.sh: the warm-up notebook failed" >&2; cat "$work/out/warm.ipynb" >&2; exit 1; }
rm -rf "$work" /tmp/gonb_*
echo "warm-cache.sh: $(du -sh "$cache" | cut -f1) in $cache"
