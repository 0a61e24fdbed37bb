// Package testtools is the root of the workbench's test-tooling module
// (sodworkbench.org/workbench/docker/testtools): the tests and commands
// that need heavy dependencies the library does not, so that the library
// module's go.mod lists only what the library and its notebooks import.
//
//   - browsercheck: loads pages with charts of the widgets package in
//     headless Chromium (chromedp) and reports whether every chart drew;
//   - cmd/labcheck: runs notebooks in a live JupyterLab in Chromium (the
//     image's browser test, docker/test-image.sh);
//   - cmd/chartcheck: checks exported notebooks and the HTML book
//     (the notebook harness, notebooks/notebooks_test.go);
//   - widgetsbrowser: the widgets package's charts in Chromium: a
//     standalone page, nbconvert's export, a notebook executed by GoNB and
//     a live notebook whose sliders redraw;
//   - dockerlint: the Dockerfiles under BuildKit's own parser and check
//     rules (moby/buildkit) and the project's image policy.
//
// The module requires the workbench through a local replace (../..), so it
// always tests the working tree. docker/test.sh vets and tests it after the
// library module:
//
//	cd docker/testtools && go vet ./... && go test ./...
package testtools
