package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// CriticalPoint collects the quantities of the paper's sections 3–4 at a
// point X̂ (normally a spurious local minimum found by gradient descent):
// the spectral decomposition ∇f(X̂X̂ᵀ) = Σ_k λ_k u_k u_kᵀ, the thin SVD
// X̂ = Σ_φ σ_φ v_φ q_φᵀ, and E = 𝒜*𝒜(u_n v_rᵀ + v_r u_nᵀ) (REPRODUCTION.md C2).
//
// Sign convention. Eigen- and singular vectors are defined up to sign; this
// package fixes them deterministically:
//   - u_n: the last entry of u_n whose magnitude is at least 1/(2√n) is made
//     positive (such an entry exists because max_k |u_k| ≥ 1/√n). This rule
//     gives the signs with which the paper's X_final columns were produced:
//     u_n = (−0.93577, 0.12392, 0.33013) for the real-world case,
//     +(1,0,1)/√2 for PMC (n = 3, ε = 0.3) and +e_1 for the basic example.
//   - (v_r, q_r): the entry of q_r of largest magnitude is made positive, so
//     for rank 1, q_r = +1 and v_r = X̂/‖X̂‖.
//
// CriticalOptions can flip either choice or align u_n with a reference
// vector. Every escape point depends only on s = sign(u_n)·sign(q_r):
// flipping s maps the escape point X̌ to −X̌ (same distances and h values,
// but GD then ends at −Z instead of +Z), and flips the sign of Euu.
//
// Structured analysis. For a structured problem (Problem.Structured) with
// n > StructuredCriticalMinN, AnalyzeCritical never forms an n×n matrix:
// λ_n and u_n come from Lanczos iterations with the O(n(r + k)) product
// v ↦ ∇f(X̂X̂ᵀ)v, and E X̂, Euu from the same structure. GradF, Lambda and E
// are then nil (only λ_n is computed); every other field is filled.
// Likewise above nr = DenseHessianMaxSize HessMin comes from Lanczos on
// Hessian–vector products (HessLanczos set, HessEig nil) unless
// CriticalOptions.Hessian asks for the dense Hessian. So by default no
// n×n or nr×nr matrix is formed above these sizes.
type CriticalPoint struct {
	X         *mat.Dense    // X̂ (n×r), a copy
	H         float64       // h(X̂)
	GradNorm  float64       // ‖∇h(X̂)‖_F
	GradF     *mat.SymDense // ∇f(X̂X̂ᵀ) = 𝒜*(𝒜(X̂X̂ᵀ) − b); nil from the structured analysis
	GradFNorm float64       // ‖∇f(X̂X̂ᵀ)‖_F
	Lambda    []float64     // eigenvalues of ∇f(X̂X̂ᵀ), descending (λ_1 ≥ … ≥ λ_n); nil from the structured analysis
	LambdaN   float64       // λ_n, the smallest eigenvalue
	Un        *mat.VecDense // u_n, unit eigenvector of λ_n (sign convention above)
	Sigma     []float64     // singular values of X̂, descending
	Rank      int           // number of singular values counted as nonzero
	SigmaR    float64       // σ_r, smallest nonzero singular value of X̂
	Vr        *mat.VecDense // v_r, left singular vector (n-vector)
	Qr        *mat.VecDense // q_r, right singular vector (r-vector)
	E         *mat.SymDense // E = 𝒜*𝒜(u_n v_rᵀ + v_r u_nᵀ); nil from the structured analysis
	EX        *mat.Dense    // E X̂ (n×r)
	EXNorm    float64       // ‖E X̂‖_F
	Euu       float64       // ⟨E, u_n u_nᵀ⟩ = u_nᵀ E u_n
	Xi2       float64       // Ξ² = max_i ‖A_i‖₂² (0 if CriticalOptions.SkipXi)
	M         int           // number of measurements m
	HessMin   float64       // smallest eigenvalue of the Hessian of h at X̂ (nr×nr); 0 if skipped
	HessEig   []float64     // all Hessian eigenvalues, ascending; nil if skipped or from Lanczos
	// HessLanczos is set when HessMin came from HessianMinEig (Lanczos on
	// Hessian–vector products, see CriticalOptions.Hessian); HessEig is
	// then nil.
	HessLanczos bool
	Dist        float64 // ‖X̂X̂ᵀ − M*‖_F, −1 if M* unknown
}

