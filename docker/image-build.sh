#!/usr/bin/env bash
# docker/image-build.sh — the last step of the image's build stage (see the Dockerfile): prepares,
# under $SOD_STAGE (default /opt/sod-stage), what the runtime stage copies into the notebook user's
# home, and nothing else. It runs as the notebook user, in the home (the repository), after
# `docker/install.sh --user` and a full `go mod download` into $SOD_FULL_MODCACHE.
#
#   gomod/    the Go module cache the notebooks need, offline: the go.mod files of the module graph
#             (GoNB's `go get` reads them) and the sources of only the modules that provide the
#             packages of sod/..., widgets and the notebooks' own imports (no test-only modules:
#             chromedp, buildkit, ...).
#             It is built at its final place, $GOPATH/pkg/mod, because compiled packages are keyed
#             by their source paths.
#   gocache/  a warm Go build cache holding what the first Go cell of each notebook compiles: each
#             notebook's cells up to its first Go cell run through nbconvert and the gonb kernel,
#             offline (GOPROXY=off), with the module cache above — which also proves it is complete.
#   assets/   the two ECharts files the widgets inline (from widgets/assets/node_modules), with
#             their licences and package.json files.
#   book/     the HTML book (docker/book.sh --no-check): every notebook executed, offline, and
#             exported with its charts and equations; a failing notebook fails the build.
set -euo pipefail

stage=${SOD_STAGE:-/opt/sod-stage}
full=${SOD_FULL_MODCACHE:?the full module cache of the earlier build step}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
export PATH="$HOME/.local/bin:/usr/local/go/bin:$PATH"
modcache=$(go env GOPATH)/pkg/mod
build_goproxy=$(go env GOPROXY) build_gosumdb=$(go env GOSUMDB)
t_all=$(date +%s)
say() { printf '[image-build] %s\n' "$*"; }

# ---- 1. the module cache, from the full one (a file:// proxy: no network from here on)
t0=$(date +%s)
rm -rf "$modcache"
# The packages the notebooks reach: sod/..., widgets, and what their cells import themselves
# (e.g. github.com/janpfeifer/must).
nbimports=$(python3 - notebooks/[0-9]*.ipynb <<'PY'
import json, re, sys
seen = set()
for path in sys.argv[1:]:
    for c in json.load(open(path))["cells"]:
        if c["cell_type"] != "code":
            continue
        src = "".join(c["source"])
        for block in re.findall(r'(?ms)^import\s*\((.*?)\)', src) + re.findall(r'(?m)^import\s+((?:\w+\s+)?"[^"]+")', src):
            for p in re.findall(r'"([^"]+)"', block):
                if "." in p.split("/")[0] and not p.startswith("sodworkbench.org/"):
                    seen.add(p)
print(" ".join(sorted(seen)))
PY
)
# shellcheck disable=SC2086
mods=$(GOMODCACHE=$full GOFLAGS=-mod=mod GOPROXY=off go list -deps \
  -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}' ./sod/... ./widgets $nbimports | sort -u)
# The go.mod (and .info) files of every module the full cache knows: the module graph.
mkdir -p "$modcache/cache/download"
tar -C "$full/cache/download" --exclude='*.zip' --exclude='*.ziphash' --exclude='*.lock' -cf - . |
  tar -C "$modcache/cache/download" -xf -
export GOPROXY=file://$full/cache/download GOSUMDB=off GOFLAGS=-mod=mod
# shellcheck disable=SC2086
go mod download $mods
# The zips are only needed to serve the modules again; builds read the unpacked sources.
find "$modcache/cache/download" -name '*.zip' -delete
# The checksum database's answers for these modules, cached in the module cache: GoNB's `go get`
# in a notebook's own temporary module verifies every module it adds to that module's go.sum,
# and offline it can only do so from this cache. A module like a notebook's (requiring the
# workbench through a local replace) imports every non-internal package the notebooks can reach;
# `go get` there, with the network (the build's own GOPROXY, no downloads: the sources are
# already in the cache), looks them up.
# shellcheck disable=SC2086
pkgs=$(GOPROXY=off go list -deps -f '{{if not .Standard}}{{if ne .Name "main"}}{{.ImportPath}}{{end}}{{end}}' ./sod/... ./widgets $nbimports |
  grep -v -e '/internal/' -e '/internal$' | sort -u)
