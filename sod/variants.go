package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Built-in escape variants for RunEscape. Each one is an Escaper; the
// seeded ones keep their random stream across rounds and are therefore not
// safe for concurrent use (create one per goroutine).

// NewTPGDFromCritical returns the paper's closed-form TPGD dynamics at the
// analysed point cp (λ_n, σ_r, ‖X̂‖_F, ‖E X̂‖_F).
func NewTPGDFromCritical(cp *CriticalPoint, l int, rho, eta float64) (*TPGDClosedForm, error) {
	if err := checkCritical("NewTPGDFromCritical", cp); err != nil {
		return nil, err
	}
	return NewTPGDClosedForm(TPGDInputs{LambdaN: cp.LambdaN, SigmaR: cp.SigmaR,
		NormX: mat.Norm(cp.X, 2), NormEX: cp.EXNorm}, l, rho, eta)
}

// EscapePointAt returns the escape point of the closed form at t for the
// analysed point cp (see TPGDClosedForm.EscapePoint).
func (c *TPGDClosedForm) EscapePointAt(cp *CriticalPoint, t int64) (*mat.Dense, EscapeKind, error) {
	if err := checkCritical("EscapePointAt", cp); err != nil {
		return nil, KindNone, err
	}
	return c.EscapePoint(t, cp.Un, cp.Qr, cp.EX)
}

// forcedEscapePoint returns the β- or γ-type point at t regardless of U_β, U_γ.
func forcedEscapePoint(cf *TPGDClosedForm, cp *CriticalPoint, t int64, kind EscapeKind) (*mat.Dense, error) {
	n, r := cp.X.Dims()
	x := mat.NewDense(n, r, nil)
	switch kind {
	case KindBeta:
		s, err := cf.BetaScale(t)
		if err != nil {
			return nil, err
		}
		x.Outer(s, cp.Un, cp.Qr)
	case KindGamma:
		s, err := cf.GammaScale(t)
		if err != nil {
			return nil, err
		}
		x.Scale(s, cp.EX)
	default:
		return nil, fmt.Errorf("%w: escape kind %v", ErrBadParameter, kind)
	}
	return x, nil
}

// MultiStepInfo is the Candidate.Data of the multi-step variants.
type MultiStepInfo struct {
	ClosedForm *TPGDClosedForm
	Critical   *CriticalPoint
	T          int64
	Kind       EscapeKind
	// InInterval reports whether T lies in U_β (β-type) or U_γ (γ-type),
	// i.e. whether the paper's selection rule would pick this point.
	InInterval bool
}

// MultiStepSOD is the paper's multi-step SOD escape at a given (l, t)
// (section 5, Theorem "Multi-step SOD Escape, formal"): the β-type point
// c_β u_n q_rᵀ if t ∈ U_β, else the γ-type point c_γ E X̂ if t ∈ U_γ, else
// no candidate. Force overrides the selection rule.
type MultiStepSOD struct {
	L        int
	T        int64
	Rho, Eta float64
	// Force, if KindBeta or KindGamma, proposes that point whatever t's
	// interval; KindNone applies the paper's selection rule.
	Force EscapeKind
	// BothSigns also proposes −X̌. The sign of u_n (and of q_r) is
	// arbitrary, and the escape point depends on s = sign(u_n)·sign(q_r)
	// (REPRODUCTION.md C3); with BothSigns the result does not depend on
	// the sign convention.
	BothSigns bool
}

// Name implements Escaper.
func (m *MultiStepSOD) Name() string {
	return fmt.Sprintf("multi-step SOD (l=%d, t=%d, ρ=%g, η=%g)", m.L, m.T, m.Rho, m.Eta)
}

// Propose implements Escaper.
func (m *MultiStepSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	if !(cp.LambdaN < 0) {
		return nil, nil // no negative curvature: nothing to simulate
	}
	cf, err := NewTPGDFromCritical(cp, m.L, m.Rho, m.Eta)
	if err != nil {
		return nil, err
	}
	kind := cf.Select(m.T)
	in := kind != KindNone
	if m.Force != KindNone {
		in = kind == m.Force
		kind = m.Force
	}
	if kind == KindNone {
		return nil, nil
	}
	x, err := forcedEscapePoint(cf, cp, m.T, kind)
	if errors.Is(err, ErrScaleOverflow) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	info := &MultiStepInfo{ClosedForm: cf, Critical: cp, T: m.T, Kind: kind, InInterval: in}
	out := []Candidate{{X: x, Label: fmt.Sprintf("%v-type l=%d t=%d", kind, m.L, m.T), Data: info}}
	if m.BothSigns {
		var nx mat.Dense
		nx.Scale(-1, x)
		out = append(out, Candidate{X: &nx, Label: fmt.Sprintf("−%v-type l=%d t=%d", kind, m.L, m.T), Data: info})
	}
	return out, nil
}

