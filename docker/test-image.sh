#!/usr/bin/env bash
# docker/test-image.sh — build the SOD Workbench Jupyter image and smoke-test it.
#
#   docker/test-image.sh            (from anywhere in the repository; about 15 minutes cold)
#   docker/test-image.sh --probe    only say whether this host can build and run the image: exit 0,
#                                   or exit 3 printing why not (no engine, no user namespaces,
#                                   no base image), as docker/test.sh asks before running it
#
# 1. engine: docker if its daemon answers, else podman (SOD_ENGINE=docker|podman to choose)
# 2. base image: debian:trixie-slim; if it is not local and cannot be pulled (no registry),
#    podman gets one made with mmdebstrap from Debian's archive and imported under that name
# 3. build:   <engine> build -t sod-workbench .   (the README's command; podman adds --format docker
#             so the HEALTHCHECK is kept, and --pull=never when the base was made locally); prints
#             the layers' sizes and fails if the image is larger than SOD_MAX_IMAGE_MB
# 4. notebook: docker/smoke.ipynb runs with nbconvert in a container without network, then again
#             from a host folder mounted at ~/notebooks/work (the README's "own notebooks" route);
#             the Go build cache is warm for what the notebooks import (go list: nothing stale)
# 5. server:  <engine> run -p 127.0.0.1:...:8888 -e JUPYTER_TOKEN=... sod-workbench; the first
#             cell of every notebook runs through the server's API in a fresh container (its time
#             is printed: the first-cell latency); /api/kernelspecs answers with the gonb kernel
#             given the token, and refuses requests without it or with a wrong one; a Go cell runs
#             through the server's API (docker/kernel_check.py); the health check passes; without
#             JUPYTER_TOKEN a random token is made and printed
# 6. jupyterhub-singleuser serves the API under a hub's prefix, and the health check follows it
# 7. browser: every notebook runs in JupyterLab in headless Chromium (widgets/cmd/labcheck): its
#             charts draw, its sliders redraw their charts, live and after reopening the saved
#             notebook; screenshots in $SOD_ARTIFACTS; then the notebooks with sliders again, Lab
#             served under /user/student/ (as behind JupyterHub). Needs Go and Chromium on the host: without
#             them the step is skipped with a message, or fails when SOD_REQUIRE_BROWSER=1.
#
# Parameters (environment):
#   SOD_ENGINE=docker|podman   container engine (default: docker if `docker info` works, else podman)
#   SOD_IMAGE=sod-workbench    image name
#   SOD_BASE_IMAGE=docker.io/library/debian:trixie-slim
#   SOD_BUILD_CA=FILE          PEM bundle trusted by the HTTPS build steps, passed as a build secret
#                              (default: the host's /etc/ssl/certs/ca-certificates.crt if present, so a
#                              TLS-inspecting proxy the host trusts works; SOD_BUILD_CA=none: no bundle)
#   SOD_APT_MIRROR=URL         Debian mirror root replacing http://deb.debian.org (build and mmdebstrap)
#   SOD_GOPROXY, SOD_GOSUMDB   Go module proxy / checksum database for the build
#   SOD_NPM_REGISTRY=URL       npm registry for the build
#   SOD_NO_CACHE=1             build without the layer cache (a cold build)
#   SOD_BUILD_RETRIES=N        build again after a failure, up to N times (default 0; CI: 1)
#   SOD_REUSE_IMAGE=1          do not build: test the image $SOD_IMAGE as it is (iterating on the tests)
#   SOD_FRESH_BASE=1           remake the base image even if it exists
#   SOD_SOURCE=worktree|HEAD   build a snapshot of the working tree (default: tracked and untracked,
#                              not ignored files, copied before the build) or a clean `git archive HEAD`
#   SOD_PORT=18888             host port for the server test
#   SOD_NOTEBOOKS="a.ipynb .." more notebooks (paths in the repository, or "all" for notebooks/*.ipynb)
#                              to execute in the image, without network, as the notebook harness does
#                              (the image build already executes every notebook for the HTML book)
#   SOD_BROWSER=0              skip the browser test (step 7); SOD_BROWSER_NOTEBOOKS="05-a.ipynb .."
#                              runs it on these notebooks only (default: every notebook in the image)
#   SOD_BROWSER_RETRIES=1      a failed browser check is tried again in a fresh container this many
#                              times; the failure and its evidence stay in the log and the summary
#   SOD_REQUIRE_BROWSER=1      fail instead of skipping step 7 when Go or Chromium is missing
#   SOD_ARTIFACTS=DIR          where the browser test's screenshots go (default out/test-image)
#   SOD_MAX_IMAGE_MB=1500      the largest image accepted
#   SOD_MAX_FIRST_CELL_S=10    the slowest first cell of a notebook accepted, in a fresh container
#   SOD_KEEP=1                 keep the test containers (for debugging)
#   SOD_SKIP_HUB=1             leave out the classroom hub test (docker/test-hub.sh, run last)
#   CONTAINERS_CONF            podman: if unset, a containers.conf of the script's own is used
#                              (runtime runc when installed, raised nofile/nproc ulimits)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
probe=0
case "${1:-}" in
--probe) probe=1 ;;
"") ;;
*)
  echo "usage: docker/test-image.sh [--probe] (parameters are environment variables: see the script's header)" >&2
  exit 2
  ;;
