package figures

import (
	"fmt"
	"sort"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// SuccessVsNChart draws the success rates of GD and GD + SOD against n (log
// axis), one line per method and ε, for a study beyond the paper's range
// (experiments.ScalingStudyConfig). Every ε must have been run at the same
// sizes.
func SuccessVsNChart(res *experiments.StudyResult, title string) (widgets.Chart, error) {
	if res == nil || len(res.Cells) == 0 {
		return nil, fmt.Errorf("%w: SuccessVsN needs a study with cells", ErrBadFigure)
	}
	var sizes []int
	seenN := map[int]bool{}
	var epss []float64
	seenE := map[float64]bool{}
	for _, c := range res.Cells {
		if !seenN[c.N] {
			seenN[c.N] = true
			sizes = append(sizes, c.N)
		}
		if !seenE[c.Eps] {
			seenE[c.Eps] = true
			epss = append(epss, c.Eps)
		}
	}
	sort.Ints(sizes)
	x := make([]float64, len(sizes))
	for i, n := range sizes {
		x[i] = float64(n)
	}
	series := map[string][]float64{}
	for _, e := range epss {
		gd, sod := make([]float64, len(sizes)), make([]float64, len(sizes))
		for i, n := range sizes {
			c := res.Cell(n, e)
			if c == nil || len(c.Trials) == 0 {
				return nil, fmt.Errorf("%w: SuccessVsN: no trials at n = %d, ε = %g (every ε needs every size)", ErrBadFigure, n, e)
			}
			gd[i] = float64(c.GDSuccesses) / float64(len(c.Trials))
			sod[i] = float64(c.SODSuccesses) / float64(len(c.Trials))
		}
		series[fmt.Sprintf("ε = %.2f %s", e, experiments.MethodGD)] = gd
		series[fmt.Sprintf("ε = %.2f %s", e, experiments.MethodGDSOD)] = sod
	}
	return widgets.Curves{Title: title, XName: "n", YName: "success rate", X: x, Series: seriesByName(series), LogX: true}.Chart(widgets.Size("100%", "360px"))
}

// StudyProgressBar returns a notebook progress bar for a study and the
// batch.ProgressFunc that feeds it (pass it to experiments.RunStudy):
// the bar follows the share of the work done (trials weighted by n,
// batch.Progress.Fraction), so its time estimate holds when the sizes
// differ by orders of magnitude; the note counts trials. Call Done on the
// bar when the study has returned.
func StudyProgressBar(title string) (*widgets.ProgressBar, batch.ProgressFunc, error) {
	const steps = 1000
	bar, err := widgets.NewProgressBar(title, steps)
	if err != nil {
		return nil, nil, err
	}
	prog := func(p batch.Progress) {
		bar.Update(int(steps*p.Fraction()), fmt.Sprintf("%d of %d trials", p.Done, p.Total))
	}
	return bar, prog, nil
}
