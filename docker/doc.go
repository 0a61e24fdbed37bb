// Package docker holds the workbench's container image support: the install, start and test
// scripts (docker/*.sh, sharing docker/lib.sh), the Dockerfile's helpers, the classroom hub
// (hub/), and the tests of the image's own scripts.
//
// It has no Go API. Its tests check the scripts themselves: the notebook server's guard
// (notebook.sh refuses every way of switching authentication off), the book's error detection
// (book.sh, on testdata/book-errors), the image step's decisions (image-step.sh), lib.sh's
// helpers, that every script parses, and that the build context keeps what the image needs.
//
// Tests of the repository as a whole (the README's example, Markdown links, references outside
// the repository, tracked binaries, the SOD_* table environment.md) are in the test-tooling
// module at .ci/testtools (package repo), with the notebook harness (notebookcheck) and the
// Dockerfile lint (dockerlint: BuildKit's parser and check rules, a dependency the library does
// not have).
//
// The image itself is built and tested by test-image.sh (not part of `go test`: it takes about
// fifteen minutes; its checks are in image-test/), which docker/test.sh runs when asked
// (SOD_IMAGE_TEST) and podman or docker can build here.
package docker
