package sod

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// This file holds the paper's closed-form TPGD coefficient dynamics
// (section 5, Lemma "Closed-Form Coefficient Dynamics", eq. tilde_w_t), the
// dominance intervals U_β and U_γ (eqs. u_beta, u_gamma, u_beta_validity of
// appendix "Dominance Criteria"), the β- and γ-type escape points (eqs.
// x_check_beta, x_check_gamma) and the applicability conditions of the
// formal multi-step theorem (eqs. strict_saddle_condition, l_condition,
// u_beta_validality_l).
//
// Everything here is the paper's *closed form*. It is not the exact
// projected gradient descent inside S = span{a, b, c}: see SubspacePGD for
// that, and REPRODUCTION.md F10 for why the two differ.

// LogScalar is a real number Sign·e^Log stored as its sign (−1, 0 or +1)
// and the natural logarithm of its magnitude. Zero is Sign == 0 (Log is then
// −Inf). It lets the TPGD coefficients be evaluated for every int64 t
// without overflow.
type LogScalar struct {
	Sign int
	Log  float64
}

// Float returns Sign·e^Log as a float64. It is ±Inf when the magnitude
// does not fit in a float64; the LogScalar itself is always finite.
func (s LogScalar) Float() float64 {
	if s.Sign == 0 {
		return 0
	}
	return float64(s.Sign) * math.Exp(s.Log)
}

// Log10 returns log10 of the magnitude (−Inf for zero), convenient for
// plotting coefficients that span hundreds of decades.
func (s LogScalar) Log10() float64 {
	if s.Sign == 0 {
		return math.Inf(-1)
	}
	return s.Log / math.Ln10
}

// TPGDInputs are the scalars of a spurious critical point X̂ that the
// closed-form TPGD dynamics depend on (paper section 5; REPRODUCTION.md C6).
type TPGDInputs struct {
	// LambdaN is λ_n, the smallest eigenvalue of ∇f(X̂X̂ᵀ); it must be < 0.
	LambdaN float64
	// SigmaR is σ_r, the smallest nonzero singular value of X̂ (> 0).
	SigmaR float64
	// NormX is ‖X̂‖_F (> 0).
	NormX float64
	// NormEX is ‖E X̂‖_F with E = 𝒜*𝒜(u_n v_rᵀ + v_r u_nᵀ) (≥ 0).
	NormEX float64
}

// StepInterval is an open interval (Lo, Hi) of TPGD step counts t (the
// dominance intervals U_β and U_γ). Hi may be +Inf. It is empty when
// !(Lo < Hi), e.g. Lo = Hi = 0 or a NaN bound.
type StepInterval struct {
	Lo, Hi float64
}

// Empty reports whether the interval holds no t: !(Lo < Hi).
func (u StepInterval) Empty() bool { return !(u.Lo < u.Hi) }

// Contains reports whether Lo < t < Hi.
func (u StepInterval) Contains(t float64) bool {
	return !u.Empty() && u.Lo < t && t < u.Hi
}

// String formats the interval like the paper's ablation table.
func (u StepInterval) String() string {
	if u.Empty() {
		return "∅"
	}
	return fmt.Sprintf("(%.2f, %.2f)", u.Lo, u.Hi)
}

// EscapeKind says which term of the closed form w̃(t) = a + β̃ b + γ̃ c
// dominates at a given t and hence which escape point is used.
type EscapeKind int

const (
	// KindNone: t is in neither U_β nor U_γ, the escape point is undefined
	// (the paper's ✗¹).
	KindNone EscapeKind = iota
	// KindBeta: t ∈ U_β, the β-type point of eq. x_check_beta.
	KindBeta
	// KindGamma: t ∈ U_γ, the γ-type point of eq. x_check_gamma.
	KindGamma
)

var escapeKindText = [...]string{KindNone: "none", KindBeta: "β", KindGamma: "γ"}

// String returns "none", "β" or "γ".
func (k EscapeKind) String() string { return enumString("EscapeKind", escapeKindText[:], int(k)) }

// MarshalText implements encoding.TextMarshaler with the words of String.
func (k EscapeKind) MarshalText() ([]byte, error) {
	return enumMarshal("EscapeKind", escapeKindText[:], int(k))
}

// UnmarshalText implements encoding.TextUnmarshaler for the words of String.
func (k *EscapeKind) UnmarshalText(b []byte) error {
	return enumUnmarshal("EscapeKind", escapeKindText[:], b, (*int)(k))
}