// CriticalOptions configures AnalyzeCritical.
type CriticalOptions struct {
	// FlipUn multiplies u_n by −1 after the sign rule (or UnRef) is
	// applied. False (zero): the sign rule's u_n.
	FlipUn bool
	// UnRef, if not nil (length n), chooses the sign of u_n so that
	// ⟨u_n, UnRef⟩ ≥ 0, replacing the default rule.
	UnRef []float64
	// FlipQr multiplies the pair (v_r, q_r) by −1. False (zero): the
	// singular vectors as computed.
	FlipQr bool
	// RankTol is the relative tolerance under which a singular value counts
	// as zero: σ ≤ RankTol·max(σ_1, 1). Default 1e-10.
	RankTol float64
	// AllowRankDeficient makes σ_r the smallest singular value above the
	// tolerance when X̂ has rank < r; by default such a point is an error
	// (ErrRankDeficient).
	AllowRankDeficient bool
	// SkipHessian skips the Hessian (HessMin = 0, HessEig = nil).
	SkipHessian bool
	// Hessian chooses how HessMin is computed (default HessianAuto: the
	// dense nr×nr eigendecomposition up to nr = DenseHessianMaxSize,
	// Lanczos on Hessian–vector products above).
	Hessian HessianMethod
	// SkipXi skips Ξ² (Xi2 = 0), which costs O(m n³) for operators that do
	// not implement XiSquarer.
	SkipXi bool
}

// AnalyzeCritical computes the CriticalPoint quantities at X (n×r). It
// does not require X to be a critical point or a minimum, so it can be
// used for teaching at any point; use CheckSpurious to require a spurious
// local minimum. It returns an error for a wrong shape, a non-finite X and
// (unless AllowRankDeficient) for σ_r = 0.
func AnalyzeCritical(p *Problem, X mat.Matrix, opt CriticalOptions) (*CriticalPoint, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckX(X); err != nil {
		return nil, err
	}
	n, r := p.Dims()
	_, m := p.Op.Dims()
	if opt.UnRef != nil && len(opt.UnRef) != n {
		return nil, fmt.Errorf("%w: len(UnRef) = %d, want %d", ErrShape, len(opt.UnRef), n)
	}
	tol := opt.RankTol
	if tol == 0 {
		tol = 1e-10
	}
	if tol < 0 {
		return nil, fmt.Errorf("%w: RankTol %v < 0", ErrBadParameter, tol)
	}
	if opt.Hessian < HessianAuto || opt.Hessian > HessianLanczos {
		return nil, fmt.Errorf("%w: CriticalOptions.Hessian = %d, want HessianAuto, HessianDense or HessianLanczos", ErrBadParameter, int(opt.Hessian))
	}
	cp := &CriticalPoint{X: mat.DenseCopyOf(X), M: m, Dist: p.DistStar(X)}

	structured := p.st != nil && (p.B == nil || n > StructuredCriticalMinN)
	p.count.addEval(true) // h and ∇h at X̂, and the spectrum of ∇f(X̂X̂ᵀ)
	p.count.addEigen()
	var ws *workspace
	if structured {
		if err := p.st.spectrum(cp, opt); err != nil {
			return nil, err
		}
	} else {
		ws = p.getWorkspace()
		defer p.putWorkspace(ws)
		if err := p.denseSpectrum(ws, cp, opt); err != nil {
			return nil, err
		}
	}

	// Thin SVD of X̂.
	var svd mat.SVD
	if !svd.Factorize(cp.X, mat.SVDThin) {
		return nil, fmt.Errorf("%w: SVD of X̂", ErrFactorization)
	}
	cp.Sigma = svd.Values(nil)
	thresh := tol * math.Max(cp.Sigma[0], 1)
	for _, s := range cp.Sigma {
		if s > thresh {
			cp.Rank++
		}
	}
	if cp.Rank == 0 || (cp.Rank < r && !opt.AllowRankDeficient) {
		return nil, fmt.Errorf("%w: singular values %v (rank %d < r = %d)", ErrRankDeficient, cp.Sigma, cp.Rank, r)
	}
	k := cp.Rank - 1
	cp.SigmaR = cp.Sigma[k]
	var vl, ql mat.Dense
	svd.UTo(&vl)
	svd.VTo(&ql)
	cp.Vr = mat.VecDenseCopyOf(vl.ColView(k))
	cp.Qr = mat.VecDenseCopyOf(ql.ColView(k))
	if s := largestSign(cp.Qr); s < 0 {
		cp.Vr.ScaleVec(-1, cp.Vr)
		cp.Qr.ScaleVec(-1, cp.Qr)
	}
	if opt.FlipQr {
		cp.Vr.ScaleVec(-1, cp.Vr)
		cp.Qr.ScaleVec(-1, cp.Qr)
	}

	// E = 𝒜*𝒜(u vᵀ + v uᵀ), E X̂, Euu.
	if structured {
		p.st.escapeTerms(cp)
	} else {
		p.denseEscapeTerms(ws, cp)
	}

	if !opt.SkipXi {
		xi2, err := XiSquared(p.Op)
		if err != nil {
			return nil, err
		}
		cp.Xi2 = xi2
	}
	if !opt.SkipHessian && opt.Hessian.lanczos(n*r) {
		hm, err := HessianMinEig(context.Background(), p, cp.X)
		if err != nil {
			return nil, err
		}
		cp.HessMin, cp.HessLanczos = hm, true
	} else if !opt.SkipHessian {
		if err := p.needDense("the dense Hessian (CriticalOptions.Hessian = HessianDense)"); err != nil {
			return nil, err
		}
		hs, err := p.Hessian(cp.X)
		if err != nil {
			return nil, err
		}
		var he mat.EigenSym
		p.count.addEigen()
		if err := symEigen(&he, hs, false, "the Hessian"); err != nil {
			return nil, err
		}
		cp.HessEig = he.Values(nil)
		cp.HessMin = cp.HessEig[0]
	}
	return cp, nil
}

