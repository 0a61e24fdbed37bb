package main

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
)

// reportValues is every value the reproduction report states, computed on
// one run with packages sod and sod/experiments, beside the paper's printed
// values it is compared with (package paper). It is plain data: the
// sentences, the tables and the verdicts' wording are the template
// report.md.tmpl.
type reportValues struct {
	RealWorld  realWorldValues
	Ablation   ablationValues
	PMC        pmcValues
	Basic      basicValues
	SingleStep singleStepValues
	PZ         pzValues
	Study      studyValues
	QNN        qnnValues
}

// ripStarts and ripSeed are the settings of the δ_p estimates by
// optimisation (Nelder–Mead from 40 seeded starts).
const (
	ripStarts = 40
	ripSeed   = 1
)

// buildReport computes every value of the report.
func buildReport(ctx context.Context) (*reportValues, error) {
	v := &reportValues{}
	steps := []struct {
		name string
		f    func(context.Context, *reportValues) error
	}{
		{"real-world case", realWorldValuesOf},
		{"ablation table", ablationValuesOf},
		{"PMC case", pmcValuesOf},
		{"basic example", basicValuesOf},
		{"single-step SOD", singleStepValuesOf},
		{"Paley–Zygmund", pzValuesOf},
		{"success rates", studyValuesOf},
		{"quadratic network", qnnValuesOf},
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.f(ctx, v); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return v, nil
}

// ---- the real-world case -----------------------------------------------

// realWorldValues: the real-world case (Appendix, case study 2; Fig. exp3).
type realWorldValues struct {
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
	EFS                          []efsValues // at δ₁ and δ₂
	ConditionsL                  int         // the l of the theorem's conditions
	Conditions                   []conditionValues
	Case                         caseValues
	// The lifted objective along the closed form: at how many of the
	// LiftedN values of t it is below h^l(ŵ), and the smallest
	// log₁₀ h^l(w̃) − log₁₀ h^l(ŵ).
	LiftedBelow, LiftedN int
	LiftedMinGap         float64
	LiftedReached        bool // LiftedBelow > 0
}

// efsValues are NCM, AIC and EFS at one δ, named by Name ("δ₁", "δ₂", or
// "paper" for the δ the paper quotes).
type efsValues struct {
	Name          string
	NCM, AIC, EFS float64
	Delta         float64
}

// conditionValues is one condition of the multi-step theorem
// (sod.TPGDConditionsAt); Kind says which equation of the paper states it.
type conditionValues struct {
	Kind              string // "strict-saddle", "l", "ubeta-premise", "ubeta-validity" or ""
	Name, Op          string
	Lhs, Rhs          float64
	Holds, Meaningful bool
}

// caseValues are the results of one case study (experiments.RunCaseStudy)
// the report states, with its settings.
type caseValues struct {
	Config                   experiments.CaseStudyConfig
	Seed                     uint64
	XHat, XFinal             []float64
	Kind, UBeta, UGamma      string
	RhoMin                   float64
	Descent                  bool
	HHat, HCheck, FinalDist  float64
	GammaDominates, ReachesM bool
}

func caseValuesOf(ctx context.Context, cfg experiments.CaseStudyConfig) (caseValues, *experiments.CaseStudyResult, error) {
	cs, err := experiments.RunCaseStudy(ctx, cfg, nil)
	if err != nil {
		return caseValues{}, nil, err
	}
	final := cs.Dist[len(cs.Dist)-1]
	return caseValues{Config: cfg, Seed: cs.Seed, XHat: cs.XHat, XFinal: cs.XFinal, Kind: cs.Kind,
		UBeta: infty(cs.UBeta), UGamma: infty(cs.UGamma), RhoMin: cs.RhoMin, Descent: cs.Descent,
		HHat: cs.HHat, HCheck: cs.HCheck, FinalDist: final, GammaDominates: cs.Kind == "γ", ReachesM: final < 0.02}, cs, nil
}

// conditionKind names the equation of the paper that states the condition
// sod.TPGDConditionsAt calls name.
func conditionKind(name string) string {
	for _, k := range []struct{ prefix, kind string }{
		{"strict-saddle", "strict-saddle"}, {"l condition", "l"}, {"U_β premise", "ubeta-premise"}, {"U_β validity", "ubeta-validity"},
	} {
		if strings.HasPrefix(name, k.prefix) {
			return k.kind
		}
	}
	return ""
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

func realWorldValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.RealWorld
	v.Paper, v.PaperM, v.RIPStarts = paper.RealWorldCase(), len(paper.RealWorldMatrices()), ripStarts
	p, xhat := sod.RealWorldProblem(), sod.RealWorldXHat()
	cp, err := sod.AnalyzeCritical(p, xhat, sod.CriticalOptions{})
	if err != nil {
		return err
	}
	if v.Delta1, v.Delta2, v.DeltaAll, err = ripConstants(ctx, p.Op); err != nil {
		return err
	}

	// x̂ as printed against the minimum GD converges to.
	gd, err := sod.GradientDescent(ctx, p, xhat, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-12})
	if err != nil {
		return err
	}
	v.XGD = gd.X.RawMatrix().Data
	v.XHatRounds = true
	for i, printed := range v.Paper.XHat {
		v.XHatMaxDiff = math.Max(v.XHatMaxDiff, math.Abs(v.XGD[i]-printed.Value()))
		v.XHatRounds = v.XHatRounds && printed.Rounds(v.XGD[i])
	}
	cpMin, err := sod.AnalyzeCritical(p, gd.X, sod.CriticalOptions{})
	if err != nil {
		return err
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
			return err
		}
		v.EFS = append(v.EFS, efsValues{Name: d.name, NCM: ss.NCM, AIC: ss.AIC, EFS: ss.EFS, Delta: d.delta})
	}

	// The conditions of the multi-step theorem with δ₁, at the case study's l.
	cfg := experiments.RealWorldCaseStudyConfig()
	v.ConditionsL = cfg.L
	conds, err := sod.TPGDConditionsAt(p, cp, cfg.L, v.Delta1)
	if err != nil {
		return err
	}
	for _, c := range conds {
		v.Conditions = append(v.Conditions, conditionValues{Kind: conditionKind(c.Name), Name: c.Name, Op: c.Op,
			Lhs: c.Lhs, Rhs: c.Rhs, Holds: c.Holds, Meaningful: c.Meaningful})
	}

	var cs *experiments.CaseStudyResult
	if v.Case, cs, err = caseValuesOf(ctx, cfg); err != nil {
		return err
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
	return nil
}

