#!/usr/bin/env bash
# docker/test-image.sh — build the SOD Workbench Jupyter image and test it (about 15 minutes cold).
#
#   docker/test-image.sh [options]   from anywhere in the repository
#   docker/test-image.sh --probe     only say whether this host can build and run the image: exit 0,
#                                    or exit 3 printing why not (no engine, no user namespaces, no
#                                    base image), as docker/image-step.sh asks before running it
#
# The checks, in this order, each in its own file under docker/image-test/ (sourced):
#   build.sh       engine, base image, build, size and layers        (make_base, build, sizes)
#   notebooks.sh   a notebook in the image without network, a warm build cache, your own notebooks
#                  mounted at ~/notebooks/work, more notebooks, the first-cell latency of each notebook
#   server.sh      the server's security: token required (403/401 without it or with a wrong one),
#                  published on loopback, a Go cell through the API, health check, random token
#   livebook.sh    the live book at /sod-book/: its pages, runtime and interpreters served with the
#                  token only, not sandboxed, read-only for the user; then (with the browser test)
#                  one page run in its Go interpreter in headless Chromium
#   singleuser.sh  jupyterhub-singleuser under a hub's prefix (/user/student/)
#   browser.sh     every notebook in JupyterLab in headless Chromium (labcheck), then the notebooks
#                  with sliders under /user/student/; needs Go and Chromium on the host
# then the classroom hub (docker/test-hub.sh) and, where docker/test-grade-container.sh exists
# and the engine is podman, grading in one container per submission. It prints the time of each
# step and exits 1 at the first failure.
#
# Options:
#   --reuse-image               do not build: test the image $SOD_IMAGE as it is (iterating on the tests)
#   --no-cache                  build without the layer cache (a cold build)
#   --fresh-base                remake the base image even if it exists
#   --base IMAGE                another Debian trixie base (default docker.io/library/debian:trixie-slim)
#   --source worktree|HEAD      build a snapshot of the working tree (default: tracked and untracked, not
#                               ignored files) or a clean `git archive HEAD`
#   --build-retries N           build again after a failed build, up to N times (default 0; CI: 1)
#   --notebooks "a.ipynb .."    also execute these notebooks (repository paths, or "all") in the image
#   --no-browser                leave out the browser test
#   --browser-notebooks "05-a.ipynb .."  the browser test on these notebooks only (default: all)
#   --no-hub                    leave out the classroom hub test
# Environment (scripts/environment.md): SOD_ENGINE, SOD_IMAGE, SOD_KEEP, SOD_REQUIRE_BROWSER,
# SOD_CHROMIUM, and the build's network settings SOD_BUILD_CA, SOD_APT_MIRROR, SOD_GOPROXY,
# SOD_GOSUMDB, SOD_NPM_REGISTRY. CONTAINERS_CONF (podman): if unset, a containers.conf of the
# script's own is used (runtime runc when installed, raised nofile/nproc ulimits).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() {
  echo "usage: docker/test-image.sh [--probe] [--reuse-image] [--no-cache] [--fresh-base] [--base IMAGE] [--source worktree|HEAD] [--build-retries N] [--notebooks LIST] [--no-browser] [--browser-notebooks LIST] [--no-hub] (see the script's header)" >&2
  exit 2
}
probe=0 opt_reuse_image=0 opt_no_cache=0 opt_fresh_base=0 opt_source=worktree opt_build_retries=0
opt_notebooks='' opt_browser=1 opt_browser_notebooks='' opt_hub=1
default_base=docker.io/library/debian:trixie-slim
base=$default_base
while [ $# -gt 0 ]; do
  case "$1" in
  --probe) probe=1 ;;
  --reuse-image) opt_reuse_image=1 ;;
  --no-cache) opt_no_cache=1 ;;
  --fresh-base) opt_fresh_base=1 ;;
  --no-browser) opt_browser=0 ;;
  --no-hub) opt_hub=0 ;;
  --base | --source | --build-retries | --notebooks | --browser-notebooks)
    [ $# -ge 2 ] || usage
    case "$1" in
    --base) base=$2 ;;
    --source) case "$2" in worktree | HEAD) opt_source=$2 ;; *) usage ;; esac ;;
    --build-retries) case "$2" in '' | *[!0-9]*) usage ;; *) opt_build_retries=$2 ;; esac ;;
    --notebooks) opt_notebooks=$2 ;;
    --browser-notebooks) opt_browser_notebooks=$2 ;;
    esac
    shift
    ;;
  *) usage ;;
  esac
  shift
done

