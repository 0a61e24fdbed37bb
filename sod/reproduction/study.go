package reproduction

import (
	"context"

	"sodworkbench.org/workbench/sod/experiments"
)

// the success-rate study

// StudyValues are the report's values of the success-rate study (§6.2) with the workbench's choices.
type StudyValues struct {
	Config                                 experiments.StudyConfig
	Cells                                  []experiments.StudyCell
	GDTotal, SODTotal, Trials              int
	Rounds, Lowered                        int
	SODAtLeastGD, Decreasing, SmallerWorse bool
	// SODRaises: GD+SOD ≥ GD in every cell and more successes in all;
	// AllLowered: every escape round's point lowered h.
	SODRaises, AllLowered bool
	// GDByEps[i] holds the GD successes by n at Config.Epsilons[i].
	GDByEps [][]int
}

func computeStudy(ctx context.Context) (*StudyValues, error) {
	v := &StudyValues{}
	v.Config = experiments.DefaultStudyConfig()
	res, err := experiments.RunStudy(ctx, v.Config, nil)
	if err != nil {
		return nil, err
	}
	v.Cells = res.Cells
	v.SODAtLeastGD = true
	byEps := map[float64][]int{}
	for _, c := range res.Cells {
		v.GDTotal += c.GDSuccesses
		v.SODTotal += c.SODSuccesses
		v.Rounds += c.Escapes
		v.Lowered += c.EscapeDescent
		v.Trials += len(c.Trials)
		v.SODAtLeastGD = v.SODAtLeastGD && c.SODSuccesses >= c.GDSuccesses
		byEps[c.Eps] = append(byEps[c.Eps], c.GDSuccesses)
	}
	v.SODRaises, v.AllLowered = v.SODAtLeastGD && v.SODTotal > v.GDTotal, v.Lowered == v.Rounds
	v.Decreasing = true
	for _, eps := range v.Config.Epsilons {
		r := byEps[eps]
		v.GDByEps = append(v.GDByEps, r)
		for i := 1; i < len(r); i++ {
			v.Decreasing = v.Decreasing && r[i] <= r[i-1]
		}
	}
	v.SmallerWorse = len(v.Config.Epsilons) == 2
	if v.SmallerWorse {
		hi, lo := byEps[v.Config.Epsilons[0]], byEps[v.Config.Epsilons[1]]
		if v.Config.Epsilons[0] < v.Config.Epsilons[1] {
			hi, lo = lo, hi
		}
		for i := range hi {
			v.SmallerWorse = v.SmallerWorse && lo[i] <= hi[i]
		}
	}
	return v, nil
}
