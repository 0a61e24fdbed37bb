// Package notebookcheck is the notebooks' test harness: it executes every notebooks/*.ipynb
// headlessly with nbconvert and the gonb kernel, as a reader would run it top to bottom, and
// holds the notebooks to the project's rules without executing them.
//
//   - TestNotebooks: each notebook from scratch, failing on a cell error, a failed `!` shell
//     line, a figure widgets.Show could not show, an exercise that did not report, or a notebook without output; then each executed
//     notebook exported to HTML and its charts drawn in headless Chromium (cmd/chartcheck);
//   - TestNotebookSources: as committed: valid, no outputs, every `go get` pinned, the gonb
//     kernelspec, the exercise cells' convention;
//   - TestNotebookReadability: cells are a text (median at most 12 lines, none over 40);
//   - TestNotebookPlumbing: at most 10 % of a notebook's code words are plumbing (error helpers,
//     display wrappers, index lookups of the paper's instances, file hand-offs), reported per
//     notebook beside the share that names the paper's objects, and no cell reads a file another
//     cell wrote (the library remembers results across cells);
//   - TestHarnessCatchesFailures: notebooks made to fail (testdata) are reported, cell by cell.
//
// It has no Go API, and lives in the test-tooling module so that the notebooks/ folder a reader
// opens in JupyterLab holds the notebooks and their reports only. The notebooks find the
// workbench module from their own folder (their first cell), not from here.
//
//	cd .ci/testtools && go test -count=1 -v ./notebookcheck
//
// Environment:
//
//	SOD_REQUIRE_NOTEBOOKS=1   fail (instead of skip) when Jupyter or the gonb kernel is missing
//	SOD_NOTEBOOK_TIMEOUT=600  per-notebook time limit in seconds (also nbconvert's per-cell limit)
//	SOD_NOTEBOOK_JOBS=2       notebooks executed at once (default min(2, cores): 2 is fastest on 2 cores)
//	SOD_NOTEBOOK_OUT=dir      keep the executed notebooks in dir (default: a temporary directory)
//	SOD_NOTEBOOK_RUN=regexp   execute only the notebooks whose file name matches
package notebookcheck
