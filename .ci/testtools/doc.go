// Package testtools is the root of the workbench's test-tooling module
// (sodworkbench.org/workbench/testtools, in .ci/testtools): the tests that
// belong to no one package of the workbench, and the tests and commands that
// need heavy dependencies the library does not, so that the library module's
// go.mod lists only what the library and its notebooks import.
//
//   - repo: the repository as a whole: the README's example runs, every
//     Markdown link resolves, no reference leads outside the repository, no
//     binary is tracked, every SOD_* variable is in scripts/environment.md;
//   - notebookcheck: the notebook harness: executes every notebooks/*.ipynb
//     with nbconvert and the gonb kernel, draws their charts in Chromium, and
//     holds the committed notebooks to the project's rules;
//   - browsercheck: loads pages with charts of the widgets package in
//     headless Chromium (chromedp) and reports whether every chart drew;
//   - cmd/labcheck: runs notebooks in a live JupyterLab in Chromium (the
//     image's browser test, docker/test-image.sh);
//   - cmd/chartcheck: checks exported notebooks and the HTML book
//     (notebookcheck, scripts/book.sh's output);
//   - widgetsbrowser: the widgets package's charts in Chromium: a
//     standalone page, nbconvert's export, a notebook executed by GoNB and
//     a live notebook whose sliders redraw;
//   - dockerlint: the Dockerfiles under BuildKit's own parser and check
//     rules (moby/buildkit) and the project's image policy;
//   - hublint: the classroom hub's deployment files, without containers.
//
// The tests of the image's own scripts stay beside them, in docker/.
//
// The module requires the workbench through a local replace (../..), so it
// always tests the working tree. scripts/test.sh vets and tests it after the
// library module, and notebookcheck on its own after them:
//
//	cd .ci/testtools && go vet ./... && go test ./...
package testtools