// TPGDClosedForm is the paper's closed-form coefficient dynamics
//
//	α̃(t) = 1,  β̃(t) = ρ Q^t,  γ̃(t) = −(ρη/2^{l−1}) S_t σ_r^l,
//	Q = 1 − η λ_n^l,  S_t = Σ_{τ<t} Q^τ = (Q^t − 1)/(Q − 1),
//
// (Lemma "Closed-Form Coefficient Dynamics") together with the dominance
// thresholds and escape points derived from it. All quantities are computed
// in the log domain from x = log(Q − 1) = log η + l log(−λ_n), which is exact
// for every l: log Q = log1p(e^x), and log S_t is assembled from
// log t, log(log Q/(Q − 1)) and log(expm1(u)/u) with u = t log Q, so that
// neither an underflowing Q − 1 (large l with |λ_n| < 1, where Q rounds to
// 1) nor an overflowing Q^t (large l with |λ_n| > 1, or large t) produces
// Inf or NaN. Every valid l (odd, 3 ≤ l ≤ math.MaxInt) and every t ≥ 0
// that fits in an int64 gives finite log-domain values; the thresholds may
// be +Inf (a step count beyond every int64).
type TPGDClosedForm struct {
	In       TPGDInputs
	L        int
	Rho, Eta float64

	built bool // made by a constructor (a zero value is not usable)

	x      float64 // log(Q − 1) = log η + l log(−λ_n)
	logQ   float64 // log Q = log1p(e^x) > 0 (0 when Q − 1 underflows)
	lLogQ  float64 // log log Q = x + d2, exact even when logQ underflows
	d2     float64 // log(log Q / (Q − 1)) ∈ (−Inf, 0]
	logK   float64 // log K_l
	logN   float64 // log N_l = l log‖X̂‖_F
	tBA    float64 // b ≻ a  ⇔ t > tBA
	tBC    float64 // b ≻ c  ⇔ t < tBC (+Inf when K_l ≥ 1)
	tCA    float64 // c ≻ a  ⇔ t > tCA
	logRho float64
}

// NewTPGDClosedForm validates the inputs and precomputes the log-domain
// constants. l must be odd and ≥ 3 (the paper's standing assumption, so
// that λ_n^l < 0; any such int is accepted, see TPGDClosedForm); ρ and η
// must lie in (0, 1) (Theorem "Multi-step SOD Escape, formal"); λ_n must be
// finite and < 0, σ_r and ‖X̂‖_F finite and > 0, ‖E X̂‖_F finite and ≥ 0.
// Errors wrap ErrBadParameter and name the value and the accepted range.
func NewTPGDClosedForm(in TPGDInputs, l int, rho, eta float64) (*TPGDClosedForm, error) {
	if err := CheckTPGDParams(l, rho, eta); err != nil {
		return nil, err
	}
	switch {
	case !(in.LambdaN < 0) || math.IsInf(in.LambdaN, 0):
		return nil, fmt.Errorf("%w: TPGD needs a finite λ_n < 0 (a strict negative curvature of ∇f), got %v", ErrBadParameter, in.LambdaN)
	case !(in.SigmaR > 0) || math.IsInf(in.SigmaR, 0):
		return nil, fmt.Errorf("%w: TPGD needs a finite σ_r > 0, got %v", ErrBadParameter, in.SigmaR)
	case !(in.NormX > 0) || math.IsInf(in.NormX, 0):
		return nil, fmt.Errorf("%w: TPGD needs a finite ‖X̂‖_F > 0, got %v", ErrBadParameter, in.NormX)
	case !(in.NormEX >= 0) || math.IsInf(in.NormEX, 0):
		return nil, fmt.Errorf("%w: TPGD needs a finite ‖E X̂‖_F ≥ 0, got %v", ErrBadParameter, in.NormEX)
	}
	c := &TPGDClosedForm{In: in, L: l, Rho: rho, Eta: eta, built: true}
	fl := float64(l)
	// x = log(η (−λ_n)^l) = log(Q − 1).
	c.x = math.Log(eta) + fl*math.Log(-in.LambdaN)
	c.logQ = softplus(c.x)
	c.d2 = logLog1pExpRatio(c.x)
	c.lLogQ = c.x + c.d2
	// K_l = (2(−λ_n)/(σ_r ‖E X̂‖))^l / 2.
	if in.NormEX == 0 {
		c.logK = math.Inf(1)
	} else {
		c.logK = fl*(math.Log(2*-in.LambdaN)-math.Log(in.SigmaR)-math.Log(in.NormEX)) - math.Ln2
	}
	c.logN = fl * math.Log(in.NormX)
	c.logRho = math.Log(rho)
	// Each threshold is (a positive or signed numerator)/log Q, evaluated
	// as sign·exp(log|numerator| − log log Q) so that a log Q that
	// underflows gives +Inf, not NaN.
	c.tBA = divByExp(c.logN-c.logRho, c.lLogQ)
	if c.logK < 0 {
		// −log(1 − K_l) / log Q
		c.tBC = math.Exp(logNegLog1mExp(c.logK) - c.lLogQ)
	} else {
		c.tBC = math.Inf(1)
	}
	// c ≻ a ⇔ |γ̃| ‖c‖ > ‖a‖ ⇔ Q^t − 1 > K_l N_l/ρ:
	// t > log(1 + K_l N_l/ρ) / log Q.
	c.tCA = math.Exp(logSoftplus(c.logK+c.logN-c.logRho) - c.lLogQ)
	return c, nil
}

