package reproduction

import (
	"context"
	"fmt"
	"math"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
)

// the real-world case

// RealWorldValues are the report's values of the real-world case (Appendix, case study 2; Fig. exp3).
type RealWorldValues struct {
	Paper     paper.CaseSettings
	RIPStarts int
	// GD from the printed x̂ (step 0.1, ‖∇h‖_F ≤ 1e-12): where it
	// converges, whether that rounds to the printed digits, and by how much
	// it differs at most.
	XGD         []float64
	XHatRounds  bool
	XHatMaxDiff float64
	// ‖∇h‖_F at the printed x̂, the Hessian eigenvalues at XGD, and whether
	// both say "local minimum".
	GradNorm   float64
	HessEigMin []float64
	LocalMin   bool
	M          int  // number of sensing matrices
	PaperM     int  // as printed
	MMatches   bool // M == PaperM
	// At the printed x̂.
	LambdaN, SigmaR, AbsEuu, Xi2 float64
	Delta1, Delta2, DeltaAll     float64
	EFS                          []EFSValues // at δ₁ and δ₂
	ConditionsL                  int         // the l of the theorem's conditions
	Conditions                   []ConditionValues
	Case                         CaseValues
	// The lifted objective along the closed form: at how many of the
	// LiftedN values of t it is below h^l(ŵ), and the smallest
	// log₁₀ h^l(w̃) − log₁₀ h^l(ŵ).
	LiftedBelow, LiftedN int
	LiftedMinGap         float64
	LiftedReached        bool // LiftedBelow > 0
}

// EFSValues are NCM, AIC and EFS at one δ, named by Name ("δ₁", "δ₂", or
// "paper" for the δ the paper quotes).
type EFSValues struct {
	Name          string
	NCM, AIC, EFS float64
	Delta         float64
}

// ConditionValues is one condition of the multi-step theorem
// (sod.TPGDConditionsAt) and the equation of the paper that states it.
type ConditionValues struct {
	Equation          ConditionEquation
	Name, Op          string
	Lhs, Rhs          float64
	Holds, Meaningful bool
}

// CaseValues are the results of one case study (experiments.RunCaseStudy)
// the report states, with its settings.
type CaseValues struct {
	Config                   experiments.CaseStudyConfig
	Seed                     uint64
	XHat, XFinal             []float64
	Kind, UBeta, UGamma      string
	RhoMin                   float64
	Descent                  bool
	HHat, HCheck, FinalDist  float64
	GammaDominates, ReachesM bool
}

func computeCase(ctx context.Context, cfg experiments.CaseStudyConfig) (CaseValues, *experiments.CaseStudyResult, error) {
	cs, err := experiments.RunCaseStudy(ctx, cfg, nil)
	if err != nil {
		return CaseValues{}, nil, err
	}
	final := cs.Dist[len(cs.Dist)-1]
	return CaseValues{Config: cfg, Seed: cs.Seed, XHat: cs.XHat, XFinal: cs.XFinal, Kind: cs.Kind,
		UBeta: infty(cs.UBeta), UGamma: infty(cs.UGamma), RhoMin: cs.RhoMin, Descent: cs.Descent,
		HHat: cs.HHat, HCheck: cs.HCheck, FinalDist: final, GammaDominates: cs.Kind == "γ", ReachesM: final < 0.02}, cs, nil
}

// A ConditionEquation is the equation of the paper that states a
// condition of the multi-step theorem.
type ConditionEquation int

// The equations.
const (
	EqOther         ConditionEquation = iota // §5, no numbered equation
	EqStrictSaddle                           // §5, eq. strict_saddle_condition
	EqL                                      // §5, eq. l_condition
	EqUBetaPremise                           // Appendix, the premise of eq. u_beta_validality_l
	EqUBetaValidity                          // Appendix, eq. u_beta_validality_l
)

var equations = []struct{ word, prefix string }{
	EqOther: {"other", ""}, EqStrictSaddle: {"strict-saddle", "strict-saddle"}, EqL: {"l", "l condition"},
	EqUBetaPremise: {"ubeta-premise", "U_β premise"}, EqUBetaValidity: {"ubeta-validity", "U_β validity"},
}

// String returns "other", "strict-saddle", "l", "ubeta-premise" or
// "ubeta-validity".
func (e ConditionEquation) String() string {
	if e < EqOther || int(e) >= len(equations) {
		return fmt.Sprintf("ConditionEquation(%d)", int(e))
	}
	return equations[e].word
}