// ---- the ablation table ------------------------------------------------

// ablationValues: the paper's Table "ablation" against the workbench's.
type ablationValues struct {
	Config experiments.AblationConfig
	Orders []ablationOrderValues
	// Pattern: every β-type cell ends at −Z and every γ-type cell at +Z or
	// diverges (the text after the table).
	Pattern           bool
	Defined, Descents int  // defined cells, and those whose point lowers h
	AllDescend        bool // Descents == Defined
	HHat              float64
}

// ablationOrderValues is one lifting order: the printed block and the
// computed ρ_min and windows.
type ablationOrderValues struct {
	Paper             paper.AblationBlock
	RhoMin            float64
	RhoMinRounds      bool
	UBeta, UGamma     sod.StepInterval
	UBetaOK, UGammaOK bool
	Cells             []ablationCellValues
}

// ablationCellValues is one (l, t) cell: the printed entry, the computed
// cell, its three numbers beside the printed ones, and every way the two
// differ (none: the cell reproduces).
type ablationCellValues struct {
	Paper   paper.AblationEntry
	Cell    experiments.AblationCell
	Numbers [3]ablationNumber // d̂, d*, ratio
	Diffs   []ablationDiff
}

// ablationNumber is one computed number of a cell beside its printed
// counterpart.
type ablationNumber struct {
	Name    string // "‖x̂x̂ᵀ − x̌x̌ᵀ‖", "‖x̌x̌ᵀ − M*‖" or "ratio"
	Printed paper.Printed
	Value   float64
	Ratio   bool
}

// ablationDiff is one way a computed cell differs from the printed one.
type ablationDiff struct {
	// Kind: "defined" (the paper has a point, the workbench none),
	// "no-point" (the other way round), "unstable" (the paper prints ✗²,
	// the distances are finite), "by" (a number does not round to the
	// printed digits), "final" (GD ends elsewhere).
	Kind           string
	Name           string
	Value, Printed float64           // "by"
	Got            experiments.GDEnd // "final": where GD ended here
	Want           paper.Endpoint    // "final"
}

