package batch

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
)

// TestForEach: every job runs once whatever the workers; progress comes
// in order from the calling goroutine with the weighted work; Finished
// sees every job.
func TestForEach(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 64} {
		out := make([]int, 40)
		var reports []Progress
		var finished []int
		opt := Pool{Workers: workers, Label: "squares", Weight: func(j int) float64 { return float64(j % 3) },
			Progress: func(p Progress) { reports = append(reports, p) },
			Finished: func(j int) error { finished = append(finished, j); return nil }}
		if err := ForEach(context.Background(), len(out), opt, func(j int) error { out[j] = j * j; return nil }); err != nil {
			t.Fatal(err)
		}
		for j, v := range out {
			if v != j*j {
				t.Fatalf("workers %d: out[%d] = %d", workers, j, v)
			}
		}
		if len(reports) != 40 || len(finished) != 40 {
			t.Fatalf("workers %d: %d reports, %d finished calls, want 40", workers, len(reports), len(finished))
		}
		last := reports[39]
		if last.Done != 40 || last.Total != 40 || last.Work != 39 || last.TotalWork != 39 || last.Label != "squares" {
			t.Errorf("workers %d: last report %+v", workers, last)
		}
		for i, p := range reports {
			if p.Done != i+1 {
				t.Errorf("workers %d: report %d has Done = %d", workers, i, p.Done)
			}
		}
	}
}

// TestForEachStops: the first error (of a job or of Finished) and a
// cancelled context stop the work and are returned.
func TestForEachStops(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int64
	err := ForEach(context.Background(), 1000, Pool{Workers: 2}, func(j int) error {
		ran.Add(1)
		if j == 5 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || ran.Load() == 1000 {
		t.Errorf("job error: %v after %d jobs", err, ran.Load())
	}
	err = ForEach(context.Background(), 10, Pool{Finished: func(j int) error { return boom }}, func(int) error { return nil })
	if !errors.Is(err, boom) {
		t.Errorf("Finished error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ForEach(ctx, 10, Pool{}, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestForEachBadInput: bad arguments are refused before any job runs.
func TestForEachBadInput(t *testing.T) {
	ok := func(int) error { return nil }
	for _, c := range []struct {
		name  string
		ctx   context.Context
		count int
		opt   Pool
		job   func(int) error
		want  string
	}{
		{"nil ctx", nil, 1, Pool{}, ok, "context"},
		{"nil job", context.Background(), 1, Pool{}, nil, "nil job"},
		{"negative count", context.Background(), -1, Pool{}, ok, "-1 jobs"},
		{"huge count", context.Background(), MaxJobs + 1, Pool{}, ok, "jobs"},
		{"negative workers", context.Background(), 1, Pool{Workers: -1}, ok, "-1 workers"},
		{"too many workers", context.Background(), 1, Pool{Workers: MaxWorkers + 1}, ok, "workers"},
		{"NaN weight", context.Background(), 2, Pool{Weight: func(int) float64 { return math.NaN() }}, ok, "weighs NaN"},
		{"negative weight", context.Background(), 2, Pool{Weight: func(int) float64 { return -1 }}, ok, "weighs -1"},
	} {
		ran := false
		job := c.job
		if job != nil {
			job = func(int) error { ran = true; return nil }
		}
		err := ForEach(c.ctx, c.count, c.opt, job)
		if !errors.Is(err, ErrBadBatch) || !strings.Contains(err.Error(), c.want) || ran {
			t.Errorf("%s: %v (ran %v), want ErrBadBatch mentioning %q before any job", c.name, err, ran, c.want)
		}
	}
}
