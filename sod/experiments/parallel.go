package experiments

import (
	"context"
	"sync"
)

// parallelFor runs f(0), …, f(count−1) on workers goroutines and reports
// progress after each finished call, from the calling goroutine. Each f(j)
// must write only its own output slot; then the result does not depend on
// workers or scheduling. The first error (or ctx's cancellation) stops the
// remaining work and is returned.
func parallelFor(ctx context.Context, count, workers int, prog ProgressFunc, label string, f func(j int) error) error {
	if workers < 1 {
		workers = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	done := make(chan error)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				err := f(j)
				select {
				case done <- err:
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
	for finished := 0; finished < count && first == nil; {
		select {
		case err := <-done:
			finished++
			if err != nil {
				first = err
			} else {
				prog.report(label, finished, count)
			}
		case <-ctx.Done():
			first = ctx.Err()
		}
	}
	cancel()
	wg.Wait()
	return first
}
