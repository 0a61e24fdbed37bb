package experiments

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/sod/randstream"
)

// CaseStudyConfig configures a case study of the paper's section 6.1 (Figs.
// "exp2", PMC, and "exp3", real-world): GD from a start that lands at a
// spurious point, one multi-step SOD escape at (l, t), GD again, and the
// lifted dynamics behind the escape.
type CaseStudyConfig struct {
	Name    string
	Problem *sod.Problem
	// X0 is the start. If nil, the start is InitScale·N(0, I) drawn from
	// the first seed Seed, Seed+1, … (at most SeedTries) whose ItersBefore GD
	// steps end at a spurious point (‖∇h‖_F ≤ 0.01 and ‖XXᵀ − M*‖_F > 0.1):
	// the paper uses "a fixed seed so that GD lands at a spurious point"
	// without giving it.
	X0          *mat.Dense
	InitScale   float64
	Seed        uint64
	SeedTries   int
	Step        float64 // GD step (0.001 PMC, 0.1 real-world)
	ItersBefore int     // GD steps before the escape (6000 PMC, 100 real-world)
	ItersAfter  int     // GD steps after it (1000 PMC, 100 real-world)
	L           int     // lifting order (11 PMC, 5 real-world)
	T           int64   // TPGD steps (59000 PMC, 150000 real-world)
	Rho, Eta    float64 // ρ, η of the escape (0.1, 0.1)
	// CurvePoints is the number of t values (log-spaced in [1, T]) of the
	// closed-form curves and of the recorded exact-PGD steps (default 200).
	CurvePoints int
	Critical    sod.CriticalOptions
}

// PMCCaseStudyConfig returns the settings of the PMC case study (Fig. "exp2",
// REPRODUCTION.md C10): n = 3, ε = 0.3, z = (1, 0, 1), x₀ = 0.01·N(0, I), 6000 GD
// steps of 0.001 before SOD and 1000 after, l = 11, t = 59000, ρ = η = 0.1.
func PMCCaseStudyConfig() CaseStudyConfig {
	c := paper.PMCSettings()
	p, _ := sod.PMCCaseStudyProblem(c.Eps) // cannot fail for the printed ε = 0.3
	return CaseStudyConfig{Name: fmt.Sprintf("PMC n=%d ε=%g", c.N, c.Eps), Problem: p, InitScale: c.StartScale, Seed: 1, SeedTries: 100,
		Step: c.Step, ItersBefore: c.Before, ItersAfter: c.After, L: c.L, T: c.T, Rho: 0.1, Eta: 0.1, CurvePoints: 200}
}

// RealWorldCaseStudyConfig returns the settings of the real-world case (Fig.
// "exp3", Appendix case 2, REPRODUCTION.md C10): z = e₁, GD step 0.1, 100 steps before
// and after SOD, l = 5, t = 150000, ρ = η = 0.1. The paper does not give
// the start; the default draws x₀ ~ N(0, I) (a 0.01 start does not reach
// the spurious point within 100 steps of 0.1), and GD then ends next to the
// printed x̂ = (0.2234, 0.0918, 0.5985).
func RealWorldCaseStudyConfig() CaseStudyConfig {
	c := paper.RealWorldSettings() // the paper gives no start scale: InitScale 1 is ours
	return CaseStudyConfig{Name: "real-world", Problem: sod.RealWorldProblem(), InitScale: 1, Seed: 1, SeedTries: 100,
		Step: c.Step, ItersBefore: c.Before, ItersAfter: c.After, L: c.L, T: c.T, Rho: 0.1, Eta: 0.1, CurvePoints: 200}
}

