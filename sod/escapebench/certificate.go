package escapebench

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// ErrNotCertified is wrapped by Certify's error when a point fails the
// certificate (not stationary, a direction of negative curvature, or too
// close to the ground truth to be spurious).
var ErrNotCertified = errors.New("escapebench: point not certified")

// PointKind says what a certified second-order point is known to be.
type PointKind int

const (
	// StrictLocalMin: the smallest Hessian eigenvalue is > Tol, so the
	// point is a strict local minimum (up to the rotation symmetry of
	// rank r > 1, which makes the Hessian singular; see Certificate).
	StrictLocalMin PointKind = iota + 1
	// DegenerateSecondOrder: the smallest Hessian eigenvalue is within
	// ±Tol of 0, so the point satisfies the second-order necessary
	// conditions but need not be a local minimum (the paper's basic
	// example X̂ = (1, 0) is such a degenerate saddle: h decreases along a
	// quartic direction).
	DegenerateSecondOrder
)

var pointKindNames = [...]string{StrictLocalMin: "strict-local-min", DegenerateSecondOrder: "degenerate"}

// String returns "strict-local-min" or "degenerate".
func (k PointKind) String() string {
	if k >= StrictLocalMin && int(k) < len(pointKindNames) {
		return pointKindNames[k]
	}
	return fmt.Sprintf("PointKind(%d)", int(k))
}

