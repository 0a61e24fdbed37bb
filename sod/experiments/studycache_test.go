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
