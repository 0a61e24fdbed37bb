#!/usr/bin/env bash
# docker/compile-check.sh — run inside the image (`<engine> run -i IMAGE bash -s < docker/compile-check.sh`)
# with PKGS (the packages, space-separated) and MODULE (the workbench module's folder) in the
# environment: in a module made as GoNB makes its own (go mod init, the workbench required
# through a local replace, offline), a program importing every package of PKGS is built, and
# each package the build had to compile is printed as `compiled: PKG`; a warm build cache prints
# none. The Go settings (GOFLAGS, GOCACHE, GOCACHEPROG, ...) are the caller's. Used by
# docker/test-image.sh (the image's warm cache) and docker/test-hub.sh (the hub's shared cache).
# (`go list`'s Stale cannot tell: it calls packages that are only in the build cache stale.)
set -eu
[ -n "${PKGS:-}" ] || { echo "compile-check.sh: no package list (PKGS)" >&2; exit 1; }
d=$(mktemp -d /tmp/gonb_check.XXXXXX)
cd "$d"
go mod init gonb_check >/dev/null 2>&1
go mod edit -require=sodworkbench.org/workbench@v0.0.0-00010101000000-000000000000 -replace=sodworkbench.org/workbench="$MODULE"
{
  echo 'package main'
  echo 'import ('
  for p in $PKGS; do echo "	_ \"$p\""; done
  echo ')'
  echo 'func main() {}'
} >main.go
GOPROXY=off go get >/dev/null 2>&1 || GOPROXY=off go get
go build -x -o /dev/null . 2>build.log || { cat build.log >&2; exit 1; }
echo "packages: $(echo $PKGS | wc -w)"
sed -n 's/.*\/compile .* -p \([^ ]*\) .*/\1/p' build.log | grep -vx main | sed 's/^/compiled: /' || true
