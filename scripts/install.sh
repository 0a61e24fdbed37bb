#!/usr/bin/env bash
# scripts/install.sh — set up everything the SOD Workbench notebooks need, on Debian or Ubuntu.
#
#   scripts/install.sh                 system part (via sudo if not root) + user part
#   scripts/install.sh --system        only the root part: apt packages, Go 1.26
#   scripts/install.sh --user          only the per-user part: ECharts assets, gonb, goimports, kernel
#   scripts/install.sh --with-browser  also install Debian's chromium (for the browser tests)
#   scripts/install.sh --with-grader   also install bubblewrap (the grader's sandbox, sod/cmd/grade)
#   scripts/install.sh --with-podman   also install podman, runc, mmdebstrap and curl (to build and test the
#                                     image with docker/test-image.sh where no registry is reachable)
#
# The front end comes from the distribution: JupyterLab 4 where it packages JupyterLab (Debian
# trixie or newer), else the classic Jupyter Notebook 6 (Debian bookworm, Ubuntu). scripts/notebook.sh
# serves whichever is installed.
#
# It is idempotent: a step whose result is already in place is skipped. Each step says what it
# does and how long it took. The Dockerfile runs the same two parts (system as root, user as the
# notebook user), so the image and a laptop cannot drift apart.
#
# Environment (scripts/environment.md): SOD_APT_MIRROR (a Debian mirror for bookworm-backports),
# SOD_BIN (where gonb and goimports go), SOD_JUPYTER (lab or notebook). The gonb kernel writes its
# logs to ~/.cache/sod-workbench/gonb-logs.
set -euo pipefail

# The Go toolchain installed when the machine has none new enough for go.mod.
GO_VERSION=go1.26.8
GOIMPORTS_VERSION=v0.52.0
# GOFLAGS of the gonb kernel (its kernel spec's env): every cell is a program GoNB links, and
# without DWARF (-w) the link takes about a quarter less CPU; panics and runtime stack traces keep
# their file:line (they read the pcln table, not DWARF). The kernel's GOPROXY (install_kernel) puts
# the module cache first. scripts/cellcost.sh measures both.
KERNEL_GOFLAGS=-ldflags=-w
# Notebook 6 (bookworm), or JupyterLab 4 with jupyter-server 2 (trixie). Debian's jupyterlab package
# brings about 0.9 GB of node-* packages (only needed to build lab extensions); the image keeps them
# out of its runtime stage (see the Dockerfile).
NOTEBOOK_PKGS=(jupyter-notebook python3-notebook jupyter-nbconvert python3-nbconvert python3-nbclient
  python3-ipykernel jupyter-core jupyter-client jupyter-nbformat)
LAB_PKGS=(jupyterlab jupyter-core jupyter-client jupyter-nbconvert python3-nbconvert python3-nbclient python3-jupyter-server
  libjs-mathjax)
# python3-numpy: the escape benchmark's Python reference client (sod/escapebench/clients/python).
BASE_PKGS=(ca-certificates git python3 python3-numpy tar gzip)

do_system=0 do_user=0 with_browser=0 with_podman=0 with_grader=0
for arg in "$@"; do
  case "$arg" in
  --system) do_system=1 ;;
  --user) do_user=1 ;;
  --with-browser) with_browser=1 ;;
  --with-podman) with_podman=1 ;;
  --with-grader) with_grader=1 ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "install.sh: unknown option $arg (see --help)" >&2
    exit 2
    ;;
  esac
done
if [ $do_system = 0 ] && [ $do_user = 0 ]; then do_system=1 do_user=1; fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
script="$repo/scripts/install.sh"
t_all=$(date +%s)

lib_name=install
# shellcheck source=scripts/lib.sh
. "$repo/scripts/lib.sh"

check_os() {
  [ "$(uname -s)" = Linux ] || die "unsupported system $(uname -s): this script supports Debian and Ubuntu only (see README, 'Manual installation')."
  [ -r /etc/os-release ] || die "no /etc/os-release: this script supports Debian and Ubuntu only."
  # shellcheck disable=SC1091
  . /etc/os-release
  case " ${ID:-} ${ID_LIKE:-} " in
  *" debian "* | *" ubuntu "*) ;;
  *) die "unsupported distribution '${PRETTY_NAME:-$ID}': this script supports Debian (bookworm or newer) and Ubuntu only." ;;
  esac
  command -v apt-get >/dev/null || die "apt-get not found: this script needs a Debian-based system."
}

