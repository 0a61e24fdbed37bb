package reproducecli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"sodworkbench.org/workbench/sod/experiments"
)

// The merge subcommand: `reproduce merge -out DIR shard...` combines the
// files that `reproduce study -shard k/N` wrote (given as files, or folders
// holding study-shard-*-of-*.json) into the study's output, written by the
// same code as an unsharded `reproduce study`: the same study.json and CSV
// tables, byte for byte (experiments.MergeStudy; tested with four shard
// processes). Naming no shard, a path that does not exist or a folder
// without shard files is a usage error (exit 2); shards that do not fit
// together (missing, repeated, of another study) are refused (exit 1).
// Nothing is written unless the merge succeeds.

const mergeUsage = "usage: reproduce merge [-out dir] [-format json|csv|both] shard-file-or-folder..."

func init() {
	registerSubcommand(&subcommand{
		name:  "merge",
		usage: "merge [-out dir] [-format f] shard...",
		about: "combine the shard files of reproduce study -shard k/N into the study's output (the same files as one run)",
		run:   runMerge,
	})
}

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge")
	c := &common{stdout: stdout, stderr: stderr}
	c.outputFlags(fs)
	paths, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, mergeUsage)
		fmt.Fprintln(stdout, "\nCombines the shards written by `reproduce study -shard k/N` (files, or folders holding")
		fmt.Fprintln(stdout, "study-shard-*-of-*.json) into <out>/study.json and the study's CSV tables: the same files as")
		fmt.Fprintln(stdout, "the unsharded study. Every shard k in [0, N) must be given exactly once.")
		fmt.Fprintln(stdout, "\nFlags:")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return err
	}
	usage := func(err error) error { return &usageError{err: err, usage: mergeUsage} }
	if err != nil {
		return usage(err)
	}
	if c.out == "" {
		return usage(errors.New("-out is empty; want a directory name"))
	}
	if len(paths) == 0 {
		return usage(errors.New("no shard given; want the files (or folders) written by reproduce study -shard k/N"))
	}
	files, err := shardFiles(paths, "shard", experiments.StudyShardPattern)
	if err != nil {
		return usage(err)
	}
	shards := make([]*experiments.StudyShard, len(files))
	for i, f := range files {
		if shards[i], err = experiments.ReadStudyShard(f); err != nil {
			return err
		}
	}
	res, err := experiments.MergeStudy(shards)
	if err != nil {
		return fmt.Errorf("merging %d files: %w", len(files), err)
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merge: %d shards of the study (%d cells × %d trials)\n", len(files), len(res.Cells), res.Config.Trials)
	if err := writeStudy(c, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merge: data in %s\n", c.out)
	return nil
}

// shardFiles lists the files a merge reads: each path that is a file, and in each folder the
// files matching pattern (sorted); what names them in errors ("shard", "journal").
func shardFiles(paths []string, what, pattern string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", what, p, err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, pattern))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("folder %q holds no %s", p, pattern)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	return files, nil
}
