package batch

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// MaxWorkers bounds Pool.Workers.
const MaxWorkers = 4096

// MaxJobs bounds the count of ForEach.
const MaxJobs = 1 << 30

// Pool is the worker pool of ForEach: its size, how jobs weigh, where
// progress goes and what to do with each finished job.
type Pool struct {
	// Workers is the number of goroutines, in [0, MaxWorkers] (0:
	// runtime.GOMAXPROCS(0)). Results do not depend on it.
	Workers int
	// Weight, if not nil, is the relative cost of job j (finite, ≥ 0): the
	// Work of the progress reports is the weight of the finished jobs.
	// Nil: every job weighs 1.
	Weight func(j int) float64
	// Progress receives, from the calling goroutine, one report labelled
	// Label after each finished job: Done of Total = count jobs, Work of
	// TotalWork.
	Progress ProgressFunc
	Label    string
	// Finished, if not nil, is called from the calling goroutine after job
	// j returned nil, in order of completion, before the progress report:
	// the place to append a result to a journal. Its error stops the run
	// like a job's.
	Finished func(j int) error
}

// ForEach runs job(0), …, job(count−1) on pool.Workers goroutines. Each
// job(j) must write only its own output slot; then the result does not
// depend on the number of workers or on scheduling. The first error of a
// job or of pool.Finished, or ctx's cancellation, stops the remaining work
// (jobs already running finish) and is returned. A nil ctx or job, a count
// outside [0, MaxJobs], workers outside [0, MaxWorkers] and a weight that
// is negative or not finite are refused with an error wrapping
// ErrBadBatch before any job runs.
func ForEach(ctx context.Context, count int, pool Pool, job func(j int) error) error {
	switch {
	case ctx == nil:
		return fmt.Errorf("%w: batch.ForEach needs a context, got nil (use context.Background())", ErrBadBatch)
	case job == nil:
		return fmt.Errorf("%w: batch.ForEach: nil job function", ErrBadBatch)
	case count < 0 || count > MaxJobs:
		return fmt.Errorf("%w: batch.ForEach: %d jobs, want 0 ≤ count ≤ %d", ErrBadBatch, count, MaxJobs)
	case pool.Workers < 0 || pool.Workers > MaxWorkers:
		return fmt.Errorf("%w: batch.ForEach: %d workers, want 0 ≤ workers ≤ %d (0: all cores)", ErrBadBatch, pool.Workers, MaxWorkers)
	}
	weight := func(int) float64 { return 1 }
	if pool.Weight != nil {
		weight = pool.Weight
	}
	total := 0.0
	for j := range count {
		w := weight(j)
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("%w: batch.ForEach: job %d weighs %v, want a finite weight ≥ 0", ErrBadBatch, j, w)
		}
		total += w
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	workers := pool.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(count, 1))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	type result struct {
		j   int
		err error
	}
	done := make(chan result)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				err := job(j)
				select {
				case done <- result{j, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for j := range count {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var first error
	work := 0.0
	for finished := 0; finished < count && first == nil; {
		select {
		case d := <-done:
			finished++
			first = d.err
			if first == nil && pool.Finished != nil {
				first = pool.Finished(d.j)
			}
			if first == nil {
				work += weight(d.j)
				if pool.Progress != nil {
					pool.Progress(Progress{Label: pool.Label, Done: finished, Total: count, Work: work, TotalWork: total})
				}
			}
		case <-ctx.Done():
			first = ctx.Err()
		}
	}
	cancel()
	wg.Wait()
	return first
}