// HessianMethod says how AnalyzeCritical computes the smallest eigenvalue
// of the nr×nr Hessian ∇²h(X̂) (CriticalOptions.Hessian).
type HessianMethod int

const (
	// HessianAuto is HessianDense for nr ≤ DenseHessianMaxSize and
	// HessianLanczos above.
	HessianAuto HessianMethod = iota
	// HessianDense forms the Hessian from nr Hessian–vector products and
	// decomposes it: every eigenvalue in HessEig. It needs the dense data
	// (n ≤ MaxDenseSize) and O((nr)²) memory, O((nr)³) time.
	HessianDense
	// HessianLanczos takes HessMin from HessianMinEig (Lanczos on
	// Hessian–vector products, O(n·r) memory, no nr×nr matrix); HessEig
	// stays nil and HessLanczos is set.
	HessianLanczos
)

// String returns "auto", "dense" or "lanczos".
func (m HessianMethod) String() string {
	return enumString("HessianMethod", []string{HessianAuto: "auto", HessianDense: "dense", HessianLanczos: "lanczos"}, int(m))
}

// lanczos reports whether the method uses Lanczos at nr = size.
func (m HessianMethod) lanczos(size int) bool {
	return m == HessianLanczos || (m == HessianAuto && size > DenseHessianMaxSize)
}

// DenseHessianMaxSize is the largest nr for which AnalyzeCritical forms
// the nr×nr Hessian by default (CriticalOptions.Hessian = HessianAuto),
// as StructuredCriticalMinN is for the n×n ∇f(X̂X̂ᵀ): the paper's sizes
// (n ≤ 80) keep every Hessian eigenvalue, larger problems get λ_min alone
// from Hessian–vector products (at n = 1000, r = 1 the dense Hessian took
// 37 s of an escape round, Lanczos a few milliseconds).
const DenseHessianMaxSize = 256

