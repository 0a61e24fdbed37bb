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
// The run honours the escape loop's context (the ctx given to Propose).
//
// Its zero value is exact subspace SOD with l = DefaultLiftingOrder,
// T = 1000 exact PGD steps, ρ = DefaultSODRho, η = DefaultSODEta and one
// sign; its settings table (Params) has the keys l, t, rho, eta and
// both_signs.
type ExactSubspaceSOD struct {
	// L is the lifting order l, odd and ≥ 3. Zero means DefaultLiftingOrder.
	L int
	// T is the number of exact PGD steps, in [1, MaxSubspaceSteps]. Zero
	// means 1000.
	T int
	// Rho is the paper's ρ ∈ (0, 1), the weight of b in the start
	// w_escape = a + ρ b. Zero means DefaultSODRho.
	Rho float64
	// Eta is the PGD step η ∈ (0, 1). Zero means DefaultSODEta.
	Eta float64
	// BothSigns also proposes the mirrored points (see MultiStepSOD).
	// False (zero): the points themselves only.
	BothSigns bool
}

// defaultExactSteps is ExactSubspaceSOD.T's zero.
const defaultExactSteps = 1000

var (
	_ Escaper      = (*ExactSubspaceSOD)(nil)
	_ Validator    = (*ExactSubspaceSOD)(nil)
	_ Configurable = (*ExactSubspaceSOD)(nil)
)

// DefaultExactSubspaceSOD returns exact subspace SOD with l = 5, T = 1000
// exact PGD steps, ρ = η = 0.1 and both signs: its zero value with
// BothSigns.
func DefaultExactSubspaceSOD() *ExactSubspaceSOD {
	return &ExactSubspaceSOD{BothSigns: true}
}

// Params implements Configurable: the keys l, t, rho, eta and
// both_signs, documented as the fields.
func (e *ExactSubspaceSOD) Params() []Param {
	if e == nil {
		return nil
	}
	return []Param{
		intParam("l", "lifting order l, odd ≥ 3 (0: DefaultLiftingOrder)", &e.L, DefaultLiftingOrder),
		intParam("t", "exact PGD steps, in [1, MaxSubspaceSteps] (0: 1000)", &e.T, defaultExactSteps),
		floatParam("rho", "ρ ∈ (0, 1), weight of b in the start (0: DefaultSODRho)", &e.Rho, DefaultSODRho, "ρ"),
		floatParam("eta", "PGD step η ∈ (0, 1) (0: DefaultSODEta)", &e.Eta, DefaultSODEta, "η"),
		boolParam("both_signs", "also propose the mirrored points (false: the points only)", &e.BothSigns),
	}
}

// eff returns e with its zero settings replaced by their defaults.
func (e *ExactSubspaceSOD) eff() ExactSubspaceSOD {
	x := *e
	x.L = orDefault(x.L, DefaultLiftingOrder)
	x.T = orDefault(x.T, defaultExactSteps)
	x.Rho = orDefault(x.Rho, DefaultSODRho)
	x.Eta = orDefault(x.Eta, DefaultSODEta)
	return x
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
	x := e.eff()
	return fmt.Sprintf("exact subspace SOD (l=%d, t=%d, ρ=%g, η=%g)", x.L, x.T, x.Rho, x.Eta)
}

// Validate checks the settings (zero ones stand for their defaults): l,
// ρ, η (CheckTPGDParams) and T in [1, MaxSubspaceSteps].
func (ep *ExactSubspaceSOD) Validate() error {
	if ep == nil {
		return fmt.Errorf("%w: nil ExactSubspaceSOD", ErrBadParameter)
	}
	e := ep.eff()
	if err := CheckTPGDParams(e.L, e.Rho, e.Eta); err != nil {
		return err
	}
	if e.T < 1 || e.T > MaxSubspaceSteps {
		return fmt.Errorf("%w: ExactSubspaceSOD runs T exact PGD steps, T must lie in [1, MaxSubspaceSteps = %d] (0: %d), got %d", ErrBadParameter, MaxSubspaceSteps, defaultExactSteps, e.T)
	}
	return nil
}

// Propose implements Escaper.
func (ep *ExactSubspaceSOD) Propose(ctx context.Context, st *EscapeState) ([]Candidate, error) {
	if err := ep.Validate(); err != nil {
		return nil, err
	}
	e := ep.eff()
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
