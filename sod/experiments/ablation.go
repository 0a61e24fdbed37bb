package experiments

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// AblationConfig configures the ablation table of the paper's appendix
// (table "ablation": real-world case, ρ = η = 0.1, l ∈ {3, 5, 7},
// t ∈ {1000, 5000, 33500, 10⁵, 5·10⁵, 2·10⁶}), for any grid of l and t.
type AblationConfig struct {
	Problem  *sod.Problem // default sod.RealWorld() (with XHat: set both or neither)
	XHat     *mat.Dense   // spurious point X̂ (default sod.RealWorldXHat(), as printed: REPRODUCTION.md C9)
	Ls       []int        // odd lifting orders ≥ 3
	Ts       []int64      // TPGD step counts
	Rho, Eta float64      // ρ, η ∈ (0, 1)
	GDStep   float64      // step of the GD run from X̌ that gives the "X_final" column (0.1)
	GDIter   int          // its length (5000)
	// Critical chooses the sign convention of u_n and (v_r, q_r); the
	// default reproduces the paper's X_final column (REPRODUCTION.md C3).
	Critical sod.CriticalOptions
	// Context, if not nil, stops the run early with an error wrapping its
	// error: it is passed to every gradient descent (sod.GDOptions.Context).
	Context context.Context `json:"-"`
}

// DefaultAblationConfig returns the paper's table settings (REPRODUCTION.md C9).
func DefaultAblationConfig() AblationConfig {
	return AblationConfig{
		Problem: sod.RealWorld(), XHat: sod.RealWorldXHat(),
		Ls: []int{3, 5, 7}, Ts: []int64{1000, 5000, 33500, 100000, 500000, 2000000},
		Rho: 0.1, Eta: 0.1, GDStep: 0.1, GDIter: 5000,
	}
}

// AblationCell is one (l, t) cell: the paper's columns (which interval t is
// in, X̌ defined?, ‖X̂X̂ᵀ−X̌X̌ᵀ‖_F, ‖X̌X̌ᵀ−M*‖_F, their ratio, where GD from
// X̌ ends) plus the descent check h(X̌) < h(X̂) that the paper leaves out.
type AblationCell struct {
	T       int64   `json:"t"`
	Kind    string  `json:"kind"` // "β", "γ" or "none" (the paper's ✗¹)
	Defined bool    `json:"defined"`
	DHat    float64 `json:"d_hat"`  // ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F
	DStar   float64 `json:"d_star"` // ‖X̌X̌ᵀ − M*‖_F
	Ratio   float64 `json:"ratio"`
	HHat    float64 `json:"h_hat"`
	HCheck  float64 `json:"h_check"` // h(X̌), −1 if it overflows float64
	Descent bool    `json:"descent"` // h(X̌) < h(X̂)
	// Final is where GD from X̌ ends: "+" (→ +Z), "-" (→ −Z), "nan"
	// (diverged or overflowed), "other"; "" when X̌ is undefined. It is
	// defined up to the global sign s = sign(u_n)·sign(q_r).
	Final     string    `json:"final"`
	FinalDist float64   `json:"final_dist"` // ‖XXᵀ − M*‖_F at the end of that GD (−1 if diverged)
	XCheck    []float64 `json:"x_check,omitempty"`
}

// AblationRow is one lifting order l with its intervals.
type AblationRow struct {
	L      int            `json:"l"`
	RhoMin float64        `json:"rho_min"`
	K      float64        `json:"K_l"`
	UBeta  sod.Interval   `json:"-"`
	UGamma sod.Interval   `json:"-"`
	UBetaS string         `json:"u_beta"`
	UGamS  string         `json:"u_gamma"`
	Cells  []AblationCell `json:"cells"`
}

// AblationResult is the table, with the point's quantities.
type AblationResult struct {
	HHat    float64       `json:"h_hat"`
	LambdaN float64       `json:"lambda_n"`
	SigmaR  float64       `json:"sigma_r"`
	Un      []float64     `json:"u_n"`
	Rows    []AblationRow `json:"rows"`
	// DescentCells counts the defined cells with h(X̌) < h(X̂) (REPRODUCTION.md F8:
	// one cell of the paper's table).
	DescentCells int `json:"descent_cells"`
}

// resolve fills in the default problem and X̂ when neither is given and
// refuses a half-given pair: X̂ without its Problem (the default problem's
// X̂ would silently replace it) or a Problem without X̂.
func (cfg *AblationConfig) resolve() error {
	switch {
	case cfg.Problem == nil && cfg.XHat == nil:
		d := DefaultAblationConfig()
		cfg.Problem, cfg.XHat = d.Problem, d.XHat
	case cfg.Problem == nil:
		return fmt.Errorf("%w: AblationConfig has an X̂ but no Problem; set both, or neither for the paper's real-world case", sod.ErrBadParameter)
	case cfg.XHat == nil:
		return fmt.Errorf("%w: AblationConfig has a Problem but no X̂; set both, or neither for the paper's real-world case", sod.ErrBadParameter)
	}
	return cfg.Problem.CheckX(cfg.XHat)
}