// ablationCellValuesOf compares one computed cell with the printed entry.
func ablationCellValuesOf(e paper.AblationEntry, c experiments.AblationCell) ablationCellValues {
	cv := ablationCellValues{Paper: e, Cell: c}
	names := [3]string{"‖x̂x̂ᵀ − x̌x̌ᵀ‖", "‖x̌x̌ᵀ − M*‖", "ratio"}
	printed := [3]paper.Printed{e.DHat, e.DStar, e.Ratio}
	values := [3]float64{c.DHat, c.DStar, c.Ratio}
	for k := range cv.Numbers {
		cv.Numbers[k] = ablationNumber{Name: names[k], Printed: printed[k], Value: values[k], Ratio: k == 2}
	}
	if !c.Defined {
		if e.Defined() {
			cv.Diffs = append(cv.Diffs, ablationDiff{Kind: "defined"})
		}
		return cv
	}
	for k, n := range cv.Numbers {
		switch {
		case n.Printed == paper.Undefined:
			cv.Diffs = append(cv.Diffs, ablationDiff{Kind: "no-point", Name: n.Name})
		case n.Printed == paper.Unstable:
			if k == 0 {
				cv.Diffs = append(cv.Diffs, ablationDiff{Kind: "unstable"})
			}
		case !n.Printed.Rounds(n.Value):
			cv.Diffs = append(cv.Diffs, ablationDiff{Kind: "by", Name: n.Name, Value: n.Value, Printed: n.Printed.Value()})
		}
	}
	if end, ok := c.PaperEndpoint(); !ok || end != e.Final {
		cv.Diffs = append(cv.Diffs, ablationDiff{Kind: "final", Got: c.Final, Want: e.Final})
	}
	return cv
}

func ablationValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.Ablation
	v.Config = experiments.DefaultAblationConfig()
	res, err := experiments.RunAblation(ctx, v.Config, nil)
	if err != nil {
		return err
	}
	v.HHat = res.HHat
	blocks := paper.Ablation()
	if len(res.Rows) != len(blocks) {
		return fmt.Errorf("ablation: %d rows, the paper has %d", len(res.Rows), len(blocks))
	}
	v.Pattern = true
	for i, b := range blocks {
		r := res.Rows[i]
		if r.L != b.L || len(r.Cells) != len(b.Entries) {
			return fmt.Errorf("ablation row %d: l = %d with %d cells, the paper's l = %d has %d", i, r.L, len(r.Cells), b.L, len(b.Entries))
		}
		o := ablationOrderValues{Paper: b, RhoMin: r.RhoMin, RhoMinRounds: b.RhoMin.Rounds(r.RhoMin),
			UBeta: r.UBeta, UGamma: r.UGamma, UBetaOK: intervalRounds(r.UBeta, b.UBeta), UGammaOK: intervalRounds(r.UGamma, b.UGamma)}
		for j, e := range b.Entries {
			c := r.Cells[j]
			if c.T != e.T {
				return fmt.Errorf("ablation l = %d: t = %d, the paper's %d", b.L, c.T, e.T)
			}
			if c.Defined {
				v.Defined++
				if c.Descent {
					v.Descents++
				}
			}
			if (c.Kind == sod.KindBeta && c.Final != experiments.GDEndMinusZ) || (c.Kind == sod.KindGamma && c.Final != experiments.GDEndPlusZ && c.Final != experiments.GDEndDiverged) {
				v.Pattern = false
			}
			o.Cells = append(o.Cells, ablationCellValuesOf(e, c))
		}
		v.Orders = append(v.Orders, o)
	}
	v.AllDescend = v.Descents == v.Defined
	return nil
}

// Cell returns the cell of lifting order l and step count t (the zero
// value if the table has none).
func (a ablationValues) Cell(l int, t int64) ablationCellValues {
	for _, o := range a.Orders {
		for _, c := range o.Cells {
			if c.Paper.L == l && c.Paper.T == t {
				return c
			}
		}
	}
	return ablationCellValues{}
}