esac
image=${SOD_IMAGE:-sod-workbench}
default_base=docker.io/library/debian:trixie-slim
base=${SOD_BASE_IMAGE:-$default_base}
suite=trixie
port=${SOD_PORT:-18888}
state=${XDG_CACHE_HOME:-$HOME/.cache}/sod-workbench/test-image
mkdir -p "$state"
t_start=$(date +%s)
timings=()
containers=()
tmp=$(mktemp -d)

say() { printf '[test-image] %s\n' "$*"; }
passed=0
die() {
  printf '[test-image] FAIL: %s\n' "$*" >&2
  [ "$probe" = 1 ] || echo "test-image: $passed passed, 1 failed"
  exit 1
}
show() { # show CMD...: print a command (on stderr, so that `show ... >/dev/null` still logs it), then run it
  printf '+ %s\n' "$*" >&2
  # Podman without systemd cannot schedule the periodic health check and says so on every run;
  # the check itself is run by hand below (podman healthcheck run).
  "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
}
step() { # step NAME CMD...: run a step and record its duration
  local name=$1 t0 t
  shift
  t0=$(date +%s)
  say "== $name"
  "$@"
  t=$(($(date +%s) - t0))
  timings+=("$(printf '%5d s  %s' "$t" "$name")")
  passed=$((passed + 1))
  say "$name: ok in $t s"
}
cleanup() {
  local c
  if [ "${SOD_KEEP:-0}" != 1 ]; then
    for c in "${containers[@]}"; do $engine rm -f "$c" >/dev/null 2>&1 || true; done
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# unusable REASON: this host cannot build or run the image (an environment problem, not the
# image's): with --probe print the reason and exit 3, else fail.
unusable() {
  if [ "$probe" = 1 ]; then
    echo "$*"
    exit 3
  fi
  die "$*"
}

# ---------------------------------------------------------------- 1. engine

engine=${SOD_ENGINE:-}
if [ -z "$engine" ]; then
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    engine=docker
  elif command -v podman >/dev/null; then
    engine=podman
  else
    unusable "neither a working docker (daemon) nor podman found (apt-get install podman runc mmdebstrap)"
  fi
fi
command -v "$engine" >/dev/null || unusable "SOD_ENGINE=$engine is not installed"
command -v curl >/dev/null || unusable "curl is needed for the server checks"
if [ "$engine" = podman ] && [ -z "${CONTAINERS_CONF:-}" ]; then
  export CONTAINERS_CONF=$state/containers.conf
  {
    echo '# written by docker/test-image.sh'
    echo '[containers]'
    echo 'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]'
    echo '[engine]'
    if command -v runc >/dev/null; then echo 'runtime = "runc"'; fi
  } >"$CONTAINERS_CONF"
fi
[ "$probe" = 1 ] || say "engine: $engine ($($engine --version | head -1))${CONTAINERS_CONF:+, CONTAINERS_CONF=$CONTAINERS_CONF}"

# ---------------------------------------------------------------- 2. base image

pull_flag=()
make_base() {
  if [ "${SOD_FRESH_BASE:-0}" != 1 ] && $engine image inspect "$base" >/dev/null 2>&1; then
    say "base image $base is present"
  elif [ "${SOD_FRESH_BASE:-0}" != 1 ] && timeout 120 $engine pull "$base"; then
    say "pulled $base"
  else
    [ "$engine" = podman ] || die "cannot pull $base and no local copy: give docker a registry mirror or load a Debian image as $base"
    command -v mmdebstrap >/dev/null || die "no registry and no mmdebstrap to make $base: apt-get install mmdebstrap"
    local mirror=${SOD_APT_MIRROR:-http://deb.debian.org}
    mirror=${mirror%/}
    say "no registry: making $base with mmdebstrap from $mirror"
    show mmdebstrap --variant=minbase --quiet $suite "$tmp/base.tar" \
      "deb $mirror/debian $suite main" \
      "deb $mirror/debian $suite-updates main" \
      "deb $mirror/debian-security $suite-security main"
    show podman import --change 'CMD ["bash"]' "$tmp/base.tar" "$base"
    rm -f "$tmp/base.tar"
  fi
  # A base made locally (or already here) must not be replaced by a pull attempt during build.
  # (docker build uses a local base image as it is; its --pull takes no "never".)
  if [ "$engine" = podman ]; then pull_flag=(--pull=never); fi
}

# ---------------------------------------------------------------- 3. build

build() {
  local ctx=$repo
  if [ "${SOD_SOURCE:-worktree}" = HEAD ]; then
    ctx=$tmp/src
    mkdir -p "$ctx"
    git -C "$repo" archive HEAD | tar -x -C "$ctx"
    say "building from git HEAD $(git -C "$repo" rev-parse --short HEAD) (clean export in $ctx)"
  elif git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    # A snapshot of the working tree (tracked and untracked files, not the ignored ones): the
    # build reads its context at each COPY, over many minutes, and a tree edited (or rebased)
    # meanwhile would give the build stage (book, caches) and the runtime stage different sources.
    ctx=$tmp/src
    mkdir -p "$ctx"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi; done |
      tar --null -T - -cf - | tar -x -C "$ctx")
    say "building from a snapshot of the working tree $repo ($(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD 2>/dev/null || echo ', with local changes'))"
  else
    say "building from the directory $repo (not a git checkout: do not edit it during the build)"
  fi
  local args=(build)
  [ "$engine" = podman ] && args+=(--format docker)
  args+=("${pull_flag[@]}")
  [ "${SOD_NO_CACHE:-0}" = 1 ] && args+=(--no-cache)
  local ca=${SOD_BUILD_CA:-}
  if [ -z "$ca" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then ca=/etc/ssl/certs/ca-certificates.crt; fi
  if [ -n "$ca" ] && [ "$ca" != none ]; then
    [ -r "$ca" ] || die "SOD_BUILD_CA=$ca is not readable"
    args+=(--secret "id=build_ca,src=$ca")
  fi
  [ -n "${SOD_APT_MIRROR:-}" ] && args+=(--build-arg "APT_MIRROR=$SOD_APT_MIRROR")
  [ -n "${SOD_GOPROXY:-}" ] && args+=(--build-arg "GOPROXY=$SOD_GOPROXY")
  [ -n "${SOD_GOSUMDB:-}" ] && args+=(--build-arg "GOSUMDB=$SOD_GOSUMDB")
  [ -n "${SOD_NPM_REGISTRY:-}" ] && args+=(--build-arg "NPM_REGISTRY=$SOD_NPM_REGISTRY")
  [ "$base" != "$default_base" ] && args+=(--build-arg "BASE_IMAGE=$base")
  args+=(-t "$image" .)
  # SOD_BUILD_RETRIES=N: build again after a failure, N times (the layer cache keeps what was
  # built): a download that fails once (apt, Go proxy, npm) is not the image's fault; a build that
  # fails every time is.
  local try=0
  until (cd "$ctx" && show $engine "${args[@]}"); do
    try=$((try + 1))
    [ "$try" -le "${SOD_BUILD_RETRIES:-0}" ] || die "the build failed$([ "$try" -gt 1 ] && echo " $try times")"
    say "the build failed; trying again ($try of ${SOD_BUILD_RETRIES}, SOD_BUILD_RETRIES)"
  done
}

# The layers of the runtime stage, largest first, and the size limit.
sizes() {
  local size max=${SOD_MAX_IMAGE_MB:-1500}
  size=$($engine image inspect --format '{{.Size}}' "$image")
  say "image: $($engine image inspect --format '{{.Id}}' "$image" | cut -c1-19), $((size / 1000000)) MB (limit $max MB)"
  say "layers (podman history: size, step):"
  # "COPY dir:<digest> in DEST" -> "COPY -> DEST"; "|4 ARG=... /bin/sh -c CMD" -> "RUN CMD"
  $engine history --no-trunc --format '{{.Size}}	{{.CreatedBy}}' "$image" |
    awk -F'\t' '$1 != "0B" && $1 != "0 B" { c = $2; sub(/^\/bin\/sh -c #\(nop\) */, "", c)
      sub(/^\|[0-9]+ .* \/bin\/sh -c /, "RUN ", c); sub(/^\/bin\/sh -c /, "RUN ", c)
      if (c ~ /^(COPY|ADD) (dir|file):[0-9a-f]+ in /) { sub(/ (dir|file):[0-9a-f]+ in /, " -> ", c) }
      gsub(/  +/, " ", c); printf "[test-image]   %9s  %s\n", $1, substr(c, 1, 110) }'
  [ $((size / 1000000)) -le "$max" ] || die "the image is $((size / 1000000)) MB, more than SOD_MAX_IMAGE_MB=$max"
}

# ---------------------------------------------------------------- 4. notebooks with nbconvert

nbconvert_args=(jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 --output-dir /tmp/out)

check_notebook() { # check_notebook FILE [WANT...]: no error output, no failed ! line, WANTs printed
  python3 - "$@" <<'PY'
import json, re, sys
nb = json.load(open(sys.argv[1]))
text, errors = "", []
for c in nb["cells"]:
    for o in c.get("outputs", []):
        if o.get("output_type") == "error":
            errors.append(o.get("ename", "") + ": " + o.get("evalue", "")[:300])
        t = o.get("text", "")
        t = "".join(t) if isinstance(t, list) else t
        m = re.search(r"(?m)^exit status ([1-9][0-9]*)\s*$", t)
        if m:
            errors.append("a ! command failed: " + t.strip()[-300:])
        text += t
if len(sys.argv) > 2:
    print("  cell output: " + " | ".join(text.strip().splitlines()))
if errors:
    sys.exit("notebook errors: " + "; ".join(errors))
for want in sys.argv[2:]:
    if want not in text:
        sys.exit("missing in the notebook's output: " + want)
PY
}

check_smoke() { check_notebook "$1" "eigenvalues: [1.000000 3.000000]" go1.26 SOD_SMOKE_OK; }

run_smoke() {
  local name=sod-test-nb-$$ t0
  containers+=("$name")
  t0=$(date +%s)
  # No network: the image must hold everything a notebook needs (modules, build cache, assets).
  show $engine run --name "$name" --network none -w /home/jovyan/docker "$image" \
    "${nbconvert_args[@]}" smoke.ipynb
  say "smoke notebook executed in $(($(date +%s) - t0)) s (container start, kernel start, first cells)"
  $engine cp "$name:/tmp/out/smoke.ipynb" "$tmp/smoke.out.ipynb"
  check_smoke "$tmp/smoke.out.ipynb"
  # The warm build cache covers what the notebooks import: a program importing every package the
  # notebooks' cells import builds without compiling any of them (docker/compile-check.sh).
  local compiled pkgs
  pkgs=$($engine run --rm --network none -w /home/jovyan "$image" \
    sh -c 'python3 docker/kernel_check.py --imports notebooks/[0-9]*.ipynb') || die "could not list the notebooks' imports in the image"
  compiled=$($engine run --rm -i --network none -e "PKGS=$pkgs" -e MODULE=/home/jovyan "$image" \
    bash -s <"$repo/docker/compile-check.sh") || die "could not build the notebooks' packages in the image"
  compiled=$(sed -n 's/^compiled: //p' <<<"$compiled")
  [ -z "$compiled" ] || die "the image's Go build cache is not warm for: $(echo $compiled)"
  say "  build cache: warm for every package the notebooks import (nothing compiled)"
}

run_own_notebooks() {
  local name=sod-test-own-$$ own=$tmp/own
  containers+=("$name")
  mkdir -p "$own"
  cp "$repo/docker/smoke.ipynb" "$own/mine.ipynb"
  chmod -R a+rwX "$own"
  # The README's route for your own notebooks: mount a folder at ~/notebooks/work.
  show $engine run --name "$name" --network none -v "$own:/home/jovyan/notebooks/work" \
    -w /home/jovyan/notebooks/work "$image" "${nbconvert_args[@]}" mine.ipynb
  $engine cp "$name:/tmp/out/mine.ipynb" "$tmp/mine.out.ipynb"
  check_smoke "$tmp/mine.out.ipynb"
}

run_more_notebooks() {
  local list=${SOD_NOTEBOOKS:-} nb name i=0 t0
  if [ "$list" = all ]; then
    list=$(cd "$repo" && git ls-files 'notebooks/*.ipynb' | grep -v /testdata/ | tr '\n' ' ')
  fi
  for nb in $list; do
    i=$((i + 1))
    name=sod-test-more-$$-$i
    containers+=("$name")
    t0=$(date +%s)
    # As the notebook harness does: cells tagged live-only need a browser and are left out.
    show $engine run --name "$name" --network none -w "/home/jovyan/$(dirname "$nb")" "$image" \
      "${nbconvert_args[@]}" --TagRemovePreprocessor.enabled=True \
      --TagRemovePreprocessor.remove_cell_tags=live-only "$(basename "$nb")" ||
      die "$nb failed in the image"
    $engine cp "$name:/tmp/out/$(basename "$nb")" "$tmp/more.ipynb"
    check_notebook "$tmp/more.ipynb" || die "$nb: errors in the executed notebook"
    say "  $nb: ok in $(($(date +%s) - t0)) s"
  done
}

# ---------------------------------------------------------------- 5. server

http_code() { # http_code URL [curl args]: print the HTTP status
  local url=$1
  shift
  curl -s -o "$tmp/body" -w '%{http_code}' --max-time 10 "$@" "$url" || true
}

wait_api() { # wait_api [PREFIX]: until the server answers PREFIX/api (max 90 s)
  local i
  for i in $(seq 1 90); do
    [ "$(http_code "http://127.0.0.1:$port${1:-}/api")" = 200 ] && return 0
    sleep 1
  done
  return 1
}

run_server() {
  local name=sod-test-server-$$ token code t0
  containers+=("$name")
  token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  t0=$(date +%s)
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN="$token" "$image" >/dev/null
  wait_api || {
    $engine logs "$name" | tail -20
    die "the server did not answer on port $port"
  }
  say "server answered /api after $(($(date +%s) - t0)) s: $(cat "$tmp/body")"

  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "/api/kernelspecs with the token: HTTP $code"
  python3 - "$tmp/body" <<'PY' || die "/api/kernelspecs does not list the gonb kernel"
import json, sys
specs = json.load(open(sys.argv[1]))["kernelspecs"]
print("  kernelspecs:", ", ".join(sorted(specs)))
sys.exit(0 if "gonb" in specs else 1)
PY
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs?token=$token")
  [ "$code" = 200 ] || die "/api/kernelspecs?token=...: HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs")
  say "  without a token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "/api/kernelspecs without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs" -H "Authorization: token wrong-$token")
  say "  with a wrong token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "/api/kernelspecs with a wrong token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/contents")
  say "  /api/contents without a token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "/api/contents without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/lab")
  say "  /lab without a token: HTTP $code ($(grep -o 'login[^"]*' "$tmp/body" | head -1 || true))"
  [ "$code" = 302 ] || [ "$code" = 403 ] || [ "$code" = 401 ] || die "/lab without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/lab" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "/lab with the token: HTTP $code"
  grep -q 'jupyter-config-data' "$tmp/body" || die "/lab does not serve JupyterLab's page"
  code=$(http_code "http://127.0.0.1:$port/files/book/index.html" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "the HTML book (~/notebooks/book/index.html): HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/files/book/index.html")
  [ "$code" = 403 ] || [ "$code" = 401 ] || [ "$code" = 302 ] || die "the HTML book without the token: HTTP $code"

  # A Go cell runs through the server, as from a browser: REST API + the kernel's websocket.
  show $engine exec -i "$name" python3 - http://127.0.0.1:8888 "$token" <"$repo/docker/kernel_check.py" ||
    die "a Go cell did not run through the server"
  code=$(http_code "http://127.0.0.1:$port/api/kernels" -X POST -H 'Content-Type: application/json' -d '{"name": "gonb"}')
  say "  starting a kernel without a token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "POST /api/kernels without the token answered HTTP $code"

  # The health check.
  if [ "$engine" = podman ]; then
    show podman healthcheck run "$name" || die "health check failed"
  else
    local i status=
    for i in $(seq 1 90); do
      status=$(docker inspect --format '{{.State.Health.Status}}' "$name")
      [ "$status" = healthy ] && break
      sleep 1
    done
    [ "$status" = healthy ] || die "health status: $status"
  fi
  say "  health check: healthy"
  # Jupyter prints its URLs (with the token) once its extensions have loaded, which can be after
  # /api answers: wait for the line.
  local i
  for i in $(seq 1 30); do
    $engine logs "$name" 2>&1 | grep "token=$token" >/dev/null && break # not grep -q: SIGPIPE + pipefail
    [ "$i" = 30 ] && die "the server log does not show the URL with the token (30 s)"
    sleep 1
  done
  $engine rm -f "$name" >/dev/null 2>&1
}

