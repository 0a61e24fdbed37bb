package reproducecli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/experiments"
)

// Ranges of the study flags.
const (
	maxTrials  = 1_000_000
	minN, maxN = 2, experiments.MaxStudyN
	maxWorkers = experiments.MaxStudyWorkers
	maxStep    = 10
	maxRank    = 100
)

func init() {
	registerExperiment(&experiment{name: "study", about: "the success-rate study (Fig. numerical_study): GD against GD+SOD on PMC instances", order: 5, seed: true, setup: setupStudy})
}

func setupStudy(fs *flag.FlagSet, c *common) func() (runFunc, error) {
	cfg := experiments.DefaultStudyConfig()
	fs.Var(intFlag{p: &cfg.Trials, min: 1, max: maxTrials}, "trials", fmt.Sprintf("study: `k` trials per cell, in [1, %d]", maxTrials))
	fs.Var(intList(&cfg.Sizes, minN, maxN), "sizes", fmt.Sprintf("study: `list` of sizes n, each in [%d, %d]", minN, maxN))
	fs.Var(floatList(&cfg.Epsilons, 0, 1, true), "eps", "study: `list` of perturbations ε, each in (0, 1]")
	fs.Var(intFlag{p: &cfg.Workers, min: 0, max: maxWorkers}, "workers", fmt.Sprintf("study: `w` goroutines, in [0, %d] (0: all cores)", maxWorkers))
	fs.Var(floatFlag{p: &cfg.Step, min: 0, max: maxStep}, "step", fmt.Sprintf("study: fixed GD `step` η, in [0, %d] (0: η = 0.5/n)", maxStep))
	fs.Var(intFlag{p: &cfg.Rank, min: 1, max: maxRank}, "rank", fmt.Sprintf("study: search `rank` r, in [1, %d] and ≤ every n (z = (1,0,1,0,…))", maxRank))
	var sh shardFlag
	fs.Var(&sh, "shard", fmt.Sprintf("study: run only slice `k/N` of the trials (0 ≤ k < N ≤ %d; trial j of all cells goes to k = j mod N) and write <out>/study-shard-k-of-N.json, for reproduce merge", batch.MaxShards))
	return func() (runFunc, error) {
		for _, n := range cfg.Sizes {
			if cfg.Rank > n {
				return nil, usagef("invalid value %d for flag -rank: the search rank must lie in [1, n] for every n of -sizes (n = %d)", cfg.Rank, n)
			}
		}
		cfg.Seed = c.seed
		if err := cfg.Validate(); err != nil {
			return nil, usagef("study: %v", err)
		}
		if sh.set {
			formatSet := false
			fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
			if formatSet {
				return nil, usagef("-format does not apply with -shard: a shard writes only <out>/%s, for reproduce merge (which takes -format)", experiments.StudyShardFile(sh.k, sh.n))
			}
		}
		return func(ctx context.Context) error {
			if sh.set {
				return runStudyShard(ctx, c, cfg, sh.k, sh.n)
			}
			return runStudy(ctx, c, cfg)
		}, nil
	}
}

func runStudy(ctx context.Context, c *common, cfg experiments.StudyConfig) error {
	start := time.Now()
	r, err := experiments.RunStudy(ctx, cfg, c.progress())
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "  wall time %.2f s (%d trials)\n", time.Since(start).Seconds(), len(r.Cells)*cfg.Trials)
	return writeStudy(c, r)
}

// writeStudy prints the study's summary and writes <out>/study.json and the
// CSV tables. The unsharded study and reproduce merge both write through it,
// so their files are the same bytes.
func writeStudy(c *common, r *experiments.StudyResult) error {
	for _, cell := range r.Cells {
		fmt.Fprintf(c.stdout, "  n=%d ε=%s: GD %d/%d, GD+SOD %d/%d (escapes %d, of which lowering h %d; escape errors %d)\n",
			cell.N, epsString(cell.Eps), cell.GDSuccesses, len(cell.Trials), cell.SODSuccesses, len(cell.Trials), cell.Escapes, cell.EscapeDescent, cell.EscapeErrors)
	}
	return c.write("study", r, r.CSVTables())
}

// epsString prints ε with two decimals (0.10, as the paper does), or all
// the digits it needs when two would round it (0.005).
func epsString(e float64) string {
	if s := strconv.FormatFloat(e, 'f', 2, 64); strconv.FormatFloat(e, 'f', -1, 64) == strings.TrimRight(strings.TrimRight(s, "0"), ".") {
		return s
	}
	return strconv.FormatFloat(e, 'g', -1, 64)
}

// runStudyShard runs shard k of n and writes it as JSON for reproduce merge.
func runStudyShard(ctx context.Context, c *common, cfg experiments.StudyConfig, k, n int) error {
	start := time.Now()
	sh, err := experiments.RunStudyShard(ctx, cfg, k, n, c.progress())
	if err != nil {
		return err
	}
	count := 0
	for _, cell := range sh.Cells {
		count += len(cell.Trials)
		fmt.Fprintf(c.stdout, "  n=%d ε=%s: %d trials of %d in this shard: GD %d, GD+SOD %d successes\n",
			cell.N, epsString(cell.Eps), len(cell.Trials), cfg.Trials, cell.GDSuccesses, cell.SODSuccesses)
	}
	fmt.Fprintf(c.stdout, "  shard %d/%d: wall time %.2f s (%d trials); merge the %d shards with: reproduce merge -out DIR <shard files or folders>\n",
		k, n, time.Since(start).Seconds(), count, n)
	return experiments.WriteStudyShard(c.out, sh)
}

// shardFlag is -shard k/N.
type shardFlag struct {
	k, n int
	set  bool
}

func (f *shardFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return fmt.Sprintf("%d/%d", f.k, f.n)
}

func (f *shardFlag) Set(s string) error {
	sh, err := batch.ParseShard(s)
	if err != nil {
		return err
	}
	f.k, f.n, f.set = sh.K, sh.N, true
	return nil
}
