// Package badinput holds the project's bad-input table test: inputs a new
// user might try on the library (sod, sod/experiments, widgets), each
// with the error it must get — a sentinel (errors.Is) and a message naming
// the bad value and the accepted range — before any allocation, output or
// work. The command line and the server script have their own tables
// (sod/cmd/reproduce TestRunErrors, docker TestNotebookGuardRefuses).
// It has no code of its own.
package badinput