// CaseStudyResult holds the data of the six panels:
//
//	(a)–(c) H, GradNorm, Dist against Iter (GD, escape, GD; EscapeAt is the
//	        index of the first point after the escape);
//	(d)     the lifted objective log10 h^l against t, for the paper's
//	        closed form w̃(t) = a + β̃(t) b + γ̃(t) c (ClosedForm) and for the
//	        exact projected gradient descent in span{a, b, c} from
//	        w = a + ρ b (Exact);
//	(e)     log10 of the term norms ‖a‖, ‖β̃ b‖, ‖γ̃ c‖ against t, for both;
//	(f)     the trajectory X_k (Path[k] is X_k row-major; 3-D for n = 3).
type CaseStudyResult struct {
	Name     string      `json:"name"`
	Seed     uint64      `json:"seed"` // the seed of the start (when X0 was nil)
	Iter     []int       `json:"iter"`
	H        Floats      `json:"h"`
	GradNorm Floats      `json:"grad_norm"`
	Dist     Floats      `json:"dist"`
	EscapeAt int         `json:"escape_at"` // −1 if no escape was applied
	Outcome  sod.Outcome `json:"outcome"`   // sod.EscapeRun.Outcome (its text in JSON)

	XHat    []float64 `json:"x_hat"`
	XCheck  []float64 `json:"x_check"` // nil if the point is undefined at t
	XFinal  []float64 `json:"x_final"`
	Kind    string    `json:"kind"`
	HHat    float64   `json:"h_hat"`
	HCheck  float64   `json:"h_check"`
	Descent bool      `json:"descent"` // h(X̌) < h(X̂)
	LambdaN float64   `json:"lambda_n"`
	SigmaR  float64   `json:"sigma_r"`
	EXNorm  float64   `json:"ex_norm"`
	K       float64   `json:"K_l"`
	RhoMin  float64   `json:"rho_min"`
	UBeta   string    `json:"u_beta"`
	UGamma  string    `json:"u_gamma"`

	Lifted LiftedPanels `json:"lifted"`
	Path   [][]float64  `json:"path"`
}

// LiftedPanels are panels (d) and (e) on one log-spaced grid of t (0 and
// CurvePoints values in [1, T]). All values are log10 (the quantities span
// hundreds of decades); NaN (JSON null) marks a value ≤ 0 after
// cancellation (h^l is ≥ 0 exactly), a zero term, or an exact-PGD point
// after the iterate left float64.
type LiftedPanels struct {
	L       int     `json:"l"`
	HLHat   float64 `json:"log10_hl_hat"` // log10 h^l(vec(X̂)^{⊗l}), the paper's reference level
	T       Floats  `json:"t"`
	CloseHL Floats  `json:"closed_log10_hl"`
	CloseA  Floats  `json:"closed_log10_a"`
	CloseB  Floats  `json:"closed_log10_b"`
	CloseC  Floats  `json:"closed_log10_c"`
	ExactHL Floats  `json:"exact_log10_hl"`
	ExactA  Floats  `json:"exact_log10_a"`
	ExactB  Floats  `json:"exact_log10_b"`
	ExactC  Floats  `json:"exact_log10_c"`
	// ExactDiverged: exact PGD left float64 before T steps.
	ExactDiverged bool `json:"exact_diverged"`
}

// Validate checks c: a problem with known M*, a finite step > 0,
// ItersBefore ≥ 1, ItersAfter ≥ 0, T in [1, sod.MaxSubspaceSteps],
// CurvePoints at most MaxGridPoints (below 2 means the default 200), and
// InitScale > 0 with SeedTries ≥ 1 when X0 is nil. The error wraps
// ErrBadExperiment and names the bad value.
func (c CaseStudyConfig) Validate() error {
	if c.Problem == nil || !c.Problem.HasTruth() {
		return fmt.Errorf("%w: case study needs a problem with known M*", ErrBadExperiment)
	}
	if !(c.Step > 0) || math.IsInf(c.Step, 0) || c.ItersBefore < 1 || c.ItersAfter < 0 {
		return fmt.Errorf("%w: case study step %v (want finite > 0), iterations %d before (want ≥ 1) and %d after (want ≥ 0)", ErrBadExperiment, c.Step, c.ItersBefore, c.ItersAfter)
	}
	if c.T < 1 || c.T > sod.MaxSubspaceSteps {
		// The lifted panels run T exact PGD steps (sod.SubspacePGD).
		return fmt.Errorf("%w: case study t = %d, want [1, sod.MaxSubspaceSteps = %d]", ErrBadExperiment, c.T, sod.MaxSubspaceSteps)
	}
	if c.CurvePoints > MaxGridPoints {
		return fmt.Errorf("%w: case study CurvePoints = %d, want at most %d", ErrBadExperiment, c.CurvePoints, MaxGridPoints)
	}
	if c.X0 == nil && (!(c.InitScale > 0) || c.SeedTries < 1) {
		return fmt.Errorf("%w: case study InitScale = %v (want > 0), SeedTries = %d (want ≥ 1) when X0 is nil", ErrBadExperiment, c.InitScale, c.SeedTries)
	}
	if err := c.Problem.Validate(); err != nil {
		return fmt.Errorf("case study problem: %w", err)
	}
	if c.X0 != nil {
		if err := c.Problem.CheckX(c.X0); err != nil {
			return fmt.Errorf("case study X0: %w", err)
		}
	}
	// The escaper the run builds (the same settings, checked by its own rule).
	if err := (&sod.MultiStepSOD{L: c.L, T: c.T, Rho: c.Rho, Eta: c.Eta}).Validate(); err != nil {
		return fmt.Errorf("case study: %w", err)
	}
	return nil
}