// SODLineSearch is SOD used as a deterministic line search over the β and
// γ directions (paper section 6.3): the candidate points c_β(t) u_n q_rᵀ and
// c_γ(t) E X̂ for every t of a grid, whatever the dominance intervals. The
// driver then keeps the one with the lowest h. With BothSigns the mirrored
// points −X̌ are proposed too (the sign of u_n q_rᵀ is arbitrary).
type SODLineSearch struct {
	L        int
	Rho, Eta float64
	// Ts is the grid of simulated step counts; nil means 10^0 … 10^8 with
	// four points per decade.
	Ts []int64
	// Kinds are the directions searched; nil means both β and γ.
	Kinds     []EscapeKind
	BothSigns bool
	// GrowthQ, if > 0 (it must then exceed 1), lowers η at each stalled
	// point to η = min(Eta, (GrowthQ − 1)/(−λ_n)^l), so that the closed
	// form's growth factor Q = 1 − ηλ_n^l is at most GrowthQ. The β
	// coefficient c_β(t) = (ρQ^t)^{1/l} (eq. x_check_beta) then grows by at
	// most GrowthQ^{1/l} from one t to the next, and the t grid is a line
	// search with that resolution. With a fixed η and a strongly negative
	// λ_n, Q = 1 + η(−λ_n)^l is huge (≈ 4000 for η = 0.1, λ_n = −34,
	// l = 3: the quadratic network's spurious minimum) and already t = 1
	// overshoots every useful scale. The paper fixes no η for its line
	// search (section 6.3); this is the workbench's rule, like
	// experiments.AutoT for t.
	GrowthQ float64
}

// Name implements Escaper.
func (s *SODLineSearch) Name() string {
	return fmt.Sprintf("SOD line search (l=%d, ρ=%g, η=%g)", s.L, s.Rho, s.Eta)
}

// defaultStepGrid returns 10^0 … 10^8 with four points per decade.
func defaultStepGrid() []int64 {
	var ts []int64
	last := int64(-1)
	for k := 0; k <= 32; k++ {
		t := int64(math.Round(math.Pow(10, float64(k)/4)))
		if t != last {
			ts = append(ts, t)
			last = t
		}
	}
	return ts
}

// Propose implements Escaper.
func (s *SODLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	if !(cp.LambdaN < 0) {
		return nil, nil
	}
	eta := s.Eta
	if s.GrowthQ > 0 {
		// (Q − 1)/(−λ_n)^l in the log domain; it only ever lowers η.
		if e := math.Exp(math.Log(s.GrowthQ-1) - float64(s.L)*math.Log(-cp.LambdaN)); e > 0 && e < eta {
			eta = e
		}
	}
	cf, err := NewTPGDFromCritical(cp, s.L, s.Rho, eta)
	if err != nil {
		return nil, err
	}
	ts := s.Ts
	if ts == nil {
		ts = defaultStepGrid()
	}
	kinds := s.Kinds
	if kinds == nil {
		kinds = []EscapeKind{KindBeta, KindGamma}
	}
	var out []Candidate
	for _, kind := range kinds {
		for _, t := range ts {
			if t < 0 {
				return nil, errNegativeT(t)
			}
			x, err := forcedEscapePoint(cf, cp, t, kind)
			if errors.Is(err, ErrScaleOverflow) {
				continue
			} else if err != nil {
				return nil, err
			}
			if mat.Norm(x, 2) == 0 {
				continue
			}
			sel := cf.Select(t)
			info := &MultiStepInfo{ClosedForm: cf, Critical: cp, T: t, Kind: kind, InInterval: sel == kind}
			out = append(out, Candidate{X: x, Label: fmt.Sprintf("%v t=%d", kind, t), Data: info})
			if s.BothSigns {
				var nx mat.Dense
				nx.Scale(-1, x)
				out = append(out, Candidate{X: &nx, Label: fmt.Sprintf("−%v t=%d", kind, t), Data: info})
			}
		}
	}
	return out, nil
}

// defaultAlphas returns 16 log-spaced step lengths from 1e-2 to 1e1.
func defaultAlphas() []float64 {
	a := make([]float64, 16)
	for i := range a {
		a[i] = math.Pow(10, -2+3*float64(i)/15)
	}
	return a
}

