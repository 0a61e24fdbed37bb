package escapebench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
)

// Suite is a benchmark: families × methods × trials.
type Suite struct {
	Families []Family
	Methods  []Method
	// PerCell is the number of points each family generates per cell
	// (k of Family.Generate; default 1).
	PerCell int
	Trials  int    // runs per (instance, seeded method), default 1
	Seed    uint64 // master seed: instances and every run derive from it
	Certify CertifyOptions
	// TrialOptions configure every run (DefaultTrialOptions).
	TrialOptions TrialOptions
}

// MaxTrials bounds Suite.Trials.
const MaxTrials = 100_000

// Validate checks s: at least one family and method, no nil family, no
// method without a constructor, no name twice, sizes within their limits.
func (s Suite) Validate() error {
	if len(s.Families) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("%w: a suite needs at least one family and one method, got %d and %d", sod.ErrBadParameter, len(s.Families), len(s.Methods))
	}
	seen := map[string]bool{}
	for i, f := range s.Families {
		if f == nil {
			return fmt.Errorf("%w: family %d is nil", sod.ErrBadParameter, i)
		}
		if err := checkFamily(f); err != nil {
			return err
		}
		if seen[f.Name()] {
			return fmt.Errorf("%w: family %q listed twice", sod.ErrBadParameter, f.Name())
		}
		seen[f.Name()] = true
	}
	seen = map[string]bool{}
	for i, m := range s.Methods {
		if m.Name == "" || m.New == nil {
			return fmt.Errorf("%w: method %d (%q) has no name or no constructor", sod.ErrBadParameter, i, m.Name)
		}
		if err := sod.CheckIdentifier("method name", m.Name); err != nil {
			return err
		}
		if seen[m.Name] {
			return fmt.Errorf("%w: method %q listed twice", sod.ErrBadParameter, m.Name)
		}
		if !(m.Weight >= 0) || math.IsInf(m.Weight, 0) {
			return fmt.Errorf("%w: method %q: Weight = %v, want a finite value ≥ 0", sod.ErrBadParameter, m.Name, m.Weight)
		}
		if m.MaxN < 0 {
			return fmt.Errorf("%w: method %q: MaxN = %d, want ≥ 0 (0: any n)", sod.ErrBadParameter, m.Name, m.MaxN)
		}
		seen[m.Name] = true
	}
	if s.PerCell < 0 || s.PerCell > MaxInstancesPerFamily || s.Trials < 0 || s.Trials > MaxTrials {
		return fmt.Errorf("%w: PerCell = %d (want 0…%d), Trials = %d (want 0…%d)", sod.ErrBadParameter, s.PerCell, MaxInstancesPerFamily, s.Trials, MaxTrials)
	}
	if _, err := s.Certify.withDefaults(); err != nil {
		return err
	}
	return s.TrialOptions.Validate()
}

// SuiteRun is what RunSuite returns: the runs of the shard, in canonical
// order (Canonical), and the suite's certified instances and dropped
// points (all of them, whatever the shard). It is what every writer takes
// (WriteResultsJSON, WriteSummaryPage, …): the runs are put in canonical
// order once, here or by MergeJournals.
type SuiteRun struct {
	Runs      []*TrialResult
	Instances []InstanceInfo
	Dropped   []Dropped
}

// InstanceInfo describes a certified instance: its certificate, its
// Features and what an outside tool needs to re-certify it. In
// bench-instances.json (WriteInstancesJSON) each instance is one JSON
// object on its own line with the keys below; X̂ is "x", n·r numbers
// row-major (x[i·r + k] = X̂_ik) in shortest round-trip decimal, and the
// problem is rebuilt from the family and the name's cell: "paper" from
// sod.PaperInstances by name, "pmc" from sod.NewPMCOperator(n, ε) with
// truth z = (1, 0, 1, 0, …), "gaussian" from
// sod.NewGaussianOperator(n, m, seed ^ stream) with Z drawn first from
// PCG(seed, stream) (StallPoint.Stream). The trial seeds are in the
// results (TrialResult.Seed).
type InstanceInfo struct {
	Family    string      `json:"family"`
	Name      string      `json:"name"`
	N         int         `json:"n"`
	R         int         `json:"r"`
	Seed      uint64      `json:"seed"`   // the suite's master seed
	Stream    uint64      `json:"stream"` // StallPoint.Stream
	Step      float64     `json:"step"`   // GD step of the runs
	PhaseIter int         `json:"phase_iter,omitempty"`
	Cert      Certificate `json:"certificate"`
	Features  Features    `json:"features"`
	X         []float64   `json:"x"`
}