// findStart returns the configured start or the first seeded small random
// start whose GD lands at a spurious point.
func (c *CaseStudyConfig) findStart(ctx context.Context) (*mat.Dense, uint64, error) {
	if c.X0 != nil {
		return mat.DenseCopyOf(c.X0), 0, c.Problem.CheckX(c.X0)
	}
	n, r := c.Problem.Dims()
	for k := 0; k < c.SeedTries; k++ {
		seed := c.Seed + uint64(k)
		rng := randstream.New(seed, randstream.CaseStudyStarts)
		x0 := mat.NewDense(n, r, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < r; j++ {
				x0.Set(i, j, c.InitScale*rng.NormFloat64())
			}
		}
		g, err := sod.GradientDescent(ctx, c.Problem, x0, sod.GDOptions{Iteration: sod.Iteration{Step: c.Step, MaxIter: c.ItersBefore, TraceEvery: c.ItersBefore}})
		if err != nil {
			return nil, 0, err
		}
		if g.Stop != sod.StopDiverged && g.GradNorm <= 0.01 && c.Problem.DistStar(g.X) > 0.1 {
			return x0, seed, nil
		}
	}
	return nil, 0, fmt.Errorf("%w: no seed in [%d, %d) lands GD at a spurious point", ErrBadExperiment, c.Seed, c.Seed+uint64(c.SeedTries))
}

