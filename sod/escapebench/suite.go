package escapebench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"sync"
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
	Run     RunOptions
	// Workers is the number of parallel runs (default runtime.GOMAXPROCS).
	// Results do not depend on it.
	Workers int
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
	if s.PerCell < 0 || s.PerCell > MaxInstancesPerFamily || s.Trials < 0 || s.Trials > MaxTrials || s.Workers < 0 || s.Workers > 4096 {
		return fmt.Errorf("%w: PerCell = %d (want 0…%d), Trials = %d (want 0…%d), Workers = %d (want 0…4096)", sod.ErrBadParameter, s.PerCell, MaxInstancesPerFamily, s.Trials, MaxTrials, s.Workers)
	}
	if _, err := s.Certify.withDefaults(); err != nil {
		return err
	}
	return s.Run.Validate()
}

// Record is one line of a run journal: a finished run with its timing.
type Record struct {
	Result *TrialResult `json:"result"`
	CPUNs  int64        `json:"cpu_ns"`
	WallNs int64        `json:"wall_ns"`
}

// ReadJournal reads the finished runs of a journal (one Record per line).
// A last line without its newline (a write cut by an interruption) is
// ignored; any other bad line is an error.
func ReadJournal(r io.Reader) ([]*TrialResult, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
	}
	var out []*TrialResult
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for line := 1; sc.Scan(); line++ {
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Result == nil {
			return nil, fmt.Errorf("escapebench: journal line %d: not a run record (%v)", line, err)
		}
		rec.Result.Cost.CPU = time.Duration(rec.CPUNs)
		rec.Result.Cost.Wall = time.Duration(rec.WallNs)
		out = append(out, rec.Result)
	}
	return out, sc.Err()
}

// writeRecord appends r to the journal as one line.
func writeRecord(w io.Writer, r *TrialResult) error {
	b, err := json.Marshal(Record{Result: r, CPUNs: int64(r.Cost.CPU), WallNs: int64(r.Cost.Wall)})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// SuiteRun is what RunSuite returns: the runs of the shard, in canonical
// order (Canonical), and the suite's certified instances and dropped
// points (all of them, whatever the shard).
type SuiteRun struct {
	Runs      []*TrialResult
	Instances []InstanceInfo
	Dropped   []Dropped
}

// InstanceInfo describes a certified instance without its problem data.
type InstanceInfo struct {
	Family string      `json:"family"`
	Name   string      `json:"name"`
	N      int         `json:"n"`
	R      int         `json:"r"`
	Cert   Certificate `json:"certificate"`
}

// ProgressInstances begins the label of RunSuite's progress reports
// while it generates and certifies the instances.
const ProgressInstances = "instances"

// RunSuite runs shard sh of s. Runs whose key is in done (results of an
// earlier, interrupted run, e.g. from ReadJournal) are not run again; each
// newly finished run is appended to journal (if not nil) at once, so an
// interruption loses at most the runs in progress. It returns done's runs
// of this shard and the new ones, in canonical order (Canonical). prog
// receives, from the calling goroutine, a report labelled
// "instances <family>" (Done = families generated so far, Total =
// families) before each family's points are generated and certified,
// then reports labelled "bench": one before the first run and one per
// finished run (Done/Total runs; Work/TotalWork weigh each run by the
// time of a gradient evaluation on its instance, measured, times the
// GD steps of a phase, times its method's Weight).
func RunSuite(ctx context.Context, s Suite, sh batch.Shard, done []*TrialResult, journal io.Writer, prog batch.ProgressFunc) (*SuiteRun, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: RunSuite needs a context", sod.ErrBadParameter)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := sh.Validate(); err != nil {
		return nil, err
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
			n, r := in.P.Dims()
			sr.Instances = append(sr.Instances, InstanceInfo{Family: in.Family, Name: in.Name, N: n, R: r, Cert: in.Cert})
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
	total := len(out) + len(jobs)
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
		jobWeight[in.Family+"\x00"+in.Name] = (time.Since(t0).Seconds()/reps + 1e-7) * float64(max(s.Run.MaxIter, in.PhaseIter))
	}
	var work, totalWork float64
	mw := map[string]float64{}
	for _, m := range s.Methods {
		mw[m.Name] = m.Weight
		if m.Weight <= 0 {
			mw[m.Name] = 1
		}
	}
	weight := func(fam, inst, method string) float64 { return jobWeight[fam+"\x00"+inst] * mw[method] }
	for _, r := range out {
		work += weight(r.Family, r.Instance, r.Method)
	}
	totalWork = work
	for _, jb := range jobs {
		totalWork += weight(jb.in.Family, jb.in.Name, jb.m.Name)
	}
	report := func() {
		if prog != nil {
			prog(batch.Progress{Label: "bench", Done: len(out), Total: total, Work: work, TotalWork: totalWork})
		}
	}
	report()
	workers := s.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		r   *TrialResult
		err error
	}
	feed := make(chan job)
	answers := make(chan answer)
	var wg sync.WaitGroup
	for range min(workers, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range feed {
				r, err := RunTrial(ctx, jb.in, jb.m, jb.trial, s.Seed, s.Run)
				answers <- answer{r, err}
			}
		}()
	}
	go func() {
		defer close(feed)
		for _, jb := range jobs {
			select {
			case feed <- jb:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(answers) }()
	var firstErr error
	for a := range answers {
		if firstErr != nil {
			continue
		}
		if a.err == nil && journal != nil {
			a.err = writeRecord(journal, a.r)
		}
		if a.err != nil {
			firstErr = a.err
			cancel()
			continue
		}
		out = append(out, a.r)
		work += weight(a.r.Family, a.r.Instance, a.r.Method)
		report()
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var err error
	sr.Runs, err = Canonical(out)
	if err != nil {
		return nil, err
	}
	return sr, nil
}

// Canonical sorts runs by (family, instance, method, trial), the order
// of every output, and refuses a run listed twice with different content
// (the same run twice, as when shards overlap, is kept once).
func Canonical(rs []*TrialResult) ([]*TrialResult, error) {
	byKey := map[string]*TrialResult{}
	var out []*TrialResult
	for _, r := range rs {
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
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
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
	})
	return out, nil
}
