// Package docker holds the workbench's container image support: the install, start and test
// scripts (docker/*.sh, sharing docker/lib.sh), the Dockerfile's helpers, and their tests.
//
// It has no Go API. Its tests check the scripts themselves: the notebook server's guard
// (notebook.sh refuses every way of switching authentication off), the book's error detection
// (book.sh), the image step's decisions (image-step.sh), that every script parses, that the
// build context keeps what the image needs, that no file points outside the repository, and that
// every SOD_* environment variable in the code is documented in environment.md, the one table of
// them. The Dockerfile lint (BuildKit's own parser and check rules, and the project's image
// policy) needs BuildKit, a dependency the library does not have: it lives in the test tooling's
// module, docker/testtools/dockerlint.
//
// The image itself is built and tested by test-image.sh (not part of `go test`: it takes about
// fifteen minutes; its checks are in image-test/), which docker/test.sh runs when asked
// (SOD_IMAGE_TEST) and podman or docker can build here.
package docker