// conditionEquation returns the equation of the paper that states the
// condition sod.TPGDConditionsAt calls name.
func conditionEquation(name string) ConditionEquation {
	for e := EqStrictSaddle; int(e) < len(equations); e++ {
		if strings.HasPrefix(name, equations[e].prefix) {
			return e
		}
	}
	return EqOther
}

// ripConstants returns δ₁ and δ₂ by optimisation and δ over all symmetric
// matrices (exact) of op.
func ripConstants(ctx context.Context, op sod.Operator) (d1, d2, all float64, err error) {
	r1, err := sod.RIPOptimize(ctx, op, 1, ripStarts, ripSeed)
	if err != nil {
		return 0, 0, 0, err
	}
	r2, err := sod.RIPOptimize(ctx, op, 2, ripStarts, ripSeed)
	if err != nil {
		return 0, 0, 0, err
	}
	ex, err := sod.RIPExact(op)
	if err != nil {
		return 0, 0, 0, err
	}
	return r1.Delta, r2.Delta, ex.Delta, nil
}

func computeRealWorld(ctx context.Context) (*RealWorldValues, error) {
	v := &RealWorldValues{}
	v.Paper, v.PaperM, v.RIPStarts = paper.RealWorldSettings(), len(paper.RealWorldMatrices()), ripStarts
	p, xhat := sod.RealWorldProblem(), sod.RealWorldXHat()
	cp, err := sod.AnalyzeCritical(p, xhat, sod.CriticalOptions{})
	if err != nil {
		return nil, err
	}
	if v.Delta1, v.Delta2, v.DeltaAll, err = ripConstants(ctx, p.Op); err != nil {
		return nil, err
	}

	// x̂ as printed against the minimum GD converges to.
	gd, err := sod.GradientDescent(ctx, p, xhat, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-12})
	if err != nil {
		return nil, err
	}
	v.XGD = gd.X.RawMatrix().Data
	v.XHatRounds = true
	for i, printed := range v.Paper.XHat {
		v.XHatMaxDiff = math.Max(v.XHatMaxDiff, math.Abs(v.XGD[i]-printed.Value()))
		v.XHatRounds = v.XHatRounds && printed.Rounds(v.XGD[i])
	}
	cpMin, err := sod.AnalyzeCritical(p, gd.X, sod.CriticalOptions{})
	if err != nil {
		return nil, err
	}
	v.GradNorm, v.HessEigMin = cp.GradNorm, cpMin.HessEig
	v.LocalMin = cpMin.IsLocalMinimum(0) && cp.GradNorm < 1e-4
	v.M, v.LambdaN, v.SigmaR, v.AbsEuu, v.Xi2 = cp.M, cp.LambdaN, cp.SigmaR, math.Abs(cp.Euu), cp.Xi2
	v.MMatches = v.M == v.PaperM
	for _, d := range []struct {
		name  string
		delta float64
	}{{"δ₁", v.Delta1}, {"δ₂", v.Delta2}} {
		ss, err := sod.SingleStep(p, xhat, sod.SingleStepOptions{Delta: d.delta})
		if err != nil {
			return nil, err
		}
		v.EFS = append(v.EFS, EFSValues{Name: d.name, NCM: ss.NCM, AIC: ss.AIC, EFS: ss.EFS, Delta: d.delta})
	}

	// The conditions of the multi-step theorem with δ₁, at the case study's l.
	cfg := experiments.RealWorldCaseStudyConfig()
	v.ConditionsL = cfg.L
	conds, err := sod.TPGDConditionsAt(p, cp, cfg.L, v.Delta1)
	if err != nil {
		return nil, err
	}
	for _, c := range conds {
		v.Conditions = append(v.Conditions, ConditionValues{Equation: conditionEquation(c.Name), Name: c.Name, Op: c.Op,
			Lhs: c.Lhs, Rhs: c.Rhs, Holds: c.Holds, Meaningful: c.Meaningful})
	}

	var cs *experiments.CaseStudyResult
	if v.Case, cs, err = computeCase(ctx, cfg); err != nil {
		return nil, err
	}
	v.LiftedN, v.LiftedMinGap = len(cs.Lifted.CloseHL), math.Inf(1)
	for _, hl := range cs.Lifted.CloseHL {
		if hl < cs.Lifted.HLHat {
			v.LiftedBelow++
		}
		if !math.IsNaN(hl) {
			v.LiftedMinGap = math.Min(v.LiftedMinGap, hl-cs.Lifted.HLHat)
		}
	}
	v.LiftedReached = v.LiftedBelow > 0
	return v, nil
}
