// Package docker holds the workbench's container image support: the install and start scripts
// that the repository's Dockerfile runs, and the Dockerfile lint that runs with `go test ./...`.
//
// It has no Go API. Its test, dockerfile_test.go, checks ../Dockerfile with BuildKit's own
// Dockerfile parser and check rules (the rules behind `docker build --check`, package
// github.com/moby/buildkit/frontend/dockerfile/linter) and with the project's image policy:
// Debian trixie base; a build stage that runs the install steps of install.sh (--system as root,
// --user as the notebook user) and a runtime stage that starts from the base again and installs
// no node, npm or Debian Go (lean); jupyterhub-singleuser carried over; a non-root user with the
// JupyterHub / Binder conventions (NB_USER, NB_UID, home directory), port 8888, a health check,
// and token authentication that cannot be switched off by the image.
//
// The image itself is built and tested by test-image.sh (not part of `go test`: it takes about
// fifteen minutes), which docker/test.sh runs when podman or docker can build here; the README's
// "Docker" section documents both.
package docker
