package sod

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
)

// Problem is the Burer–Monteiro factorised matrix sensing problem (P1) of
// the paper's section 1.1:
//
//	min_{X ∈ ℝ^{n×r}} h(X) = f(XXᵀ) = ½‖𝒜(XXᵀ) − b‖²,
//
// with f(M) = ½‖𝒜(M) − b‖², ∇f(M) = 𝒜*(𝒜(M) − b) and, by the chain rule
// (eq. matrix_gradient), ∇h(X) = 2∇f(XXᵀ)X. With b = 𝒜(M*) this is the
// paper's 2𝒜*𝒜(XXᵀ − M*)X; the ½ in h and the 2 from differentiating XXᵀ
// cancel as stated (REPRODUCTION.md C1, checked by finite differences in the tests).
//
// Build a Problem with NewProblem or NewProblemFromMeasurements. Do not
// modify its fields afterwards. The methods H, Grad, GradF, HessVec and
// DistStar are safe for concurrent use; like gonum/mat they return no
// error and panic on mismatched dimensions: the panic value is an error
// wrapping ErrShape that names the shapes (X is 4×1, want 3×1), raised
// before any work, never an index out of range or a value computed from
// part of X. Validate untrusted input with CheckX first, which returns that
// error instead. The higher-level entry points (GradientDescent,
// AnalyzeCritical, SingleStep) validate their input and return errors.
type Problem struct {
	Op    Operator      // sensing operator 𝒜
	B     []float64     // measurements b (length m)
	Z     *mat.Dense    // ground truth factor (n×rank), nil if unknown
	MStar *mat.SymDense // M* = ZZᵀ, nil if unknown
	R     int           // search rank r_search (columns of X)

	st   *masked   // structured path (see NewProblem), nil if none
	pool sync.Pool // *workspace

	count *EvalCounter // oracle counter (WithCounter), nil if none
}

// MaxDenseSize is the largest n for which a Problem allocates n×n arrays:
// M*, the measurements b of an elementwise operator (n(n+1)/2 of them) and
// the workspace of the dense path, 32 MiB each at the limit. Above it only
// the structured path exists (see NewProblem).
const MaxDenseSize = 2048

// NewProblem returns the problem with operator op, ground-truth factor Z
// (n×k for any k ≥ 1), measurements b = 𝒜(ZZᵀ) and search rank r ≥ 1.
// Z is copied.
//
// Structured path. When op's squared weights are "all ones, minus a
// rank-one term, plus a diagonal" (PMC) and the truth is low-rank
// (2(r + k)² ≤ n·r), H, Grad, DistStar, HessVec, GradientDescent, RunEscape
// and AnalyzeCritical (for n > 256) evaluate h, ∇h, ‖XXᵀ − M*‖_F and
// ∇f(XXᵀ)-products from n×(r + k) factors, in O(n(r + k)²) time and
// O(n(r + k)) memory (structured.go), matching the dense path to rounding
// (about 1e-13 relative, tested) and keeping h accurate near the minimum.
// B and MStar are then filled only for n ≤ MaxDenseSize (nil above; HasTruth
// is still true); a PMC problem works up to n = MaxPMCSize. Every other
// problem needs n ≤ MaxDenseSize.
func NewProblem(op Operator, Z *mat.Dense, r int) (*Problem, error) {
	if op == nil {
		return nil, fmt.Errorf("%w: nil operator", ErrBadParameter)
	}
	n, m := op.Dims()
	if m < 1 {
		return nil, ErrNoMeasurements
	}
	if Z == nil {
		return nil, fmt.Errorf("%w: nil ground truth Z", ErrShape)
	}
	zr, zc := Z.Dims()
	if zr != n || zc < 1 {
		return nil, fmt.Errorf("%w: Z is %d×%d, want %d×k", ErrShape, zr, zc, n)
	}
	if r < 1 {
		return nil, fmt.Errorf("%w: search rank r = %d, want r ≥ 1", ErrBadParameter, r)
	}
	if err := checkFinite("Z", Z); err != nil {
		return nil, err
	}
	zc2 := mat.DenseCopyOf(Z)
	st := newMasked(op, zc2, r)
	if n > MaxDenseSize {
		if st == nil {
			return nil, fmt.Errorf("%w: n = %d needs n×n arrays, want n ≤ %d (MaxDenseSize) unless the operator has structured weights (PMC) and 2(r + k)² ≤ n·r", ErrBadParameter, n, MaxDenseSize)
		}
		return &Problem{Op: op, Z: zc2, R: r, st: st}, nil
	}
	ms := mat.NewSymDense(n, nil)
	ms.SymOuterK(1, zc2)
	b := make([]float64, m)
	if _, ok := op.(*PMCOperator); ok {
		op.Apply(b, ms) // reads the symmetric storage directly
	} else {
		op.Apply(b, symToDense(ms))
	}
	if err := checkFiniteSlice("b", b); err != nil {
		return nil, err
	}
	return &Problem{Op: op, B: b, Z: zc2, MStar: ms, R: r, st: st}, nil
}

