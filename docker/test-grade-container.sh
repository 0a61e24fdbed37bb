#!/usr/bin/env bash
# docker/test-grade-container.sh — the grader's container isolation: grades three test
# submissions (good, mallory, hog) with `grade -sandbox podman`, one container per notebook from
# the workbench image, and checks their grades (TestGradeInPodman in sod/cmd/grade).
#
#   docker/test-grade-container.sh        (after docker/test-image.sh has built the image)
#
# Needs podman and the image ($SOD_IMAGE, default sod-workbench); without them it prints
# "SKIPPED: <reason>" and exits 0. Exits 1 if the test fails.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
image=${SOD_IMAGE:-sod-workbench}
if ! command -v podman >/dev/null; then
  echo "test-grade-container: SKIPPED: podman not found (apt-get install podman)"
  exit 0
fi
if ! podman image inspect "$image" >/dev/null 2>&1; then
  echo "test-grade-container: SKIPPED: no image $image (docker/test-image.sh builds it)"
  exit 0
fi
cd "$repo"
SOD_IMAGE=$image go test -count=1 -timeout 30m -run '^TestGradeInPodman$' -v ./sod/cmd/grade/
