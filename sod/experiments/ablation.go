package experiments

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/paper"
)

// AblationConfig configures the ablation table of the paper's appendix
// (Table "ablation": real-world case, ρ = η = 0.1, l ∈ {3, 5, 7},
// t ∈ {1000, 5000, 33500, 10⁵, 5·10⁵, 2·10⁶}; the printed values are
// paper.Ablation), for any grid of l and t.
type AblationConfig struct {
	Problem  *sod.Problem // default sod.RealWorldProblem() (with XHat: set both or neither)
	XHat     *mat.Dense   // spurious point X̂ (default sod.RealWorldXHat(), as printed: REPRODUCTION.md C9)
	Ls       []int        // odd lifting orders ≥ 3
	Ts       []int64      // TPGD step counts
	Rho, Eta float64      // ρ, η ∈ (0, 1)
	GDStep   float64      // step of the GD run from X̌ that gives the "X_final" column (0.1)
	GDIter   int          // its length (5000)
	// Critical chooses the sign convention of u_n and (v_r, q_r); the
	// default reproduces the paper's X_final column (REPRODUCTION.md C3).
	Critical sod.CriticalOptions
}

// DefaultAblationConfig returns the paper's table settings (REPRODUCTION.md
// C9): the grid of l and t and ρ, η of paper.Ablation; GD from each escape
// point with the real-world case's step (paper.RealWorldSettings) for 5000
// steps.
func DefaultAblationConfig() AblationConfig {
	return AblationConfig{
		Problem: sod.RealWorldProblem(), XHat: sod.RealWorldXHat(),
		Ls: paper.AblationOrders(), Ts: paper.AblationSteps(),
		Rho: paper.AblationRho, Eta: paper.AblationEta, GDStep: paper.RealWorldSettings().Step, GDIter: 5000,
	}
}

// Validate checks the configuration: Problem and XHat set together (or
// neither, for the paper's real-world case) and compatible, at least one l
// and one t, every l, ρ and η valid for the closed form
// (sod.CheckTPGDParams), every t ≥ 0, a finite GD step > 0 and GDIter ≥ 0.
// Errors wrap ErrBadExperiment (sod.ErrShape for a mis-shaped X̂) and
// name the value.
func (c AblationConfig) Validate() error {
	if _, _, err := c.problem(); err != nil {
		return err
	}
	if len(c.Ls) == 0 || len(c.Ts) == 0 {
		return fmt.Errorf("%w: ablation needs l and t values, got %d and %d", ErrBadExperiment, len(c.Ls), len(c.Ts))
	}
	for _, l := range c.Ls {
		if err := sod.CheckTPGDParams(l, c.Rho, c.Eta); err != nil {
			return err
		}
	}
	for _, t := range c.Ts {
		if t < 0 {
			return fmt.Errorf("%w: ablation step count t = %d, want ≥ 0", ErrBadExperiment, t)
		}
	}
	if !(c.GDStep > 0) || math.IsInf(c.GDStep, 0) || c.GDIter < 0 {
		return fmt.Errorf("%w: ablation GD step %v (want finite > 0), iterations %d (want ≥ 0)", ErrBadExperiment, c.GDStep, c.GDIter)
	}
	return nil
}

// AblationCell is one (l, t) cell: the paper's columns (which interval t is
// in, X̌ defined?, ‖X̂X̂ᵀ−X̌X̌ᵀ‖_F, ‖X̌X̌ᵀ−M*‖_F, their ratio, where GD from
// X̌ ends) plus the descent check h(X̌) < h(X̂) that the paper leaves out.
type AblationCell struct {
	T       int64          `json:"t"`
	Kind    sod.EscapeKind `json:"kind"` // sod.KindBeta, KindGamma or KindNone (the paper's ✗¹); JSON "β", "γ", "none"
	Defined bool           `json:"defined"`
	DHat    float64        `json:"d_hat"`  // ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F
	DStar   float64        `json:"d_star"` // ‖X̌X̌ᵀ − M*‖_F
	Ratio   float64        `json:"ratio"`
	HHat    float64        `json:"h_hat"`
	HCheck  float64        `json:"h_check"` // h(X̌), −1 if it overflows float64
	Descent bool           `json:"descent"` // h(X̌) < h(X̂)
	// Final is where GD from X̌ ends (GDEndNone when X̌ is undefined). It
	// is defined up to the global sign s = sign(u_n)·sign(q_r).
	Final     GDEnd     `json:"final"`
	FinalDist float64   `json:"final_dist"` // ‖XXᵀ − M*‖_F at the end of that GD (−1 if diverged)
	XCheck    []float64 `json:"x_check,omitempty"`
}

