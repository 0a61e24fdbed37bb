#!/usr/bin/env bash
# scripts/test.sh — the workbench's test command (README.md, "Test"), also what CI runs.
#
#   scripts/test.sh [--no-install] [--no-staticcheck] [--no-fuzz]
#
# 1. scripts/install.sh --with-browser --with-grader  (idempotent: a no-op once everything is installed)
# 2. go vet, staticcheck (pinned, run through the Go module proxy) and the library tests
#                                       (go test ./...: the library, widgets and the scripts' and the image's own tests;
#                                        then ./sod again with the noasm tag, on its pure-Go kernels)
# 3. the test tooling's module (.ci/testtools: the repository-wide tests (README example, Markdown
#    links, references, tracked files, environment variables), the browser tests (among them the
#    benchmark report's charts read back from ECharts: TestBrowserBenchReport), labcheck and
#    chartcheck, the Dockerfile and hub lint): go vet, staticcheck and go test, as for the library
# 4. the notebook harness              (.ci/testtools/notebookcheck: executes every notebooks/*.ipynb
#                                        with nbconvert + gonb, printing each notebook and its time)
#    then the live book of all notebooks (scripts/book.sh --executed: the harness's executed copies,
#    not executed twice) and its browser test on all 12 pages (every cell run in the page's Go
#    interpreter, outputs compared with the kernel's, the size budgets asserted and the time budgets
#    reported (SOD_LIVEBOOK_TIME_BUDGETS=assert fails on them); a page whose interpreter or
#    runtime is refused still draws its charts and typesets its math: .ci/testtools/livebookbrowser),
#    after scripts/cellcost.sh --cells   (what every cell costs as the kernel runs it: build, tools, GoNB,
#                                        run; reported, not asserted, and the kernel's time of each cell
#                                        for the page's ratio to it; a failing cell or no build fails)
# 5. the image: SOD_IMAGE_TEST=1 runs docker/test-image.sh in full; SOD_IMAGE_TEST=ci (.ci/run) runs
#    its CI profile when the measured cost fits the 25-minute budget (README, "How CI decides").
#    Both install podman (scripts/install.sh --with-podman) and first check the host: no podman, no
#    user namespaces, no base image, no network for the build or too little disk give a printed
#    "image test SKIPPED: <reason>" (SOD_REQUIRE_IMAGE=1 makes that a failure); a failure of the
#    image itself fails. Without SOD_IMAGE_TEST the step prints that it was not asked for.
#
# Set SOD_REQUIRE_NOTEBOOKS=1 / SOD_REQUIRE_BROWSER=1 to turn "skipped: not installed" into failures
# (CI does; scripts/environment.md lists every variable). --no-install skips step 1 (and the image
# step's install of podman), --no-staticcheck staticcheck, --no-fuzz the bounded fuzzing after the
# library tests.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
t0=$(date +%s)

install=1 staticcheck=1 fuzz=1
for arg in "$@"; do
  case "$arg" in
  --no-install) install=0 ;;
  --no-staticcheck) staticcheck=0 ;;
  --no-fuzz) fuzz=0 ;;
  *)
    echo "usage: scripts/test.sh [--no-install] [--no-staticcheck] [--no-fuzz]" >&2
    exit 2
    ;;
  esac
done
staticcheck_cmd=honnef.co/go/tools/cmd/staticcheck@v0.7.0

if [ "$install" = 1 ]; then
  if [ "${SOD_IMAGE_TEST:-0}" = 1 ]; then
    scripts/install.sh --with-browser --with-grader --with-podman
  else
    scripts/install.sh --with-browser --with-grader
  fi
fi
export PATH="${SOD_BIN:-$HOME/.local/bin}:/usr/local/bin:/usr/local/go/bin:$PATH"

echo "== go vet ./..."
go vet ./...
if [ "$staticcheck" = 1 ]; then
  echo "== staticcheck ./..."
  go run "$staticcheck_cmd" ./...
