// Package scripts holds the workbench's set-up, run and test scripts: install.sh (set up Jupyter,
// Go, the ECharts assets, gonb and its kernel), notebook.sh (serve the notebooks with Jupyter),
// test.sh (the test command, which CI runs through .ci/run), book.sh (the notebooks as an HTML
// book, with the live book of the livebook module), the notebook tools cellcost.sh/cellcost.py
// (what each cell costs) and kernel_check.py (one cell through a running server), test-slurm.sh
// (the benchmark and the study on a single-node Slurm cluster), and lib.sh, the helpers they share.
// environment.md lists every environment variable they read.
//
// It has no Go API. Its tests check the scripts themselves: the notebook server's guard
// (notebook.sh refuses every way of switching authentication off), the book's error detection
// (book.sh, on testdata/book-errors), lib.sh's helpers, and that every script of this folder and
// of docker/ parses.
//
// The Jupyter image, its tests and the classroom hub are in docker/; the live book's engine is
// the module in livebook/. Tests of the repository as a whole (the README's example, Markdown
// links, references outside the repository, tracked binaries, the SOD_* table environment.md)
// are in the test-tooling module at .ci/testtools (package repo), with the notebook harness
// (notebookcheck) and the Dockerfile lint (dockerlint).
package scripts