// GDEnd is where gradient descent from an escape point ends, the ablation
// table's column X_final (REPRODUCTION.md C9). Its String, and its JSON
// text, are "+", "-", "nan", "other", or "" for GDEndNone.
type GDEnd int

const (
	// GDEndNone: there is no escape point, so no GD run.
	GDEndNone GDEnd = iota
	// GDEndPlusZ: GD converged to +Z (first column of Z, within 10⁻⁶).
	GDEndPlusZ
	// GDEndMinusZ: GD converged to −Z.
	GDEndMinusZ
	// GDEndDiverged: GD diverged or overflowed.
	GDEndDiverged
	// GDEndOther: GD ended elsewhere (or the problem has no Z of rank 1).
	GDEndOther
)

var gdEndText = [...]string{GDEndNone: "", GDEndPlusZ: "+", GDEndMinusZ: "-", GDEndDiverged: "nan", GDEndOther: "other"}

// String returns "+", "-", "nan", "other", or "" for GDEndNone.
func (e GDEnd) String() string {
	if e < 0 || int(e) >= len(gdEndText) {
		return "GDEnd(" + strconv.Itoa(int(e)) + ")"
	}
	return gdEndText[e]
}

// MarshalText writes String.
func (e GDEnd) MarshalText() ([]byte, error) {
	if e < 0 || int(e) >= len(gdEndText) {
		return nil, fmt.Errorf("%w: no GDEnd %d", ErrBadExperiment, int(e))
	}
	return []byte(gdEndText[e]), nil
}

// UnmarshalText reads String's words.
func (e *GDEnd) UnmarshalText(b []byte) error {
	for i, s := range gdEndText {
		if s == string(b) {
			*e = GDEnd(i)
			return nil
		}
	}
	return fmt.Errorf("%w: GD end %q, want one of \"+\", \"-\", \"nan\", \"other\", \"\"", ErrBadExperiment, b)
}

// PaperWindow is Kind in the paper's terms (its row "U"): paper.InUBeta for
// sod.KindBeta, paper.InUGamma for sod.KindGamma, paper.NoWindow otherwise.
func (c AblationCell) PaperWindow() paper.Window {
	switch c.Kind {
	case sod.KindBeta:
		return paper.InUBeta
	case sod.KindGamma:
		return paper.InUGamma
	}
	return paper.NoWindow
}

// PaperEndpoint is Final in the paper's terms (its row X_final), and false
// for GDEndOther, which the paper has no mark for: a diverged GD is the
// paper's ✗² (paper.EndUnstable), no escape point paper.EndUndefined.
func (c AblationCell) PaperEndpoint() (paper.Endpoint, bool) {
	switch c.Final {
	case GDEndPlusZ:
		return paper.EndPlusZ, true
	case GDEndMinusZ:
		return paper.EndMinusZ, true
	case GDEndDiverged:
		return paper.EndUnstable, true
	case GDEndNone:
		return paper.EndUndefined, true
	}
	return paper.EndUndefined, false
}

// AblationOrder is one lifting order l of the ablation table: ρ_min, K_l,
// the windows U_β and U_γ, and one cell per t.
type AblationOrder struct {
	L      int              `json:"l"`
	RhoMin float64          `json:"rho_min"`
	K      float64          `json:"K_l"`
	UBeta  sod.StepInterval `json:"-"`
	UGamma sod.StepInterval `json:"-"`
	UBetaS string           `json:"u_beta"`
	UGamS  string           `json:"u_gamma"`
	Cells  []AblationCell   `json:"cells"`
}