// CheckTPGDParams validates the parameters of the simulated TPGD escape
// (NewTPGDClosedForm, MultiStepSOD, SODLineSearch, ExactSubspaceSOD) as
// the multi-step theorem of section 5 states them: an odd lifting order
// l ≥ 3 and 0 < ρ, η < 1. The error wraps ErrBadParameter and names the
// bad value.
func CheckTPGDParams(l int, rho, eta float64) error {
	if l < 3 || l%2 == 0 {
		return fmt.Errorf("%w: lifting order l must be odd and ≥ 3, got %d", ErrBadParameter, l)
	}
	if !(rho > 0 && rho < 1) {
		return fmt.Errorf("%w: escape step ρ must lie in (0, 1), got %v", ErrBadParameter, rho)
	}
	if !(eta > 0 && eta < 1) {
		return fmt.Errorf("%w: TPGD step η must lie in (0, 1), got %v", ErrBadParameter, eta)
	}
	return nil
}

// softplus returns log(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 35 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// logSoftplus returns log(log(1 + e^x)) for any x, exact where
// log(1 + e^x) itself underflows (x < −745).
func logSoftplus(x float64) float64 {
	if x < -20 {
		return x + logLog1pExpRatio(x)
	}
	return math.Log(softplus(x)) // +Inf for x = +Inf
}

// logLog1pExpRatio returns log(log1p(e^x)/e^x) ∈ (−Inf, 0] for any x
// (−x + log x for large x; −e^x/2 + e^{2x}·5/24 for x → −∞).
func logLog1pExpRatio(x float64) float64 {
	if x < -20 {
		y := math.Exp(x)
		// log1p(y)/y = 1 − y/2 + y²/3 − …; its log is −y/2 + 5y²/24 + O(y³).
		return -y/2 + 5*y*y/24
	}
	return math.Log(softplus(x)) - x
}

// logExpm1 returns log(e^x − 1) for x ≥ 0 without overflow (−Inf at 0).
func logExpm1(x float64) float64 {
	if x > 30 {
		return x + math.Log1p(-math.Exp(-x))
	}
	return math.Log(math.Expm1(x))
}

// logExpm1Ratio returns log(expm1(u)/u) ≥ 0 for u = e^lu > 0, given lu
// (exact where u underflows: the value is then u/2).
func logExpm1Ratio(lu float64) float64 {
	if lu < -20 {
		u := math.Exp(lu)
		// expm1(u)/u = 1 + u/2 + u²/6 + …; its log is u/2 + u²/24 + O(u⁴).
		return u/2 + u*u/24
	}
	return logExpm1(math.Exp(lu)) - lu
}

// logNegLog1mExp returns log(−log(1 − e^k)) for k < 0 (k → −∞: k + e^k/2).
func logNegLog1mExp(k float64) float64 {
	if k < -20 {
		y := math.Exp(k)
		// −log(1−y) = y(1 + y/2 + y²/3 + …); its log is y/2 + 5y²/24 + O(y³).
		return k + y/2 + 5*y*y/24
	}
	return math.Log(-math.Log1p(-math.Exp(k)))
}

// divByExp returns num / e^lden (a threshold num/log Q with log log Q =
// lden): 0 for num = 0, ±Inf when it exceeds float64, never NaN.
func divByExp(num, lden float64) float64 {
	if num == 0 {
		return 0
	}
	return math.Copysign(math.Exp(math.Log(math.Abs(num))-lden), num)
}

// LogQ returns log Q = log(1 − η λ_n^l), evaluated with log1p. It is 0
// when Q − 1 = η(−λ_n)^l underflows float64; LogLogQ is then still exact.
func (c *TPGDClosedForm) LogQ() float64 {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "LogQ", "NewTPGDClosedForm"))
	}
	return c.logQ
}

