package experiments

import (
	"fmt"
	"sort"
	"strconv"

	"sodworkbench.org/workbench/sod"
)

// Study method names, as used by StudyResult.SuccessCounts and
// StudyCell.Runs.
const (
	MethodGD    = "GD"
	MethodGDSOD = "GD+SOD"
)

// SuccessCounts returns the success counts of the cells with perturbation
// eps in the layout of panels (a)/(b) of Fig. "numerical_study" (and of
// widgets.SuccessRates): groups are the sizes n in increasing order,
// successes[0][g] counts GD and successes[1][g] GD+SOD in group g.
func (r *StudyResult) SuccessCounts(eps float64) (groups []string, methods []string, successes [][]int, trials int) {
	var cells []StudyCell
	for _, c := range r.Cells {
		if c.Eps == eps {
			cells = append(cells, c)
		}
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].N < cells[j].N })
	methods = []string{MethodGD, MethodGDSOD}
	successes = [][]int{make([]int, len(cells)), make([]int, len(cells))}
	for g, c := range cells {
		groups = append(groups, strconv.Itoa(c.N))
		successes[0][g], successes[1][g] = c.GDSuccesses, c.SODSuccesses
		trials = len(c.Trials)
	}
	return groups, methods, successes, trials
}

// Runs resamples the per-trial trajectories ‖X_kX_kᵀ − M*‖_F of one method
// (MethodGD or MethodGDSOD) onto a common grid of points iterations from 0
// to the longest run (panels (c)/(d) of Fig. "numerical_study", the layout
// of widgets.Bundle). Each run is a step function of its recorded samples;
// after a run has stopped it keeps its final value.
func (c *StudyCell) Runs(method string, points int) (x []float64, runs [][]float64, err error) {
	if points < 2 {
		return nil, nil, fmt.Errorf("%w: %d grid points", sod.ErrBadParameter, points)
	}
	pick := func(tr *StudyTrial) *Trajectory {
		if method == MethodGD {
			return &tr.GD
		}
		return &tr.SOD
	}
	if method != MethodGD && method != MethodGDSOD {
		return nil, nil, fmt.Errorf("%w: method %q (want %q or %q)", sod.ErrBadParameter, method, MethodGD, MethodGDSOD)
	}
	last := 0
	for i := range c.Trials {
		if tj := pick(&c.Trials[i]); len(tj.Iter) > 0 {
			last = max(last, tj.Iter[len(tj.Iter)-1])
		}
	}
	x = make([]float64, points)
	for k := range x {
		x[k] = float64(last) * float64(k) / float64(points-1)
	}
	for i := range c.Trials {
		tj := pick(&c.Trials[i])
		if len(tj.Iter) == 0 {
			continue
		}
		run := make([]float64, points)
		j := 0
		for k, xv := range x {
			for j+1 < len(tj.Iter) && float64(tj.Iter[j+1]) <= xv {
				j++
			}
			run[k] = tj.Dist[j]
		}
		runs = append(runs, run)
	}
	return x, runs, nil
}
