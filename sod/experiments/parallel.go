package experiments

import (
	"context"
	"sync"
)

// parallelForWeighted runs f(0), …, f(count−1) on workers goroutines and
// reports progress after each finished call, from the calling goroutine,
// with the share of the work done: call j weighs weight(j) (nil: 1 each).
// Each f(j) must write only its own output slot; then the result does not
// depend on workers or scheduling. The first error (or ctx's cancellation)
// stops the remaining work and is returned.
func parallelForWeighted(ctx context.Context, count, workers int, prog ProgressFunc, label string, weight func(j int) float64, f func(j int) error) error {
	total := float64(count)
	if weight != nil {
		total = 0
		for j := 0; j < count; j++ {
			total += weight(j)
		}
	}
	if workers < 1 {
		workers = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	type result struct {
		j   int
		err error
	}
	done := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				err := f(j)
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
		for j := 0; j < count; j++ {
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
			if d.err != nil {
				first = d.err
			} else {
				if weight != nil {
					work += weight(d.j)
				} else {
					work++
				}
				prog.reportWork(label, finished, count, work, total)
			}
		case <-ctx.Done():
			first = ctx.Err()
		}
	}
	cancel()
	wg.Wait()
	return first
}