// LogLogQ returns log log Q, finite for every valid l (the natural log of
// LogQ, computed without underflow).
func (c *TPGDClosedForm) LogLogQ() float64 {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "LogLogQ", "NewTPGDClosedForm"))
	}
	return c.lLogQ
}

// K returns K_l = 2^{l−1}(−λ_n)^l / (σ_r^l ‖E X̂‖_F^l). It may be +Inf
// (when ‖E X̂‖ = 0 or when it overflows); use LogK for the exact value.
func (c *TPGDClosedForm) K() float64 {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "K", "NewTPGDClosedForm"))
	}
	return math.Exp(c.logK)
}

// LogK returns log K_l.
func (c *TPGDClosedForm) LogK() float64 {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "LogK", "NewTPGDClosedForm"))
	}
	return c.logK
}

// RhoMin returns ρ_min = ‖X̂‖_F^l (1 − K_l) of eq. u_beta_validity:
// U_β ≠ ∅ exactly when ρ > ρ_min. It is negative when K_l > 1 (then U_β
// is non-empty for every ρ) and may be ≥ 1 (then U_β is empty for every
// admissible ρ < 1, as for the PMC instance).
//
// It is evaluated as ±exp(log N_l + log|1 − K_l|), so that an underflowing
// ‖X̂‖^l times an overflowing K_l gives the right limit, never NaN.
func (c *TPGDClosedForm) RhoMin() float64 {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "RhoMin", "NewTPGDClosedForm"))
	}
	switch {
	case c.logK == 0:
		return 0
	case c.logK < 0:
		return math.Exp(c.logN + math.Log1p(-math.Exp(c.logK)))
	}
	return -math.Exp(c.logN + logExpm1(c.logK))
}

// Thresholds returns the three dominance thresholds (REPRODUCTION.md C6):
// b ≻ a ⇔ t > tBA; b ≻ c ⇔ t < tBC (tBC = +Inf when K_l ≥ 1, b then
// dominates c for every t); c ≻ a ⇔ t > tCA. tBA may be negative.
func (c *TPGDClosedForm) Thresholds() (tBA, tBC, tCA float64) {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "Thresholds", "NewTPGDClosedForm"))
	}
	return c.tBA, c.tBC, c.tCA
}

// UBeta returns U_β of eq. u_beta intersected with t > 0:
// (max(0, tBA), tBC) when tBA < tBC, else ∅. When K_l ≥ 1 (where the
// paper's right end −log(1−K_l) is NaN) b dominates c for all t and the
// right end is +Inf.
func (c *TPGDClosedForm) UBeta() StepInterval {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "UBeta", "NewTPGDClosedForm"))
	}
	if !(c.tBA < c.tBC) {
		return StepInterval{}
	}
	return StepInterval{Lo: math.Max(0, c.tBA), Hi: c.tBC}
}

// UGamma returns U_γ of eq. u_gamma: (max(tCA, tBC), +∞), or ∅ when
// K_l ≥ 1 (c never dominates b).
func (c *TPGDClosedForm) UGamma() StepInterval {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "UGamma", "NewTPGDClosedForm"))
	}
	if math.IsInf(c.tBC, 1) {
		return StepInterval{}
	}
	return StepInterval{Lo: math.Max(c.tCA, c.tBC), Hi: math.Inf(1)}
}

// Select applies the selection rule that reproduces the paper's ablation
// table: the β-type point if t ∈ U_β, else the γ-type point if t ∈ U_γ,
// else none.
func (c *TPGDClosedForm) Select(t int64) EscapeKind {
	if c == nil || !c.built {
		panic(errUnbuilt("TPGDClosedForm", "Select", "NewTPGDClosedForm"))
	}
	ft := float64(t)
	switch {
	case c.UBeta().Contains(ft):
		return KindBeta
	case c.UGamma().Contains(ft):
		return KindGamma
	}
	return KindNone
}

// ErrScaleOverflow reports an escape point or lifted quantity whose
// float64 value overflows although its log-domain value is finite.
var ErrScaleOverflow = errors.New("sod: value overflows float64 (use the log-domain result)")

// errNegativeT reports a negative step count t.
func errNegativeT(t int64) error {
	return fmt.Errorf("%w: number of TPGD steps t must be ≥ 0, got %d", ErrBadParameter, t)
}

