package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

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

var (
	_ Escaper   = (*ExactSubspaceSOD)(nil)
	_ Validator = (*ExactSubspaceSOD)(nil)
)

// DefaultExactSubspaceSOD returns exact subspace SOD with l = 5, T = 1000
// exact PGD steps, ρ = η = 0.1 and both signs.
func DefaultExactSubspaceSOD() *ExactSubspaceSOD {
	return &ExactSubspaceSOD{L: 5, T: 1000, Rho: 0.1, Eta: 0.1, BothSigns: true}
}

// ExactSubspaceInfo is the Candidate.Data of ExactSubspaceSOD.
type ExactSubspaceInfo struct {
	Critical *CriticalPoint
	Trace    *SubspaceTrace // first and last step only
	Term     int            // 1: b, 2: c
}

// Name implements Escaper.
func (e *ExactSubspaceSOD) Name() string {
	if e == nil {
		return "nil ExactSubspaceSOD"
	}
	return fmt.Sprintf("exact subspace SOD (l=%d, t=%d, ρ=%g, η=%g)", e.L, e.T, e.Rho, e.Eta)
}

// Validate checks the settings: l, ρ, η (CheckTPGDParams) and T in
// [0, MaxSubspaceSteps].
func (e *ExactSubspaceSOD) Validate() error {
	if e == nil {
		return fmt.Errorf("%w: nil ExactSubspaceSOD", ErrBadParameter)
	}
	if err := CheckTPGDParams(e.L, e.Rho, e.Eta); err != nil {
		return err
	}
	if e.T < 0 || e.T > MaxSubspaceSteps {
		return fmt.Errorf("%w: ExactSubspaceSOD runs T exact PGD steps, T must lie in [0, MaxSubspaceSteps = %d], got %d", ErrBadParameter, MaxSubspaceSteps, e.T)
	}
	return nil
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