# The first-cell latency: for each notebook, a fresh container, and in it the notebook's cells up to
# its first cell that runs code (docker/kernel_check.py), timed from the session request (as when
# a student opens the notebook: kernel start, go.mod set-up, compiling and running that cell).
run_latency() {
  local nb name token line max=${SOD_MAX_FIRST_CELL_S:-10} slow=()
  for nb in $($engine run --rm --network none "$image" sh -c 'cd ~/notebooks && ls [0-9]*.ipynb'); do
    name=sod-test-latency-$$-${nb%%-*}
    containers+=("$name")
    token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    $engine run -d --name "$name" --network none -e JUPYTER_TOKEN="$token" "$image" >/dev/null
    local i ok=0
    for i in $(seq 1 90); do
      if $engine exec "$name" sod-healthcheck >/dev/null 2>&1; then ok=1; break; fi
      sleep 1
    done
    [ $ok = 1 ] || die "the server in $name did not answer"
    line=$($engine exec -i "$name" python3 - http://127.0.0.1:8888 "$token" "$nb" <"$repo/docker/kernel_check.py") ||
      die "$nb: its first cells did not run through the server: $line"
    say "$line"
    # "... N.N s from opening it; ..."
    if awk -v l="$line" -v m="$max" 'BEGIN { split(l, a, " s from opening"); n = split(a[1], b, " "); exit !(b[n] + 0 > m) }'; then
      slow+=("$nb")
    fi
    $engine rm -f "$name" >/dev/null 2>&1
  done
  [ ${#slow[@]} = 0 ] || die "first cell slower than SOD_MAX_FIRST_CELL_S=$max s in a fresh container: ${slow[*]}"
}

run_random_token() {
  local name=sod-test-random-$$ token code
  containers+=("$name")
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" "$image" >/dev/null
  wait_api || die "the server (random token) did not answer"
  token=$($engine logs "$name" 2>&1 | sed -n 's/.*lab?token=\([0-9a-f]*\).*/\1/p' | head -1)
  [ ${#token} -ge 32 ] || die "no random token in the server log"
  say "  random token printed in the log: ${token:0:6}… (${#token} hex digits)"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "the printed token is refused: HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs")
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "without a token: HTTP $code"
  $engine rm -f "$name" >/dev/null 2>&1
}

# jupyterhub-singleuser as a spawner starts it: the hub's environment variables, the command
# replacing sod-notebook. JupyterHub 5's singleuser asks its hub's API for the hub's version at
# start, and exits when no hub answers: a stand-in answers that one request (GET /hub/api, with
# the image's JupyterHub version) in the container, and nothing else (a real hub: docker/test-hub.sh).
# The server must serve its API under the prefix, refuse requests without the hub's auth, and pass
# the health check.
fake_hub='import http.server, json, os
class Hub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path.rstrip("/") == "/hub/api"
        self.send_response(200 if ok else 404)
        self.send_header("X-JupyterHub-Version", os.environ["SOD_HUB_VERSION"])
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"version": os.environ["SOD_HUB_VERSION"]} if ok else {}).encode())
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", 8081), Hub).serve_forever()'

run_singleuser() {
  local name=sod-test-hub-$$ prefix=/user/student code version
  containers+=("$name")
  show $engine run --rm "$image" sh -c 'echo "NB_USER=$NB_USER NB_UID=$NB_UID HOME=$HOME uid=$(id -u) cwd=$PWD"; go version; for c in gonb goimports jupyter jupyter-lab jupyterhub-singleuser tini; do command -v $c; done'
  version=$($engine run --rm "$image" jupyterhub-singleuser --version 2>/dev/null | tail -1)
  say "  jupyterhub-singleuser $version"
  case "$version" in 5.*) ;; *) die "jupyterhub-singleuser --version: '$version', want JupyterHub 5" ;; esac
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" \
    -e JUPYTERHUB_API_TOKEN="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
    -e JUPYTERHUB_CLIENT_ID=jupyterhub-user-student -e JUPYTERHUB_USER=student \
    -e JUPYTERHUB_API_URL=http://127.0.0.1:8081/hub/api -e JUPYTERHUB_BASE_URL=/ \
    -e JUPYTERHUB_SERVICE_PREFIX=$prefix/ -e JUPYTERHUB_OAUTH_CALLBACK_URL=$prefix/oauth_callback \
    -e JUPYTERHUB_SERVICE_URL=http://0.0.0.0:8888$prefix/ \
    -e SOD_FAKE_HUB="$fake_hub" -e SOD_HUB_VERSION="$version" \
    "$image" sh -c 'python3 -c "$SOD_FAKE_HUB" & exec jupyterhub-singleuser' >/dev/null
  wait_api "$prefix" || {
    $engine logs "$name" 2>&1 | tail -30
    die "jupyterhub-singleuser did not answer $prefix/api"
  }
  say "  jupyterhub-singleuser answers $prefix/api: $(cat "$tmp/body")"
  code=$(http_code "http://127.0.0.1:$port$prefix/api/kernelspecs")
  say "  $prefix/api/kernelspecs without the hub's auth: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || [ "$code" = 302 ] || die "jupyterhub-singleuser answered HTTP $code without auth"
  code=$(http_code "http://127.0.0.1:$port$prefix/lab")
  say "  $prefix/lab without the hub's auth: HTTP $code (a redirect to the hub's login)"
  [ "$code" = 302 ] || [ "$code" = 403 ] || [ "$code" = 401 ] || die "$prefix/lab answered HTTP $code without auth"
  if [ "$engine" = podman ]; then
    show podman healthcheck run "$name" || die "health check under JUPYTERHUB_SERVICE_PREFIX failed"
    say "  health check under JUPYTERHUB_SERVICE_PREFIX: healthy"
  fi
  $engine logs "$name" 2>&1 | grep -i 'jupyterlab' >/dev/null || say "  (the server log does not mention JupyterLab)"
  $engine rm -f "$name" >/dev/null 2>&1
}