// logS returns log S_t = log Σ_{τ<t} Q^τ (−Inf for t = 0). With
// u = t log Q, S_t = expm1(u)/(Q − 1) = t · (log Q/(Q − 1)) · (expm1(u)/u),
// so log S_t = log t + d2 + log(expm1(u)/u): each term is computed
// directly, without cancellation, whether Q − 1 underflows or Q^t overflows.
func (c *TPGDClosedForm) logS(t int64) float64 {
	if t == 0 {
		return math.Inf(-1)
	}
	lt := math.Log(float64(t))
	return lt + c.d2 + logExpm1Ratio(lt+c.lLogQ)
}

// Coefficients returns α̃(t) = 1, β̃(t) = ρ Q^t and
// γ̃(t) = −(ρη/2^{l−1}) S_t σ_r^l in the log domain.
func (c *TPGDClosedForm) Coefficients(t int64) (alpha, beta, gamma LogScalar, err error) {
	if c == nil || !c.built {
		return alpha, beta, gamma, errUnbuilt("TPGDClosedForm", "Coefficients", "NewTPGDClosedForm")
	}
	if t < 0 {
		return alpha, beta, gamma, errNegativeT(t)
	}
	alpha = LogScalar{Sign: 1, Log: 0}
	beta = LogScalar{Sign: 1, Log: math.Log(c.Rho) + float64(t)*c.logQ}
	if t == 0 {
		gamma = LogScalar{Sign: 0, Log: math.Inf(-1)}
	} else {
		gamma = LogScalar{Sign: -1, Log: math.Log(c.Rho) + math.Log(c.Eta) -
			float64(c.L-1)*math.Ln2 + c.logS(t) + float64(c.L)*math.Log(c.In.SigmaR)}
	}
	return alpha, beta, gamma, nil
}

// TermNorms returns, in the log domain, the Frobenius norms of the three
// terms of w̃(t): ‖α̃ a‖ = ‖X̂‖^l, ‖β̃ b‖ = |β̃| (‖b‖ = 1) and
// ‖γ̃ c‖ = |γ̃| ‖E X̂‖^l. These are the curves of the paper's panels (e)
// as the closed form predicts them.
func (c *TPGDClosedForm) TermNorms(t int64) (a, b, cc float64, err error) {
	if c == nil || !c.built {
		return 0, 0, 0, errUnbuilt("TPGDClosedForm", "TermNorms", "NewTPGDClosedForm")
	}
	_, beta, gamma, err := c.Coefficients(t)
	if err != nil {
		return 0, 0, 0, err
	}
	return c.logN, beta.Log, gamma.Log + float64(c.L)*math.Log(c.In.NormEX), nil
}

// BetaScale returns c_β = ρ^{1/l} Q^{t/l} = exp((log ρ + t log Q)/l), the
// factor of the β-type point X̌ = c_β u_n q_rᵀ (eq. x_check_beta). It
// returns an error, not Inf, when c_β does not fit in a float64.
func (c *TPGDClosedForm) BetaScale(t int64) (float64, error) {
	if c == nil || !c.built {
		return 0, errUnbuilt("TPGDClosedForm", "BetaScale", "NewTPGDClosedForm")
	}
	if t < 0 {
		return 0, errNegativeT(t)
	}
	v := math.Exp((math.Log(c.Rho) + float64(t)*c.logQ) / float64(c.L))
	if math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: β-type scale overflows float64 at t=%d (log c_β = %g)", ErrScaleOverflow, t, (math.Log(c.Rho)+float64(t)*c.logQ)/float64(c.L))
	}
	return v, nil
}

// GammaScale returns c_γ = −½ σ_r (2ηρ)^{1/l} S_t^{1/l}, the factor of the
// γ-type point X̌ = c_γ E X̂ (eq. x_check_gamma), evaluated as
// −½ σ_r exp((log(2ηρ) + log S_t)/l). It is 0 at t = 0 and an error, not
// Inf, when it does not fit in a float64.
func (c *TPGDClosedForm) GammaScale(t int64) (float64, error) {
	if c == nil || !c.built {
		return 0, errUnbuilt("TPGDClosedForm", "GammaScale", "NewTPGDClosedForm")
	}
	if t < 0 {
		return 0, errNegativeT(t)
	}
	if t == 0 {
		return 0, nil
	}
	lg := (math.Log(2*c.Eta*c.Rho) + c.logS(t)) / float64(c.L)
	v := -0.5 * c.In.SigmaR * math.Exp(lg)
	if math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: γ-type scale overflows float64 at t=%d (log|c_γ| = %g)", ErrScaleOverflow, t, lg+math.Log(0.5*c.In.SigmaR))
	}
	return v, nil
}