sumdb=$(mktemp -d)
(
  cd "$sumdb"
  go mod init sod-sumdb-warm >/dev/null 2>&1
  go mod edit -require=sodworkbench.org/workbench@v0.0.0-00010101000000-000000000000 -replace=sodworkbench.org/workbench="$repo"
  { echo 'package main'; echo; echo 'import ('; for p in $pkgs; do echo "	_ \"$p\""; done; echo ')'; echo; echo 'func main() {}'; } >main.go
  GOPROXY=$build_goproxy GOSUMDB=$build_gosumdb GOFLAGS=-mod=mod go get
)
rm -rf "$sumdb"
say "module cache: $(echo "$mods" | wc -w) modules with sources, $(du -sh "$modcache" | cut -f1) (in $(($(date +%s) - t0)) s): $(echo "$mods" | tr '\n' ' ')"
# From here on, the notebook user's own settings, but no network.
unset GOSUMDB GOFLAGS
export GOPROXY=off

# ---- 2. the warm build cache: each notebook's cells up to its first Go cell
t0=$(date +%s)
gocache=$(go env GOCACHE)
rm -rf "$gocache"
warm=$repo/notebooks/.sod-warm
rm -rf "$warm" && mkdir -p "$warm"
python3 - "$warm" notebooks/[0-9]*.ipynb <<'PY'
import json, os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    nb = json.load(open(path))
    cells = []
    for c in nb["cells"]:
        if c["cell_type"] != "code" or "live-only" in c.get("metadata", {}).get("tags", []):
            continue
        c = dict(c, outputs=[], execution_count=None)
        cells.append(c)
        src = "".join(c["source"]).strip()
        # the first cell that is not only shell (!) or magic (%) lines compiles Go
        if any(l.strip() and not l.lstrip().startswith(("!", "%")) for l in src.splitlines()):
            break
    nb["cells"] = cells
    json.dump(nb, open(os.path.join(out, os.path.basename(path)), "w"))
PY
# The warm notebooks sit one folder below notebooks/: they find the module as the real ones do.
(cd "$warm" && for nb in *.ipynb; do
  t1=$(date +%s)
  jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 --output-dir "$warm/out" "$nb" \
    >"$warm/$nb.log" 2>&1 || {
    cat "$warm/$nb.log" >&2
    exit 1
  }
  python3 - "$warm/out/$nb" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["cells"]:
    for o in c.get("outputs", []):
        t = o.get("text", "")
        t = "".join(t) if isinstance(t, list) else t
        if o.get("output_type") == "error" or "exit status" in t:
            sys.exit(f"{sys.argv[1]}: a first cell failed: {o.get('ename', '')} {o.get('evalue', '')} {t[-300:]}")
PY
  say "  warm: $nb first cells in $(($(date +%s) - t1)) s"
done)
rm -rf "$warm"
say "build cache: $(du -sh "$gocache" | cut -f1) (in $(($(date +%s) - t0)) s)"

# ---- 3. the ECharts assets the widgets read
nm=$repo/widgets/assets/node_modules
rm -rf "$stage/assets" && mkdir -p "$stage/assets"
for f in echarts/dist/echarts.min.js echarts/LICENSE echarts/NOTICE echarts/package.json \
  echarts-gl/dist/echarts-gl.min.js echarts-gl/LICENSE echarts-gl/package.json; do
  if [ -f "$nm/$f" ]; then
    mkdir -p "$stage/assets/$(dirname "$f")" && cp "$nm/$f" "$stage/assets/$f"
  fi
done
for f in echarts/dist/echarts.min.js echarts-gl/dist/echarts-gl.min.js; do
  [ -s "$stage/assets/$f" ] || { echo "image-build.sh: $nm/$f missing" >&2; exit 1; }
done

# ---- 4. the book, with a copy of the warm cache (so that its extra entries stay out of the image)
t0=$(date +%s)
rm -rf "$stage/book" /tmp/sod-book-cache && cp -a "$gocache" /tmp/sod-book-cache
GOCACHE=/tmp/sod-book-cache docker/book.sh --no-check -o "$stage/book"
rm -rf /tmp/sod-book-cache "$stage/book/ipynb"/*.log
say "book: $(du -sh "$stage/book" | cut -f1) (in $(($(date +%s) - t0)) s)"
rm -rf /tmp/gonb_* "$repo/out"
say "done in $(($(date +%s) - t_all)) s"