// PerturbedGD is the perturbation step of perturbed gradient descent (Jin,
// Ge, Netrapalli, Kakade, Jordan 2017): X̂ + ξ with ξ uniform in the
// Frobenius ball of radius Radius. Each candidate carries Probe = TThres, so
// the driver judges it by h after TThres GD steps, as the algorithm does
// (it keeps the perturbation only if GD then decreases h).
type PerturbedGD struct {
	Radius  float64
	TThres  int
	Samples int // perturbations per round (default 1)
	Seed    uint64

	rng *rand.Rand
}

// Name implements Escaper.
func (g *PerturbedGD) Name() string {
	return fmt.Sprintf("perturbed GD (r=%g, t_thres=%d, seed=%d)", g.Radius, g.TThres, g.Seed)
}

// Propose implements Escaper.
func (g *PerturbedGD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	if g.rng == nil {
		g.rng = rand.New(rand.NewPCG(g.Seed, 0x9e3779b97f4a7c15))
	}
	k := g.Samples
	if k == 0 {
		k = 1
	}
	n, r := st.X.Dims()
	var out []Candidate
	for s := 0; s < k; s++ {
		xi := gaussianMatrix(g.rng, n, r)
		// Uniform in the ball: radius·U^{1/d} along a uniform direction.
		rad := g.Radius * math.Pow(g.rng.Float64(), 1/float64(n*r))
		xi.Scale(rad/mat.Norm(xi, 2), xi)
		xi.Add(xi, st.X)
		out = append(out, Candidate{X: xi, Label: fmt.Sprintf("perturbation %d", s), Probe: g.TThres})
	}
	return out, nil
}

func gaussianMatrix(rng *rand.Rand, n, r int) *mat.Dense {
	d := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < r; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

// RandomLineSearch proposes X̂ + α D along Directions random unit (Frobenius)
// directions D, for α in Alphas·max(‖X̂‖_F, 1) (default 16 log-spaced values
// from 0.01 to 10). It is the random line search of paper section 6.3.
type RandomLineSearch struct {
	Directions int // default 1
	Alphas     []float64
	Seed       uint64

	rng *rand.Rand
}

// Name implements Escaper.
func (s *RandomLineSearch) Name() string { return fmt.Sprintf("random line search (seed=%d)", s.Seed) }

// Propose implements Escaper.
func (s *RandomLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	if s.rng == nil {
		s.rng = rand.New(rand.NewPCG(s.Seed, 0xda3e39cb94b95bdb))
	}
	k := s.Directions
	if k == 0 {
		k = 1
	}
	n, r := st.X.Dims()
	var out []Candidate
	for d := 0; d < k; d++ {
		dir := gaussianMatrix(s.rng, n, r)
		dir.Scale(1/mat.Norm(dir, 2), dir)
		out = append(out, lineCandidates(st.X, dir, s.Alphas, fmt.Sprintf("random dir %d", d))...)
	}
	return out, nil
}

// lineCandidates returns X + α·scale·dir for the α grid, scale = max(‖X‖_F, 1).
func lineCandidates(x, dir *mat.Dense, alphas []float64, label string) []Candidate {
	if alphas == nil {
		alphas = defaultAlphas()
	}
	scale := math.Max(mat.Norm(x, 2), 1)
	out := make([]Candidate, 0, len(alphas))
	for _, a := range alphas {
		var c mat.Dense
		c.Scale(a*scale, dir)
		c.Add(&c, x)
		out = append(out, Candidate{X: &c, Label: fmt.Sprintf("%s α=%.3g", label, a)})
	}
	return out
}

// NegGradLineSearch proposes X̂ − α ∇h(X̂)/‖∇h(X̂)‖_F for α in
// Alphas·max(‖X̂‖_F, 1) (default as RandomLineSearch): the negative-gradient
// line search of paper section 6.3. At an exact critical point (∇h = 0) it
// proposes nothing.
type NegGradLineSearch struct {
	Alphas []float64
}

// Name implements Escaper.
func (s *NegGradLineSearch) Name() string { return "negative-gradient line search" }

// Propose implements Escaper.
func (s *NegGradLineSearch) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	n, r := st.X.Dims()
	g := mat.NewDense(n, r, nil)
	st.P.Grad(g, st.X)
	gn := mat.Norm(g, 2)
	if gn == 0 || !isFinite(gn) {
		return nil, nil
	}
	g.Scale(-1/gn, g)
	return lineCandidates(st.X, g, s.Alphas, "−∇h"), nil
}

