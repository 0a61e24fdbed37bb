#!/usr/bin/env bash
# docker/test.sh — the workbench's test command (README.md, "Test"), also what CI runs.
#
# 1. docker/install.sh --with-browser  (idempotent: a no-op once everything is installed)
# 2. go vet, staticcheck (pinned, run through the Go module proxy) and the library tests
#                                       (go test over every package but notebooks/)
# 3. the notebook harness              (executes every notebooks/*.ipynb with nbconvert + gonb,
#                                        printing each notebook and its time)
#
# Set SOD_REQUIRE_NOTEBOOKS=1 / SOD_REQUIRE_BROWSER=1 to turn "skipped: not installed" into failures
# (CI does). SOD_SKIP_INSTALL=1 skips step 1, SOD_SKIP_STATICCHECK=1 staticcheck.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
t0=$(date +%s)

if [ "${SOD_SKIP_INSTALL:-0}" != 1 ]; then
  docker/install.sh --with-browser
fi
export PATH="${SOD_BIN:-$HOME/.local/bin}:/usr/local/bin:/usr/local/go/bin:$PATH"

echo "== go vet ./..."
go vet ./...
if [ "${SOD_SKIP_STATICCHECK:-0}" != 1 ]; then
  echo "== staticcheck ./..."
  go run honnef.co/go/tools/cmd/staticcheck@v0.7.0 ./...
fi
echo "== library tests"
go test -timeout 40m $(go list ./... | grep -v '/notebooks$')
echo "== notebooks"
go test -count=1 -timeout 80m -v ./notebooks 2>&1 | grep -v '^=== RUN' | sed -e '/^    --- PASS/d'