// StructuredCriticalMinN is the size above which AnalyzeCritical analyses a
// structured problem without n×n matrices (see CriticalPoint). At and below
// it (the paper's n ≤ 80 among them) the dense eigendecomposition is used.
const StructuredCriticalMinN = 256

// denseSpectrum fills H, GradNorm, GradF, GradFNorm, Lambda, LambdaN and Un
// from ∇f(X̂X̂ᵀ) as an n×n matrix.
func (p *Problem) denseSpectrum(ws *workspace, cp *CriticalPoint, opt CriticalOptions) error {
	n, r := p.Dims()
	// h, ∇h and ∇f(X̂X̂ᵀ).
	g := mat.NewDense(n, r, nil)
	cp.H = p.evalGrad(ws, g, cp.X)
	cp.GradNorm = mat.Norm(g, 2)
	if !isFinite(cp.H) || !isFinite(cp.GradNorm) {
		return fmt.Errorf("%w: h(X̂) = %v overflows", ErrNotFinite, cp.H)
	}
	cp.GradF = mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			cp.GradF.SetSym(i, j, 0.5*(ws.G.At(i, j)+ws.G.At(j, i)))
		}
	}

	// Spectral decomposition of ∇f(X̂X̂ᵀ); gonum returns ascending order.
	var eig mat.EigenSym
	if err := symEigen(&eig, cp.GradF, true, "∇f(X̂X̂ᵀ)"); err != nil {
		return err
	}
	asc := eig.Values(nil)
	cp.Lambda = make([]float64, n)
	for i := range asc {
		cp.Lambda[i] = asc[n-1-i]
	}
	cp.LambdaN = asc[0]
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	un := mat.VecDenseCopyOf(vecs.ColView(0))
	orientUn(un, opt)
	cp.Un = un
	cp.GradFNorm = mat.Norm(cp.GradF, 2)
	return nil
}

// denseEscapeTerms fills E, EX, EXNorm and Euu with n×n matrices.
func (p *Problem) denseEscapeTerms(ws *workspace, cp *CriticalPoint) {
	n, r := p.Dims()
	P := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			P.Set(i, j, cp.Un.AtVec(i)*cp.Vr.AtVec(j)+cp.Vr.AtVec(i)*cp.Un.AtVec(j))
		}
	}
	E := mat.NewDense(n, n, nil)
	applyNormal(p.Op, E, P, ws.res)
	cp.E = mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			cp.E.SetSym(i, j, 0.5*(E.At(i, j)+E.At(j, i)))
		}
	}
	cp.EX = mat.NewDense(n, r, nil)
	cp.EX.Mul(cp.E, cp.X)
	cp.EXNorm = mat.Norm(cp.EX, 2)
	cp.Euu = mat.Inner(cp.Un, cp.E, cp.Un)
}

// orientUn applies the sign convention of u_n (UnRef, or canonicalSign;
// then FlipUn).
func orientUn(un *mat.VecDense, opt CriticalOptions) {
	if opt.UnRef != nil {
		if mat.Dot(un, mat.NewVecDense(un.Len(), append([]float64(nil), opt.UnRef...))) < 0 {
			un.ScaleVec(-1, un)
		}
	} else {
		canonicalSign(un)
	}
	if opt.FlipUn {
		un.ScaleVec(-1, un)
	}
}

// canonicalSign applies the u_n sign rule: the last entry with
// |u_k| ≥ 1/(2√n) is made positive.
func canonicalSign(u *mat.VecDense) {
	n := u.Len()
	th := 0.5 / math.Sqrt(float64(n))
	for k := n - 1; k >= 0; k-- {
		if v := u.AtVec(k); math.Abs(v) >= th {
			if v < 0 {
				u.ScaleVec(-1, u)
			}
			return
		}
	}
}

// largestSign returns the sign of the first entry of largest magnitude.
func largestSign(q *mat.VecDense) float64 {
	best, s := -1.0, 1.0
	for i := 0; i < q.Len(); i++ {
		if v := q.AtVec(i); math.Abs(v) > best+1e-12 {
			best, s = math.Abs(v), math.Copysign(1, v)
		}
	}
	return s
}