go_minor() { # prints the minor version of a go binary (e.g. 26), or 0
  local v
  v=$("$1" env GOVERSION 2>/dev/null) || {
    echo 0
    return
  }
  v=${v#go1.}
  echo "${v%%[.a-z]*}"
}

# frontend: lab or notebook, from SOD_JUPYTER or from what apt offers (JupyterLab 4 or newer).
frontend() {
  case "${SOD_JUPYTER:-}" in
  lab | notebook)
    echo "$SOD_JUPYTER"
    return
    ;;
  "") ;;
  *) die "SOD_JUPYTER=$SOD_JUPYTER: want lab or notebook" ;;
  esac
  local v
  v=$(apt-cache policy jupyterlab 2>/dev/null | sed -n 's/^ *Candidate: *\([0-9]*\).*/\1/p' | head -1)
  if [ -n "$v" ] && [ "$v" -ge 4 ]; then echo lab; else echo notebook; fi
}

# ---------------------------------------------------------------- system part (root)

apt_install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null || missing+=("$p")
  done
  if [ ${#missing[@]} = 0 ]; then
    say "  already installed: $*"
    return
  fi
  say "  apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_go() {
  local g
  for g in "$(command -v go || true)" /usr/local/go/bin/go; do
    if [ -n "$g" ] && [ -x "$g" ] && [ "$(go_minor "$g")" -ge 26 ]; then
      say "  Go $("$g" env GOVERSION) found at $g"
      [ -e /usr/local/bin/go ] || [ "$g" = /usr/local/bin/go ] || command -v go >/dev/null || ln -sf "$g" /usr/local/bin/go
      return
    fi
  done
  # Debian's own golang is too old for go.mod's "go 1.26". Bootstrap with golang-1.23 from
  # bookworm-backports (or the distribution's own if newer), then fetch the real toolchain through
  # the Go module proxy (GOTOOLCHAIN) and install it as /usr/local/go.
  . /etc/os-release
  local bootstrap=""
  if [ "${VERSION_CODENAME:-}" = bookworm ]; then
    if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
      local mirror=${SOD_APT_MIRROR:-}
      if [ -z "$mirror" ]; then # reuse the mirror the system's sources already name
        mirror=$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
          grep -v -- '-security' | head -1 | sed -E 's#/debian/? *$##')
      fi
      mirror=${mirror:-http://deb.debian.org}
      say "  adding bookworm-backports ($mirror) to apt sources"
      echo "deb ${mirror%/}/debian bookworm-backports main" >/etc/apt/sources.list.d/sod-backports.list
    fi
    apt_install_missing golang-1.23-go
    bootstrap=/usr/lib/go-1.23/bin/go
  else
    apt_install_missing golang-go
    bootstrap=$(command -v go)
  fi
  [ "$(go_minor "$bootstrap")" -ge 21 ] || die "the distribution's Go ($("$bootstrap" version)) cannot fetch toolchains; install Go ≥ 1.21 by hand."
  say "  fetching $GO_VERSION through the Go module proxy (bootstrap: $("$bootstrap" env GOVERSION))"
  local tmp
  tmp=$(mktemp -d)
  GOTOOLCHAIN=$GO_VERSION GOPATH=$tmp/gopath GOMODCACHE=$tmp/gopath/mod GOFLAGS=-modcacherw "$bootstrap" version >/dev/null ||
    die "could not download $GO_VERSION through the module proxy ($(GOTOOLCHAIN=local "$bootstrap" env GOPROXY)). Check network access to the proxy or set GOPROXY."
  local root
  root=$(find "$tmp/gopath/mod/golang.org" -maxdepth 1 -type d -name "toolchain@v0.0.1-$GO_VERSION.*" | head -1)
  [ -n "$root" ] || die "toolchain $GO_VERSION not found after download"
  rm -rf /usr/local/go.new && cp -a "$root" /usr/local/go.new && rm -rf /usr/local/go && mv /usr/local/go.new /usr/local/go
  rm -rf "$tmp"
  ln -sf /usr/local/go/bin/go /usr/local/bin/go
  ln -sf /usr/local/go/bin/gofmt /usr/local/bin/gofmt
  say "  installed $(/usr/local/go/bin/go version) in /usr/local/go"
}

system_part() {
  check_os
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "the system part needs root: run as root, or install sudo."
    say "system part needs root: re-running '$script --system' through sudo"
    local extra=()
    [ $with_browser = 1 ] && extra+=(--with-browser)
    [ $with_podman = 1 ] && extra+=(--with-podman)
    [ $with_grader = 1 ] && extra+=(--with-grader)
    sudo -E "$script" --system "${extra[@]}"
    return
  fi
  step "apt: base packages (${BASE_PKGS[*]})" apt_install_missing "${BASE_PKGS[@]}"
  if command -v node >/dev/null && command -v npm >/dev/null; then
    say "node $(node --version) and npm $(npm --version) found"
  else
    step "apt: nodejs and npm" apt_install_missing nodejs npm
  fi
  # apt-cache needs package lists: a fresh container has none.
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -print -quit 2>/dev/null)" ]; then apt-get update -qq; fi
  local fe
  fe=$(frontend)
  if [ "$fe" = lab ]; then
    step "apt: Jupyter (JupyterLab 4, jupyter-server 2, nbconvert)" apt_install_missing "${LAB_PKGS[@]}"
  else
    step "apt: Jupyter (Notebook 6, nbconvert)" apt_install_missing "${NOTEBOOK_PKGS[@]}"
  fi
  [ $with_browser = 1 ] && step "apt: chromium (browser tests)" apt_install_missing chromium
  [ $with_grader = 1 ] && step "apt: bubblewrap (the grader's sandbox)" apt_install_missing bubblewrap
  [ $with_podman = 1 ] && step "apt: podman, runc, mmdebstrap, curl (image tests)" apt_install_missing podman runc mmdebstrap curl
  step "Go toolchain (go.mod needs go 1.26)" install_go
}

