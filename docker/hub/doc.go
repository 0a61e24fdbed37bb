// Package hub holds the workbench's classroom deployments: a JupyterHub 5 for one server
// (Dockerfile, jupyterhub_config.py, sod-hub-start, sod-hub-user; tested by ../test-hub.sh with
// hub_check.py) and Zero to JupyterHub values for Kubernetes (z2jh-values.yaml).
//
// It has no Go API. .ci/testtools/hublint checks what can be checked without containers: the Zero to
// JupyterHub values parse and match the image's conventions, and the hub's config refuses the
// test-only authenticator without its flag. docker/README.md, "Classroom hub", documents both deployments.
package hub
