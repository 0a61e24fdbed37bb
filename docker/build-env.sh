#!/bin/sh
# docker/build-env.sh — run one Dockerfile build step with the network options of the build host.
#
#   docker/build-env.sh COMMAND [ARGS...]
#
# The Dockerfile wraps every step that downloads something (apt, the Go module proxy, npm) in this
# script, so that a corporate network is served by build parameters, never by editing files:
#
#   /run/secrets/build_ca  a PEM bundle that HTTPS steps must trust (podman/docker build
#                          --secret id=build_ca,src=FILE; test-image.sh passes $SOD_BUILD_CA).
#                          Give a complete bundle (e.g. the host's /etc/ssl/certs/ca-certificates.crt,
#                          which holds any corporate CA the host trusts): Go, git and curl use it
#                          instead of the image's own list. It is mounted only for the step and
#                          never stored in the image.
#   APT_MIRROR             build arg: replaces http://deb.debian.org in the apt sources
#                          (e.g. http://mirror.example/debian-root, holding debian/ and debian-security/).
#   GOPROXY, GOSUMDB       build args, passed to Go as usual (empty means Go's defaults).
#   NPM_REGISTRY           build arg: the npm registry URL (empty means npm's default).
set -eu

ca=/run/secrets/build_ca
if [ -s "$ca" ]; then
  export SSL_CERT_FILE="$ca" NODE_EXTRA_CA_CERTS="$ca" GIT_SSL_CAINFO="$ca" CURL_CA_BUNDLE="$ca"
fi

if [ -n "${APT_MIRROR:-}" ] && [ "$(id -u)" = 0 ]; then
  mirror=${APT_MIRROR%/}
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed -i "s|http://deb.debian.org|$mirror|g" "$f"
  done
  # scripts/install.sh adds bookworm-backports on deb.debian.org unless a source already names it.
  if [ -r /etc/os-release ] && grep -q '^VERSION_CODENAME=bookworm' /etc/os-release &&
    ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb $mirror/debian bookworm-backports main" >/etc/apt/sources.list.d/sod-backports.list
  fi
fi

if [ -n "${NPM_REGISTRY:-}" ]; then
  export npm_config_registry="$NPM_REGISTRY"
fi
# Empty GOPROXY/GOSUMDB build args would still be exported as empty variables: Go reads an empty
# value as its default, so nothing to do for them.

exec "$@"