// NewProblemFromMeasurements returns the problem with operator op,
// measurements b (length m, finite, copied) and search rank r ≥ 1. The
// ground truth is unknown: Z and MStar are nil.
func NewProblemFromMeasurements(op Operator, b []float64, r int) (*Problem, error) {
	if op == nil {
		return nil, fmt.Errorf("%w: nil operator", ErrBadParameter)
	}
	_, m := op.Dims()
	if m < 1 {
		return nil, ErrNoMeasurements
	}
	if len(b) != m {
		return nil, fmt.Errorf("%w: len(b) = %d, want m = %d", ErrShape, len(b), m)
	}
	if r < 1 {
		return nil, fmt.Errorf("%w: search rank r = %d, want r ≥ 1", ErrBadParameter, r)
	}
	if err := checkFiniteSlice("b", b); err != nil {
		return nil, err
	}
	return &Problem{Op: op, B: append([]float64(nil), b...), R: r}, nil
}

// Dims returns n (X has n rows) and the search rank r (X has r columns);
// 0, 0 for a nil problem or operator.
func (p *Problem) Dims() (n, r int) {
	if p == nil || p.Op == nil {
		return 0, 0
	}
	n, _ = p.Op.Dims()
	return n, p.R
}

// HasTruth reports whether the ground truth M* is known (MStar, or for a
// structured problem with n > MaxDenseSize its factor Z).
func (p *Problem) HasTruth() bool { return p != nil && (p.MStar != nil || p.st != nil) }

// Structured reports whether h, ∇h and ‖XXᵀ − M*‖_F take the structured
// path (see NewProblem).
func (p *Problem) Structured() bool { return p != nil && p.st != nil }

// DensePath returns a copy of p that evaluates h, ∇h and ‖XXᵀ − M*‖_F on
// the dense path (for checking the structured one, or timing it). It
// needs the dense data: n ≤ MaxDenseSize.
func (p *Problem) DensePath() (*Problem, error) {
	if p == nil || p.Op == nil {
		return nil, fmt.Errorf("%w: DensePath of a nil problem or operator", ErrBadParameter)
	}
	if p.B == nil {
		n, _ := p.Dims()
		return nil, fmt.Errorf("%w: the dense path needs n ≤ %d (MaxDenseSize), have n = %d", ErrBadParameter, MaxDenseSize, n)
	}
	return &Problem{Op: p.Op, B: p.B, Z: p.Z, MStar: p.MStar, R: p.R}, nil
}

// WithCounter returns a Problem that evaluates exactly as p (it shares p's
// operator, data and structured path) and counts its oracle calls in c
// (nil: none). p itself is unchanged, so several runs on one problem each
// count their own calls. A nil p gives nil, which every function taking a
// problem refuses with ErrBadParameter.
func (p *Problem) WithCounter(c *EvalCounter) *Problem {
	if p == nil {
		return nil
	}
	return &Problem{Op: p.Op, B: p.B, Z: p.Z, MStar: p.MStar, R: p.R, st: p.st, count: c}
}

// needDense returns an error naming n and MaxDenseSize when p has no dense
// data (a structured problem above MaxDenseSize) and what needs it.
func (p *Problem) needDense(what string) error {
	if p == nil || p.Op == nil {
		return fmt.Errorf("%w: %s: nil problem or operator", ErrBadParameter, what)
	}
	if p.B == nil && p.st != nil {
		n, _ := p.Dims()
		return fmt.Errorf("%w: %s needs n×n arrays, want n ≤ %d (MaxDenseSize), have n = %d", ErrBadParameter, what, MaxDenseSize, n)
	}
	return nil
}

// traceMStar returns Tr(M*) = ‖Z‖_F² (M* must be known).
func (p *Problem) traceMStar() float64 {
	if p.MStar != nil {
		return mat.Trace(p.MStar)
	}
	return p.st.zz
}

