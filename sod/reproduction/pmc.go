package reproduction

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
)

// the PMC case

// PMCValues are the report's values of perturbed matrix completion (Appendix, case study 1; Fig. exp2).
type PMCValues struct {
	Paper paper.CaseSettings
	// At the paper's spurious solution (1, 0, −1): ∇h and ‖∇h‖_F.
	Grad0     []float64
	GradNorm0 float64
	Critical0 bool
	// GD from (1, 0, −1) (step 0.01, ‖∇h‖_F ≤ 1e-11) ends at ±a(1, 0, −1).
	A, AFormula, HMin float64
	AIsOne            bool // a = 1 within 10⁻⁹: the paper's point itself
	HessEigMin        []float64
	LocalMin          bool
	// The RIP constants, the paper's quoted one and EFS at two of them.
	Delta1, Delta2, DeltaAll float64
	PaperDelta               paper.Printed
	PaperDeltaValue          float64
	PaperDeltaIsRIP          bool
	EFS                      []EFSValues // at the paper's δ and δ₂
	Case                     CaseValues
	StallsNearSpurious       bool
	LiftedBelow, ExactBelow  int
	LiftedN                  int
	LiftedReached            bool // LiftedBelow > 0
}

func computePMC(ctx context.Context) (*PMCValues, error) {
	v := &PMCValues{}
	v.Paper = paper.PMCSettings()
	eps := v.Paper.Eps
	p, err := sod.PMCCaseStudyProblem(eps)
	if err != nil {
		return nil, err
	}
	x0 := mat.NewDense(3, 1, nil)
	for i, c := range v.Paper.XHat {
		x0.Set(i, 0, c.Value())
	}
	cp0, err := sod.AnalyzeCritical(p, x0, sod.CriticalOptions{})
	if err != nil {
		return nil, err
	}
	var g mat.Dense
	p.Grad(&g, x0)
	v.Grad0, v.GradNorm0, v.Critical0 = g.RawMatrix().Data, cp0.GradNorm, cp0.GradNorm <= 1e-8

	gd, err := sod.GradientDescent(ctx, p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.01, MaxIter: 20000}, GradTol: 1e-11})
	if err != nil {
		return nil, err
	}
	cpMin, err := sod.AnalyzeCritical(p, gd.X, sod.CriticalOptions{})
	if err != nil {
		return nil, err
	}
	v.A, v.AFormula = math.Abs(gd.X.At(0, 0)), math.Sqrt((1-eps*eps)/(1+eps*eps))
	v.HMin, v.HessEigMin, v.LocalMin = cpMin.H, cpMin.HessEig, cpMin.IsLocalMinimum(0)
	v.AIsOne = math.Abs(v.A-1) <= 1e-9

	if v.Delta1, v.Delta2, v.DeltaAll, err = ripConstants(ctx, p.Op); err != nil {
		return nil, err
	}
	v.PaperDelta = paper.PMCDelta
	if v.PaperDeltaValue, err = paper.PMCDeltaFormula(eps); err != nil {
		return nil, err
	}
	for _, d := range []float64{v.Delta1, v.Delta2, v.DeltaAll} {
		v.PaperDeltaIsRIP = v.PaperDeltaIsRIP || math.Abs(d-v.PaperDeltaValue) < 0.0005
	}
	for _, d := range []struct {
		name  string
		delta float64
	}{{"paper", v.PaperDeltaValue}, {"δ₂", v.Delta2}} {
		ss, err := sod.SingleStep(p, cpMin.X, sod.SingleStepOptions{Delta: d.delta})
		if err != nil {
			return nil, err
		}
		v.EFS = append(v.EFS, EFSValues{Name: d.name, NCM: ss.NCM, AIC: ss.AIC, EFS: ss.EFS, Delta: d.delta})
	}

	var cs *experiments.CaseStudyResult
	if v.Case, cs, err = computeCase(ctx, experiments.PMCCaseStudyConfig()); err != nil {
		return nil, err
	}
	x := cs.XHat
	v.StallsNearSpurious = math.Abs(math.Abs(x[0])-v.A) < 1e-3 && math.Abs(x[1]) < 1e-3 && x[0]*x[2] < 0
	v.LiftedN = len(cs.Lifted.CloseHL)
	for i := range cs.Lifted.CloseHL {
		if cs.Lifted.CloseHL[i] < cs.Lifted.HLHat {
			v.LiftedBelow++
		}
		if cs.Lifted.ExactHL[i] < cs.Lifted.HLHat {
			v.ExactBelow++
		}
	}
	v.LiftedReached = v.LiftedBelow > 0
	return v, nil
}
