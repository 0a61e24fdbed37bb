package experiments

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// A study can be split into N shards that run independently (on N
// machines: a Kubernetes Indexed Job, a Slurm job array) and merged: shard k
// (0 ≤ k < N ≤ batch.MaxShards) runs the trials whose global index
// j = cell·Trials + trial has j mod N = k (batch.InShard), round robin, so
// every shard gets its share of every size n.
// Each trial depends only on (Seed, cell, trial), never on the shard or on
// the other trials, so MergeStudy of the N shards equals RunStudy of the
// whole study, bit for bit (RunStudy is itself one shard of one, merged).

// StudySettings are the settings that define a study's trials: the
// serialisable part of StudyConfig, recorded in every shard so that
// MergeStudy can refuse shards of different studies. Truth and Escaper are
// recorded by name ("alternating" for AlternatingTruth, "custom" for any
// other function; the Escaper's Name).
type StudySettings struct {
	Sizes      []int     `json:"sizes"`
	Epsilons   []float64 `json:"eps"`
	Trials     int       `json:"trials"`
	Rank       int       `json:"rank"`
	Truth      string    `json:"truth"`
	Seed       uint64    `json:"seed"`
	InitScale  float64   `json:"init_scale"`
	StepScale  float64   `json:"step_scale"`
	Step       float64   `json:"step"`
	MaxIter    int       `json:"max_iter"`
	GradTol    float64   `json:"grad_tol"`
	SuccessTol float64   `json:"success_tol"`
	MaxEscapes int       `json:"max_escapes"`
	Escaper    string    `json:"escaper"`
	TraceEvery int       `json:"trace_every"`
	DensePath  bool      `json:"dense_path,omitempty"`
}

// settings returns the settings of a validated configuration.
func (c *StudyConfig) settings() StudySettings {
	truth := "custom"
	if reflect.ValueOf(c.Truth).Pointer() == reflect.ValueOf(AlternatingTruth).Pointer() {
		truth = "alternating"
	}
	return StudySettings{
		Sizes: slices.Clone(c.Sizes), Epsilons: slices.Clone(c.Epsilons), Trials: c.Trials, Rank: c.Rank, Truth: truth,
		Seed: c.Seed, InitScale: c.InitScale, StepScale: c.StepScale, Step: c.Step, MaxIter: c.MaxIter,
		GradTol: c.GradTol, SuccessTol: c.SuccessTol, MaxEscapes: c.MaxEscapes, Escaper: c.Escaper.Name(),
		TraceEvery: c.TraceEvery, DensePath: c.DensePath,
	}
}

// StudyShard is the output of one shard: every cell of the study, each
// with the trials of this shard only (in trial order; StudyTrial.Index is
// the trial's number in its cell) and counts over them.
type StudyShard struct {
	Shard    int           `json:"shard"`  // k, in [0, Shards)
	Shards   int           `json:"shards"` // N
	Settings StudySettings `json:"settings"`
	Cells    []StudyCell   `json:"cells"`

	config StudyConfig // the validated configuration (not serialised)
}