// AblationResult is the table, with the point's quantities.
type AblationResult struct {
	HHat    float64         `json:"h_hat"`
	LambdaN float64         `json:"lambda_n"`
	SigmaR  float64         `json:"sigma_r"`
	Un      []float64       `json:"u_n"`
	Rows    []AblationOrder `json:"rows"`
	// DescentCells counts the defined cells with h(X̌) < h(X̂) (REPRODUCTION.md F8:
	// one cell of the paper's table).
	DescentCells int `json:"descent_cells"`
}

// problem returns the problem and X̂: the paper's real-world case when
// neither is given. It refuses a half-given pair: X̂ without its Problem
// (the default problem's X̂ would silently replace it) or a Problem without
// X̂.
func (c AblationConfig) problem() (*sod.Problem, *mat.Dense, error) {
	switch {
	case c.Problem == nil && c.XHat == nil:
		d := DefaultAblationConfig()
		return d.Problem, d.XHat, nil
	case c.Problem == nil:
		return nil, nil, fmt.Errorf("%w: AblationConfig has an X̂ but no Problem; set both, or neither for the paper's real-world case", ErrBadExperiment)
	case c.XHat == nil:
		return nil, nil, fmt.Errorf("%w: AblationConfig has a Problem but no X̂; set both, or neither for the paper's real-world case", ErrBadExperiment)
	}
	if err := c.Problem.Validate(); err != nil {
		return nil, nil, err
	}
	if err := c.Problem.CheckX(c.XHat); err != nil {
		return nil, nil, err
	}
	return c.Problem, c.XHat, nil
}

