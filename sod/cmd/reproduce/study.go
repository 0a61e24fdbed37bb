package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"time"

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
		return func(ctx context.Context) error {
			cfg.Progress = c.progress()
			return runStudy(ctx, c, cfg)
		}, nil
	}
}

func runStudy(ctx context.Context, c *common, cfg experiments.StudyConfig) error {
	start := time.Now()
	r, err := experiments.RunStudy(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "  wall time %.2f s (%d trials)\n", time.Since(start).Seconds(), len(r.Cells)*cfg.Trials)
	summary := [][]string{{"n", "eps", "trials", "gd_successes", "sod_successes", "escapes", "escape_descent", "escape_errors"}}
	trials := [][]string{{"n", "eps", "trial", "gd_dist", "gd_success", "gd_iter", "sod_dist", "sod_success", "sod_iter", "outcome", "escapes"}}
	traj := [][]string{{"n", "eps", "trial", "method", "iter", "dist"}}
	for _, cell := range r.Cells {
		fmt.Fprintf(c.stdout, "  n=%d ε=%.2f: GD %d/%d, GD+SOD %d/%d (escapes %d, of which lowering h %d; escape errors %d)\n",
			cell.N, cell.Eps, cell.GDSuccesses, len(cell.Trials), cell.SODSuccesses, len(cell.Trials), cell.Escapes, cell.EscapeDescent, cell.EscapeErrors)
		summary = append(summary, []string{itoa(cell.N), ftoa(cell.Eps), itoa(len(cell.Trials)), itoa(cell.GDSuccesses), itoa(cell.SODSuccesses), itoa(cell.Escapes), itoa(cell.EscapeDescent), itoa(cell.EscapeErrors)})
		for _, t := range cell.Trials {
			trials = append(trials, []string{itoa(cell.N), ftoa(cell.Eps), itoa(t.Index), ftoa(t.GDDist), strconv.FormatBool(t.GDSuccess), itoa(t.GDIter),
				ftoa(t.SODDist), strconv.FormatBool(t.SODSuccess), itoa(t.SODIter), t.Outcome, itoa(len(t.Escapes))})
			for _, m := range []struct {
				name string
				tr   experiments.Trajectory
			}{{"GD", t.GD}, {"GD+SOD", t.SOD}} {
				for k := range m.tr.Iter {
					traj = append(traj, []string{itoa(cell.N), ftoa(cell.Eps), itoa(t.Index), m.name, itoa(m.tr.Iter[k]), ftoa(m.tr.Dist[k])})
				}
			}
		}
	}
	return c.write("study", r, map[string][][]string{"summary": summary, "trials": trials, "trajectories": traj})
}
