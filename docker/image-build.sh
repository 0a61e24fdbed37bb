#!/usr/bin/env bash
# docker/image-build.sh — the last step of the image's build stage (see the Dockerfile): prepares,
# under /opt/sod-stage, what the runtime stage copies into the notebook user's home, and nothing
# else. It runs as the notebook user, in the home (the repository), after `scripts/install.sh --user`
# and a full `go mod download` into the module cache FULL_MODCACHE:
#
#   docker/image-build.sh FULL_MODCACHE
#
#   gomod/    the Go module cache the notebooks need, offline: the go.mod files of the module graph
#             (GoNB's `go get` reads them) and the sources of only the modules that provide the
#             packages of sod/..., widgets and the notebooks' own imports (no test-only modules),
#             and of those the live book's interpreter is built from (livebook/cmd/sodlive for
#             js/wasm, with and without its plots tag, and livebook/cmd/livebook: yaegi,
#             gonum/plot), so that scripts/book.sh makes the live book in the image offline too.
#             It is built at its final place, $GOPATH/pkg/mod, because compiled packages are keyed
#             by their source paths.
#   gocache/  a warm Go build cache holding what the cells of each notebook compile: each notebook's
#             set-up cells and a cell per package it imports run through nbconvert and gonb,
#             offline (GOPROXY=off), with the module cache above — which also proves it is complete.
#   assets/   the two ECharts files the widgets inline (from widgets/assets/node_modules), with
#             their licences and package.json files.
#   book/     the live HTML book (scripts/book.sh --no-check): every notebook executed, offline, and
#             exported with its charts and equations, and made live (book/live/: the interpreter
#             sodlive.wasm and its plots variant built here, the runtime, ECharts from the npm
#             copy); a failing notebook fails the build (and book.sh's error detection is itself
#             tested first, on scripts/testdata/book-errors). The runtime stage installs it
#             read-only, served at <base_url>sod-book/ (docker/sod_livebook.py).
#             book/SOURCES.sha256 lists the sources all of this was made from.
set -euo pipefail

