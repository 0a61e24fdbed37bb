// Command reproduce runs the experiments of the paper "Escaping Local Minima
// Provably in Non-convex Matrix Sensing" (package
// sodworkbench.org/workbench/sod/experiments) and writes their data as JSON
// and CSV, for readers who want the numbers without Jupyter.
//
// Usage:
//
//	go run ./sod/cmd/reproduce [flags] experiment...
//
// Experiments: basic (Fig. 2), pmc (Fig. exp2), realworld (Fig. exp3),
// ablation (appendix table), study (Fig. numerical_study), qnn (Fig.
// quadratic_nn), or all. Each writes <out>/<experiment>.json (the complete
// result) and one or more <out>/<experiment>_*.csv tables, and prints a
// summary. A progress bar is drawn on stderr unless -quiet.
//
// Flags:
//
//	-out dir        output directory (default "reproduce-out")
//	-format f       json, csv or both (default both)
//	-seed s         master seed of the study and basic example (default 1); the
//	                QNN's start seed only when given (its default is
//	                DefaultQNNConfig's 13, a start at which GD stalls)
//	-trials k       trials per cell of the study (default 50)
//	-sizes list     study sizes n (default 40,50,60,70,80)
//	-eps list       study perturbations ε (default 0.15,0.10)
//	-workers w      goroutines for the study (default: all cores)
//	-step η         fixed GD step of the study (default 0: η = 0.5/n)
//	-rank r         search rank of the study (default 1; z = (1,0,1,0,…))
//	-ls list        ablation lifting orders (default 3,5,7)
//	-ts list        ablation step counts (default 1000,5000,33500,100000,500000,2000000)
//	-quiet          no progress bar
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/experiments"
)

type options struct {
	out, format string
	seed        uint64
	seedSet     bool // -seed given explicitly
	trials      int
	sizes       []int
	eps         []float64
	workers     int
	step        float64
	rank        int
	ls          []int
	ts          []int64
	quiet       bool
	stdout      io.Writer
	stderr      io.Writer
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); errors.Is(err, flag.ErrHelp) {
		return // -h: the usage is printed, and asking for it is not a failure
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "reproduce:", err)
		os.Exit(1)
	}
}