# ---------------------------------------------------------------- 7. browser

# The reason the browser test cannot run on this host, or nothing.
browser_missing() {
  [ "${SOD_BROWSER:-1}" = 0 ] && { echo "SOD_BROWSER=0"; return; }
  command -v go >/dev/null || [ -x /usr/local/go/bin/go ] || { echo "no Go on this host (docker/install.sh)"; return; }
  local b
  for b in ${SOD_CHROMIUM:-} chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null && return
  done
  echo "no Chromium on this host (docker/install.sh --with-browser)"
}

# labcheck_in_container NAME PREFIX OUT LABCHECK-ARGS...: the image's own command in a fresh
# container (Lab's application object exposed for the test to drive it, served under PREFIX/),
# then widgets/cmd/labcheck on it. A failed check is tried once more in another fresh container
# (SOD_BROWSER_RETRIES, default 1): the failure, its server log and its screenshot
# (NN-name-failed.png) are kept and printed, and the summary says the step passed only on a
# second attempt. A failure that repeats fails the test.
browser_retried=()
labcheck_in_container() {
  local name=$1 prefix=$2 out=$3 token attempt tries=$((${SOD_BROWSER_RETRIES:-1} + 1)) cfg=()
  shift 3
  [ -z "$prefix" ] || cfg=(--ServerApp.base_url="$prefix/")
  for attempt in $(seq "$tries"); do
    containers+=("$name-$attempt")
    token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    show $engine run -d --name "$name-$attempt" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN="$token" "$image" \
      sod-notebook --LabApp.expose_app_in_browser=True "${cfg[@]}" >/dev/null
    wait_api "$prefix" || {
      $engine logs "$name-$attempt" 2>&1 | tail -20
      die "the server for the browser test did not answer${prefix:+ under $prefix/}"
    }
    if [ "$#" = 0 ]; then # every notebook in the image
      set -- $($engine exec "$name-$attempt" sh -c 'cd ~/notebooks && ls [0-9]*.ipynb' | tr '\n' ' ')
      say "  notebooks: $*"
    fi
    if (cd "$repo" && PATH="$PATH:/usr/local/go/bin" SOD_LAB_TOKEN=$token show go run ./widgets/cmd/labcheck \
      -url "http://127.0.0.1:$port$prefix" -shots "$out" "$@") | tee "$out/labcheck-$attempt.txt"; then
      $engine rm -f "$name-$attempt" >/dev/null 2>&1
      [ "$attempt" = 1 ] || browser_retried+=("${prefix:-/}: failed on attempt 1 ($out/labcheck-1.txt, $out/server-1.log), passed on attempt $attempt")
      return 0
    fi
    $engine logs "$name-$attempt" 2>&1 | tail -60 >"$out/server-$attempt.log"
    $engine rm -f "$name-$attempt" >/dev/null 2>&1
    say "  the browser test${prefix:+ under $prefix/} FAILED on attempt $attempt of $tries: $(grep '^FAIL' "$out/labcheck-$attempt.txt" | head -3 | tr '\n' ' ')(server log: $out/server-$attempt.log)"
    [ "$attempt" = "$tries" ] || say "  trying once more in a fresh container; the failure above stays in this log and in the summary"
  done
  die "the browser test${prefix:+ under the base URL $prefix/} failed $tries times (see $out/labcheck-*.txt, $out/server-*.log)"
}