// intervalRounds reports whether a computed interval agrees with the
// printed one: both empty, or both ends round to the printed digits (+∞
// for +∞).
func intervalRounds(u sod.StepInterval, p paper.PrintedInterval) bool {
	if p.Empty() || u.Empty() {
		return p.Empty() && u.Empty()
	}
	hi := p.Hi.Rounds(u.Hi) || (p.Hi == paper.Infinity && math.IsInf(u.Hi, 1))
	return p.Lo.Rounds(u.Lo) && hi
}

// ---- the PMC case ------------------------------------------------------

// pmcValues: perturbed matrix completion (Appendix, case study 1; Fig. exp2).
type pmcValues struct {
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
	EFS                      []efsValues // at the paper's δ and δ₂
	Case                     caseValues
	StallsNearSpurious       bool
	LiftedBelow, ExactBelow  int
	LiftedN                  int
	LiftedReached            bool // LiftedBelow > 0
}

func pmcValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.PMC
	v.Paper = paper.PMCCase()
	eps := v.Paper.Eps
	p, err := sod.PMCCaseStudyProblem(eps)
	if err != nil {
		return err
	}
	x0 := mat.NewDense(3, 1, nil)
	for i, c := range v.Paper.XHat {
		x0.Set(i, 0, c.Value())
	}
	cp0, err := sod.AnalyzeCritical(p, x0, sod.CriticalOptions{})
	if err != nil {
		return err
	}
	var g mat.Dense
	p.Grad(&g, x0)
	v.Grad0, v.GradNorm0, v.Critical0 = g.RawMatrix().Data, cp0.GradNorm, cp0.GradNorm <= 1e-8

	gd, err := sod.GradientDescent(ctx, p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.01, MaxIter: 20000}, GradTol: 1e-11})
	if err != nil {
		return err
	}
	cpMin, err := sod.AnalyzeCritical(p, gd.X, sod.CriticalOptions{})
	if err != nil {
		return err
	}
	v.A, v.AFormula = math.Abs(gd.X.At(0, 0)), math.Sqrt((1-eps*eps)/(1+eps*eps))
	v.HMin, v.HessEigMin, v.LocalMin = cpMin.H, cpMin.HessEig, cpMin.IsLocalMinimum(0)
	v.AIsOne = math.Abs(v.A-1) <= 1e-9

	if v.Delta1, v.Delta2, v.DeltaAll, err = ripConstants(ctx, p.Op); err != nil {
		return err
	}
	v.PaperDelta = paper.PMCDelta
	if v.PaperDeltaValue, err = paper.PMCDeltaFormula(eps); err != nil {
		return err
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
			return err
		}
		v.EFS = append(v.EFS, efsValues{Name: d.name, NCM: ss.NCM, AIC: ss.AIC, EFS: ss.EFS, Delta: d.delta})
	}

	var cs *experiments.CaseStudyResult
	if v.Case, cs, err = caseValuesOf(ctx, experiments.PMCCaseStudyConfig()); err != nil {
		return err
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
	return nil
}

// ---- the basic example -------------------------------------------------

// basicValues: the basic example (§1.1, eq. basic_example; Fig. 2).
type basicValues struct {
	Config          experiments.BasicExampleConfig
	HessEig         []float64
	H, HCurve, U    float64 // h(x̂), and h at x(U) on the curve x(u) = (√u, √(½ − 2u))
	Delta, EFS      float64
	GDNear, GDAll   int // GD runs that end next to x̂
	SGDStay, SGDAll int // SGD runs that end away from M*
	SODOK, SODAll   int // GD+SOD runs that end within 10⁻⁶ of M*
	// The verdicts: h falls below h(x̂) along the curve; every GD run is
	// trapped; SGDReach SGD runs reach M*; every GD+SOD run reaches M*.
	CurveBelow, AllGDTrapped, AllSODReach bool
	SGDReach                              int
}

func basicValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.Basic
	p, xhat := sod.BasicExampleProblem(), sod.BasicExampleXHat()
	cp, err := sod.AnalyzeCritical(p, xhat, sod.CriticalOptions{})
	if err != nil {
		return err
	}
	v.U = 1e-2
	v.HessEig, v.H = cp.HessEig, cp.H
	v.HCurve = p.H(mat.NewDense(2, 1, []float64{math.Sqrt(v.U), math.Sqrt(0.5 - 2*v.U)}))
	rip, err := sod.RIPExact(p.Op)
	if err != nil {
		return err
	}
	ss, err := sod.SingleStep(p, xhat, sod.SingleStepOptions{Delta: rip.Delta})
	if err != nil {
		return err
	}
	v.Delta, v.EFS = rip.Delta, ss.EFS

	v.Config = experiments.DefaultBasicExampleConfig()
	res, err := experiments.RunBasicExample(ctx, v.Config, nil)
	if err != nil {
		return err
	}
	for _, path := range res.Paths {
		last := len(path.X) - 1
		near := math.Abs(path.X[last]) < 0.1 && math.Abs(math.Abs(path.Y[last])-1/math.Sqrt2) < 0.05
		switch path.Method {
		case "GD":
			v.GDAll++
			if near {
				v.GDNear++
			}
		case "SGD":
			v.SGDAll++
			if path.Final > 0.02 {
				v.SGDStay++
			}
		case "GD+SOD":
			v.SODAll++
			if path.Final < 1e-6 {
				v.SODOK++
			}
		}
	}
	v.CurveBelow, v.AllGDTrapped, v.AllSODReach, v.SGDReach = v.HCurve < v.H, v.GDNear == v.GDAll, v.SODOK == v.SODAll, v.SGDAll-v.SGDStay
	return nil
}

// ---- single-step SOD: the Case 1 recipe --------------------------------

// singleStepValues: the paper's Case 1 recipe on the seeded Gaussian
// instance of notebook 02 (sod.GaussianSpuriousInstance).
type singleStepValues struct {
	H0, HGood, HMirror, Rho float64 // h(X̂), h(X̂ + ρ*u_nq_rᵀ), h(−X̂ + ρ*u_nq_rᵀ), ρ*
	MirrorLowers            bool
}

func singleStepValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.SingleStep
	in, err := sod.GaussianSpuriousInstance()
	if err != nil {
		return err
	}
	var ss *sod.SingleStepResult
	for _, flip := range []bool{false, true} {
		ss, err = sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), Critical: sod.CriticalOptions{FlipUn: flip}})
		if err != nil {
			return err
		}
		if ss.CP.Euu > 0 {
			break
		}
	}
	if !(ss.CP.Euu > 0) {
		return fmt.Errorf("single-step: no sign of u_n gives ⟨E, u_n u_nᵀ⟩ > 0")
	}
	v.Rho = ss.Exact.BestRho
	v.H0, v.HGood, v.HMirror = in.P.H(in.XHat), in.P.H(ss.CP.LinePoint(1, v.Rho)), in.P.H(ss.CP.LinePoint(-1, v.Rho))
	v.MirrorLowers = v.HMirror < v.H0
	return nil
}

// ---- Paley–Zygmund -----------------------------------------------------

// Monte Carlo settings of the moment rows.
const (
	pzN, pzM, pzSamples = 3, 10, 20000
	pzSeed              = 1
	pzDelta, pzTheta    = 0.3, 0.5
)

// pzValues: the moments of S and the Paley–Zygmund bound (§4.3).
type pzValues struct {
	N, M, Samples int
	Seed          uint64
	Moments       []momentValues // E S, E S², E S⁴
	Theta, Delta  float64
	Bound         float64 // (1−θ)² m/(3(m+2))
	Prob, ProbSE  float64 // Monte Carlo P(AIC ≥ θ E AIC) and its standard error
	BoundHolds    bool
}

// momentValues is the k-th moment of S: the closed form, its Monte Carlo
// estimate with the standard error, and whether they agree within three
// standard errors.
type momentValues struct {
	K              int
	Closed, MC, SE float64
	Agree          bool
}

func pzValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.PZ
	*v = pzValues{N: pzN, M: pzM, Samples: pzSamples, Seed: pzSeed, Theta: pzTheta, Delta: pzDelta}
	mean, second, fourth, err := sod.SMoments(pzM)
	if err != nil {
		return err
	}
	samples, err := sod.SampleS(ctx, pzN, pzM, pzSamples, pzSeed)
	if err != nil {
		return err
	}
	for _, m := range []struct {
		k      int
		closed float64
	}{{1, mean}, {2, second}, {4, fourth}} {
		x := make([]float64, len(samples))
		for i, s := range samples {
			x[i] = math.Pow(s, float64(m.k))
		}
		mc := floats.Sum(x) / float64(len(x))
		var ss float64
		for _, s := range x {
			ss += (s - mc) * (s - mc)
		}
		se := math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
		v.Moments = append(v.Moments, momentValues{K: m.k, Closed: m.closed, MC: mc, SE: se, Agree: math.Abs(mc-m.closed) <= 3*se})
	}
	eAIC, _, err := sod.AICMoments(pzM, pzDelta)
	if err != nil {
		return err
	}
	if v.Bound, err = sod.PZBound(pzTheta, pzM); err != nil {
		return err
	}
	d2 := (1 + pzDelta) * (1 + pzDelta)
	hit := 0
	for _, s := range samples {
		if s*s/(2*d2) >= pzTheta*eAIC {
			hit++
		}
	}
	v.Prob = float64(hit) / float64(len(samples))
	v.ProbSE = math.Sqrt(v.Prob * (1 - v.Prob) / float64(len(samples)))
	v.BoundHolds = v.Prob >= v.Bound-3*v.ProbSE
	return nil
}

// ---- the success-rate study --------------------------------------------

// studyValues: the success-rate study (§6.2) with the workbench's choices.
type studyValues struct {
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

func studyValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.Study
	v.Config = experiments.DefaultStudyConfig()
	res, err := experiments.RunStudy(ctx, v.Config, nil)
	if err != nil {
		return err
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
	return nil
}

// ---- the quadratic network ---------------------------------------------

// qnnValues: the quadratic network on Iris (§6.3) with the workbench's
// setting.
type qnnValues struct {
	Config    experiments.QNNConfig
	StallIter int // −1: GD never stagnated
	StallH    float64
	// Final training loss of each optimiser of panel (a) and each line
	// search of panel (b).
	GD, SGD, Adam, SOD                     float64
	SODSearch, RandomSearch, NegGradSearch float64
	// The first escape of GD+SOD: h before and after, and whether it
	// lowered h.
	Escaped             bool
	EscapeHHat, EscapeH float64
	EscapeDescent       bool
	// The verdicts, where "lower" means by more than qnnMargin: GD stalls;
	// SGD ends no lower than GD; Adam ends lower than GD (by at least the
	// margin); the first SOD
	// escape lowers h and GD+SOD ends lower than GD; the SOD line search
	// ends lower than both others.
	GDStalls, SGDStalls, AdamDecreases, EscapeDrops, SODSearchWins bool
}

// qnnMargin is how much lower a final loss must be to count as lower.
const qnnMargin = 0.5

func qnnValuesOf(ctx context.Context, rv *reportValues) error {
	v := &rv.QNN
	v.Config = experiments.DefaultQNNConfig()
	res, err := experiments.RunQNN(ctx, v.Config, nil)
	if err != nil {
		return err
	}
	v.StallIter, v.StallH = res.StallIter, res.StallH
	final := map[string]*float64{"GD": &v.GD, "SGD": &v.SGD, "Adam": &v.Adam, "GD+SOD": &v.SOD,
		"GD+SOD line search": &v.SODSearch, "GD+random line search": &v.RandomSearch, "GD+negative-gradient line search": &v.NegGradSearch}
	seen := 0
	for _, c := range append(res.Optimizers, res.Searches...) {
		if p, ok := final[c.Name]; ok {
			*p = c.FinalH
			seen++
		}
		if c.Name == "GD+SOD" && len(c.Escapes) > 0 {
			e := c.Escapes[0]
			v.Escaped, v.EscapeHHat, v.EscapeH, v.EscapeDescent = true, e.HHat, e.HCheck, e.Descent
		}
	}
	if seen != len(final) {
		return fmt.Errorf("quadratic network: %d of the %d runs the report states", seen, len(final))
	}
	lower := func(a, b float64) bool { return a < b-qnnMargin }
	v.GDStalls = v.StallIter >= 0
	v.SGDStalls = !lower(v.SGD, v.GD)
	v.AdamDecreases = v.Adam <= v.GD-qnnMargin
	v.EscapeDrops = v.Escaped && v.EscapeDescent && lower(v.SOD, v.GD)
	v.SODSearchWins = lower(v.SODSearch, v.RandomSearch) && lower(v.SODSearch, v.NegGradSearch)
	return nil
}
