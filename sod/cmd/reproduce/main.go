// Command reproduce runs the experiments of the paper "Escaping Local Minima
// Provably in Non-convex Matrix Sensing" (package
// sodworkbench.org/workbench/sod/experiments) and writes their data as JSON
// and CSV, for readers who want the numbers without Jupyter.
//
// Usage:
//
//	go run ./sod/cmd/reproduce [flags] experiment... [flags]
//	go run ./sod/cmd/reproduce <subcommand> [flags] [args]
//
// Experiments: basic (Fig. 2), pmc (Fig. exp2), realworld (Fig. exp3),
// ablation (appendix table), study (Fig. numerical_study), qnn (Fig.
// quadratic_nn), or all. Each writes <out>/<experiment>.json (the complete
// result) and one or more <out>/<experiment>_*.csv tables, and prints a
// summary. A progress bar is drawn on stderr unless -quiet. Subcommands
// (other verbs than running experiments) come first on the line and take
// their own flags; `reproduce -h` lists them.
//
// Flags may appear anywhere on the line (before, between or after the
// experiment names; "--" ends them). Every flag value and experiment name is
// checked, against the ranges listed below, before any experiment runs and
// before the output directory is created. A usage error (an unknown
// experiment or flag, a value out of range) prints the usage line and exits
// with status 2; `reproduce -h` prints the help and exits 0; a failure while
// running exits 1.
//
// Flags:
//
//	-out dir        output directory (default "reproduce-out"; not empty)
//	-format f       json, csv or both (default both)
//	-seed s         master seed of the study and basic example, in [0, 2⁶⁴−1]
//	                (default 1); the QNN's start seed only when given (its
//	                default is DefaultQNNConfig's 13, a start at which GD stalls)
//	-quiet          no progress bar
//	-trials k       trials per cell of the study, in [1, 10⁶] (default 50)
//	-sizes list     study sizes n, each in [2, 10⁷] (default 40,50,60,70,80)
//	-eps list       study perturbations ε, each in (0, 1] (default 0.15,0.10)
//	-workers w      goroutines for the study, in [0, 4096] (default 0: all cores)
//	-step η         fixed GD step of the study, in [0, 10] (default 0: η = 0.5/n)
//	-rank r         search rank of the study, in [1, 100] and ≤ n (default 1;
//	                z = (1,0,1,0,…))
//	-shard k/N      run only the k-th of N disjoint slices of the study's trials
//	                (0 ≤ k < N ≤ 10⁵; trial j of all cells goes to k = j mod N)
//	                and write <out>/study-shard-k-of-N.json; `reproduce merge`
//	                combines the N files into the unsharded study's output
//	-ls list        ablation lifting orders, odd, each in [3, 99] (default 3,5,7)
//	-ts list        ablation step counts, integers in [1, 10¹⁵] (2e6 is
//	                accepted) (default 1000,5000,33500,100000,500000,2000000)
//
// Lists are comma-separated, hold at most 64 values and may not be empty.
//
// The command is package sodworkbench.org/workbench/sod/reproducecli; a
// main of a few lines gives your own escape methods the whole command
// (see that package's doc).
package main

import "sodworkbench.org/workbench/sod/reproducecli"

func main() { reproducecli.Main() }