run_browser() {
  local out=${SOD_ARTIFACTS:-$repo/out/test-image}
  rm -rf "$out" && mkdir -p "$out"
  say "  screenshots: $out"
  # shellcheck disable=SC2086
  labcheck_in_container sod-test-lab-$$ "" "$out" ${SOD_BROWSER_NOTEBOOKS:-}
}

# The sliders under a base URL, as behind JupyterHub (/user/NAME/): GoNB's widget script opens its
# websocket without the base URL, which widgets.Explore corrects (widgets/explore.go). The notebooks
# with live-only cells (the sliders) run in Lab served under /user/student/.
run_browser_prefix() {
  local nbs out=${SOD_ARTIFACTS:-$repo/out/test-image}/base-url
  nbs=$(cd "$repo/notebooks" && grep -l '"live-only"' [0-9]*.ipynb | tr '\n' ' ')
  [ -n "$nbs" ] || { say "  no notebook has live-only cells (sliders)"; return 0; }
  mkdir -p "$out"
  say "  notebooks with sliders: $nbs (screenshots: $out)"
  # shellcheck disable=SC2086
  labcheck_in_container sod-test-lab-prefix-$$ /user/student "$out" -reopen=false $nbs
}

# ---------------------------------------------------------------- probe

if [ "$probe" = 1 ]; then
  exec 3>&1 1>"$tmp/probe.log" 2>&1
  if [ "$engine" = podman ] && ! podman info >/dev/null 2>&1; then
    exec 1>&3
    unusable "podman does not work here: $(podman info 2>&1 | grep -i error | tail -1)"
  fi
  (make_base) || {
    exec 1>&3
    unusable "no base image $base and none could be made: $(tail -1 "$tmp/probe.log")"
  }
  $engine run --rm --network none "$base" true || {
    exec 1>&3
    unusable "$engine cannot run a container here (user namespaces, cgroups or the runtime): $(grep -iv systemd "$tmp/probe.log" | tail -1)"
  }
  exec 1>&3
  echo "usable: $engine ($($engine --version | head -1)), base image $base"
  exit 0