// Validate checks the problem itself: a non-nil operator with m ≥ 1,
// len(B) = m with finite entries, R ≥ 1 and, when present, MStar n×n.
// It is useful for Problems built as struct literals.
func (p *Problem) Validate() error {
	if p == nil || p.Op == nil {
		return fmt.Errorf("%w: nil problem or operator", ErrBadParameter)
	}
	n, m := p.Op.Dims()
	if m < 1 {
		return ErrNoMeasurements
	}
	if len(p.B) != m && !(p.B == nil && p.st != nil) {
		return fmt.Errorf("%w: len(B) = %d, want m = %d", ErrShape, len(p.B), m)
	}
	if err := checkFiniteSlice("b", p.B); err != nil {
		return err
	}
	if p.R < 1 {
		return fmt.Errorf("%w: search rank R = %d, want R ≥ 1", ErrBadParameter, p.R)
	}
	if p.MStar != nil && p.MStar.IsEmpty() {
		return fmt.Errorf("%w: MStar is empty (a zero mat.SymDense), want %d×%d or nil", ErrShape, n, n)
	}
	if p.MStar != nil && p.MStar.SymmetricDim() != n {
		return fmt.Errorf("%w: MStar is %d×%d, want %d×%d", ErrShape, p.MStar.SymmetricDim(), p.MStar.SymmetricDim(), n, n)
	}
	return nil
}

// CheckX returns an error wrapping ErrShape if X is not n×r and one
// wrapping ErrNotFinite if it has a NaN or infinite entry.
func (p *Problem) CheckX(X mat.Matrix) error {
	if p == nil || p.Op == nil {
		return fmt.Errorf("%w: CheckX on a nil problem or operator", ErrBadParameter)
	}
	if X == nil {
		return fmt.Errorf("%w: nil X", ErrShape)
	}
	n, r := p.Dims()
	xr, xc := X.Dims()
	if xr != n || xc != r {
		return fmt.Errorf("%w: X is %d×%d, want %d×%d", ErrShape, xr, xc, n, r)
	}
	return checkFinite("X", X)
}

// mustShape panics with an error wrapping ErrShape unless X (what) is
// rows×cols: the gonum/mat convention for a dimension mismatch in a method
// without an error result.
func mustShape(method, what string, X mat.Matrix, rows, cols int) {
	if X == nil {
		panic(fmt.Errorf("%w: Problem.%s: nil %s, want %d×%d", ErrShape, method, what, rows, cols))
	}
	if xr, xc := X.Dims(); xr != rows || xc != cols {
		panic(fmt.Errorf("%w: Problem.%s: %s is %d×%d, want %d×%d", ErrShape, method, what, xr, xc, rows, cols))
	}
}

// mustDims returns p's n and r for a hot method, panicking like mustShape
// (an error wrapping ErrShape) when p or its operator is nil: such a
// problem has no shape.
func (p *Problem) mustDims(method string) (n, r int) {
	if p == nil || p.Op == nil {
		panic(fmt.Errorf("%w: Problem.%s on a nil problem or operator (no shape)", ErrShape, method))
	}
	return p.Dims()
}

// mustDst is mustShape for a destination, which may also be empty.
func mustDst(method string, dst *mat.Dense, rows, cols int) {
	if dst == nil {
		panic(fmt.Errorf("%w: Problem.%s: nil dst, want %d×%d or empty", ErrShape, method, rows, cols))
	}
	if dst.IsEmpty() {
		dst.ReuseAs(rows, cols)
		return
	}
	mustShape(method, "dst", dst, rows, cols)
}

// workspace holds the preallocated buffers of one h/∇h evaluation. The
// dense buffers (n×n and m) are allocated on first use, so a structured
// problem never allocates them.
type workspace struct {
	n, r, m int
	M, G    *mat.Dense // n×n
	res     []float64  // m
	x       *mat.Dense // n×r copy of a non-Dense X
	d       *mat.Dense // n×r copy of a non-Dense HessVec direction
	sw      *maskedWork
}

func (p *Problem) getWorkspace() *workspace {
	n, m := p.Op.Dims()
	if ws, ok := p.pool.Get().(*workspace); ok && ws.n == n && ws.m == m && ws.r == p.R {
		return ws
	}
	ws := &workspace{n: n, r: p.R, m: m}
	if p.st != nil {
		ws.sw = p.st.newWork()
	}
	return ws
}