stage=/opt/sod-stage
[ $# = 1 ] && [ -d "$1" ] || { echo "usage: docker/image-build.sh FULL_MODCACHE (the module cache of the build stage's go mod download)" >&2; exit 2; }
full=$1
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
lib_name=image-build
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
export PATH="$HOME/.local/bin:/usr/local/go/bin:$PATH"
modcache=$(go env GOPATH)/pkg/mod
build_goproxy=$(go env GOPROXY) build_gosumdb=$(go env GOSUMDB)
t_all=$(date +%s)

# ---- 0. the sources everything below is made from. The runtime stage checks its own copy of the
# repository against this list (Dockerfile): a book or build cache made from other sources than the
# image ships (a build context that changed while the build ran) fails the build.
mkdir -p "$stage"
find go.mod go.sum docker livebook notebooks sod widgets -name node_modules -prune -o -type f -print0 |
  sort -z | xargs -0 sha256sum >"$stage/sources.sha256"
say "sources: $(wc -l <"$stage/sources.sha256") files (notebooks/book/SOURCES.sha256 in the image)"

# ---- 1. the module cache, from the full one (a file:// proxy: no network from here on)
t0=$(date +%s)
rm -rf "$modcache"
# The packages the notebooks reach: sod/..., widgets, and what their cells import themselves
# (e.g. github.com/janpfeifer/must).
nbimports=$(python3 scripts/kernel_check.py --imports notebooks/[0-9]*.ipynb | tr ' ' '\n' |
  grep -E '^[^/]+\.[^/]*/' | grep -v '^sodworkbench\.org/' | tr '\n' ' ' || true)
modfmt='{{with .Module}}{{if not .Main}}{{if not .Replace}}{{.Path}}@{{.Version}}{{end}}{{end}}{{end}}'
# shellcheck disable=SC2086
mods=$({
  GOMODCACHE=$full GOFLAGS=-mod=mod GOPROXY=off go list -deps -f "$modfmt" ./sod/... ./widgets $nbimports
  # The live book's interpreter and its maker (livebook's own module: the workbench by a replace).
  cd livebook
  GOMODCACHE=$full GOPROXY=off GOOS=js GOARCH=wasm go list -deps -f "$modfmt" ./cmd/sodlive
  GOMODCACHE=$full GOPROXY=off GOOS=js GOARCH=wasm go list -deps -tags sodlive_plots -f "$modfmt" ./cmd/sodlive
  GOMODCACHE=$full GOPROXY=off go list -deps -f "$modfmt" ./cmd/livebook
} | sort -u)
# The go.mod (and .info) files of every module the full cache knows: the module graph.
mkdir -p "$modcache/cache/download"
tar -C "$full/cache/download" --exclude='*.zip' --exclude='*.ziphash' --exclude='*.lock' -cf - . |
  tar -C "$modcache/cache/download" -xf -
export GOPROXY=file://$full/cache/download GOSUMDB=off GOFLAGS=-mod=mod
# Outside any module (explicit versions), so that no go.mod or go.sum of the sources changes.
# shellcheck disable=SC2086
(cd "$(mktemp -d)" && go mod download $mods)
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

# ---- 2. the warm build cache: each notebook's set-up cells, then a cell per package its cells
# import (scripts/kernel_check.py --warm-notebooks): GoNB compiles them, and none of the notebook's
# computations runs
t0=$(date +%s)
gocache=$(go env GOCACHE)
rm -rf "$gocache"
warm=$repo/notebooks/.sod-warm
rm -rf "$warm" && mkdir -p "$warm"
python3 scripts/kernel_check.py --warm-notebooks "$warm" notebooks/[0-9]*.ipynb
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
  say "  warm: $nb packages compiled in $(($(date +%s) - t1)) s"
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

# ---- 4. the book. First book.sh's own error detection, here with trixie's nbconvert 7: on a
# notebook whose cells fail in every way a cell can (scripts/testdata/book-errors), book.sh must
# exit 1 and name each failing cell (expected.txt; scripts/book_test.go does the same on the host).
t0=$(date +%s)
# The live book's interpreter is compiled for js/wasm by book.sh after the notebooks ran; compiling
# it now, in the background into the book's build cache (a copy of the warm one, so that its
# entries stay out of the image), overlaps that with the notebooks' runs: book.sh then only links.
rm -rf /tmp/sod-book-cache && cp -a "$gocache" /tmp/sod-book-cache
(cd livebook && export GOCACHE=/tmp/sod-book-cache GOOS=js GOARCH=wasm &&
  nice -n 5 go build -trimpath -ldflags="-s -w" -o /dev/null ./cmd/sodlive &&
  nice -n 5 go build -trimpath -ldflags="-s -w" -tags sodlive_plots -o /dev/null ./cmd/sodlive) >/tmp/sod-wasm.log 2>&1 &
wasm_pid=$!
errs=$(mktemp -d)
cp -a "$gocache" "$errs/gocache" # compiled std: faster; the copy keeps the test's entries out
if GOCACHE=$errs/gocache scripts/book.sh --no-check --no-live --notebooks "$repo/scripts/testdata/book-errors" \
  -o "$errs/book" >"$errs/log" 2>&1; then
  cat "$errs/log" >&2
  echo "image-build.sh: scripts/book.sh exited 0 on scripts/testdata/book-errors, whose cells fail" >&2
  exit 1
fi
grep -v -e '^#' -e '^$' scripts/testdata/book-errors/expected.txt | while IFS= read -r want; do
  grep -qF -- "$want" "$errs/log" || {
    cat "$errs/log" >&2
    echo "image-build.sh: scripts/book.sh did not report: $want" >&2
    exit 1
  }
done
rm -rf "$errs"
say "book.sh detects failing cells (scripts/testdata/book-errors) (in $(($(date +%s) - t0)) s)"

# Then the live book, with the copy of the warm cache made above (so that its extra entries stay
# out of the image): the notebooks executed, and their pages made live.
t0=$(date +%s)
rm -rf "$stage/book"
GOCACHE=/tmp/sod-book-cache scripts/book.sh --no-check -o "$stage/book"
wait "$wasm_pid" || { cat /tmp/sod-wasm.log >&2; echo "image-build.sh: the interpreter's js/wasm build failed (book.sh built it all the same)" >&2; }
for f in live/live.js live/worker.js live/sodlive.wasm live/sodlive-plots.wasm; do
  [ -s "$stage/book/$f" ] || [ -s "$stage/book/$f.gz" ] || { echo "image-build.sh: the live book has no $f" >&2; exit 1; }
done
rm -rf /tmp/sod-book-cache /tmp/sod-wasm.log "$stage/book/ipynb"/*.log
cp "$stage/sources.sha256" "$stage/book/SOURCES.sha256"
say "book: $(du -sh "$stage/book" | cut -f1) (in $(($(date +%s) - t0)) s)"
rm -rf /tmp/gonb_* "$repo/out"
say "done in $(($(date +%s) - t_all)) s"