// EscapePoint returns the escape point selected at t (Select) and its kind:
// c_β u_n q_rᵀ for KindBeta, c_γ E X̂ for KindGamma. un is u_n (n), qr is
// q_r (r) and ex is E X̂ (n×r). For KindNone it returns a nil matrix and no
// error: the point is undefined there, which is a result, not a failure.
//
// un, qr and ex must be non-nil with len(un) = n ≥ 1, len(qr) = r ≥ 1 and
// ex n×r; otherwise EscapePoint returns an error wrapping ErrShape (naming
// the shapes) before any work, whatever the kind at t.
//
// The point depends on the signs of u_n and q_r only through
// s = sign(u_n)·sign(q_r) (REPRODUCTION.md C3): flipping s negates a β-type
// point. A γ-type point does not depend on s beyond E's own dependence on it.
func (c *TPGDClosedForm) EscapePoint(t int64, un, qr mat.Vector, ex mat.Matrix) (*mat.Dense, EscapeKind, error) {
	if c == nil || !c.built {
		return nil, KindNone, errUnbuilt("TPGDClosedForm", "EscapePoint", "NewTPGDClosedForm")
	}
	if t < 0 {
		return nil, KindNone, errNegativeT(t)
	}
	if err := checkEscapeInputs(un, qr, ex); err != nil {
		return nil, KindNone, err
	}
	kind := c.Select(t)
	switch kind {
	case KindBeta:
		s, err := c.BetaScale(t)
		if err != nil {
			return nil, kind, err
		}
		n, r := un.Len(), qr.Len()
		x := mat.NewDense(n, r, nil)
		for i := 0; i < n; i++ {
			for k := 0; k < r; k++ {
				x.Set(i, k, s*un.AtVec(i)*qr.AtVec(k))
			}
		}
		return x, kind, nil
	case KindGamma:
		s, err := c.GammaScale(t)
		if err != nil {
			return nil, kind, err
		}
		var x mat.Dense
		x.Scale(s, ex)
		return &x, kind, nil
	}
	return nil, KindNone, nil
}

// checkEscapeInputs checks u_n (n), q_r (r) and E X̂ (n×r) of EscapePoint.
func checkEscapeInputs(un, qr mat.Vector, ex mat.Matrix) error {
	if un == nil || qr == nil || ex == nil {
		return fmt.Errorf("%w: EscapePoint needs u_n, q_r and E X̂, got nil (u_n %v, q_r %v, E X̂ %v)", ErrShape, un != nil, qr != nil, ex != nil)
	}
	n, r := un.Len(), qr.Len()
	er, ec := ex.Dims()
	if n < 1 || r < 1 || er != n || ec != r {
		return fmt.Errorf("%w: EscapePoint: u_n has length %d, q_r length %d and E X̂ is %d×%d; want lengths n, r ≥ 1 and E X̂ n×r", ErrShape, n, r, er, ec)
	}
	for _, v := range []struct {
		name string
		m    mat.Matrix
	}{{"u_n", un}, {"q_r", qr}, {"E X̂", ex}} {
		if err := checkFinite(v.name, v.m); err != nil {
			return err
		}
	}
	return nil
}