// dense allocates the buffers of the dense path.
func (ws *workspace) dense() {
	if ws.M == nil {
		ws.M = mat.NewDense(ws.n, ws.n, nil)
		ws.G = mat.NewDense(ws.n, ws.n, nil)
		ws.res = make([]float64, ws.m)
	}
}

func (p *Problem) putWorkspace(ws *workspace) { p.pool.Put(ws) }

// asDenseD is asDense for a second n×r operand (HessVec's direction),
// copying into ws.d when needed.
func (ws *workspace) asDenseD(D mat.Matrix) *mat.Dense {
	if d, ok := D.(*mat.Dense); ok {
		return d
	}
	if ws.d == nil {
		ws.d = mat.NewDense(ws.n, ws.r, nil)
	}
	ws.d.Copy(D)
	return ws.d
}

// asDense returns X as a *mat.Dense, copying into ws.x when needed.
func (ws *workspace) asDense(X mat.Matrix) *mat.Dense {
	if d, ok := X.(*mat.Dense); ok {
		return d
	}
	if ws.x == nil {
		ws.x = mat.NewDense(ws.n, ws.r, nil)
	}
	ws.x.Copy(X)
	return ws.x
}

// evalGrad computes h(X) and, if dst is not nil, ∇h(X) = 2∇f(XXᵀ)X into
// dst (which must not alias X). It leaves XXᵀ in ws.M, the residual
// 𝒜(XXᵀ) − b in ws.res and ∇f(XXᵀ) in ws.G. It does not allocate.
func (p *Problem) evalGrad(ws *workspace, dst *mat.Dense, X *mat.Dense) float64 {
	ws.dense()
	outerSelf(ws.M, X)
	p.Op.Apply(ws.res, ws.M)
	h := 0.0
	for i, v := range ws.res {
		d := v - p.B[i]
		ws.res[i] = d
		h += d * d
	}
	if dst != nil {
		p.Op.Adjoint(ws.G, ws.res)
		mulInto(dst, 2, ws.G, X)
	}
	return 0.5 * h
}

// gradFast is evalGrad without the side results (ws.M, ws.res and ws.G may
// not be set), using the structured path or an operator's fused
// single-pass path when there is one. It is the evaluation used inside
// GradientDescent. After a structured evaluation ws.sw.dist holds
// ‖XXᵀ − M*‖_F.
func (p *Problem) gradFast(ws *workspace, dst *mat.Dense, X *mat.Dense) float64 {
	p.count.addEval(dst != nil)
	if p.st != nil {
		return finiteOrInf(p.st.eval(ws.sw, dst, X).h(p.st))
	}
	if f, ok := p.Op.(fusedGrader); ok {
		return f.gradH(dst, X, p.B)
	}
	return p.evalGrad(ws, dst, X)
}

// stepGradFast is gradient descent's step: it stores next = x + α·g, then
// ∇h(next) in g, and returns h(next) and ss, the sum of the squares of g's
// new entries in some order (−1 if g is not contiguous).
// It counts one gradient evaluation, as gradFast.
func (p *Problem) stepGradFast(ws *workspace, next, x, g *mat.Dense, alpha float64) (h, ss float64) {
	if p.st != nil {
		p.count.addEval(true)
		h = finiteOrInf(p.st.stepEval(ws.sw, g, next, x, g, alpha).h(p.st))
		return h, ws.sw.gradSSOr(g)
	}
	stepInto(next, x, g, alpha)
	h = p.gradFast(ws, g, next)
	return h, kernel.SumSquares(g)
}

// fusedGrader is implemented by operators with a single-pass h/∇h
// (currently PMC).
type fusedGrader interface {
	gradH(dst, X *mat.Dense, b []float64) float64
}

// smallRank is the largest r for which the XXᵀ and GX products use plain
// loops; larger r use BLAS (whose parallel Gemm allocates).
const smallRank = 16

// outerSelf stores X Xᵀ (n×n) in dst without allocating.
func outerSelf(dst, X *mat.Dense) {
	xr := X.RawMatrix()
	if xr.Cols > smallRank {
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, xr, xr, 0, dst.RawMatrix())
		return
	}
	n, r := xr.Rows, xr.Cols
	dr := dst.RawMatrix()
	for i := 0; i < n; i++ {
		xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
		for j := i; j < n; j++ {
			xj := xr.Data[j*xr.Stride : j*xr.Stride+r]
			s := 0.0
			for k, v := range xi {
				s += v * xj[k]
			}
			dr.Data[i*dr.Stride+j] = s
			dr.Data[j*dr.Stride+i] = s
		}
	}
}