# ---------------------------------------------------------------- user part

user_part() {
  local bin=${SOD_BIN:-}
  if [ -z "$bin" ]; then
    if [ "$(id -u)" = 0 ]; then bin=/usr/local/bin; else bin=$HOME/.local/bin; fi
  fi
  mkdir -p "$bin"
  export PATH="$bin:/usr/local/go/bin:$PATH"
  command -v go >/dev/null || die "go not found: run '$script --system' first."
  [ "$(go_minor go)" -ge 26 ] || die "$(go version) is too old (go.mod needs go 1.26): run '$script --system'."
  command -v npm >/dev/null || die "npm not found: run '$script --system' first."
  command -v jupyter >/dev/null || die "jupyter not found: run '$script --system' first."

  step "ECharts assets (npm ci in widgets/assets)" npm_assets
  step "gonb (go install tool, pinned in go.mod) into $bin" install_gonb "$bin"
  step "goimports $GOIMPORTS_VERSION into $bin" install_goimports "$bin"
  step "Jupyter kernel 'gonb'" install_kernel "$bin"
  step "self-check" self_check "$bin"
  say "gonb and goimports are in $bin (scripts/notebook.sh and the tests add it to PATH themselves)."
}

npm_assets() {
  local dir=$repo/widgets/assets stamp
  stamp=$(sha256sum "$dir/package-lock.json" | cut -c1-16)
  if [ -f "$dir/node_modules/.sod-stamp" ] && [ "$(cat "$dir/node_modules/.sod-stamp")" = "$stamp" ] &&
    [ -f "$dir/node_modules/echarts/dist/echarts.min.js" ] && [ -f "$dir/node_modules/echarts-gl/dist/echarts-gl.min.js" ]; then
    say "  already installed (lockfile unchanged)"
    return
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$stamp" >"$dir/node_modules/.sod-stamp"
}

install_gonb() {
  (cd "$repo" && GOBIN=$1 go install tool)
}

