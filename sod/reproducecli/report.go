package reproducecli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"sodworkbench.org/workbench/sod/reproduction"
)

// The report subcommand: `reproduce report` prints the reproduction report
// of package sod/reproduction (Markdown) on standard output. The committed
// notebooks/REPRODUCTION.md is exactly its output (a test of that package
// keeps the two equal).

func init() {
	registerSubcommand(&subcommand{
		name:  "report",
		usage: "report",
		about: "print the reproduction report (Markdown, as committed in " + reproduction.File + ") on stdout",
		run:   runReport,
	})
}

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "usage: reproduce report")
		fmt.Fprintln(stdout, "\nPrints the reproduction report on standard output: every value the paper prints that the")
		fmt.Fprintln(stdout, "workbench reproduces or refutes, computed on this run, with its status and evidence, then the")
		fmt.Fprintln(stdout, "conventions and findings. The output is deterministic; the committed copy is "+reproduction.File+":")
		fmt.Fprintln(stdout, "  "+reproduction.RegenerateCommand)
		return err
	}
	if err == nil && len(pos) > 0 {
		err = fmt.Errorf("report takes no arguments (got %q)", strings.Join(pos, " "))
	}
	if err != nil {
		return &usageError{err: err, usage: "usage: reproduce report"}
	}
	r, err := reproduction.Compute(ctx, reproduction.Options{})
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	if err := r.WriteMarkdown(w); err != nil {
		return err
	}
	return w.Flush()
}
