// Package hublint checks the classroom hub's deployment files (docker/hub) without containers:
// the Zero to JupyterHub values parse strictly and match the image's conventions, and the hub's
// config refuses the test-only authenticator without its flag. It lives in the test-tools module
// because its YAML parser is a test-only dependency of the workbench.
package hublint

// hubDir is the hub's folder (docker/hub), relative to this package.
const hubDir = "../../../docker/hub"