// EscapeDistances returns the three numbers of the ablation table for an
// escape point X̌: dHat = ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F, dStar = ‖X̌X̌ᵀ − M*‖_F and
// their ratio dHat/dStar (eq. escape_ratio). X̂ and X̌ must be n×r (the
// same shape) and M* n×n, all finite, else the error wraps ErrShape or
// ErrNotFinite; distances that overflow float64 give ErrScaleOverflow.
// When X̌X̌ᵀ = M* exactly (dStar = 0) the ratio is +Inf if
// dHat > 0; if X̂X̂ᵀ = X̌X̌ᵀ = M* as well the ratio 0/0 is undefined and
// EscapeDistances returns dHat = dStar = 0 with an error wrapping
// ErrBadParameter (never NaN).
func EscapeDistances(xhat, xcheck, mstar mat.Matrix) (dHat, dStar, ratio float64, err error) {
	if xhat == nil || xcheck == nil || mstar == nil {
		return 0, 0, 0, fmt.Errorf("%w: EscapeDistances needs X̂, X̌ and M*, got a nil matrix", ErrShape)
	}
	n, r := xhat.Dims()
	cn, cr := xcheck.Dims()
	mr, mc := mstar.Dims()
	if cn != n || cr != r || mr != n || mc != n {
		return 0, 0, 0, fmt.Errorf("%w: EscapeDistances: X̂ is %d×%d, X̌ %d×%d and M* %d×%d; want X̌ the shape of X̂ (n×r) and M* n×n", ErrShape, n, r, cn, cr, mr, mc)
	}
	for _, v := range []struct {
		name string
		m    mat.Matrix
	}{{"X̂", xhat}, {"X̌", xcheck}, {"M*", mstar}} {
		if err := checkFinite(v.name, v.m); err != nil {
			return 0, 0, 0, err
		}
	}
	var ph, pc mat.Dense
	ph.Mul(xhat, xhat.T())
	pc.Mul(xcheck, xcheck.T())
	var d mat.Dense
	d.Sub(&ph, &pc)
	dHat = mat.Norm(&d, 2)
	d.Sub(&pc, mstar)
	dStar = mat.Norm(&d, 2)
	if !isFinite(dHat) || !isFinite(dStar) {
		return 0, 0, 0, fmt.Errorf("%w: EscapeDistances: ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F = %v, ‖X̌X̌ᵀ − M*‖_F = %v (entries of X̂, X̌ up to %.3g, %.3g)",
			ErrScaleOverflow, dHat, dStar, mat.Norm(xhat, math.Inf(1)), mat.Norm(xcheck, math.Inf(1)))
	}
	switch {
	case dStar > 0:
		ratio = dHat / dStar
	case dHat > 0:
		ratio = math.Inf(1)
	default:
		return 0, 0, 0, fmt.Errorf("%w: EscapeDistances: X̂X̂ᵀ = X̌X̌ᵀ = M*, the ratio 0/0 is undefined", ErrBadParameter)
	}
	return dHat, dStar, ratio, nil
}

// TPGDConditionInputs are the quantities the applicability conditions of
// the formal multi-step theorem depend on (REPRODUCTION.md F7 shows them
// failing on the real-world case).
type TPGDConditionInputs struct {
	L          int
	Delta      float64 // RIP constant δ_p (the paper does not say which p)
	LambdaN    float64 // λ_n < 0
	SigmaR     float64 // σ_r
	SumSigmaSq float64 // σ_1² + … + σ_r² = ‖X̂‖_F²
	TraceMStar float64 // Tr(M*)
	DistSq     float64 // ‖X̂X̂ᵀ − M*‖_F²
	M          int     // number of sensing matrices m
	Xi         float64 // Ξ = max_i ‖A_i‖_2
}

// Condition is one condition of the paper evaluated on an instance: the
// inequality Lhs (Op) Rhs, whether it holds, and whether it is meaningful
// (a bound derived through a logarithm can come out negative, which the
// paper does not discuss; such a bound is reported with Meaningful false).
type Condition struct {
	Name       string
	Lhs, Rhs   float64
	Op         string
	Holds      bool
	Meaningful bool
	Note       string
}

func (c Condition) String() string {
	s := "fails"
	if c.Holds {
		s = "holds"
	}
	if !c.Meaningful {
		s += " (bound meaningless)"
	}
	out := fmt.Sprintf("%s: %.6g %s %.6g: %s", c.Name, c.Lhs, c.Op, c.Rhs, s)
	if c.Note != "" {
		out += "; " + c.Note
	}
	return out
}

// radiusR2 returns r_2 = 2(1+δ)/(1−δ) σ_r² Tr(M*) (definition r_2).
func radiusR2(delta, sigmaR, traceMStar float64) float64 {
	return 2 * (1 + delta) / (1 - delta) * sigmaR * sigmaR * traceMStar
}