// newInstanceInfo describes in (features computed by the caller).
func newInstanceInfo(in CertifiedInstance, seed uint64) InstanceInfo {
	n, r := in.P.Dims()
	x := make([]float64, 0, n*r)
	for i := range n {
		for k := range r {
			x = append(x, in.X.At(i, k))
		}
	}
	return InstanceInfo{Family: in.Family, Name: in.Name, N: n, R: r, Seed: seed, Stream: in.Stream, Step: in.Step, PhaseIter: in.PhaseIter, Cert: in.Cert, X: x}
}

// RunOptions say how RunSuite runs a suite; the results do not depend on
// them.
type RunOptions struct {
	// Workers is the number of parallel runs, in [0, batch.MaxWorkers]
	// (0: runtime.GOMAXPROCS(0)).
	Workers int
	// Shard selects the runs with global index j in Shard (batch.Shard;
	// the zero value is the whole suite). The index counts the scheduled
	// runs in the order instance × method × trial, the same in every shard
	// and resumed run.
	Shard batch.Shard
	// Journal, if not nil, holds the runs of an earlier, interrupted run
	// of the same suite and shard (ResumeJournal), which are not run
	// again, and receives each newly finished run at once, so an
	// interruption loses at most the runs in progress; once the shard is
	// complete RunSuite marks it so (Journal.Complete). Its header's shard
	// must be Shard.
	Journal *Journal
	// Progress receives, from the calling goroutine, a report labelled
	// "instances <family>" (ProgressInstances; Done = families generated
	// so far, Total = families) before each family's points are generated
	// and certified, then reports labelled "bench": one before the first
	// run and one per finished run (Done/Total runs; Work/TotalWork weigh
	// each run by the time of a gradient evaluation on its instance,
	// measured, times the GD steps of a phase, times its method's Weight).
	Progress batch.ProgressFunc
}

// ProgressInstances begins the label of RunSuite's progress reports
// while it generates and certifies the instances.
const ProgressInstances = "instances"

