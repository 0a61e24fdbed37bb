package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SubspacePGD is the exact projected gradient descent of the paper's
// Algorithm TPGD *without* the truncation step: inside
// S = span{vec(Y_j)^{⊗l}} the iterate stays in S, so it is run on the
// coefficients alone,
//
//	c ← c − η Gram⁺ [⟨∇h^l(w), vec(Y_k)^{⊗l}⟩]_k,
//
// with m-vectors only (REPRODUCTION.md C7). With the directions
// a = vec(X̂)^{⊗l}, b = vec(u_n q_rᵀ)^{⊗l}, c = vec(E X̂)^{⊗l} and the start
// w_escape = a + ρ b (eq. w_escape) this is the dynamics the paper's panels
// (d) and (e) describe. It does *not* coincide with the paper's closed form
// (TPGDClosedForm): the paper's lemma drops a factor 4 in the gradient,
// replaces 𝒜(X̂X̂ᵀ)^{⊗l} − b^{⊗l} by (𝒜(X̂X̂ᵀ) − b)^{⊗l} and ignores the
// Gram coupling of a, b, c (REPRODUCTION.md F10).
//
// Gram⁺ is the pseudo-inverse (eigenvalues below 1e-12·λ_max dropped), so
// linearly dependent directions (c ∥ b in the basic example) are allowed:
// the iterate tensor is then still the exact projection, and the
// coefficients are the minimum-norm ones.
type SubspacePGD struct {
	S   *LiftedSubspace
	Eta float64

	pinv *mat.Dense // Gram⁺ of the normalised directions
	rank int
	hat  []float64
	g    []float64
	upd  []float64
}

// NewSubspacePGD prepares exact PGD with step η > 0 on the subspace s.
func NewSubspacePGD(s *LiftedSubspace, eta float64) (*SubspacePGD, error) {
	if s == nil || s.gram == nil {
		return nil, fmt.Errorf("%w: nil LiftedSubspace, or one not built by NewLiftedSubspace", ErrBadParameter)
	}
	if !(eta > 0) || math.IsInf(eta, 0) {
		return nil, fmt.Errorf("%w: PGD step η must be > 0 and finite, got %v", ErrBadParameter, eta)
	}
	pinv, rank, err := pinvSym(s.gram, 1e-12)
	if err != nil {
		return nil, err
	}
	return &SubspacePGD{S: s, Eta: eta, pinv: pinv, rank: rank,
		hat: make([]float64, s.k), g: make([]float64, s.k), upd: make([]float64, s.k)}, nil
}

// Rank returns the numerical rank of the Gram matrix (the dimension of S).
func (p *SubspacePGD) Rank() int {
	if p == nil {
		return 0
	}
	return p.rank
}

// Step performs one exact PGD step on coef in place (coefficients of the
// unnormalised directions) and returns h^l before the step. It does not
// allocate. It returns ErrScaleOverflow if the iterate leaves float64.
func (p *SubspacePGD) Step(coef []float64) (float64, error) {
	if p == nil || p.S == nil || p.pinv == nil {
		return 0, errUnbuilt("SubspacePGD", "Step", "NewSubspacePGD")
	}
	s := p.S
	if err := s.checkCoef(coef); err != nil {
		return 0, err
	}
	s.toHat(p.hat, coef)
	h := s.hatGrad(p.g, p.hat)
	k := s.k
	raw := p.pinv.RawMatrix()
	for i := 0; i < k; i++ {
		u := 0.0
		row := raw.Data[i*raw.Stride : i*raw.Stride+k]
		for j, v := range row {
			u += v * p.g[j]
		}
		p.hat[i] -= p.Eta * u
	}
	s.fromHat(coef, p.hat)
	for _, c := range coef {
		if !isFinite(c) {
			return h, fmt.Errorf("%w: exact PGD diverged", ErrScaleOverflow)
		}
	}
	if !isFinite(h) {
		return h, fmt.Errorf("%w: h^l overflows float64", ErrScaleOverflow)
	}
	return h, nil
}

// SubspaceTrace records an exact subspace PGD run: for every recorded step
// t, the coefficients c(t) of the directions, h^l(w(t)) and the norms
// ‖c_j(t) vec(Y_j)^{⊗l}‖_F of the terms.
type SubspaceTrace struct {
	T         []int
	Coef      [][]float64
	HL        []float64
	TermNorms [][]float64
	// Diverged is set when the iterate left float64; the trace stops at the
	// last finite point.
	Diverged bool
}

// MaxSubspaceSteps bounds the number of exact PGD steps of one run
// (SubspacePGD.Run, ExactSubspaceSOD.T): 10⁹ steps take minutes (each is
// O(K⁴) with K = 3 directions), and beyond it a run is a hang rather than
// an experiment. Use the closed form (TPGDClosedForm) for larger t.
const MaxSubspaceSteps = 1_000_000_000

// subspaceCheckEvery is how often (in steps) a run checks its context.
const subspaceCheckEvery = 1 << 12

