// Package errorowners holds the test that keeps every package of the
// module the owner of its errors, as gonum's packages are ("optimize: …",
// "linesearch: …"):
//
//   - a package makes its errors with its own sentinels: no package passes
//     another module package's sentinel (an Err… identifier) to
//     fmt.Errorf, errors.Join or panic; an error a lower package returned
//     passes through wrapped (%w), keeping that package's sentinel, so
//     errors.Is still finds it;
//   - no package imports another module package only for its error values;
//   - a sentinel's message starts with its package's name ("escapebench:
//     …"), but for the few listed with their reason.
//
// The bad-input sentinels are sod.ErrBadParameter, batch.ErrBadBatch,
// escapebench.ErrBadBench, experiments.ErrBadExperiment,
// figures.ErrBadFigure, grading.ErrBadGrading, widgets.ErrBadInput and
// plots.ErrBadPlot. The package has no code of its own.
package errorowners
