#!/usr/bin/env bash
# docker/image-step.sh — the image step of the test command (scripts/test.sh runs it last; README,
# "How CI decides"). Run from anywhere in the repository.
#
# SOD_IMAGE_TEST says how:
#   1    the whole image test (every notebook in the browser, the classroom hub), however long it takes
#   ci   what .ci/run asks for: the CI profile within the budget (25 minutes), by the rule below
#   0    (default) not run, and it says so
# Whatever the mode, a host that cannot build or run the image (no podman, no user namespaces, no
# base image, no network for the build, too little disk) gives a printed SKIP with the reason; a
# failure of the image itself fails (SOD_REQUIRE_IMAGE=1 turns every skip into a failure too).
#
#   docker/image-step.sh [--no-install] [--budget-min N] [--nproc N]
#
# --no-install: podman is not installed here (scripts/install.sh --with-podman); --budget-min: the
# CI profile's budget in minutes (default 25); --nproc: the number of cores the CI rule sees
# (default nproc; the last two for docker/imagestep_test.go).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

no_install=0 budget=25 cores=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
  --no-install) no_install=1 ;;
  --budget-min | --nproc)
    case "${2:-}" in '' | *[!0-9]*) echo "docker/image-step.sh: $1 wants a whole number" >&2; exit 2 ;; esac
    if [ "$1" = --nproc ]; then cores=$2; else budget=$2; fi
    shift
    ;;
  *) echo "usage: docker/image-step.sh [--no-install] [--budget-min N] [--nproc N]" >&2; exit 2 ;;
  esac
  shift
done

image_skip() {
  echo "image test SKIPPED: $*"
  if [ "${SOD_REQUIRE_IMAGE:-0}" = 1 ]; then
    echo "image test FAILED: it was skipped, and SOD_REQUIRE_IMAGE=1" >&2
    exit 1
  fi
}

# The CI profile's cost, measured cold (empty layer cache, the base made by mmdebstrap) on the
# 2-core machine this project runs on: see README, "How CI decides". The rule: run the image test in
# CI when the measured cost fits the budget, or when the machine has more cores than the one measured;
# else skip, printing the measured time.
image_ci_measured_min=16
image_ci_measured_cores=2
image_ci_measured_note="measured 2026-11-23 on the project's 2-core bookworm machine, quiet: 15 min 35 s for the build without a layer cache and the tests, 15 s for the base by mmdebstrap"

# image_env_problem prints why this host cannot build the image, or nothing.
image_env_problem() {
  local avail dir=/var/lib/containers
  [ -d "$dir" ] || dir=/
  avail=$(df -Pk "$dir" | awk 'NR == 2 { print int($4 / 1048576) }')
  if [ "${avail:-0}" -lt 20 ]; then
    echo "only ${avail} GB free under $dir; the build needs about 20 GB"
    return
  fi
  command -v curl >/dev/null || { echo "no curl (scripts/install.sh --with-podman installs it)"; return; }
  # One file from each (a pinned module's go.mod: the proxy refuses version lists here).
  local url gonum proxy=${SOD_GOPROXY:-https://proxy.golang.org}
  proxy=${proxy%%[,|]*}
  gonum=$(awk '$1 == "gonum.org/v1/gonum" { print $2 }' go.mod)
  for url in "${SOD_APT_MIRROR:-http://deb.debian.org}/debian/dists/trixie/InRelease" \
    "$proxy/gonum.org/v1/gonum/@v/${gonum:-v0.17.0}.mod" \
    "${SOD_NPM_REGISTRY:-https://registry.npmjs.org}/echarts"; do
    case "$url" in http*) ;; *) continue ;; esac # GOPROXY=direct or off: nothing to ask
    if ! curl -fsS -o /dev/null --max-time 20 "$url" 2>/dev/null; then
      echo "the build's sources cannot be reached from here (no network for apt, the Go module proxy or npm): $url"
      return
    fi
  done
}

image_test() { # image_test [OPTION...]: probe, then docker/test-image.sh with the options given
  if [ "$no_install" != 1 ] && ! scripts/install.sh --with-podman; then
    image_skip "scripts/install.sh --with-podman could not install podman, runc, mmdebstrap and curl (see above)"
    return 0
  fi
  local why rc=0
  why=$(image_env_problem)
  [ -z "$why" ] || { image_skip "$why"; return 0; }
  why=$(docker/test-image.sh --probe) || rc=$?
  if [ $rc = 3 ]; then
    image_skip "this host cannot build or run containers: $why"
    return 0
  elif [ $rc != 0 ]; then
    echo "image test FAILED: docker/test-image.sh --probe (exit $rc): $why" >&2
    exit 1
  fi
  echo "$why"
  docker/test-image.sh "$@"
}

case "${SOD_IMAGE_TEST:-0}" in
0 | "")
  image_skip "not asked for (SOD_IMAGE_TEST=1 runs the whole image test, SOD_IMAGE_TEST=ci the CI profile; README, \"Docker\": how CI decides)"
  ;;
1)
  image_test
  ;;
ci)
  if [ "$image_ci_measured_min" -gt "$budget" ] && [ "$cores" -le "$image_ci_measured_cores" ]; then
    image_skip "the CI profile of the image test takes ${image_ci_measured_min} min cold on ${image_ci_measured_cores} cores ($image_ci_measured_note), more than the ${budget} min CI gives it; this machine has $cores cores. SOD_IMAGE_TEST=1 scripts/test.sh runs it anywhere"
  else
    # The CI profile: the build and every check of docker/test-image.sh, the browser test on the
    # notebook with the most chart kinds (05) at /, and on those with sliders (live-only cells)
    # under /user/student/ only (saved and reopened there: each notebook runs in Lab once), the live
    # book's page in the browser, not the classroom hub (docker/test-hub.sh); stopped at the budget.
    nbs=$(cd notebooks && ls 05-*.ipynb 2>/dev/null | tr '\n' ' ')
    echo "image test: the CI profile (measured ${image_ci_measured_min} min cold on ${image_ci_measured_cores} cores; budget ${budget} min; this machine: $cores cores); browser test on: $nbs at /, the notebooks with sliders under /user/student/"
    rc=0
    timeout -k 60 "$((budget * 60))" env SOD_REQUIRE_BROWSER=1 bash -c "no_install=$no_install; $(declare -f image_env_problem image_skip image_test); image_test --no-hub --build-retries 1 --browser-notebooks '$nbs'" || rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then
      image_skip "stopped at the ${budget}-minute budget before it finished (see above for the steps that ran): not counted as a failure of the image; SOD_IMAGE_TEST=1 scripts/test.sh runs it without a time limit"
    elif [ $rc != 0 ]; then
      exit $rc
    fi
  fi
  ;;
*)
  echo "scripts/test.sh: SOD_IMAGE_TEST=$SOD_IMAGE_TEST: want 0, 1 or ci" >&2
  exit 2
  ;;
esac
