// Package docker holds the workbench's container work: the Jupyter image's build helpers (the
// Dockerfile is at the repository's top), the image's tests (test-image.sh, image-test/), the test
// command's image step (image-step.sh), the grader's container test (test-grade-container.sh) and
// the classroom hub (hub/, test-hub.sh).
//
// It has no Go API. Its tests check the image step's decisions (image-step.sh) and that the build
// context keeps what the image needs. The image itself is built and tested by test-image.sh (not
// part of `go test`: it takes about fifteen minutes; its checks are in image-test/), which the test
// command (scripts/test.sh) runs when asked (SOD_IMAGE_TEST) and podman or docker can build here.
// The set-up, run and test scripts are in scripts/, the live book's engine in livebook/.
package docker