// mulInto stores alpha·A·X in dst (A n×n, X n×r) without allocating.
func mulInto(dst *mat.Dense, alpha float64, A, X *mat.Dense) {
	xr := X.RawMatrix()
	if xr.Cols > smallRank {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, alpha, A.RawMatrix(), xr, 0, dst.RawMatrix())
		return
	}
	n, r := xr.Rows, xr.Cols
	ar, dr := A.RawMatrix(), dst.RawMatrix()
	for i := 0; i < n; i++ {
		d := dr.Data[i*dr.Stride : i*dr.Stride+r]
		for k := range d {
			d[k] = 0
		}
		arow := ar.Data[i*ar.Stride : i*ar.Stride+ar.Cols]
		for j, a := range arow {
			if a == 0 {
				continue
			}
			xj := xr.Data[j*xr.Stride : j*xr.Stride+r]
			for k, v := range xj {
				d[k] += a * v
			}
		}
		for k := range d {
			d[k] *= alpha
		}
	}
}

// H returns h(X) = ½‖𝒜(XXᵀ) − b‖² (eq. P1), +Inf where it overflows
// (never NaN). X must be n×r (else H panics with an error wrapping
// ErrShape, see Problem).
func (p *Problem) H(X mat.Matrix) float64 {
	n, r := p.mustDims("H")
	mustShape("H", "X", X, n, r)
	p.count.addEval(false)
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	if p.st != nil {
		return finiteOrInf(p.st.eval(ws.sw, nil, ws.asDense(X)).h(p.st))
	}
	return finiteOrInf(p.evalGrad(ws, nil, ws.asDense(X)))
}

// Grad stores ∇h(X) = 2∇f(XXᵀ)X (eq. matrix_gradient) in dst, which must
// be n×r (or empty, in which case it is resized); X must be n×r (else
// Grad panics with an error wrapping ErrShape, see Problem). Where ∇h
// overflows at a finite X, its entries are infinite, never NaN: an entry
// whose sums overflowed with both signs (∞ − ∞) is +Inf, so ‖∇h‖_F is
// +Inf.
func (p *Problem) Grad(dst *mat.Dense, X mat.Matrix) {
	n, r := p.mustDims("Grad")
	mustShape("Grad", "X", X, n, r)
	mustDst("Grad", dst, n, r)
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	x := ws.asDense(X)
	if dst == x {
		tmp := mat.NewDense(n, r, nil)
		p.gradFast(ws, tmp, x)
		dst.Copy(tmp)
	} else {
		p.gradFast(ws, dst, x)
	}
	overflowToInf(dst, X)
}

// overflowToInf replaces the NaN entries of dst by +Inf when the
// operands are finite, so that a NaN can only come from a NaN operand:
// at finite operands a NaN is ∞ − ∞ in an overflowed sum (see Grad).
func overflowToInf(dst *mat.Dense, operands ...mat.Matrix) {
	if ss := kernel.SumSquares(dst); ss >= 0 || math.IsInf(ss, 1) {
		return // contiguous and no NaN (a NaN entry makes the sum NaN)
	}
	for _, a := range operands {
		if checkFinite("", a) != nil {
			return
		}
	}
	r, c := dst.Dims()
	for i := 0; i < r; i++ {
		row := dst.RawRowView(i)
		for j, v := range row[:c] {
			if math.IsNaN(v) {
				row[j] = math.Inf(1)
			}
		}
	}
}

// GradF stores ∇f(M) = 𝒜*(𝒜(M) − b) in dst (n×n, or empty); M must be
// n×n (else GradF panics with an error wrapping ErrShape, see Problem).
// Overflow at a finite M gives infinite entries, never NaN (see Grad).
func (p *Problem) GradF(dst *mat.Dense, M mat.Matrix) {
	n, _ := p.mustDims("GradF")
	mustShape("GradF", "M", M, n, n)
	mustDst("GradF", dst, n, n)
	defer overflowToInf(dst, M)
	if p.B == nil && p.st != nil {
		p.st.gradF(p.Op.(NormalOperator), dst, M)
		return
	}
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	ws.dense()
	p.Op.Apply(ws.res, M)
	for i := range ws.res {
		ws.res[i] -= p.B[i]
	}
	p.Op.Adjoint(dst, ws.res)
}