// Ablation computes the ablation table: for every l the interval U_β, U_γ
// and ρ_min of the closed-form TPGD (sod.TPGDClosedForm), and for every t the
// escape point chosen by the paper's selection rule with its distances, the
// descent check and the end point of GD from it. Progress is reported per
// cell.
func Ablation(cfg AblationConfig, prog ProgressFunc) (*AblationResult, error) {
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	if len(cfg.Ls) == 0 || len(cfg.Ts) == 0 {
		return nil, fmt.Errorf("%w: ablation needs l and t values, got %d and %d", sod.ErrBadParameter, len(cfg.Ls), len(cfg.Ts))
	}
	for _, t := range cfg.Ts {
		if t < 0 {
			return nil, fmt.Errorf("%w: ablation step count t = %d, want ≥ 0", sod.ErrBadParameter, t)
		}
	}
	if !(cfg.GDStep > 0) || math.IsInf(cfg.GDStep, 0) || cfg.GDIter < 0 {
		return nil, fmt.Errorf("%w: ablation GD step %v (want finite > 0), iterations %d (want ≥ 0)", sod.ErrBadParameter, cfg.GDStep, cfg.GDIter)
	}
	p := cfg.Problem
	if !p.HasTruth() {
		return nil, fmt.Errorf("ablation: %w", sod.ErrNoGroundTruth)
	}
	cp, err := sod.AnalyzeCritical(p, cfg.XHat, cfg.Critical)
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
		row := AblationRow{L: l, RhoMin: cf.RhoMin(), K: cf.K(), UBeta: cf.UBeta(), UGamma: cf.UGamma()}
		row.UBetaS, row.UGamS = row.UBeta.String(), row.UGamma.String()
		for _, t := range cfg.Ts {
			if cfg.Context != nil && cfg.Context.Err() != nil {
				return nil, fmt.Errorf("experiments: ablation stopped before l=%d t=%d: %w", l, t, cfg.Context.Err())
			}
			c, err := ablationCell(p, cp, cf, t, cfg)
			if err != nil {
				return nil, fmt.Errorf("ablation l=%d t=%d: %w", l, t, err)
			}
			if c.Descent {
				res.DescentCells++
			}
			row.Cells = append(row.Cells, *c)
			done++
			prog.report("ablation table", done, total)
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

func ablationCell(p *sod.Problem, cp *sod.CriticalPoint, cf *sod.TPGDClosedForm, t int64, cfg AblationConfig) (*AblationCell, error) {
	x, kind, err := cf.EscapePoint(t, cp.Un, cp.Qr, cp.EX)
	if err != nil {
		return nil, err
	}
	c := &AblationCell{T: t, Kind: kind.String(), HHat: cp.H, HCheck: -1, FinalDist: -1}
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
	if c.Final, c.FinalDist, err = gdEndpoint(cfg.Context, p, x, cfg.GDStep, cfg.GDIter); err != nil {
		return nil, err
	}
	return c, nil
}

// gdEndpoint runs GD from x and classifies its end point against ±Z (rank 1:
// the first column of Z; REPRODUCTION.md C9: "+", "−", "nan", "other").
func gdEndpoint(ctx context.Context, p *sod.Problem, x *mat.Dense, step float64, iters int) (string, float64, error) {
	g, err := sod.GradientDescent(p, x, sod.GDOptions{Step: step, MaxIter: iters, TraceEvery: max(iters, 1), Context: ctx})
	if ctx != nil && ctx.Err() != nil {
		return "", -1, err
	}
	if err != nil || g.Diverged {
		return "nan", -1, nil
	}
	dist := p.DistStar(g.X)
	if p.Z == nil {
		return "other", dist, nil
	}
	xf := g.X.RawMatrix().Data
	z := mat.Col(nil, 0, p.Z)
	if len(xf) != len(z) {
		return "other", dist, nil
	}
	const tol = 1e-6
	if floats.Distance(xf, z, 2) < tol {
		return "+", dist, nil
	}
	floats.Scale(-1, z)
	if floats.Distance(xf, z, 2) < tol {
		return "-", dist, nil
	}
	return "other", dist, nil
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

// DescentScan evaluates h at both escape points of the closed form for
// lifting order l and every t in ts (cfg supplies the problem, X̂, ρ, η
// and the sign convention).
func DescentScan(cfg AblationConfig, l int, ts []int64) (*DescentScanResult, error) {
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%w: descent scan needs a t grid, got none", sod.ErrBadParameter)
	}
	p := cfg.Problem
	cp, err := sod.AnalyzeCritical(p, cfg.XHat, cfg.Critical)
	if err != nil {
		return nil, err
	}
	cf, err := sod.NewTPGDFromCritical(cp, l, cfg.Rho, cfg.Eta)
	if err != nil {
		return nil, err
	}
	n, r := p.Dims()
	res := &DescentScanResult{L: l, HHat: cp.H}
	x := mat.NewDense(n, r, nil)
	for _, t := range ts {
		if t < 0 {
			return nil, fmt.Errorf("%w: t = %d < 0", sod.ErrBadParameter, t)
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
	return res, nil
}

// MaxGridPoints bounds the k of LogGrid.
const MaxGridPoints = 1_000_000

// LogGrid returns k integer step counts log-spaced from lo to hi, without
// repeats (so possibly fewer than k when hi − lo < k). It needs
// 1 ≤ lo ≤ hi and k in [1, MaxGridPoints] (k = 1 gives [lo]); otherwise the
// error wraps sod.ErrBadParameter and names the values.
func LogGrid(lo, hi int64, k int) ([]int64, error) {
	if lo < 1 || hi < lo {
		return nil, fmt.Errorf("%w: LogGrid needs 1 ≤ lo ≤ hi, got lo = %d, hi = %d", sod.ErrBadParameter, lo, hi)
	}
	if k < 1 || k > MaxGridPoints {
		return nil, fmt.Errorf("%w: LogGrid needs k in [1, %d] points, got %d", sod.ErrBadParameter, MaxGridPoints, k)
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
