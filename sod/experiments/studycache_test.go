package experiments_test

import (
	"context"
	"fmt"
	"testing"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/experiments"
)

// TestRunStudyRemembered: in a notebook session (here: SOD_RESULT_CACHE set) a second RunStudy
// with an equal configuration returns the first result without running a trial, in any later
// process; a different configuration runs.
func TestRunStudyRemembered(t *testing.T) {
	t.Setenv("SOD_RESULT_CACHE", t.TempDir())
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials, cfg.MaxIter, cfg.Seed = []int{6}, []float64{0.15}, 2, 200, 3
	count := func() (*experiments.StudyResult, int) {
		calls := 0
		res, err := experiments.RunStudy(context.Background(), cfg, func(batch.Progress) { calls++ })
		if err != nil {
			t.Fatal(err)
		}
		return res, calls
	}
	first, calls1 := count()
	second, calls2 := count()
	if calls1 < cfg.Trials || calls2 != 1 {
		t.Errorf("progress calls %d then %d, want ≥ %d (ran) then 1 (remembered)", calls1, calls2, cfg.Trials)
	}
	if fmt.Sprintf("%v", first.Cells) != fmt.Sprintf("%v", second.Cells) || second.Config.Trials != cfg.Trials {
		t.Errorf("the remembered study differs from the first run")
	}
	cfg.Seed = 4
	if _, calls := count(); calls < cfg.Trials {
		t.Errorf("another seed was not run (%d progress calls)", calls)
	}
}

// TestRunQNNRemembered: RunQNN and RunQNNScan are remembered in a session as RunStudy is: the
// second call with an equal configuration tells prog once ("remembered") and returns an equal
// result.
func TestRunQNNRemembered(t *testing.T) {
	t.Setenv("SOD_RESULT_CACHE", t.TempDir())
	scan := experiments.DefaultQNNScanConfig()
	scan.Starts = 2
	for _, tc := range []struct {
		name string
		run  func(batch.ProgressFunc) (any, error)
	}{
		{"RunQNN", func(p batch.ProgressFunc) (any, error) {
			return experiments.RunQNN(context.Background(), experiments.DefaultQNNConfig(), p)
		}},
		{"RunQNNScan", func(p batch.ProgressFunc) (any, error) {
			return experiments.RunQNNScan(context.Background(), scan, p)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var labels [2][]string
			var res [2]any
			for k := range 2 {
				r, err := tc.run(func(p batch.Progress) { labels[k] = append(labels[k], p.Label) })
				if err != nil {
					t.Fatal(err)
				}
				res[k] = r
			}
			if len(labels[1]) != 1 || labels[1][0] != "remembered" {
				t.Errorf("second call's progress %q, want one \"remembered\"", labels[1])
			}
			if fmt.Sprintf("%v", res[0]) != fmt.Sprintf("%v", res[1]) {
				t.Errorf("the remembered result differs from the first")
			}
		})
	}
}