install_goimports() {
  if [ -x "$1/goimports" ] && go version -m "$1/goimports" | grep "mod.*golang.org/x/tools.*$GOIMPORTS_VERSION" >/dev/null; then
    say "  already installed"
    return
  fi
  GOBIN=$1 go install "golang.org/x/tools/cmd/goimports@$GOIMPORTS_VERSION"
}

install_kernel() {
  local bin=$1 logdir=$HOME/.cache/sod-workbench/gonb-logs
  mkdir -p "$logdir"
  # Kernel logs go to files in $logdir, never to cell output or the notebook server's terminal.
  "$bin/gonb" --install --force_deps --logtostderr=false --alsologtostderr=false --stderrthreshold=FATAL --log_dir="$logdir" \
    >"$logdir/install.log" 2>&1 || {
    cat "$logdir/install.log" >&2
    die "gonb --install failed"
  }
  # Give the kernel a PATH with gonb, goimports and go, whatever PATH Jupyter was started with;
  # the cells' GOFLAGS (KERNEL_GOFLAGS above; it replaces a GOFLAGS Jupyter was started with); and
  # a GOPROXY that asks the module cache first, then the user's proxy. GoNB runs `go get` before
  # every cell, which otherwise asks the network proxy for the version list of every module the
  # cell's program uses. A module or version not in the cache still comes from the network (a "not
  # found" falls through to the next proxy); `@latest` means the newest version in the cache. Both
  # the cache and the proxy are the user's settings (`go env -w`, else Go's defaults), not those of
  # the environment install.sh runs in (the image build's full module cache and offline proxy).
  local spec proxy
  spec=$(jupyter --data-dir)/kernels/gonb/kernel.json
  proxy="file://$(env -u GOMODCACHE go env GOMODCACHE)/cache/download,$(env -u GOPROXY go env GOPROXY)"
  python3 - "$spec" "$bin" "$(dirname "$(command -v go)")" "$KERNEL_GOFLAGS" "$proxy" <<'PY'
import json, sys
spec, bindir, godir, goflags, goproxy = sys.argv[1:]
k = json.load(open(spec))
k.setdefault("env", {})["PATH"] = f"{bindir}:{godir}:${{PATH}}"
k["env"]["GOFLAGS"] = goflags
k["env"]["GOPROXY"] = goproxy
json.dump(k, open(spec, "w"), indent=1)
PY
  say "  kernel spec $spec (logs in $logdir)"
}

self_check() {
  local bin=$1
  local specs
  specs=$(PYDEVD_DISABLE_FILE_VALIDATION=1 jupyter kernelspec list 2>/dev/null || true)
  echo "$specs" | sed 's/^/  /'
  echo "$specs" | grep -qw gonb || die "self-check failed: 'jupyter kernelspec list' does not show gonb."
  # The binary's build info, not `gonb -V`: gonb v0.11.4's own version tag still says v0.11.1.
  local built pin
  built=$(go version -m "$bin/gonb" 2>/dev/null | awk '$1 == "mod" && $2 == "github.com/janpfeifer/gonb" { print $3 }')
  pin=$(cd "$repo" && go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)
  [ "$built" = "$pin" ] || die "self-check failed: $bin/gonb was built from gonb ${built:-?}, but go.mod pins $pin; rerun scripts/install.sh."
  say "  gonb $built (the go.mod pin; \`gonb -V\` prints its source's stale tag $("$bin/gonb" -V 2>/dev/null || echo '?'))"
  "$bin/goimports" -h >/dev/null 2>&1 || [ $? = 2 ] || die "goimports does not run"
  say "  $(go version); $(jupyter nbconvert --version 2>/dev/null | sed 's/^/nbconvert /')"
}

# ---------------------------------------------------------------- main

if [ $do_system = 1 ]; then
  system_part
fi
if [ $do_user = 1 ]; then
  if [ "$(id -u)" = 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    say "running the user part as $SUDO_USER (invoked through sudo)"
    sudo -u "$SUDO_USER" -H "$script" --user
  else
    user_part
  fi
fi
say "all done in $(($(date +%s) - t_all)) s"