// TPGDConditions evaluates the conditions under which the paper states its
// multi-step theorem:
//
//   - the strict-saddle band r_2/2 ≤ ‖X̂X̂ᵀ − M*‖_F² ≤ r_2 (eq. strict_saddle_condition);
//   - l > 1/(1 − log2(r_2/‖X̂X̂ᵀ−M*‖²)) (eq. l_condition), meaningless when
//     the bound is negative (r_2/D > 2);
//   - the premise −λ_n > √(m(1+δ)/2) Ξ σ_r of the U_β validity bound and the
//     bound l > 1/log2(√2(−λ_n)/(√(m(1+δ)Σσ²) Ξ σ_r)) (eq. u_beta_validality_l).
//
// Each is reported with its numbers; none is enforced. δ must lie in
// [0, 1) (ErrDelta); l and m must be ≥ 1 and σ_r, ‖X̂X̂ᵀ − M*‖², Tr M*, Ξ,
// Σσ² and −λ_n finite and > 0 (ErrBadParameter, naming the value).
func TPGDConditions(in TPGDConditionInputs) ([]Condition, error) {
	if !(in.Delta >= 0 && in.Delta < 1) {
		return nil, fmt.Errorf("%w: got %v", ErrDelta, in.Delta)
	}
	if in.L < 1 || in.M < 1 {
		return nil, fmt.Errorf("%w: TPGDConditions needs l ≥ 1 and m ≥ 1, got l = %d, m = %d", ErrBadParameter, in.L, in.M)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"σ_r", in.SigmaR}, {"‖X̂X̂ᵀ−M*‖²", in.DistSq}, {"Tr M*", in.TraceMStar}, {"Ξ", in.Xi}, {"Σσ²", in.SumSigmaSq}, {"−λ_n", -in.LambdaN}} {
		if !(v.v > 0) || math.IsInf(v.v, 0) {
			return nil, fmt.Errorf("%w: TPGDConditions needs %s finite and > 0, got %v", ErrBadParameter, v.name, v.v)
		}
	}
	r2 := radiusR2(in.Delta, in.SigmaR, in.TraceMStar)
	fl := float64(in.L)
	var out []Condition
	out = append(out, Condition{
		Name: "strict-saddle band lower r₂/2 ≤ ‖X̂X̂ᵀ−M*‖²", Lhs: r2 / 2, Op: "≤", Rhs: in.DistSq,
		Holds: r2/2 <= in.DistSq, Meaningful: true,
	})
	out = append(out, Condition{
		Name: "strict-saddle band upper ‖X̂X̂ᵀ−M*‖² ≤ r₂", Lhs: in.DistSq, Op: "≤", Rhs: r2,
		Holds: in.DistSq <= r2, Meaningful: true,
	})
	lb := 1 / (1 - math.Log2(r2/in.DistSq))
	out = append(out, Condition{
		Name: "l condition l > 1/(1 − log₂(r₂/‖X̂X̂ᵀ−M*‖²))", Lhs: fl, Op: ">", Rhs: lb,
		Holds: fl > lb, Meaningful: lb > 0,
		Note: fmt.Sprintf("r₂/‖X̂X̂ᵀ−M*‖² = %.6g (the bound is negative when this exceeds 2)", r2/in.DistSq),
	})
	prem := math.Sqrt(float64(in.M)*(1+in.Delta)/2) * in.Xi * in.SigmaR
	out = append(out, Condition{
		Name: "U_β premise −λ_n > √(m(1+δ)/2) Ξ σ_r", Lhs: -in.LambdaN, Op: ">", Rhs: prem,
		Holds: -in.LambdaN > prem, Meaningful: true,
	})
	arg := math.Sqrt2 * -in.LambdaN / (math.Sqrt(float64(in.M)*(1+in.Delta)*in.SumSigmaSq) * in.Xi * in.SigmaR)
	ub := 1 / math.Log2(arg)
	out = append(out, Condition{
		Name: "U_β validity l > 1/log₂(√2(−λ_n)/(√(m(1+δ)Σσ²) Ξ σ_r))", Lhs: fl, Op: ">", Rhs: ub,
		Holds: fl > ub, Meaningful: ub > 0,
		Note: fmt.Sprintf("log argument = %.6g (the bound is negative when it is < 1)", arg),
	})
	return out, nil
}

// TPGDConditionsAt evaluates TPGDConditions at an analysed point of a
// problem with known ground truth, with the RIP constant delta (the paper
// does not say which δ_p; REPRODUCTION.md C4). It needs cp.Xi2, so cp must
// not have been computed with CriticalOptions.SkipXi.
func TPGDConditionsAt(p *Problem, cp *CriticalPoint, l int, delta float64) ([]Condition, error) {
	if p == nil || cp == nil {
		return nil, fmt.Errorf("%w: nil Problem or CriticalPoint", ErrBadParameter)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !p.HasTruth() {
		return nil, ErrNoGroundTruth
	}
	if !(cp.Xi2 > 0) {
		return nil, fmt.Errorf("%w: Ξ² missing (CriticalOptions.SkipXi?)", ErrBadParameter)
	}
	ss := 0.0
	for _, s := range cp.Sigma {
		ss += s * s
	}
	tr := p.traceMStar()
	return TPGDConditions(TPGDConditionInputs{L: l, Delta: delta, LambdaN: cp.LambdaN, SigmaR: cp.SigmaR,
		SumSigmaSq: ss, TraceMStar: tr, DistSq: cp.Dist * cp.Dist, M: cp.M, Xi: math.Sqrt(cp.Xi2)})
}
