#!/bin/sh
# module-zips.sh MODULE_DIR — fetches, into the Go module cache, the zips (and zip hashes) of the
# modules that the workbench's packages and the notebooks' own imports come from.
#
# GoNB runs `go get` when a cell imports a module that GoNB's go.mod does not list yet (e.g.
# github.com/janpfeifer/must); go then needs the module's zip hash for go.sum. The workbench
# image's lean module cache leaves zips out, and on the hub a student cannot write the shared
# cache, so without them that cell fails, offline or not. Run at image build (network through
# docker/build-env.sh).
set -eu
cd "$1"
imports=$(python3 - notebooks/*.ipynb <<'PY'
import json, re, sys
found = set()
for path in sys.argv[1:]:
    for c in json.load(open(path))["cells"]:
        if c["cell_type"] == "code":
            src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            found |= set(re.findall(r'"([a-z0-9.-]+\.[a-z]{2,}/[^"\s]+)"', src))
print(" ".join(sorted(found)))
PY
)
# shellcheck disable=SC2086
mods=$(GOFLAGS=-mod=mod go list -e -deps \
  -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}' ./sod/... ./widgets $imports | sort -u)
# shellcheck disable=SC2086
GOFLAGS=-mod=mod go mod download $mods
echo "module-zips.sh: zips of $(echo "$mods" | wc -w) modules in $(go env GOMODCACHE)"
