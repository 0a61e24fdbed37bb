package escapebench

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// Features are the quantities of an instance's point X̂ that explain
// why methods succeed or fail on it (stored with the instance,
// InstanceInfo.Features, and set beside success in the reports):
//
//   - BetaMin and GammaMin: the exact minimum of h over the whole β line
//     {c·u_n q_rᵀ : c ∈ ℝ} and γ line {c·E X̂ : c ∈ ℝ} — the lines every
//     SOD candidate lies on (section 5: X̌ = c_β(t)·u_n q_rᵀ or
//     c_γ(t)·E X̂) — divided by h(X̂). A value ≥ 1 means no SOD candidate,
//     whatever t, l, ρ or η, lowers h: judged on raw h (the paper's rule)
//     SOD cannot escape. Along c·D, h = f(c²DDᵀ) is a quadratic in c²,
//     so three values of h give it exactly (lineMin).
//   - EFS0: the escape feasibility score of single-step SOD (section 4,
//     sod.SingleStepResult.EFS) at δ = 0, −λ_n/σ_r² + ⟨E, u_nu_nᵀ⟩²/2, its
//     largest value over δ: EFS0 ≤ 1 means single-step SOD certifies no
//     escape for any δ.
//   - LambdaMin: λ_min(∇²h(X̂)) of the certificate.
//   - DeltaLower: 1 − 2h(X̂)/‖X̂X̂ᵀ − M*‖_F², a lower bound on the RIP
//     constant δ_{2r} of the instance's operator from the certificate's own
//     data (X̂X̂ᵀ − M* has rank ≤ 2r and h(X̂) = ½‖𝒜(X̂X̂ᵀ − M*)‖² ≥
//     ½(1 − δ_{2r})‖X̂X̂ᵀ − M*‖_F²): an operator with a smaller δ has no
//     such point, and a theorem whose δ window lies below DeltaLower says
//     nothing about the instance.
//   - Dist: ‖X̂X̂ᵀ − M*‖_F.
//
// A feature that cannot be computed (X̂ rank-deficient, λ_n ≥ 0) is NaN,
// null in JSON.
type Features struct {
	BetaMin    OptFloat `json:"beta_min"`
	GammaMin   OptFloat `json:"gamma_min"`
	EFS0       OptFloat `json:"efs0"`
	LambdaMin  OptFloat `json:"lambda_min"`
	DeltaLower OptFloat `json:"delta_lower"`
	Dist       OptFloat `json:"dist"`
}

// FeatureNames are the features in the order of FeatureValues, as the
// reports name them.
var FeatureNames = []string{"min h on β line / h(X̂)", "min h on γ line / h(X̂)", "EFS(0)", "λ_min(∇²h)", "δ lower bound", "‖X̂X̂ᵀ − M*‖_F"}

// Values returns the features in the order of FeatureNames.
func (f Features) Values() []float64 {
	return []float64{float64(f.BetaMin), float64(f.GammaMin), float64(f.EFS0), float64(f.LambdaMin), float64(f.DeltaLower), float64(f.Dist)}
}

// InstanceFeatures computes the Features of in's point (its critical
// point analysis, sod.AnalyzeCritical, without the Hessian: λ_min is
// the certificate's).
func InstanceFeatures(ctx context.Context, in CertifiedInstance) (Features, error) {
	nan := OptFloat(math.NaN())
	f := Features{BetaMin: nan, GammaMin: nan, EFS0: nan, LambdaMin: OptFloat(in.Cert.MinHessEig), DeltaLower: nan, Dist: OptFloat(in.Cert.Dist)}
	if in.P == nil || in.X == nil {
		return f, fmt.Errorf("%w: instance %q has no problem or point", ErrBadBench, in.Name)
	}
	if err := ctx.Err(); err != nil {
		return f, err
	}
	h := in.P.H(in.X)
	if d := in.Cert.Dist; d > 0 {
		f.DeltaLower = OptFloat(1 - 2*h/(d*d))
	}
	cp, err := sod.AnalyzeCritical(in.P, in.X, sod.CriticalOptions{SkipHessian: true, SkipXi: true})
	if err != nil {
		// A rank-deficient X̂ has no σ_r: no SOD direction.
		return f, nil
	}
	if cp.SigmaR > 0 {
		f.EFS0 = OptFloat(-cp.LambdaN/(cp.SigmaR*cp.SigmaR) + cp.Euu*cp.Euu/2)
	}
	n, r := in.P.Dims()
	beta := mat.NewDense(n, r, nil)
	beta.Outer(1, cp.Un, cp.Qr)
	f.BetaMin = OptFloat(lineMin(in.P, beta) / h)
	f.GammaMin = OptFloat(lineMin(in.P, cp.EX) / h)
	return f, nil
}

// lineMin returns min over c ∈ ℝ of h(c·D). With g(s) = h(√s·D) =
// f(s·DDᵀ), a quadratic in s ≥ 0 for the quadratic loss f, the values
// g(0), g(1), g(2) (D scaled to ‖DDᵀ‖_F = max(‖M*‖_F, 1)) determine g, and
// its minimum over s ≥ 0 is at s = 0 or at the vertex. NaN for D = 0.
func lineMin(p *sod.Problem, D *mat.Dense) float64 {
	nd := mat.Norm(D, 2)
	if !(nd > 0) || math.IsInf(nd, 0) {
		return math.NaN()
	}
	n, r := D.Dims()
	scale := math.Sqrt(math.Max(p.DistStar(mat.NewDense(n, r, nil)), 1)) / nd
	x := mat.NewDense(n, r, nil)
	g := func(s float64) float64 {
		x.Scale(scale*math.Sqrt(s), D)
		return p.H(x)
	}
	g0, g1, g2 := g(0), g(1), g(2)
	a := (g2 - 2*g1 + g0) / 2
	b := g1 - g0 - a
	best := g0
	if a > 0 {
		if s := -b / (2 * a); s > 0 {
			best = math.Min(best, g(s))
		}
	}
	return best
}

// FeaturesNote says in one paragraph what the Features are, for the
// reports.
const FeaturesNote = "min h on β / γ line / h(X̂): the exact minimum of h over the whole line every SOD candidate of that kind lies on, relative to h(X̂) (≥ 1: no SOD candidate lowers h, whatever t, l, ρ, η); EFS(0): single-step SOD's escape feasibility score at δ = 0, its largest value (≤ 1: no certified escape for any δ); δ lower bound: 1 − 2h(X̂)/‖X̂X̂ᵀ − M*‖²_F, a lower bound on the RIP constant δ_2r of the instance; λ_min(∇²h) and ‖X̂X̂ᵀ − M*‖_F from the certificate."