// RunSuite runs s (or the shard opt.Shard of it) on opt.Workers parallel
// workers and returns the runs of the shard — those of opt.Journal and the
// new ones — in canonical order (Canonical), with the suite's certified
// instances and dropped points.
func RunSuite(ctx context.Context, s Suite, opt RunOptions) (*SuiteRun, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: RunSuite needs a context", sod.ErrBadParameter)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sh, prog := opt.Shard, opt.Progress
	if err := sh.Validate(); err != nil {
		return nil, err
	}
	if opt.Workers < 0 || opt.Workers > batch.MaxWorkers {
		return nil, fmt.Errorf("%w: RunOptions.Workers = %d, want 0…%d (0: all cores)", sod.ErrBadParameter, opt.Workers, batch.MaxWorkers)
	}
	var done []*TrialResult
	if j := opt.Journal; j != nil {
		if j.f == nil {
			return nil, fmt.Errorf("%w: journal %s is not open for writing (use CreateJournal or ResumeJournal)", sod.ErrBadParameter, j.path)
		}
		if hs := j.Header.Shard(); hs != sh && !(hs.N <= 1 && sh.N <= 1) {
			return nil, fmt.Errorf("%w: journal %s is of shard %v, RunOptions.Shard is %v", sod.ErrBadParameter, j.path, hs, sh)
		}
		done = j.runs
	}
	per, trials := max(s.PerCell, 1), max(s.Trials, 1)
	var insts []CertifiedInstance
	sr := &SuiteRun{Instances: []InstanceInfo{}, Dropped: []Dropped{}}
	for i, f := range s.Families {
		if prog != nil {
			prog(batch.Progress{Label: ProgressInstances + " " + f.Name(), Done: i, Total: len(s.Families)})
		}
		fi, err := Instances(ctx, f, s.Seed, per, s.Certify)
		if err != nil {
			return nil, err
		}
		insts = append(insts, fi.Instances...)
		sr.Dropped = append(sr.Dropped, fi.Dropped...)
		for _, in := range fi.Instances {
			info := newInstanceInfo(in, s.Seed)
			if info.Features, err = InstanceFeatures(ctx, in); err != nil {
				return nil, err
			}
			sr.Instances = append(sr.Instances, info)
		}
	}
	type job struct {
		in    CertifiedInstance
		m     Method
		trial int
	}
	have := map[string]*TrialResult{}
	for _, r := range done {
		have[r.Key()] = r
	}
	var out []*TrialResult
	var jobs []job
	j := 0
	for _, in := range insts {
		for _, m := range s.Methods {
			if !m.Applies(in) {
				// Not scheduled (Method.MaxN); j counts scheduled runs
				// only, the same in every shard and resumed run.
				continue
			}
			mt := trials
			if !m.Seeded {
				mt = 1 // identical runs: once (see Method.Seeded)
			}
			for t := range mt {
				if sh.Holds(j) {
					key := (&TrialResult{Family: in.Family, Instance: in.Name, Method: m.Name, Trial: t}).Key()
					if r, ok := have[key]; ok {
						out = append(out, r)
					} else {
						jobs = append(jobs, job{in, m, t})
					}
				}
				j++
			}
		}
	}
	// For the time estimate, runs weigh the time of a gradient evaluation
	// on their instance (measured here) times the GD steps of a phase: at
	// PMC n = 10⁴ a phase has 30n steps of O(n) each, 100 times the work of
	// n = 10³, and a dense Gaussian gradient costs O(mn²).
	jobWeight := map[string]float64{}
	for _, in := range insts {
		n, r := in.P.Dims()
		g := mat.NewDense(n, r, nil)
		const reps = 5
		t0 := time.Now()
		for range reps {
			in.P.Grad(g, in.X)
		}
		jobWeight[in.Family+"\x00"+in.Name] = (time.Since(t0).Seconds()/reps + 1e-7) * float64(max(s.TrialOptions.MaxIter, in.PhaseIter))
	}
	mw := map[string]float64{}
	for _, m := range s.Methods {
		mw[m.Name] = m.Weight
		if m.Weight <= 0 {
			mw[m.Name] = 1
		}
	}
	weight := func(fam, inst, method string) float64 { return jobWeight[fam+"\x00"+inst] * mw[method] }
	var work0, totalWork float64
	for _, r := range out {
		work0 += weight(r.Family, r.Instance, r.Method)
	}
	totalWork = work0
	for _, jb := range jobs {
		totalWork += weight(jb.in.Family, jb.in.Name, jb.m.Name)
	}
	resumed, total := len(out), len(out)+len(jobs)
	if prog != nil {
		prog(batch.Progress{Label: "bench", Done: resumed, Total: total, Work: work0, TotalWork: totalWork})
	}
	pool := batch.Pool{Workers: opt.Workers, Weight: func(i int) float64 { return weight(jobs[i].in.Family, jobs[i].in.Name, jobs[i].m.Name) }}
	if prog != nil {
		pool.Progress = func(p batch.Progress) {
			prog(batch.Progress{Label: "bench", Done: resumed + p.Done, Total: total, Work: work0 + p.Work, TotalWork: totalWork})
		}
	}
	results := make([]*TrialResult, len(jobs))
	if opt.Journal != nil {
		pool.Finished = func(i int) error { return opt.Journal.append(results[i]) }
	}
	err := batch.ForEach(ctx, len(jobs), pool, func(i int) error {
		r, err := RunTrial(ctx, jobs[i].in, jobs[i].m, jobs[i].trial, s.Seed, s.TrialOptions)
		results[i] = r
		return err
	})
	if err != nil {
		return nil, err
	}
	if sr.Runs, err = Canonical(append(out, results...)); err != nil {
		return nil, err
	}
	if opt.Journal != nil {
		if err := opt.Journal.finish(len(sr.Runs)); err != nil {
			return nil, err
		}
	}
	return sr, nil
}

// Canonical sorts runs by (family, instance, method, trial), the order
// of every output, and refuses a run listed twice with different content
// (the same run twice, as when shards overlap, is kept once).
func Canonical(rs []*TrialResult) ([]*TrialResult, error) {
	byKey := map[string]*TrialResult{}
	var out []*TrialResult
	for i, r := range rs {
		if r == nil {
			return nil, fmt.Errorf("%w: Canonical: run %d is nil", sod.ErrBadParameter, i)
		}
		if old, ok := byKey[r.Key()]; ok {
			a, _ := json.Marshal(old)
			b, _ := json.Marshal(r)
			if !bytes.Equal(a, b) {
				return nil, fmt.Errorf("escapebench: run %s / %s / %s / trial %d appears twice with different results", r.Family, r.Instance, r.Method, r.Trial)
			}
			continue
		}
		byKey[r.Key()] = r
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return canonicalLess(out[i], out[j]) })
	return out, nil
}

// canonicalLess orders runs by (family, instance, method, trial).
func canonicalLess(a, b *TrialResult) bool {
	if a.Family != b.Family {
		return a.Family < b.Family
	}
	if a.Instance != b.Instance {
		return a.Instance < b.Instance
	}
	if a.Method != b.Method {
		return a.Method < b.Method
	}
	return a.Trial < b.Trial
}