image=${SOD_IMAGE:-sod-workbench}
suite=trixie
port=18888                          # host port of the server checks (on 127.0.0.1)
max_image_mb=1500                   # the largest image accepted
max_first_cell_s=10                 # the slowest first cell of a notebook accepted, with a fresh kernel
browser_retries=1                   # a failed browser check is tried again this many times, in a fresh container
artifacts=$repo/out/test-image      # the browser test's screenshots and logs
state=${XDG_CACHE_HOME:-$HOME/.cache}/sod-workbench/test-image
mkdir -p "$state"
t_start=$(date +%s)
containers=()
tmp=$(mktemp -d)

lib_name=test-image
# shellcheck source=scripts/lib.sh
. "$repo/scripts/lib.sh"
on_die() { [ "$probe" = 1 ] || echo "test-image: $step_passed passed, 1 failed"; }
show() { # show CMD...: print a command (on stderr, so that `show ... >/dev/null` still logs it), then run it
  printf '+ %s\n' "$*" >&2
  # Podman without systemd cannot schedule the periodic health check and says so on every run;
  # the check itself is run by hand (podman healthcheck run).
  "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
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

http_code() { # http_code URL [curl args]: print the HTTP status; the body is in $tmp/body
  local url=$1
  shift
  curl -s -o "$tmp/body" -w '%{http_code}' --max-time 10 "$@" "$url" || true
}

wait_api() { # wait_api [PREFIX]: until the server answers PREFIX/api on $port (max 90 s)
  local i
  for i in $(seq 1 90); do
    [ "$(http_code "http://127.0.0.1:$port${1:-}/api")" = 200 ] && return 0
    sleep 1
  done
  return 1
}

for part in build notebooks server livebook singleuser browser; do
  # shellcheck source=/dev/null
  . "$repo/docker/image-test/$part.sh"
done

# ---------------------------------------------------------------- the engine

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

# ---------------------------------------------------------------- the checks

if [ "$opt_reuse_image" = 1 ]; then
  $engine image inspect "$image" >/dev/null 2>&1 || die "--reuse-image: there is no image $image to test"
  say "== base image and build SKIPPED (--reuse-image): testing the existing image $image"
  step_timings+=("$(printf '%5s    %s' - "build skipped: --reuse-image")")
else
  step "base image" make_base
  step "build" build
fi
sizes
step "notebook (nbconvert, no network)" run_smoke
step "own notebooks mounted at ~/notebooks/work" run_own_notebooks
[ -n "$opt_notebooks" ] && step "more notebooks: $opt_notebooks" run_more_notebooks
step "server: token, kernelspecs, health" run_server
step "first-cell latency, each notebook with a fresh kernel" run_latency
step "server: random token" run_random_token
step "the live book at /sod-book/: pages, runtime, interpreters, read-only" run_livebook
step "jupyterhub-singleuser and environment" run_singleuser
why=$(browser_missing)
if [ -z "$why" ]; then
  step "browser: every notebook in JupyterLab (chromedp)" run_browser
  step "browser: the sliders under a base URL (/user/student/, as behind JupyterHub)" run_browser_prefix
  step "browser: a page of the live book run in its Go interpreter (livecheck)" run_browser_live
elif [ "${SOD_REQUIRE_BROWSER:-0}" = 1 ]; then
  die "the browser test cannot run: $why (SOD_REQUIRE_BROWSER=1)"
else
  say "== browser test SKIPPED: $why"
  step_timings+=("$(printf '%5s    %s' - "browser test skipped: $why")")
fi

# The classroom hub built on this image (docker/hub/), tested with three students.
if [ "$opt_hub" = 1 ]; then
  step "classroom hub (docker/test-hub.sh)" env SOD_IMAGE="$image" SOD_ENGINE="$engine" "$repo/docker/test-hub.sh"
else
  step_timings+=("$(printf '%5s    %s' - "classroom hub skipped: --no-hub")")
fi

# Grading in one container per submission, where the engine can run them (podman).
if [ -x "$repo/docker/test-grade-container.sh" ]; then
  if [ "$engine" = podman ]; then
    step "grading, one container per submission (docker/test-grade-container.sh)" \
      env SOD_IMAGE="$image" SOD_ENGINE="$engine" "$repo/docker/test-grade-container.sh"
  else
    say "== grading in containers SKIPPED: docker/test-grade-container.sh runs with podman, the engine here is $engine"
    step_timings+=("$(printf '%5s    %s' - "grading in containers skipped: engine $engine, not podman")")
  fi
fi

say "== timings"
for t in "${step_timings[@]}"; do say "$t"; done
for t in "${browser_retried[@]}"; do say "NOTE: the browser test $t"; done
say "PASS: image $image built and tested with $engine in $(($(date +%s) - t_start)) s"
echo "test-image: $step_passed passed, 0 failed"
