package escapebench

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod/batch"
)

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
		return nil, fmt.Errorf("%w: RunSuite needs a context", ErrBadBench)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sh, prog := opt.Shard, opt.Progress
	if err := sh.Validate(); err != nil {
		return nil, err
	}
	if opt.Workers < 0 || opt.Workers > batch.MaxWorkers {
		return nil, fmt.Errorf("%w: RunOptions.Workers = %d, want 0…%d (0: all cores)", ErrBadBench, opt.Workers, batch.MaxWorkers)
	}
	var done []*TrialResult
	if j := opt.Journal; j != nil {
		if j.f == nil {
			return nil, fmt.Errorf("%w: journal %s is not open for writing (use CreateJournal or ResumeJournal)", ErrBadBench, j.path)
		}
		if hs := j.Header.Shard(); hs != sh && !(hs.N <= 1 && sh.N <= 1) {
			return nil, fmt.Errorf("%w: journal %s is of shard %v, RunOptions.Shard is %v", ErrBadBench, j.path, hs, sh)
		}
		done = j.runs
	}
	trials := max(s.Trials, 1)
	sr, insts, err := suiteInstances(ctx, s, prog)
	if err != nil {
		return nil, err
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
	err = batch.ForEach(ctx, len(jobs), pool, func(i int) error {
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

// GenerateInstances generates and certifies the instances of s's families
// (Instances, with s.Seed, s.PerCell and s.Certify) as RunSuite does
// before its runs, and runs no method: the SuiteRun it returns has the
// certified instances (with their Features) and the dropped points, and
// no runs (Runs empty, not nil). prog, if not nil, receives the reports
// RunSuite labels ProgressInstances. This is `reproduce bench
// -instances-only`: a large profile's instances (LargeSpec) are found
// and certified once, before its hours of runs.
func GenerateInstances(ctx context.Context, s Suite, prog batch.ProgressFunc) (*SuiteRun, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: GenerateInstances needs a context", ErrBadBench)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sr, _, err := suiteInstances(ctx, s, prog)
	if err != nil {
		return nil, err
	}
	sr.Runs = []*TrialResult{}
	return sr, nil
}

// suiteInstances generates and certifies the instances of s's families
// in order, reporting each family to prog before its points.
func suiteInstances(ctx context.Context, s Suite, prog batch.ProgressFunc) (*SuiteRun, []CertifiedInstance, error) {
	per := max(s.PerCell, 1)
	var insts []CertifiedInstance
	sr := &SuiteRun{Instances: []InstanceInfo{}, Dropped: []Dropped{}}
	for i, f := range s.Families {
		if prog != nil {
			prog(batch.Progress{Label: ProgressInstances + " " + f.Name(), Done: i, Total: len(s.Families)})
		}
		fi, err := Instances(ctx, f, s.Seed, per, s.Certify)
		if err != nil {
			return nil, nil, err
		}
		insts = append(insts, fi.Instances...)
		sr.Dropped = append(sr.Dropped, fi.Dropped...)
		for _, in := range fi.Instances {
			info := newInstanceInfo(in, s.Seed)
			if info.Features, err = InstanceFeatures(ctx, in); err != nil {
				return nil, nil, err
			}
			sr.Instances = append(sr.Instances, info)
		}
	}
	return sr, insts, nil
}