// RunAblation computes the ablation table: for every l the interval U_β,
// U_γ and ρ_min of the closed-form TPGD (sod.TPGDClosedForm), and for every
// t the escape point chosen by the paper's selection rule with its
// distances, the descent check and the end point of GD from it. Progress is
// reported per cell; ctx stops the run between cells and inside each GD.
func RunAblation(ctx context.Context, cfg AblationConfig, prog batch.ProgressFunc) (*AblationResult, error) {
	if err := checkContext(ctx, "RunAblation"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p, xhat, _ := cfg.problem()
	if !p.HasTruth() {
		return nil, fmt.Errorf("%w: the ablation needs a problem with its ground truth M*", ErrBadExperiment)
	}
	cp, err := sod.AnalyzeCritical(p, xhat, cfg.Critical)
	if err != nil {
		return nil, err
	}
	res := &AblationResult{HHat: cp.H, LambdaN: cp.LambdaN, SigmaR: cp.SigmaR, Un: append([]float64(nil), cp.Un.RawVector().Data...)}
	total, done := len(cfg.Ls)*len(cfg.Ts), 0
	for _, l := range cfg.Ls {
		cf, err := sod.NewTPGDFromCritical(cp, l, cfg.Rho, cfg.Eta)
		if err != nil {
			return nil, err
		}
		row := newAblationOrder(l, cf)
		for _, t := range cfg.Ts {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("experiments: ablation stopped before l=%d t=%d: %w", l, t, err)
			}
			c, err := ablationCell(ctx, p, cp, cf, t, cfg)
			if err != nil {
				return nil, fmt.Errorf("ablation l=%d t=%d: %w", l, t, err)
			}
			if c.Descent {
				res.DescentCells++
			}
			row.Cells = append(row.Cells, *c)
			done++
			prog.Report("ablation table", done, total)
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// newAblationOrder is the row of lifting order l without its cells.
func newAblationOrder(l int, cf *sod.TPGDClosedForm) AblationOrder {
	row := AblationOrder{L: l, RhoMin: cf.RhoMin(), K: cf.K(), UBeta: cf.UBeta(), UGamma: cf.UGamma()}
	row.UBetaS, row.UGamS = row.UBeta.String(), row.UGamma.String()
	return row
}

func ablationCell(ctx context.Context, p *sod.Problem, cp *sod.CriticalPoint, cf *sod.TPGDClosedForm, t int64, cfg AblationConfig) (*AblationCell, error) {
	x, kind, err := cf.EscapePoint(t, cp.Un, cp.Qr, cp.EX)
	if err != nil {
		return nil, err
	}
	c := &AblationCell{T: t, Kind: kind, HHat: cp.H, HCheck: -1, FinalDist: -1}
	if x == nil {
		return c, nil
	}
	c.Defined = true
	c.XCheck = append([]float64(nil), x.RawMatrix().Data...)
	if c.DHat, c.DStar, c.Ratio, err = sod.EscapeDistances(cp.X, x, p.MStar); err != nil {
		return nil, err
	}
	if h := p.H(x); !math.IsInf(h, 0) && !math.IsNaN(h) {
		c.HCheck = h
		c.Descent = h < cp.H
	}
	if c.Final, c.FinalDist, err = gdEndpoint(ctx, p, x, cfg.GDStep, cfg.GDIter); err != nil {
		return nil, err
	}
	return c, nil
}

// gdEndpoint runs GD from x and classifies its end point against ±Z (rank 1:
// the first column of Z; REPRODUCTION.md C9).
func gdEndpoint(ctx context.Context, p *sod.Problem, x *mat.Dense, step float64, iters int) (GDEnd, float64, error) {
	g, err := sod.GradientDescent(ctx, p, x, sod.GDOptions{Iteration: sod.Iteration{Step: step, MaxIter: iters, TraceEvery: max(iters, 1)}})
	if ctx.Err() != nil {
		return GDEndNone, -1, err
	}
	if err != nil || g.Stop == sod.StopDiverged {
		return GDEndDiverged, -1, nil
	}
	dist := p.DistStar(g.X)
	if p.Z == nil {
		return GDEndOther, dist, nil
	}
	xf := g.X.RawMatrix().Data
	z := mat.Col(nil, 0, p.Z)
	if len(xf) != len(z) {
		return GDEndOther, dist, nil
	}
	const tol = 1e-6
	if floats.Distance(xf, z, 2) < tol {
		return GDEndPlusZ, dist, nil
	}
	floats.Scale(-1, z)
	if floats.Distance(xf, z, 2) < tol {
		return GDEndMinusZ, dist, nil
	}
	return GDEndOther, dist, nil
}

// DescentScanResult is h at the β-type and γ-type points for one l over a
// grid of t, whatever the dominance intervals (REPRODUCTION.md F8: on the real-world
// case the β-type point never lowers h and the γ-type point lowers h only
// inside a window of t).
type DescentScanResult struct {
	L      int     `json:"l"`
	HHat   float64 `json:"h_hat"`
	T      Floats  `json:"t"`
	HBeta  Floats  `json:"h_beta"`  // h(c_β(t) u_n q_rᵀ); NaN where it overflows
	HGamma Floats  `json:"h_gamma"` // h(c_γ(t) E X̂); NaN where it overflows
}

// DescentScanConfig configures RunDescentScan: the instance, ρ, η and sign
// convention of an ablation configuration (its Ls, Ts and GD settings are
// not used), one lifting order L and a grid Ts of step counts.
type DescentScanConfig struct {
	Ablation AblationConfig
	L        int
	Ts       []int64
}

// DefaultDescentScanConfig scans the real-world case of the paper's
// ablation table (DefaultAblationConfig) at l = 5 over 200 log-spaced t
// from 1 to 10⁷.
func DefaultDescentScanConfig() DescentScanConfig {
	ts, _ := LogGrid(1, 10_000_000, 200)
	return DescentScanConfig{Ablation: DefaultAblationConfig(), L: 5, Ts: ts}
}

// Validate checks the instance (AblationConfig's rules for Problem and
// XHat), L, ρ and η (sod.CheckTPGDParams), a non-empty grid and every
// t ≥ 0.
func (c DescentScanConfig) Validate() error {
	if _, _, err := c.Ablation.problem(); err != nil {
		return err
	}
	if err := sod.CheckTPGDParams(c.L, c.Ablation.Rho, c.Ablation.Eta); err != nil {
		return err
	}
	if len(c.Ts) == 0 {
		return fmt.Errorf("%w: descent scan needs a t grid, got none", ErrBadExperiment)
	}
	for _, t := range c.Ts {
		if t < 0 {
			return fmt.Errorf("%w: descent scan step count t = %d, want ≥ 0", ErrBadExperiment, t)
		}
	}
	return nil
}

// RunDescentScan evaluates h at both escape points of the closed form for
// lifting order cfg.L and every t in cfg.Ts. Progress is reported every
// 1000 points; ctx stops the scan between points.
func RunDescentScan(ctx context.Context, cfg DescentScanConfig, prog batch.ProgressFunc) (*DescentScanResult, error) {
	if err := checkContext(ctx, "RunDescentScan"); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p, xhat, _ := cfg.Ablation.problem()
	cp, err := sod.AnalyzeCritical(p, xhat, cfg.Ablation.Critical)
	if err != nil {
		return nil, err
	}
	cf, err := sod.NewTPGDFromCritical(cp, cfg.L, cfg.Ablation.Rho, cfg.Ablation.Eta)
	if err != nil {
		return nil, err
	}
	n, r := p.Dims()
	res := &DescentScanResult{L: cfg.L, HHat: cp.H}
	x := mat.NewDense(n, r, nil)
	for i, t := range cfg.Ts {
		if i%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("experiments: descent scan stopped at t=%d: %w", t, err)
			}
			prog.Report("descent scan", i, len(cfg.Ts))
		}
		hb, hg := math.NaN(), math.NaN()
		if s, err := cf.BetaScale(t); err == nil {
			x.Outer(s, cp.Un, cp.Qr)
			hb = p.H(x)
		}
		if s, err := cf.GammaScale(t); err == nil {
			x.Scale(s, cp.EX)
			hg = p.H(x)
		}
		res.T = append(res.T, float64(t))
		res.HBeta = append(res.HBeta, hb)
		res.HGamma = append(res.HGamma, hg)
	}
	prog.Report("descent scan", len(cfg.Ts), len(cfg.Ts))
	return res, nil
}

// MaxGridPoints bounds the k of LogGrid.
const MaxGridPoints = 1_000_000

// LogGrid returns k integer step counts log-spaced from lo to hi, without
// repeats (so possibly fewer than k when hi − lo < k). It needs
// 1 ≤ lo ≤ hi and k in [1, MaxGridPoints] (k = 1 gives [lo]); otherwise the
// error wraps ErrBadExperiment and names the values.
func LogGrid(lo, hi int64, k int) ([]int64, error) {
	if lo < 1 || hi < lo {
		return nil, fmt.Errorf("%w: LogGrid needs 1 ≤ lo ≤ hi, got lo = %d, hi = %d", ErrBadExperiment, lo, hi)
	}
	if k < 1 || k > MaxGridPoints {
		return nil, fmt.Errorf("%w: LogGrid needs k in [1, %d] points, got %d", ErrBadExperiment, MaxGridPoints, k)
	}
	var out []int64
	for i := 0; i < k; i++ {
		f := float64(i) / float64(max(k-1, 1))
		v := math.Round(math.Exp(math.Log(float64(lo)) + f*(math.Log(float64(hi))-math.Log(float64(lo)))))
		// Clamp into [lo, hi]: float64 rounding near 2⁶³ must not wrap.
		t := hi
		if v < float64(hi) {
			t = max(int64(v), lo)
		}
		if i == k-1 && k > 1 {
			t = hi
		}
		if len(out) == 0 || t > out[len(out)-1] {
			out = append(out, t)
		}
	}
	return out, nil
}