// RunStudyShard runs shard k (0 ≤ k < n ≤ batch.MaxShards) of the study
// cfg: the trials j with j mod n = k (batch.InShard). Progress, cancellation
// and parallelism are as in RunStudy.
func RunStudyShard(ctx context.Context, cfg StudyConfig, k, n int, prog batch.ProgressFunc) (*StudyShard, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: RunStudy needs a context, got nil (use context.Background())", ErrBadExperiment)
	}
	shard := batch.Shard{K: k, N: n}
	if err := shard.Validate(); err != nil || n < 1 {
		return nil, fmt.Errorf("%w: shard %d of %d, want 0 ≤ k < N ≤ %d", ErrBadExperiment, k, n, batch.MaxShards)
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	ncell := len(cfg.Sizes) * len(cfg.Epsilons)
	probs := make([]*sod.Problem, ncell)
	sh := &StudyShard{Shard: k, Shards: n, Settings: cfg.settings(), Cells: make([]StudyCell, ncell), config: cfg}
	var jobs []int // global trial indices of this shard, ascending
	for i, size := range cfg.Sizes {
		for e, eps := range cfg.Epsilons {
			c := i*len(cfg.Epsilons) + e
			p, err := pmcProblem(size, eps, cfg.Rank, cfg.Truth)
			if err == nil && cfg.DensePath {
				p, err = p.DensePath()
			}
			if err != nil {
				return nil, err
			}
			probs[c] = p
			sh.Cells[c] = StudyCell{N: size, Eps: eps, Trials: []StudyTrial{}}
			for t := 0; t < cfg.Trials; t++ {
				if j := c*cfg.Trials + t; shard.Holds(j) {
					jobs = append(jobs, j)
				}
			}
		}
	}
	out := make([]StudyTrial, len(jobs))
	// A trial's cost grows like n (a structured GD step is O(n)).
	weight := func(i int) float64 { return float64(cfg.Sizes[jobs[i]/cfg.Trials/len(cfg.Epsilons)]) }
	label := "success-rate study"
	if n > 1 {
		label = fmt.Sprintf("study shard %d/%d", k, n)
	}
	err := batch.ForEach(ctx, len(jobs), batch.Pool{Workers: cfg.Workers, Weight: weight, Progress: prog, Label: label}, func(i int) error {
		c, t := jobs[i]/cfg.Trials, jobs[i]%cfg.Trials
		tr, err := runTrial(ctx, probs[c], &cfg, c, t)
		if err != nil {
			return fmt.Errorf("experiments: study n=%d ε=%v trial %d: %w", sh.Cells[c].N, sh.Cells[c].Eps, t, err)
		}
		out[i] = *tr
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, j := range jobs {
		c := j / cfg.Trials
		sh.Cells[c].Trials = append(sh.Cells[c].Trials, out[i])
	}
	for c := range sh.Cells {
		countCell(&sh.Cells[c])
	}
	return sh, nil
}

// MergeStudy combines the N shards of one study (each k in [0, N) exactly
// once, in any order) into the study's result: the same cells, trials and
// counts as RunStudy, bit for bit. It returns an error wrapping
// ErrBadExperiment, naming the problem, when the shards disagree on N or
// on the settings, when a shard is missing or given twice, or when a
// shard's trials are not the ones its number assigns. The result's Config
// holds the settings (Truth and Escaper are nil; the merged data
// do not need them).
func MergeStudy(shards []*StudyShard) (*StudyResult, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("%w: no shards to merge", ErrBadExperiment)
	}
	first := shards[0]
	if first == nil {
		return nil, fmt.Errorf("%w: shard 0 of the list is nil", ErrBadExperiment)
	}
	n := first.Shards
	if n < 1 || n > batch.MaxShards {
		return nil, fmt.Errorf("%w: shard count N = %d, want 1 ≤ N ≤ %d", ErrBadExperiment, n, batch.MaxShards)
	}
	seen := make([]bool, n)
	for _, sh := range shards {
		switch {
		case sh == nil:
			return nil, fmt.Errorf("%w: a nil shard", ErrBadExperiment)
		case sh.Shards != n:
			return nil, fmt.Errorf("%w: shard %d is one of %d, but shard %d is one of %d: not the same split", ErrBadExperiment, sh.Shard, sh.Shards, first.Shard, n)
		case sh.Shard < 0 || sh.Shard >= n:
			return nil, fmt.Errorf("%w: shard number %d, want 0 ≤ k < %d", ErrBadExperiment, sh.Shard, n)
		case seen[sh.Shard]:
			return nil, fmt.Errorf("%w: shard %d/%d given twice", ErrBadExperiment, sh.Shard, n)
		case !reflect.DeepEqual(sh.Settings, first.Settings):
			return nil, fmt.Errorf("%w: shard %d/%d has other settings than shard %d/%d (%+v vs %+v): not the same study", ErrBadExperiment, sh.Shard, n, first.Shard, n, sh.Settings, first.Settings)
		}
		seen[sh.Shard] = true
	}
	var missing []int
	for k, ok := range seen {
		if !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: shards %v of %d missing", ErrBadExperiment, missing, n)
	}
	set := first.Settings
	ncell := len(set.Sizes) * len(set.Epsilons)
	res := &StudyResult{Cells: make([]StudyCell, ncell)}
	for c := range res.Cells {
		res.Cells[c] = StudyCell{N: set.Sizes[c/len(set.Epsilons)], Eps: set.Epsilons[c%len(set.Epsilons)], Trials: make([]StudyTrial, set.Trials)}
	}
	for _, sh := range shards {
		if len(sh.Cells) != ncell {
			return nil, fmt.Errorf("%w: shard %d/%d has %d cells, want %d", ErrBadExperiment, sh.Shard, n, len(sh.Cells), ncell)
		}
		for c, cell := range sh.Cells {
			want := 0
			for t := 0; t < set.Trials; t++ {
				if batch.InShard(c*set.Trials+t, sh.Shard, n) {
					want++
				}
			}
			if cell.N != res.Cells[c].N || cell.Eps != res.Cells[c].Eps || len(cell.Trials) != want {
				return nil, fmt.Errorf("%w: shard %d/%d, cell %d: n = %d, ε = %v with %d trials, want n = %d, ε = %v with %d", ErrBadExperiment,
					sh.Shard, n, c, cell.N, cell.Eps, len(cell.Trials), res.Cells[c].N, res.Cells[c].Eps, want)
			}
			seenTrial := map[int]bool{}
			for _, tr := range cell.Trials {
				if seenTrial[tr.Index] {
					return nil, fmt.Errorf("%w: shard %d/%d holds trial %d of cell %d twice", ErrBadExperiment, sh.Shard, n, tr.Index, c)
				}
				seenTrial[tr.Index] = true
				if tr.Index < 0 || tr.Index >= set.Trials || !batch.InShard(c*set.Trials+tr.Index, sh.Shard, n) {
					return nil, fmt.Errorf("%w: shard %d/%d holds trial %d of cell %d, which is not its own", ErrBadExperiment, sh.Shard, n, tr.Index, c)
				}
				res.Cells[c].Trials[tr.Index] = tr
			}
		}
	}
	for c := range res.Cells {
		countCell(&res.Cells[c])
	}
	res.Config = StudyConfig{Sizes: set.Sizes, Epsilons: set.Epsilons, Trials: set.Trials, Rank: set.Rank, Seed: set.Seed,
		InitScale: set.InitScale, StepScale: set.StepScale, Step: set.Step, MaxIter: set.MaxIter, GradTol: set.GradTol,
		SuccessTol: set.SuccessTol, MaxEscapes: set.MaxEscapes, TraceEvery: set.TraceEvery, DensePath: set.DensePath}
	return res, nil
}