// CheckSpurious returns an error wrapping ErrNotSpuriousMinimum unless the
// point is (numerically) a spurious second-order critical point in the sense
// of the paper's section 3: ‖∇h(X̂)‖_F ≤ gradTol and λ_n(∇f(X̂X̂ᵀ)) < 0
// (a negative eigenvalue is what makes X̂X̂ᵀ ≠ M* non-optimal for the convex
// function f on PSD matrices). It does not test HessMin: a strict saddle
// (HessMin < 0) passes, and the basic example's minimum has HessMin = 0.
func (cp *CriticalPoint) CheckSpurious(gradTol float64) error {
	if cp == nil || cp.X == nil {
		return errUnbuilt("CriticalPoint", "CheckSpurious", "AnalyzeCritical")
	}
	if !(gradTol >= 0) {
		return fmt.Errorf("%w: gradTol %v", ErrBadParameter, gradTol)
	}
	if cp.GradNorm > gradTol {
		return fmt.Errorf("%w: ‖∇h(X̂)‖_F = %.3g > %.3g (not a critical point)", ErrNotSpuriousMinimum, cp.GradNorm, gradTol)
	}
	if cp.LambdaN >= 0 {
		return fmt.Errorf("%w: λ_n(∇f(X̂X̂ᵀ)) = %.3g ≥ 0 (no negative curvature direction u_n)", ErrNotSpuriousMinimum, cp.LambdaN)
	}
	return nil
}

// IsLocalMinimum reports whether the Hessian of h at X̂ has no eigenvalue
// below −tol (second-order necessary condition). It is false if the
// Hessian was skipped.
func (cp *CriticalPoint) IsLocalMinimum(tol float64) bool {
	if cp == nil || cp.X == nil {
		return false
	}
	return (cp.HessEig != nil || cp.HessLanczos) && cp.HessMin >= -tol
}

// Hessian returns the full Hessian of h at X (nr×nr), in the row-major
// vectorisation vec(X)[i·r+k] = X[i,k], built column by column from
// Hessian–vector products ∇²h(X)[D] = 2𝒜*𝒜(DXᵀ + XDᵀ)X + 2∇f(XXᵀ)D.
// Cost: nr applications of 𝒜*𝒜.
func (p *Problem) Hessian(X mat.Matrix) (*mat.SymDense, error) {
	if err := p.CheckX(X); err != nil {
		return nil, err
	}
	if err := p.needDense("the Hessian"); err != nil {
		return nil, err
	}
	n, r := p.Dims()
	x := mat.DenseCopyOf(X)
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	p.evalGrad(ws, nil, x)
	G := mat.NewDense(n, n, nil)
	p.Op.Adjoint(G, ws.res)
	N := n * r
	p.count.addHessVec(N)
	H := mat.NewDense(N, N, nil)
	D := mat.NewDense(n, r, nil)
	S := mat.NewDense(n, n, nil)
	NS := mat.NewDense(n, n, nil)
	out := mat.NewDense(n, r, nil)
	for col := 0; col < N; col++ {
		i, k := col/r, col%r
		D.Zero()
		D.Set(i, k, 1)
		// S = D Xᵀ + X Dᵀ
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, D.RawMatrix(), x.RawMatrix(), 0, S.RawMatrix())
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, x.RawMatrix(), D.RawMatrix(), 1, S.RawMatrix())
		applyNormal(p.Op, NS, S, ws.res)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 2, NS.RawMatrix(), x.RawMatrix(), 0, out.RawMatrix())
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 2, G.RawMatrix(), D.RawMatrix(), 1, out.RawMatrix())
		for a := 0; a < n; a++ {
			for b := 0; b < r; b++ {
				H.Set(a*r+b, col, out.At(a, b))
			}
		}
	}
	hs := mat.NewSymDense(N, nil)
	for a := 0; a < N; a++ {
		for b := a; b < N; b++ {
			hs.SetSym(a, b, 0.5*(H.At(a, b)+H.At(b, a)))
		}
	}
	return hs, nil
}