fi
echo "== library tests"
go test -timeout 40m ./...
# sod's assembly kernels have pure-Go twins (the noasm tag), which the tests compare with them
# bit for bit on amd64; here the package runs on the twins alone.
echo "== sod with the noasm tag (its pure-Go kernels)"
go test -tags noasm -count=1 -timeout 10m ./sod
if [ "$fuzz" = 1 ]; then
  # Each fuzz target for 10 s (below ~5 s Go can stop a target with "context deadline exceeded"
  # before it starts fuzzing; their seed corpora already ran above). A failing input is saved
  # under the package's testdata/fuzz: commit it with the fix, so it stays in the corpus.
  # The targets are found, not listed: every `func FuzzX` of a _test.go file of this module (so a
  # new target is never forgotten), as ./pkg:FuzzX; .ci/testtools is another module (it has none).
  targets=$(grep -rn --include='*_test.go' '^func Fuzz' . | grep -v '^\./\.ci/' |
    sed -E 's|^(.*)/[^/]+_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*|\1:\2|' | sort)
  # Go 1.26's fuzz coordinator can end a duration-bounded target with a bare "context deadline
  # exceeded" when -fuzztime runs out while a worker is mid-input (go.dev/issue/75804, fixed in Go
  # 1.27): no input failed and none is saved. A target fails here when go test fails with a new
  # failing input saved, or with any other message; the race alone is reported and passed.
  echo "== fuzz (10s each): $(echo "$targets" | wc -l) targets"
  for target in $targets; do
    pkg=${target%%:*} name=${target#*:}
    corpus="$pkg/testdata/fuzz/$name"
    before=$(ls "$corpus" 2>/dev/null | sort || true)
    if ! out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime 10s "$pkg" 2>&1); then
      after=$(ls "$corpus" 2>/dev/null | sort || true)
      failures=$(printf '%s\n' "$out" | grep -v -e '^fuzz: elapsed' -e '^--- FAIL: ' -e '^FAIL' -e '^exit status ' -e '^[[:space:]]*$' || true)
      if [ "$before" = "$after" ] && [ "$(printf '%s\n' "$failures" | sed 's/^[[:space:]]*//')" = "context deadline exceeded" ]; then
        echo "fuzz: $name: Go's fuzztime race (go.dev/issue/75804), no failing input: passed"
        continue
      fi
      printf '%s\n' "$out" | grep -v '^fuzz: elapsed'
      echo "fuzz: $name failed" >&2
      exit 1
    fi
    printf '%s\n' "$out" | grep -v '^fuzz: elapsed'
  done
fi
# The test tooling is a module of its own (.ci/testtools/go.mod), which `./...` above does not
# enter: its heavy dependencies (chromedp, BuildKit) stay out of the library's go.mod. Its
# notebook harness (notebookcheck) runs on its own, with its report per notebook, below.
echo "== test tooling (.ci/testtools): go vet, staticcheck, go test"
(
  cd .ci/testtools
  go vet ./...
  if [ "$staticcheck" = 1 ]; then go run "$staticcheck_cmd" ./...; fi
  go test -timeout 20m $(go list ./... | grep -v '/notebookcheck$')
)
# The benchmark and the study as Slurm job arrays on a single-node cluster (installs slurm-wlm and
# munge; not root or no apt: a printed "slurm test SKIPPED"; a failed job or a differing byte fails).
echo "== slurm (scripts/test-slurm.sh)"
if [ "$install" = 1 ]; then scripts/test-slurm.sh; else scripts/test-slurm.sh --no-install; fi
echo "== notebooks"
rm -rf "$repo/out/notebooks-executed"
(cd .ci/testtools && SOD_NOTEBOOK_OUT="$repo/out/notebooks-executed" go test -count=1 -timeout 80m -v ./notebookcheck) 2>&1 | grep -v '^=== RUN' | sed -e '/^    --- PASS/d'
echo "== live book (livebook: go vet, go test with the differential test's quick profile; scripts/book.sh of the executed notebooks, then all 12 pages in headless Chromium)"
mkdir -p "$repo/out"
(cd livebook && go vet ./... && GOOS=js GOARCH=wasm go vet ./cmd/sodlive && LIVE_DIFF=1 LIVE_DIFF_REPORT="$repo/out/LIVE-DIFF.md" go test -short -timeout 20m ./...)
scripts/book.sh -o "$repo/out/livebook-ci" --no-check --executed "$repo/out/notebooks-executed"
# The kernel's time of every cell (wall, from the execute request to the reply), for the page's
# ratio to it in LIVE-REPORT.md: GoNB stamps the executed notebooks' times to the second.
echo "== cell cost (scripts/cellcost.sh --cells: every cell of every notebook, as the kernel runs it)"
scripts/cellcost.sh --cells --out "$repo/out/CELLCOST-ci.md"
(cd .ci/testtools && SOD_LIVEBOOK="$repo/out/livebook-ci" SOD_LIVEBOOK_NOTEBOOKS=. SOD_LIVEBOOK_KERNEL_TIMES="$repo/out/CELLCOST-ci.md" \
  go test -count=1 -timeout 30m -v -run 'TestLiveBook|TestPageWithoutInterpreter' ./livebookbrowser 2>&1 | grep -v '^=== RUN')

echo "== image (docker/test-image.sh)"
if [ "$install" = 1 ]; then docker/image-step.sh; else docker/image-step.sh --no-install; fi