func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := options{stdout: stdout, stderr: stderr}
	fs.StringVar(&o.out, "out", "reproduce-out", "output directory")
	fs.StringVar(&o.format, "format", "both", "json, csv or both")
	fs.Uint64Var(&o.seed, "seed", 1, "master seed")
	fs.IntVar(&o.trials, "trials", 50, "study trials per cell")
	sizes := fs.String("sizes", "40,50,60,70,80", "study sizes n")
	eps := fs.String("eps", "0.15,0.10", "study perturbations ε")
	fs.IntVar(&o.workers, "workers", 0, "study goroutines (0: all cores)")
	fs.Float64Var(&o.step, "step", 0, "study: fixed GD step (0: 0.5/n)")
	fs.IntVar(&o.rank, "rank", 1, "study: search rank r")
	ls := fs.String("ls", "3,5,7", "ablation lifting orders")
	ts := fs.String("ts", "1000,5000,33500,100000,500000,2000000", "ablation step counts")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reproduce [flags] basic|pmc|realworld|ablation|study|qnn|all ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { o.seedSet = o.seedSet || f.Name == "seed" })
	var err error
	if o.sizes, err = parseList(*sizes, strconv.Atoi); err != nil {
		return fmt.Errorf("-sizes: %w", err)
	}
	if o.eps, err = parseList(*eps, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err != nil {
		return fmt.Errorf("-eps: %w", err)
	}
	if o.ls, err = parseList(*ls, strconv.Atoi); err != nil {
		return fmt.Errorf("-ls: %w", err)
	}
	if o.ts, err = parseList(*ts, func(s string) (int64, error) {
		f, err := strconv.ParseFloat(s, 64) // accepts 2e6
		return int64(f), err
	}); err != nil {
		return fmt.Errorf("-ts: %w", err)
	}
	if o.format != "json" && o.format != "csv" && o.format != "both" {
		return fmt.Errorf("-format must be json, csv or both, not %q", o.format)
	}
	names := fs.Args()
	if len(names) == 0 {
		fs.Usage()
		return fmt.Errorf("no experiment given")
	}
	if len(names) == 1 && names[0] == "all" {
		names = []string{"basic", "pmc", "realworld", "ablation", "qnn", "study"}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, name := range names {
		start := time.Now()
		if err := runOne(ctx, name, &o); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(stdout, "%s: done in %.2f s, data in %s\n", name, time.Since(start).Seconds(), o.out)
	}
	return nil
}

func (o *options) progress() experiments.ProgressFunc {
	if o.quiet {
		return nil
	}
	return experiments.TextProgress(o.stderr, 40)
}

func runOne(ctx context.Context, name string, o *options) error {
	switch name {
	case "basic":
		cfg := experiments.DefaultBasicConfig()
		cfg.Seed = o.seed
		r, err := experiments.BasicExample(cfg, o.progress())
		if err != nil {
			return err
		}
		for _, p := range r.Paths {
			fmt.Fprintf(o.stdout, "  start %d %-6s ends at (%.4f, %.4f), ‖xxᵀ−M*‖ = %.3g\n", p.Start, p.Method, p.X[len(p.X)-1], p.Y[len(p.Y)-1], p.Final)
		}
		rows := [][]string{{"method", "start", "k", "x", "y", "h", "dist"}}
		for _, p := range r.Paths {
			for k := range p.X {
				rows = append(rows, []string{p.Method, itoa(p.Start), itoa(k), ftoa(p.X[k]), ftoa(p.Y[k]), ftoa(p.H[k]), ftoa(p.Dist[k])})
			}
		}
		grid := [][]string{{"x", "y", "h"}}
		for j, y := range r.GridY {
			for i, x := range r.GridX {
				grid = append(grid, []string{ftoa(x), ftoa(y), ftoa(r.H[j][i])})
			}
		}
		return o.write(name, r, map[string][][]string{"paths": rows, "landscape": grid})
	case "pmc", "realworld":
		cfg := experiments.PMCCaseConfig()
		if name == "realworld" {
			cfg = experiments.RealWorldCaseConfig()
		}
		r, err := experiments.CaseStudy(cfg, o.progress())
		if err != nil {
			return err
		}
		n := len(r.Dist)
		fmt.Fprintf(o.stdout, "  X̂ = %.4f, h(X̂) = %.4g, λ_n = %.4g; %s-type escape at l=%d, t=%d: h(X̌) = %.4g (descent %v)\n",
			r.XHat, r.HHat, r.LambdaN, r.Kind, cfg.L, cfg.T, r.HCheck, r.Descent)
		fmt.Fprintf(o.stdout, "  ‖XXᵀ−M*‖: %.4g before the escape, %.4g at the end; U_β = %s, U_γ = %s\n", r.Dist[r.EscapeAt-1], r.Dist[n-1], r.UBeta, r.UGamma)
		curves := [][]string{{"iter", "h", "grad_norm", "dist", "x"}}
		for k := range r.Iter {
			curves = append(curves, []string{itoa(r.Iter[k]), ftoa(r.H[k]), ftoa(r.GradNorm[k]), ftoa(r.Dist[k]), joinF(r.Path[k])})
		}
		L := r.Lifted
		lifted := [][]string{{"t", "closed_log10_hl", "closed_log10_a", "closed_log10_b", "closed_log10_c", "exact_log10_hl", "exact_log10_a", "exact_log10_b", "exact_log10_c"}}
		for k := range L.T {
			lifted = append(lifted, []string{ftoa(L.T[k]), ftoa(L.CloseHL[k]), ftoa(L.CloseA[k]), ftoa(L.CloseB[k]), ftoa(L.CloseC[k]),
				ftoa(L.ExactHL[k]), ftoa(L.ExactA[k]), ftoa(L.ExactB[k]), ftoa(L.ExactC[k])})
		}
		return o.write(name, r, map[string][][]string{"curves": curves, "lifted": lifted})
	case "ablation":
		cfg := experiments.DefaultAblationConfig()
		cfg.Ls, cfg.Ts = o.ls, o.ts
		r, err := experiments.Ablation(cfg, o.progress())
		if err != nil {
			return err
		}
		rows := [][]string{{"l", "rho_min", "u_beta", "u_gamma", "t", "kind", "defined", "d_hat", "d_star", "ratio", "h_hat", "h_check", "descent", "final"}}
		for _, row := range r.Rows {
			fmt.Fprintf(o.stdout, "  l=%d ρ_min=%.3f U_β=%s U_γ=%s\n", row.L, row.RhoMin, row.UBetaS, row.UGamS)
			for _, c := range row.Cells {
				fmt.Fprintf(o.stdout, "    t=%-8d %-4s d̂=%-10.4g d*=%-10.4g ratio=%-7.4g h(X̌)=%-10.4g descent=%-5v final=%s\n", c.T, c.Kind, c.DHat, c.DStar, c.Ratio, c.HCheck, c.Descent, c.Final)
				rows = append(rows, []string{itoa(row.L), ftoa(row.RhoMin), row.UBetaS, row.UGamS, strconv.FormatInt(c.T, 10), c.Kind,
					strconv.FormatBool(c.Defined), ftoa(c.DHat), ftoa(c.DStar), ftoa(c.Ratio), ftoa(c.HHat), ftoa(c.HCheck), strconv.FormatBool(c.Descent), c.Final})
			}
		}
		fmt.Fprintf(o.stdout, "  cells with h(X̌) < h(X̂): %d\n", r.DescentCells)
		scan := [][]string{{"l", "t", "h_hat", "h_beta", "h_gamma"}}
		var scans []*experiments.DescentScanResult
		for _, l := range cfg.Ls {
			s, err := experiments.DescentScan(cfg, l, experiments.LogGrid(1, 10000000, 200))
			if err != nil {
				return err
			}
			scans = append(scans, s)
			for k := range s.T {
				scan = append(scan, []string{itoa(l), ftoa(s.T[k]), ftoa(s.HHat), ftoa(s.HBeta[k]), ftoa(s.HGamma[k])})
			}
		}
		out := struct {
			*experiments.AblationResult
			DescentScans []*experiments.DescentScanResult `json:"descent_scans"`
		}{r, scans}
		return o.write(name, out, map[string][][]string{"table": rows, "descent_scan": scan})
	case "study":
		cfg := experiments.DefaultStudyConfig()
		cfg.Seed, cfg.Trials, cfg.Sizes, cfg.Epsilons, cfg.Workers, cfg.Step, cfg.Rank = o.seed, o.trials, o.sizes, o.eps, o.workers, o.step, o.rank
		cfg.Progress = o.progress()
		start := time.Now()
		r, err := experiments.RunStudy(ctx, cfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.stdout, "  wall time %.2f s (%d trials)\n", time.Since(start).Seconds(), len(r.Cells)*cfg.Trials)
		summary := [][]string{{"n", "eps", "trials", "gd_successes", "sod_successes", "escapes", "escape_descent", "escape_errors"}}
		trials := [][]string{{"n", "eps", "trial", "gd_dist", "gd_success", "gd_iter", "sod_dist", "sod_success", "sod_iter", "outcome", "escapes"}}
		traj := [][]string{{"n", "eps", "trial", "method", "iter", "dist"}}
		for _, c := range r.Cells {
			fmt.Fprintf(o.stdout, "  n=%d ε=%.2f: GD %d/%d, GD+SOD %d/%d (escapes %d, of which lowering h %d; escape errors %d)\n",
				c.N, c.Eps, c.GDSuccesses, len(c.Trials), c.SODSuccesses, len(c.Trials), c.Escapes, c.EscapeDescent, c.EscapeErrors)
			summary = append(summary, []string{itoa(c.N), ftoa(c.Eps), itoa(len(c.Trials)), itoa(c.GDSuccesses), itoa(c.SODSuccesses), itoa(c.Escapes), itoa(c.EscapeDescent), itoa(c.EscapeErrors)})
			for _, t := range c.Trials {
				trials = append(trials, []string{itoa(c.N), ftoa(c.Eps), itoa(t.Index), ftoa(t.GDDist), strconv.FormatBool(t.GDSuccess), itoa(t.GDIter),
					ftoa(t.SODDist), strconv.FormatBool(t.SODSuccess), itoa(t.SODIter), t.Outcome, itoa(len(t.Escapes))})
				for _, m := range []struct {
					name string
					tr   experiments.Trajectory
				}{{"GD", t.GD}, {"GD+SOD", t.SOD}} {
					for k := range m.tr.Iter {
						traj = append(traj, []string{itoa(c.N), ftoa(c.Eps), itoa(t.Index), m.name, itoa(m.tr.Iter[k]), ftoa(m.tr.Dist[k])})
					}
				}
			}
		}
		return o.write(name, r, map[string][][]string{"summary": summary, "trials": trials, "trajectories": traj})
	case "qnn":
		cfg := experiments.DefaultQNNConfig()
		if o.seedSet {
			cfg.Seed = o.seed
		}
		r, err := experiments.QNN(cfg, o.progress())
		if err != nil {
			return err
		}
		fmt.Fprintf(o.stdout, "  GD stagnates at step %d (h = %.4f)\n", r.StallIter, r.StallH)
		rows := [][]string{{"panel", "name", "iter", "h"}}
		for _, set := range []struct {
			panel  string
			curves []experiments.LossCurve
		}{{"a", r.Optimizers}, {"b", r.Searches}} {
			for _, c := range set.curves {
				fmt.Fprintf(o.stdout, "  (%s) %-34s final h %.4f, accuracy %.2f %s\n", set.panel, c.Name, c.FinalH, c.Accuracy, c.Outcome)
				for k := range c.Iter {
					rows = append(rows, []string{set.panel, c.Name, itoa(c.Iter[k]), ftoa(c.H[k])})
				}
			}
		}
		return o.write(name, r, map[string][][]string{"curves": rows})
	}
	return fmt.Errorf("unknown experiment %q (basic, pmc, realworld, ablation, study, qnn, all)", name)
}

func itoa(i int) string { return strconv.Itoa(i) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func joinF(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = ftoa(x)
	}
	return strings.Join(s, " ")
}

func (o *options) write(name string, v any, tables map[string][][]string) error {
	if o.format != "csv" {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, name+".json"), b, 0o644); err != nil {
			return err
		}
	}
	if o.format == "json" {
		return nil
	}
	for suffix, rows := range tables {
		f, err := os.Create(filepath.Join(o.out, name+"_"+suffix+".csv"))
		if err != nil {
			return err
		}
		w := csv.NewWriter(f)
		w.WriteAll(rows)
		if err := w.Error(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