fi

# ---------------------------------------------------------------- main

if [ "${SOD_REUSE_IMAGE:-0}" = 1 ]; then
  $engine image inspect "$image" >/dev/null 2>&1 || die "SOD_REUSE_IMAGE=1: there is no image $image to test"
  say "== base image and build SKIPPED (SOD_REUSE_IMAGE=1): testing the existing image $image"
  timings+=("$(printf '%5s    %s' - "build skipped: SOD_REUSE_IMAGE=1")")
else
  step "base image" make_base
  step "build" build
fi
sizes
step "notebook (nbconvert, no network)" run_smoke
step "own notebooks mounted at ~/notebooks/work" run_own_notebooks
[ -n "${SOD_NOTEBOOKS:-}" ] && step "more notebooks: $SOD_NOTEBOOKS" run_more_notebooks
step "server: token, kernelspecs, health" run_server
step "first-cell latency, each notebook in a fresh container" run_latency
step "server: random token" run_random_token
step "jupyterhub-singleuser and environment" run_singleuser
why=$(browser_missing)
if [ -z "$why" ]; then
  step "browser: every notebook in JupyterLab (chromedp)" run_browser
  step "browser: the sliders under a base URL (/user/student/, as behind JupyterHub)" run_browser_prefix
elif [ "${SOD_REQUIRE_BROWSER:-0}" = 1 ]; then
  die "the browser test cannot run: $why (SOD_REQUIRE_BROWSER=1)"
else
  say "== browser test SKIPPED: $why"
  timings+=("$(printf '%5s    %s' - "browser test skipped: $why")")
fi

# The classroom hub built on this image (docker/hub/), tested with three students.
if [ "${SOD_SKIP_HUB:-0}" != 1 ]; then
  step "classroom hub (docker/test-hub.sh)" env SOD_IMAGE="$image" SOD_ENGINE="$engine" "$repo/docker/test-hub.sh"
else
  timings+=("$(printf '%5s    %s' - "classroom hub skipped: SOD_SKIP_HUB=1")")
fi

say "== timings"
for t in "${timings[@]}"; do say "$t"; done
for t in "${browser_retried[@]}"; do say "NOTE: the browser test $t"; done
say "PASS: image $image built and tested with $engine in $(($(date +%s) - t_start)) s"
echo "test-image: $passed passed, 0 failed"