// ExactSubspaceSOD is the workbench's counterpart of MultiStepSOD built on
// the exact dynamics instead of the paper's closed form (REPRODUCTION.md
// F10): it runs SubspacePGD for T steps with step η inside
// S = span{a, b, c} from w_escape = a + ρ b, and proposes the matrix points
// of the b- and c-terms of w(T) = α a + β b + γ c, i.e. the real l-th root
// of the coefficient times its direction: β^{1/l} u_n q_rᵀ and γ^{1/l} E X̂
// (l is odd, so negative coefficients have real roots). The a-term's point
// α^{1/l} X̂ stays on the ray of X̂ and is not proposed. This is not the
// paper's method; it shows what the simulated tensor dynamics produce when
// they are not truncated. On the real-world case with l = 3, 5 the exact
// dynamics return to ŵ (a lifted local minimum) and nothing lowers h.
//
// T must lie in [0, MaxSubspaceSteps]; the run honours the escape loop's
// context (the ctx given to Propose).
type ExactSubspaceSOD struct {
	L        int
	T        int
	Rho, Eta float64
	// BothSigns also proposes the mirrored points (see MultiStepSOD).
	BothSigns bool
}

// ExactSubspaceInfo is the Candidate.Data of ExactSubspaceSOD.
type ExactSubspaceInfo struct {
	Critical *CriticalPoint
	Trace    *SubspaceTrace // first and last step only
	Term     int            // 1: b, 2: c
}

// Name implements Escaper.
func (e *ExactSubspaceSOD) Name() string {
	return fmt.Sprintf("exact subspace SOD (l=%d, t=%d, ρ=%g, η=%g)", e.L, e.T, e.Rho, e.Eta)
}

// Propose implements Escaper.
func (e *ExactSubspaceSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	if !(cp.LambdaN < 0) || cp.EXNorm == 0 {
		return nil, nil
	}
	s, err := NewPaperSubspace(st.P, cp, e.L)
	if err != nil {
		return nil, err
	}
	pgd, err := NewSubspacePGD(s, e.Eta)
	if err != nil {
		return nil, err
	}
	tr, err := pgd.Run(ctx, []float64{1, e.Rho, 0}, e.T, max(e.T, 1))
	if err != nil {
		return nil, err
	}
	last := tr.Coef[len(tr.Coef)-1]
	n, r := cp.X.Dims()
	bdir := mat.NewDense(n, r, nil)
	bdir.Outer(1, cp.Un, cp.Qr)
	dirs := []mat.Matrix{cp.X, bdir, cp.EX}
	names := []string{"a", "b", "c"}
	var out []Candidate
	for j, c := range last {
		if j == 0 || c == 0 {
			continue
		}
		root := math.Copysign(math.Pow(math.Abs(c), 1/float64(e.L)), c)
		var x mat.Dense
		x.Scale(root, dirs[j])
		info := &ExactSubspaceInfo{Critical: cp, Trace: tr, Term: j}
		out = append(out, Candidate{X: &x, Label: fmt.Sprintf("exact %s-term t=%d", names[j], tr.T[len(tr.T)-1]), Data: info})
		if e.BothSigns {
			var nx mat.Dense
			nx.Scale(-1, &x)
			out = append(out, Candidate{X: &nx, Label: fmt.Sprintf("−exact %s-term t=%d", names[j], tr.T[len(tr.T)-1]), Data: info})
		}
	}
	return out, nil
}

// SingleStepSOD is the single-step SOD escape of the paper's section 4
// (Theorem single-step-sod-formal) as an Escaper: it runs SingleStep and
// proposes X̌ = X̂ + ρ̂ u_n q_rᵀ when EFS > 1. At a point that is not a
// spurious minimum (ErrNotSpuriousMinimum) it proposes nothing.
type SingleStepSOD struct {
	// Options are passed to SingleStep (Delta is required: the paper does
	// not say which RIP constant to use).
	Options SingleStepOptions
	// ExactLine also proposes X̂ + ρ u_n q_rᵀ at the exact minimiser of h
	// along that line when it lowers h. This is not the paper's method; it
	// shows whether the line holds a descent point at all.
	ExactLine bool
}

// Name implements Escaper.
func (s *SingleStepSOD) Name() string {
	return fmt.Sprintf("single-step SOD (δ=%g)", s.Options.Delta)
}

// Propose implements Escaper.
func (s *SingleStepSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	res, err := SingleStep(st.P, st.X, s.Options)
	if errors.Is(err, ErrNotSpuriousMinimum) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Candidate
	if res.Candidate != nil {
		out = append(out, Candidate{X: res.Candidate, Label: fmt.Sprintf("single-step ρ̂=%.4g (EFS=%.3g)", res.Rho, res.EFS), Data: res})
	}
	if s.ExactLine && res.ExactCandidate != nil {
		out = append(out, Candidate{X: res.ExactCandidate, Label: fmt.Sprintf("exact line ρ=%.4g (not the paper's)", res.Exact.BestRho), Data: res})
	}
	return out, nil
}