// HessVec stores the Hessian–vector product of h at X in direction D (both
// n×r) in dst (n×r, or empty):
//
//	∇²h(X)[D] = 2𝒜*𝒜(DXᵀ + XDᵀ)X + 2∇f(XXᵀ)D   (REPRODUCTION.md C1).
//
// A mismatched shape panics with an error wrapping ErrShape (see Problem).
// Overflow at finite X and D gives infinite entries, never NaN (see Grad).
func (p *Problem) HessVec(dst *mat.Dense, X, D mat.Matrix) {
	n, r := p.mustDims("HessVec")
	mustShape("HessVec", "X", X, n, r)
	mustShape("HessVec", "D", D, n, r)
	mustDst("HessVec", dst, n, r)
	p.count.addHessVec(1)
	defer overflowToInf(dst, X, D)
	if p.st != nil {
		ws := p.getWorkspace()
		p.st.hessVec(ws.sw, dst, ws.asDense(X), ws.asDenseD(D))
		p.putWorkspace(ws)
		return
	}
	x := mat.DenseCopyOf(X)
	d := mat.DenseCopyOf(D)
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	p.evalGrad(ws, nil, x)
	p.Op.Adjoint(ws.G, ws.res) // ∇f(XXᵀ)
	// ws.M = DXᵀ + XDᵀ
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, d.RawMatrix(), x.RawMatrix(), 0, ws.M.RawMatrix())
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, x.RawMatrix(), d.RawMatrix(), 1, ws.M.RawMatrix())
	nm := mat.NewDense(n, n, nil)
	applyNormal(p.Op, nm, ws.M, ws.res)
	out := mat.NewDense(n, r, nil)
	out.Mul(nm, x)
	var gd mat.Dense
	gd.Mul(ws.G, d)
	out.Add(out, &gd)
	out.Scale(2, out)
	dst.Copy(out)
}

// DistStar returns ‖XXᵀ − M*‖_F, the distance to the ground truth used in
// the paper's figures, +Inf where it overflows. When M* is unknown
// (HasTruth is false) it returns −1, never NaN. X must be n×r (else DistStar panics with an error
// wrapping ErrShape, see Problem).
func (p *Problem) DistStar(X mat.Matrix) float64 {
	n, r := p.mustDims("DistStar")
	mustShape("DistStar", "X", X, n, r)
	if !p.HasTruth() {
		return -1
	}
	ws := p.getWorkspace()
	defer p.putWorkspace(ws)
	return finiteOrInf(p.distStar(ws, ws.asDense(X)))
}

// distStar computes ‖XXᵀ − M*‖_F over the upper triangle, without
// forming XXᵀ or allocating.
func (p *Problem) distStar(ws *workspace, X *mat.Dense) float64 {
	if p.st != nil {
		return p.st.eval(ws.sw, nil, X).dist()
	}
	xr := X.RawMatrix()
	n, r := xr.Rows, xr.Cols
	ms := p.MStar.RawSymmetric()
	s := 0.0
	for i := 0; i < n; i++ {
		xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
		mrow := ms.Data[i*ms.Stride:]
		for j := i; j < n; j++ {
			xj := xr.Data[j*xr.Stride : j*xr.Stride+r]
			m := 0.0
			for k, v := range xi {
				m += v * xj[k]
			}
			d := m - mrow[j]
			if j == i {
				s += d * d
			} else {
				s += 2 * d * d
			}
		}
	}
	return math.Sqrt(s)
}

// checkFiniteSlice returns ErrNotFinite if v has a NaN or infinite entry.
func checkFiniteSlice(what string, v []float64) error {
	for i, x := range v {
		if !isFinite(x) {
			return fmt.Errorf("%w: %s[%d] = %v", ErrNotFinite, what, i, x)
		}
	}
	return nil
}

// symToDense returns s as a new contiguous n×n Dense with the same
// entries (mat.Dense.Copy would read them one At call at a time: at n in
// the thousands, as in the scaling study, the copy cost more than 𝒜(M*)).
func symToDense(s *mat.SymDense) *mat.Dense {
	raw := s.RawSymmetric()
	n := raw.N
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			d[i*n+j] = row[j]
			d[j*n+i] = row[j]
		}
	}
	return mat.NewDense(n, n, d)
}
