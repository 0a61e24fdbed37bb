package experiments

import (
	"context"
	"errors"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func TestStudyPlotData(t *testing.T) {
	cfg := smallStudy()
	res, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	groups, methods, succ, trials := res.SuccessCounts(0.10)
	if len(groups) != 2 || groups[0] != "10" || groups[1] != "16" || len(methods) != 2 || trials != cfg.Trials {
		t.Fatalf("groups %v methods %v trials %d", groups, methods, trials)
	}
	for g, c := range []StudyCell{res.Cells[1], res.Cells[3]} {
		if succ[0][g] != c.GDSuccesses || succ[1][g] != c.SODSuccesses {
			t.Errorf("group %d: %v/%v vs cell %d/%d", g, succ[0][g], succ[1][g], c.GDSuccesses, c.SODSuccesses)
		}
	}
	c := res.Cells[3]
	for _, m := range []string{MethodGD, MethodGDSOD} {
		x, runs, err := c.Runs(m, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(x) != 50 || len(runs) != len(c.Trials) {
			t.Fatalf("%s: %d points, %d runs", m, len(x), len(runs))
		}
		for i, run := range runs {
			tr := c.Trials[i]
			final, start := tr.GDDist, tr.GD.Dist[0]
			if m == MethodGDSOD {
				final, start = tr.SODDist, tr.SOD.Dist[0]
			}
			// Every run has stopped by the last grid point, so it ends at its final distance.
			if run[0] != start || run[len(run)-1] != final {
				t.Errorf("%s run %d: starts %v ends %v, trajectory %v … %v", m, i, run[0], run[len(run)-1], start, final)
			}
		}
	}
	if _, _, err := c.Runs("Adam", 10); !errors.Is(err, sod.ErrBadParameter) {
		t.Errorf("unknown method: err = %v", err)
	}
}