// MarshalText implements encoding.TextMarshaler (the words of String).
func (k PointKind) MarshalText() ([]byte, error) {
	if k < StrictLocalMin || int(k) >= len(pointKindNames) {
		return nil, fmt.Errorf("%w: invalid PointKind %d", ErrBadBench, int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *PointKind) UnmarshalText(b []byte) error {
	for i, s := range pointKindNames {
		if s != "" && s == string(b) {
			*k = PointKind(i)
			return nil
		}
	}
	return fmt.Errorf("%w: unknown point kind %q, want strict-local-min or degenerate", ErrBadBench, b)
}

// Certificate is the evidence that X̂ is a spurious second-order point of
// h (the paper's section 3): ‖∇h(X̂)‖_F ≤ Tol, λ_min(∇²h(X̂)) ≥ −Tol,
// ‖X̂X̂ᵀ − M*‖_F ≥ MinDist, and two tests that X̂ is not a zero of h
// away from M* (with too few measurements h vanishes there: such a point
// is a global minimum of h, which no method can escape by descent, and a
// gradient descent stopped at its step limit on the way to it looks
// stationary at a tolerance): h(X̂) > RelH·h(0) (HRel = h(X̂)/h(0), h(0) =
// f(0) the loss of the zero matrix, the scale of h) and h(X̂) − h(M*) >
// RelH·h(0) (HStar = h(M*), h at the truth's factor: 0 for exact
// measurements; with noise, where h(M*) > 0, X̂ must be worse than M*,
// which proves it is not a global minimum), and the
// continued-descent test: DescentSteps more gradient steps from X̂ (the
// instance's step) must not lower h by more than the share DescentDrop
// (HDescent is h after them). For search rank r > 1 the Hessian always has a
// zero eigenvalue (X ↦ XQ with Q orthogonal leaves h unchanged), so the
// kind of such a point is DegenerateSecondOrder unless r = 1.
type Certificate struct {
	GradNorm   float64 `json:"grad_norm"`    // ‖∇h(X̂)‖_F
	MinHessEig float64 `json:"min_hess_eig"` // smallest eigenvalue of ∇²h(X̂) (nr×nr)
	H          float64 `json:"h"`            // h(X̂)
	HRel       float64 `json:"h_rel"`        // h(X̂)/h(0)
	// HStar is h at M*'s factor, h(Z) (0 if P has no Z): 0 up to rounding for exact
	// measurements, the reference minimum's h with noise
	// (NoisyGaussianFamily); X̂ must lie above it.
	HStar   float64   `json:"h_star,omitempty"`
	Dist    float64   `json:"dist"` // ‖X̂X̂ᵀ − M*‖_F
	Kind    PointKind `json:"kind"`
	Lanczos bool      `json:"lanczos"` // MinHessEig from Lanczos (large nr) rather than a dense eigendecomposition
	// DescentSteps gradient steps of size Step from X̂ end at h =
	// HDescent (0 steps: the test was not run, CertifyOptions.Step = 0).
	DescentSteps int     `json:"descent_steps"`
	Step         float64 `json:"step"`
	HDescent     float64 `json:"h_descent"`
}

// CertifyOptions are the thresholds of Certify.
type CertifyOptions struct {
	// Tol bounds ‖∇h‖_F and −λ_min(∇²h) (default DefaultCertifyTol).
	Tol float64
	// MinDist is the smallest ‖X̂X̂ᵀ − M*‖_F of a spurious point (default
	// DefaultMinDist, the paper's success threshold).
	MinDist float64
	// DenseMax is the largest nr for which the Hessian is formed and
	// decomposed densely (default DefaultDenseHessianMax); above it
	// sod.HessianMinEig (Lanczos on Hessian–vector products) is used.
	DenseMax int
	// RelH: h(X̂) must exceed RelH·h(0) (default DefaultRelH).
	RelH float64
	// Step is the gradient step of the continued-descent test (Instances
	// passes the instance's StallPoint.Step); 0 skips the test.
	Step float64
	// DescentSteps (default DefaultDescentSteps) gradient steps from X̂
	// must leave h above (1 − DescentDrop)·h(X̂) (default
	// DefaultDescentDrop).
	DescentSteps int
	DescentDrop  float64
}

const (
	// DefaultCertifyTol is the default tolerance of Certify.
	DefaultCertifyTol = 1e-5
	// DefaultMinDist is the default ‖X̂X̂ᵀ − M*‖_F below which a point is
	// not spurious: the paper's success threshold 0.02 (section 6.2).
	DefaultMinDist = 0.02
	// DefaultDenseHessianMax is the default CertifyOptions.DenseMax.
	DefaultDenseHessianMax = 300
	// DefaultRelH is the default CertifyOptions.RelH: a spurious point's
	// h is at least a millionth of h(0).
	DefaultRelH = 1e-6
	// DefaultDescentSteps and DefaultDescentDrop are the defaults of the
	// continued-descent test: 2000 more steps may not lower h by 10 %.
	DefaultDescentSteps = 2000
	DefaultDescentDrop  = 0.1
)

func (o CertifyOptions) withDefaults() (CertifyOptions, error) {
	if o.Tol == 0 {
		o.Tol = DefaultCertifyTol
	}
	if o.MinDist == 0 {
		o.MinDist = DefaultMinDist
	}
	if o.DenseMax == 0 {
		o.DenseMax = DefaultDenseHessianMax
	}
	if o.RelH == 0 {
		o.RelH = DefaultRelH
	}
	if o.DescentSteps == 0 {
		o.DescentSteps = DefaultDescentSteps
	}
	if o.DescentDrop == 0 {
		o.DescentDrop = DefaultDescentDrop
	}
	if !(o.Tol > 0) || math.IsInf(o.Tol, 0) || !(o.MinDist > 0) || math.IsInf(o.MinDist, 0) || o.DenseMax < 1 {
		return o, fmt.Errorf("%w: CertifyOptions Tol = %v, MinDist = %v, DenseMax = %d, want Tol, MinDist finite > 0 and DenseMax ≥ 1", ErrBadBench, o.Tol, o.MinDist, o.DenseMax)
	}
	if !(o.RelH > 0 && o.RelH < 1) || !(o.Step >= 0) || math.IsInf(o.Step, 0) || o.DescentSteps < 1 || o.DescentSteps > 10_000_000 || !(o.DescentDrop > 0 && o.DescentDrop < 1) {
		return o, fmt.Errorf("%w: CertifyOptions RelH = %v (want in (0, 1)), Step = %v (want finite ≥ 0), DescentSteps = %d (want 1…10⁷), DescentDrop = %v (want in (0, 1))", ErrBadBench, o.RelH, o.Step, o.DescentSteps, o.DescentDrop)
	}
	return o, nil
}

// Certify checks that X is a spurious second-order point of p and returns
// its certificate; the error wraps ErrNotCertified (with the certificate
// filled as far as computed) when it is not (or when the Hessian's
// eigenvalues cannot be computed), and ErrBadBench for bad options and
// for a problem without M*. At nr ≤ DenseMax the
// smallest Hessian eigenvalue comes from the dense sod.Problem.Hessian
// (the one sod.AnalyzeCritical decomposes); above it from sod.HessianMinEig, which never forms the nr×nr
// matrix.
func Certify(ctx context.Context, p *sod.Problem, X mat.Matrix, opt CertifyOptions) (Certificate, error) {
	var c Certificate
	if ctx == nil {
		return c, fmt.Errorf("%w: Certify needs a context", ErrBadBench)
	}
	opt, err := opt.withDefaults()
	if err != nil {
		return c, err
	}
	if p == nil {
		return c, fmt.Errorf("%w: nil problem", ErrBadBench)
	}
	if err := p.CheckX(X); err != nil {
		return c, err
	}
	if !p.HasTruth() {
		return c, fmt.Errorf("%w: certifying a spurious point needs a problem with its ground truth M*", ErrBadBench)
	}
	if err := ctx.Err(); err != nil {
		return c, err
	}
	n, r := p.Dims()
	c.H = p.H(X)
	g := mat.NewDense(n, r, nil)
	p.Grad(g, X)
	c.GradNorm = mat.Norm(g, 2)
	c.Dist = p.DistStar(X)
	if !(c.GradNorm <= opt.Tol) {
		return c, fmt.Errorf("%w: ‖∇h‖_F = %.3g > %.3g (not stationary)", ErrNotCertified, c.GradNorm, opt.Tol)
	}
	if !(c.Dist >= opt.MinDist) {
		return c, fmt.Errorf("%w: ‖XXᵀ − M*‖_F = %.3g < %.3g (a global minimum, not spurious)", ErrNotCertified, c.Dist, opt.MinDist)
	}
	h0 := p.H(mat.NewDense(n, r, nil))
	c.HRel = c.H / h0
	if p.Z != nil {
		c.HStar = p.H(p.Z)
	}
	if !(c.H-c.HStar > opt.RelH*h0) {
		return c, fmt.Errorf("%w: h − h(M*) = %.3g − %.3g ≤ RelH·h(0) = %.3g·%.3g: a global minimum of h away from M* (M* is not identifiable from these measurements), not a spurious point", ErrNotCertified, c.H, c.HStar, opt.RelH, h0)
	}
	if opt.Step > 0 {
		res, err := sod.GradientDescent(ctx, p, X, sod.GDOptions{Iteration: sod.Iteration{Step: opt.Step, MaxIter: opt.DescentSteps, TraceEvery: opt.DescentSteps}})
		if err != nil {
			return c, err
		}
		c.DescentSteps, c.Step, c.HDescent = opt.DescentSteps, opt.Step, res.H
		if !(res.H >= (1-opt.DescentDrop)*c.H) {
			return c, fmt.Errorf("%w: h keeps descending: %d more gradient steps (step %.3g) take h from %.3g to %.3g (below (1 − %.2g)·h(X̂)): a point on the way to a lower h, not a local minimum", ErrNotCertified, opt.DescentSteps, opt.Step, c.H, res.H, opt.DescentDrop)
		}
	}
	if n*r <= opt.DenseMax {
		hs, err := p.Hessian(X)
		if err != nil {
			return c, err
		}
		var eig mat.EigenSym
		if !eig.Factorize(hs, false) {
			return c, fmt.Errorf("%w: the eigenvalues of the %d×%d Hessian did not converge", ErrNotCertified, n*r, n*r)
		}
		c.MinHessEig = eig.Values(nil)[0]
	} else {
		c.Lanczos = true
		c.MinHessEig, err = sod.HessianMinEig(ctx, p, X)
		if err != nil {
			return c, err
		}
	}
	if !(c.MinHessEig >= -opt.Tol) {
		return c, fmt.Errorf("%w: λ_min(∇²h) = %.3g < −%.3g (a direction of negative curvature: a strict saddle)", ErrNotCertified, c.MinHessEig, opt.Tol)
	}
	c.Kind = DegenerateSecondOrder
	if c.MinHessEig > opt.Tol {
		c.Kind = StrictLocalMin
	}
	return c, nil
}
