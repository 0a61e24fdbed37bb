# shellcheck shell=bash
# docker/image-test/build.sh — part of docker/test-image.sh (sourced): the base image, the
# build and the image's size.
#
#   make_base  debian:trixie-slim (or --base): present, pulled, or (podman, no registry) made with
#              mmdebstrap from Debian's archive (SOD_APT_MIRROR) and imported under that name
#   build      <engine> build -t $image . from a snapshot of the working tree (or --source HEAD),
#              with the build network settings SOD_BUILD_CA, SOD_APT_MIRROR, SOD_GOPROXY,
#              SOD_GOSUMDB, SOD_NPM_REGISTRY (scripts/environment.md); podman adds --format docker,
#              so that the HEALTHCHECK is kept
#   sizes      the layers' sizes, largest first; fails above max_image_mb

pull_flag=()
make_base() {
  if [ "$opt_fresh_base" != 1 ] && $engine image inspect "$base" >/dev/null 2>&1; then
    say "base image $base is present"
  elif [ "$opt_fresh_base" != 1 ] && timeout 120 $engine pull "$base"; then
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

build() {
  local ctx=$repo
  if [ "$opt_source" = HEAD ]; then
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
  [ "$opt_no_cache" = 1 ] && args+=(--no-cache)
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
  # --build-retries N: build again after a failure, N times (the layer cache keeps what was
  # built): a download that fails once (apt, Go proxy, npm) is not the image's fault; a build that
  # fails every time is.
  local try=0
  until (cd "$ctx" && show $engine "${args[@]}"); do
    try=$((try + 1))
    [ "$try" -le "$opt_build_retries" ] || die "the build failed$([ "$try" -gt 1 ] && echo " $try times")"
    say "the build failed; trying again ($try of $opt_build_retries, --build-retries)"
  done
}

# The layers of the runtime stage, largest first, and the size limit.
sizes() {
  local size max=$max_image_mb
  size=$($engine image inspect --format '{{.Size}}' "$image")
  say "image: $($engine image inspect --format '{{.Id}}' "$image" | cut -c1-19), $((size / 1000000)) MB (limit $max MB)"
  say "layers (podman history: size, step):"
  # "COPY dir:<digest> in DEST" -> "COPY -> DEST"; "|4 ARG=... /bin/sh -c CMD" -> "RUN CMD"
  $engine history --no-trunc --format '{{.Size}}	{{.CreatedBy}}' "$image" |
    awk -F'\t' '$1 != "0B" && $1 != "0 B" { c = $2; sub(/^\/bin\/sh -c #\(nop\) */, "", c)
      sub(/^\|[0-9]+ .* \/bin\/sh -c /, "RUN ", c); sub(/^\/bin\/sh -c /, "RUN ", c)
      if (c ~ /^(COPY|ADD) (dir|file):[0-9a-f]+ in /) { sub(/ (dir|file):[0-9a-f]+ in /, " -> ", c) }
      gsub(/  +/, " ", c); printf "[test-image]   %9s  %s\n", $1, substr(c, 1, 110) }'
  [ $((size / 1000000)) -le "$max" ] || die "the image is $((size / 1000000)) MB, more than the limit of $max MB"
}
