package repo

// repoRoot is the workbench repository, three folders up (.ci/testtools/repo).
const repoRoot = "../../.."
