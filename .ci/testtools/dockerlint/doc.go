// Package dockerlint checks the workbench's Dockerfiles (the image's,
// ../../../Dockerfile, and the classroom hub's, docker/hub/Dockerfile) with
// BuildKit's own Dockerfile parser and check rules (the rules behind
// `docker build --check`, package
// github.com/moby/buildkit/frontend/dockerfile/linter) and with the
// project's image policy: Debian trixie base; a build stage that runs the
// install steps of install.sh (--system as root, --user as the notebook
// user) and a runtime stage that starts from the base again and installs no
// node, npm or Debian Go (lean); jupyterhub-singleuser carried over; a
// non-root user with the JupyterHub / Binder conventions (NB_USER, NB_UID,
// home directory), port 8888, a health check, and token authentication that
// cannot be switched off by the image.
//
// It lives in the test-tooling module (.ci/testtools) because BuildKit is
// a dependency of this test only.
package dockerlint