// Run performs steps exact PGD steps from coef0 and records every
// every-th step (every ≤ 0 means 1) plus the last one. coef0 is not
// modified. steps must lie in [0, MaxSubspaceSteps]; the trace holds
// steps/every + 2 entries, which must not exceed MaxSubspaceSteps/1000 =
// 10⁶ (a larger request is refused before any work). Both limits wrap
// ErrBadParameter, naming the value. Run stops early, with ctx's error,
// when ctx is done (checked every 4096 steps).
func (p *SubspacePGD) Run(ctx context.Context, coef0 []float64, steps, every int) (*SubspaceTrace, error) {
	if p == nil || p.S == nil || p.pinv == nil {
		return nil, errUnbuilt("SubspacePGD", "Run", "NewSubspacePGD")
	}
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	if steps < 0 || steps > MaxSubspaceSteps {
		return nil, fmt.Errorf("%w: steps must lie in [0, MaxSubspaceSteps = %d], got %d", ErrBadParameter, MaxSubspaceSteps, steps)
	}
	if every <= 0 {
		every = 1
	}
	if rec := steps/every + 2; rec > MaxSubspaceSteps/1000 {
		return nil, fmt.Errorf("%w: %d steps recorded every %d would record %d entries, more than the limit %d; record less often", ErrBadParameter, steps, every, rec, MaxSubspaceSteps/1000)
	}
	if err := p.S.checkCoef(coef0); err != nil {
		return nil, err
	}
	coef := append([]float64(nil), coef0...)
	prev := make([]float64, len(coef))
	tr := &SubspaceTrace{}
	rec := func(t int, c []float64, h float64) {
		tr.T = append(tr.T, t)
		tr.Coef = append(tr.Coef, append([]float64(nil), c...))
		tr.HL = append(tr.HL, h)
		nr := make([]float64, len(c))
		p.S.TermNorms(nr, c) // len(c) = K: checked by checkCoef
		tr.TermNorms = append(tr.TermNorms, nr)
	}
	for t := 0; ; t++ {
		if t == steps {
			p.S.toHat(p.hat, coef)
			rec(t, coef, p.S.hatObjective(p.hat))
			return tr, nil
		}
		if t%subspaceCheckEvery == 0 && t > 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("sod: exact subspace PGD stopped at step %d of %d: %w", t, steps, err)
			}
		}
		copy(prev, coef)
		h, err := p.Step(coef) // h^l at prev
		if err != nil {
			if isFinite(h) {
				rec(t, prev, h)
			}
			tr.Diverged = true
			return tr, nil
		}
		if t%every == 0 {
			rec(t, prev, h)
		}
	}
}

// NewPaperSubspace returns the lifted objective of order l on the paper's
// subspace S = span{a, b, c} (eq. tensor_subspace) at the analysed point
// cp: directions X̂, u_n q_rᵀ and E X̂, in that order.
func NewPaperSubspace(p *Problem, cp *CriticalPoint, l int) (*LiftedSubspace, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := checkCritical("NewPaperSubspace", cp); err != nil {
		return nil, err
	}
	if err := p.needDense("the lifted subspace"); err != nil {
		return nil, err
	}
	n, r := cp.X.Dims()
	b := mat.NewDense(n, r, nil)
	b.Outer(1, cp.Un, cp.Qr)
	return NewLiftedSubspace(p.Op, p.B, l, cp.X, b, cp.EX)
}

// TPGDComparison sets the paper's closed-form TPGD beside the exact PGD in
// S = span{a, b, c}, both started at w_escape = a + ρ b, at the recorded
// steps T (the data of the paper's panels (d) and (e), computed both ways).
type TPGDComparison struct {
	T []int
	// Exact is the exact subspace PGD trace (coefficients, h^l, term norms).
	Exact *SubspaceTrace
	// ClosedCoef are (α̃, β̃, γ̃)(t) of the closed form, log domain.
	ClosedCoef [][3]LogScalar
	// ClosedHL is h^l(w̃(t)) of the closed-form iterate, log domain (it
	// overflows float64 for large t, REPRODUCTION.md F11).
	ClosedHL []LogScalar
	// ClosedTermNorms are the natural logs of ‖α̃ a‖, ‖β̃ b‖, ‖γ̃ c‖.
	ClosedTermNorms [][3]float64
	// HLHat is h^l(ŵ), ŵ = vec(X̂)^{⊗l}: the level the paper's criterion
	// h^l(w̃(t)) < h^l(ŵ) compares with.
	HLHat float64
}

// CompareTPGD runs exact subspace PGD for steps steps (recording every
// every-th) with step η from w_escape = a + ρ b at the analysed point cp and
// evaluates the paper's closed form at the same t. ctx stops the exact run
// as in SubspacePGD.Run.
func CompareTPGD(ctx context.Context, p *Problem, cp *CriticalPoint, l int, rho, eta float64, steps, every int) (*TPGDComparison, error) {
	cf, err := NewTPGDFromCritical(cp, l, rho, eta)
	if err != nil {
		return nil, err
	}
	s, err := NewPaperSubspace(p, cp, l)
	if err != nil {
		return nil, err
	}
	pgd, err := NewSubspacePGD(s, eta)
	if err != nil {
		return nil, err
	}
	tr, err := pgd.Run(ctx, []float64{1, rho, 0}, steps, every)
	if err != nil {
		return nil, err
	}
	out := &TPGDComparison{Exact: tr}
	if out.HLHat, err = s.Objective([]float64{1, 0, 0}); err != nil {
		return nil, err
	}
	for _, t := range tr.T {
		a, b, g, err := cf.Coefficients(int64(t))
		if err != nil {
			return nil, err
		}
		hl, err := s.LogObjective([]LogScalar{a, b, g})
		if err != nil {
			return nil, err
		}
		na, nb, nc, _ := cf.TermNorms(int64(t))
		out.T = append(out.T, t)
		out.ClosedCoef = append(out.ClosedCoef, [3]LogScalar{a, b, g})
		out.ClosedHL = append(out.ClosedHL, hl)
		out.ClosedTermNorms = append(out.ClosedTermNorms, [3]float64{na, nb, nc})
	}
	return out, nil
}
