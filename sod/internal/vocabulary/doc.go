// Package vocabulary holds the test that keeps the library's exported names
// one vocabulary across the library packages under sod/ and widgets/
// (commands, internal packages and test data excluded):
//
//   - an exported top-level name (type, function, constant, variable) is
//     declared in at most one package, so a reader tells a problem
//     (sod.BasicExampleProblem) from an experiment
//     (experiments.RunBasicExample) from a chart
//     (figures.BasicStartsChart) by its name alone;
//   - types of the same kind (the same head noun: sod.StepInterval,
//     paper.PrintedInterval, widgets.Interval) do not use one member name
//     for a field on one and a method on another.
//
// The test logs the counts (exported names per package, duplicates) for the
// project's reports. It has no code of its own.
package vocabulary