// RunCaseStudy runs a case study (PMCCaseStudyConfig,
// RealWorldCaseStudyConfig) and returns the data of its six panels. cfg is
// checked by Validate before any work; ctx stops the run early with an
// error wrapping ctx.Err(); prog (may be nil) is told after each stage.
func RunCaseStudy(ctx context.Context, cfg CaseStudyConfig, prog batch.ProgressFunc) (*CaseStudyResult, error) {
	if err := checkContext(ctx, "RunCaseStudy"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.CurvePoints < 2 {
		cfg.CurvePoints = 200
	}
	const stages = 3
	p := cfg.Problem
	x0, seed, err := cfg.findStart(ctx)
	if err != nil {
		return nil, err
	}
	prog.Report(cfg.Name, 1, stages)
	esc := &sod.MultiStepSOD{L: cfg.L, T: cfg.T, Rho: cfg.Rho, Eta: cfg.Eta}
	run, err := sod.RunEscape(ctx, p, x0, esc, sod.EscapeOptions{
		GD:             sod.GDOptions{Iteration: sod.Iteration{Step: cfg.Step, MaxIter: cfg.ItersAfter, KeepIterates: true}},
		FirstPhaseIter: cfg.ItersBefore, MaxEscapes: 1, AllowAscent: true, Critical: cfg.Critical,
	})
	if err == nil {
		err = run.Err // the panels need the escape: a failing variant is an error here
	}
	if err != nil {
		return nil, err
	}
	res := &CaseStudyResult{Name: cfg.Name, Seed: seed, Iter: run.Trace.Iter, H: run.Trace.H, GradNorm: run.Trace.GradNorm,
		Dist: run.Trace.Dist, EscapeAt: -1, Outcome: run.Outcome, XFinal: flat(run.X)}
	for _, it := range run.Trace.Iterates {
		res.Path = append(res.Path, flat(it))
	}
	xhat := run.Phases[0].X
	res.XHat = flat(xhat)
	if len(run.Phases) > 1 {
		res.EscapeAt = len(run.Phases[0].Trace.Iter)
	}
	cp, err := sod.AnalyzeCritical(p, xhat, cfg.Critical)
	if err != nil {
		return nil, err
	}
	res.HHat, res.LambdaN, res.SigmaR, res.EXNorm = cp.H, cp.LambdaN, cp.SigmaR, cp.EXNorm
	if !(cp.LambdaN < 0) {
		return nil, fmt.Errorf("%w: case study start: GD ended at a point with λ_n = %g ≥ 0, not a spurious local minimum", ErrBadExperiment, cp.LambdaN)
	}
	cf, err := sod.NewTPGDFromCritical(cp, cfg.L, cfg.Rho, cfg.Eta)
	if err != nil {
		return nil, err
	}
	res.K, res.RhoMin, res.UBeta, res.UGamma = cf.K(), cf.RhoMin(), cf.UBeta().String(), cf.UGamma().String()
	res.Kind = cf.Select(cfg.T).String()
	res.HCheck = -1
	if len(run.Escapes) > 0 && run.Escapes[0].Accepted >= 0 {
		c := run.Escapes[0].Candidates[run.Escapes[0].Accepted]
		res.XCheck, res.HCheck, res.Descent = flat(c.X), c.H, c.Descent
	}
	prog.Report(cfg.Name, 2, stages)
	if res.Lifted, err = liftedPanels(ctx, p, cp, cf, cfg); err != nil {
		return nil, err
	}
	prog.Report(cfg.Name, 3, stages)
	return res, nil
}

func flat(x *mat.Dense) []float64 {
	if x == nil {
		return nil
	}
	return append([]float64(nil), mat.DenseCopyOf(x).RawMatrix().Data...)
}

func log10Scalar(s sod.LogScalar) float64 {
	if s.Sign <= 0 {
		return math.NaN()
	}
	return s.Log10()
}

// liftedPanels computes panels (d) and (e) with the directions a = X̂,
// b = u_n q_rᵀ, c = E X̂: the closed form at every grid t, and the exact
// PGD (sod.SubspacePGD, every step) recorded at the same t.
func liftedPanels(ctx context.Context, p *sod.Problem, cp *sod.CriticalPoint, cf *sod.TPGDClosedForm, cfg CaseStudyConfig) (LiftedPanels, error) {
	out := LiftedPanels{L: cfg.L}
	n, r := p.Dims()
	b := mat.NewDense(n, r, nil)
	b.Outer(1, cp.Un, cp.Qr)
	ls, err := sod.NewLiftedSubspace(p.Op, p.B, cfg.L, cp.X, b, cp.EX)
	if err != nil {
		return out, err
	}
	one := sod.LogScalar{Sign: 1, Log: 0}
	h0, err := ls.LogObjective([]sod.LogScalar{one, {}, {}})
	if err != nil {
		return out, err
	}
	out.HLHat = log10Scalar(h0)
	ts, err := LogGrid(1, cfg.T, cfg.CurvePoints)
	if err != nil {
		return out, err
	}
	grid := append([]int64{0}, ts...)
	pgd, err := sod.NewSubspacePGD(ls, cfg.Eta)
	if err != nil {
		return out, err
	}
	coef := []float64{1, cfg.Rho, 0}
	norms := make([]float64, 3)
	t := int64(0)
	for _, tg := range grid {
		al, be, ga, err := cf.Coefficients(tg)
		if err != nil {
			return out, err
		}
		hl, err := ls.LogObjective([]sod.LogScalar{al, be, ga})
		if err != nil {
			return out, err
		}
		la, lb, lc, err := cf.TermNorms(tg)
		if err != nil {
			return out, err
		}
		out.T = append(out.T, float64(tg))
		out.CloseHL = append(out.CloseHL, log10Scalar(hl))
		out.CloseA = append(out.CloseA, la/math.Ln10)
		out.CloseB = append(out.CloseB, lb/math.Ln10)
		out.CloseC = append(out.CloseC, nanIfInf(lc/math.Ln10))
		for ; t < tg && !out.ExactDiverged; t++ {
			if t%4096 == 0 && ctx.Err() != nil {
				return out, fmt.Errorf("experiments: lifted panels stopped at step %d: %w", t, ctx.Err())
			}
			if _, err := pgd.Step(coef); err != nil {
				out.ExactDiverged = true
			}
		}
		if out.ExactDiverged {
			nan := math.NaN()
			out.ExactHL, out.ExactA, out.ExactB, out.ExactC = append(out.ExactHL, nan), append(out.ExactA, nan), append(out.ExactB, nan), append(out.ExactC, nan)
			continue
		}
		he, err := ls.Objective(coef)
		if err != nil {
			he = math.NaN()
		}
		if err := ls.TermNorms(norms, coef); err != nil {
			return out, err
		}
		out.ExactHL = append(out.ExactHL, log10Pos(he))
		out.ExactA = append(out.ExactA, log10Pos(norms[0]))
		out.ExactB = append(out.ExactB, log10Pos(norms[1]))
		out.ExactC = append(out.ExactC, log10Pos(norms[2]))
	}
	return out, nil
}

func nanIfInf(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

func log10Pos(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return math.NaN()
	}
	return math.Log10(v)
}
