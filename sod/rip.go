package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"sodworkbench.org/workbench/sod/randstream"
)

// RIPEstimate is an estimate of the restricted isometry constant δ_p of the
// paper's Definition "RIP" (section 1.1): over symmetric M with rank ≤ p,
// (1−δ_p)‖M‖_F² ≤ ‖𝒜(M)‖² ≤ (1+δ_p)‖M‖_F². MinRatio and MaxRatio are the
// smallest and largest ratio ‖𝒜(M)‖²/‖M‖_F² found and
// Delta = max(1 − MinRatio, MaxRatio − 1) (REPRODUCTION.md C4).
//
// Sampling and optimisation explore only part of the set, so they give
// inner estimates: the true range contains [MinRatio, MaxRatio] and the
// true δ_p ≥ Delta. RIPExact is exact for p = n. Delta may be ≥ 1, in
// which case the operator has no RIP constant in [0, 1) for that rank.
type RIPEstimate struct {
	P                  int       // rank bound p
	MinRatio, MaxRatio float64   // extreme ratios ‖𝒜(M)‖²/‖M‖_F² found
	Delta              float64   // max(1 − MinRatio, MaxRatio − 1)
	Method             RIPMethod // how the estimate was obtained
	Evaluations        int       // number of matrices (or factors U) evaluated
}

// RIPMethod says how a RIPEstimate was obtained.
type RIPMethod int

const (
	// RIPByEigen: RIPExact, the exact range over all symmetric matrices.
	RIPByEigen RIPMethod = iota + 1
	// RIPBySampling: RIPSample, random rank-p matrices.
	RIPBySampling
	// RIPByOptimization: RIPOptimize, Nelder–Mead over rank-p factors.
	RIPByOptimization
)

var ripMethodText = [...]string{RIPByEigen: "exact", RIPBySampling: "sample", RIPByOptimization: "optimize"}

// String returns "exact", "sample" or "optimize".
func (m RIPMethod) String() string { return enumString("RIPMethod", ripMethodText[:], int(m)) }

// MarshalText implements encoding.TextMarshaler with the words of String.
func (m RIPMethod) MarshalText() ([]byte, error) {
	return enumMarshal("RIPMethod", ripMethodText[:], int(m))
}

// UnmarshalText implements encoding.TextUnmarshaler for the words of String.
func (m *RIPMethod) UnmarshalText(b []byte) error {
	return enumUnmarshal("RIPMethod", ripMethodText[:], b, (*int)(m))
}

func newRIPEstimate(p int, lo, hi float64, method RIPMethod, evals int) *RIPEstimate {
	return &RIPEstimate{P: p, MinRatio: lo, MaxRatio: hi, Delta: math.Max(1-lo, hi-1), Method: method, Evaluations: evals}
}

// maxRIPExactN bounds n for RIPExact (the n(n+1)/2 square eigenproblem).
const maxRIPExactN = 60

// RIPExact returns the exact extreme ratios over all symmetric matrices
// (p = n): the extreme eigenvalues of ΦᵀΦ, where the columns of Φ
// (m × n(n+1)/2) are 𝒜 applied to the orthonormal basis E_ii,
// (E_ij + E_ji)/√2 of symmetric matrices (REPRODUCTION.md C4). It needs n ≤ 60.
func RIPExact(op Operator) (*RIPEstimate, error) {
	if err := checkOperator(op); err != nil {
		return nil, err
	}
	n, m := op.Dims()
	if n > maxRIPExactN {
		return nil, fmt.Errorf("%w: RIPExact needs n ≤ %d, got %d", ErrBadParameter, maxRIPExactN, n)
	}
	N := n * (n + 1) / 2
	phi := mat.NewDense(m, N, nil)
	B := mat.NewDense(n, n, nil)
	y := make([]float64, m)
	col := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			B.Zero()
			if i == j {
				B.Set(i, i, 1)
			} else {
				B.Set(i, j, 1/math.Sqrt2)
				B.Set(j, i, 1/math.Sqrt2)
			}
			op.Apply(y, B)
			phi.SetCol(col, y)
			col++
		}
	}
	var g mat.SymDense
	g.SymOuterK(1, phi.T())
	var eig mat.EigenSym
	if err := symEigen(&eig, &g, false, "ΦᵀΦ"); err != nil {
		return nil, err
	}
	v := eig.RawValues()
	return newRIPEstimate(n, math.Max(v[0], 0), v[len(v)-1], RIPByEigen, N), nil
}

// RIPSample estimates δ_p by sampling: M = U diag(s) Uᵀ with U the
// orthonormal factor of an n×p standard Gaussian matrix and s ~ N(0, I_p),
// for the given number of samples (seeded). This mirrors the authors'
// sampling estimate; it is an inner estimate of the ratio range. The rank
// p must lie in [1, n] (δ_p for p > n is δ_n: ask for p = n) and samples
// must be ≥ 1, else the error wraps ErrBadParameter. ctx is checked every
// 1024 samples.
func RIPSample(ctx context.Context, op Operator, p, samples int, seed uint64) (*RIPEstimate, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	if err := checkOperator(op); err != nil {
		return nil, err
	}
	n, _ := op.Dims()
	if p < 1 || p > n || samples < 1 {
		return nil, fmt.Errorf("%w: RIPSample needs the rank p in [1, n = %d] and samples ≥ 1, got p = %d, samples = %d", ErrBadParameter, n, p, samples)
	}
	rng := randstream.New(seed, randstream.RIPSamples)
	ev := newRIPEval(op, p)
	y := mat.NewDense(n, p, nil)
	s := make([]float64, p)
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := 0; k < samples; k++ {
		if k%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("sod: RIPSample stopped at sample %d: %w", k, err)
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				y.Set(i, j, rng.NormFloat64())
			}
		}
		for j := range s {
			s[j] = rng.NormFloat64()
		}
		ev.setU(y)
		r := ev.ratio(s)
		lo, hi = math.Min(lo, r), math.Max(hi, r)
	}
	return newRIPEstimate(p, lo, hi, RIPBySampling, samples), nil
}

// RIPOptimize estimates δ_p by optimisation over rank-p symmetric matrices
// M = U diag(s) Uᵀ (REPRODUCTION.md C4): for a fixed orthonormal U the extreme ratios
// are the extreme eigenvalues of the p×p matrix K_U = Φ_Uᵀ Φ_U with
// Φ_U = [𝒜(u_k u_kᵀ)]_k, and these are minimised and maximised over U with
// gonum/optimize's Nelder–Mead (run in the caller's goroutine) from the given number of seeded random
// starts (the reference used 40). It is an inner estimate, usually sharp.
// p must lie in [1, n] and starts be ≥ 1 (else ErrBadParameter). ctx is
// checked before every start.
func RIPOptimize(ctx context.Context, op Operator, p, starts int, seed uint64) (*RIPEstimate, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	if err := checkOperator(op); err != nil {
		return nil, err
	}
	n, _ := op.Dims()
	if p < 1 || p > n || starts < 1 {
		return nil, fmt.Errorf("%w: RIPOptimize needs the rank p in [1, n = %d] and starts ≥ 1, got p = %d, starts = %d", ErrBadParameter, n, p, starts)
	}
	rng := randstream.New(seed, randstream.RIPStarts)
	ev := newRIPEval(op, p)
	y := mat.NewDense(n, p, nil)
	evals := 0
	extreme := func(x []float64, sign float64) float64 {
		evals++
		y.SetRawMatrix(blas64.General{Rows: n, Cols: p, Stride: p, Data: x}) // setU only reads y
		lo, hi := ev.setU(y)
		if sign > 0 {
			return lo
		}
		return -hi
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	x0 := make([]float64, n*p)
	for k := 0; k < starts; k++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sod: RIPOptimize stopped at start %d: %w", k, err)
		}
		for i := range x0 {
			x0[i] = rng.NormFloat64()
		}
		for _, sign := range []float64{1, -1} {
			// gonum's Nelder–Mead under Minimize's settings, in this goroutine
			// (neldermead.go: the same minimum to the bit).
			res := minimizeNelderMead(func(x []float64) float64 { return extreme(x, sign) }, x0, 400*n*p,
				&optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-13, Iterations: 50 * n * p})
			if sign > 0 {
				lo = math.Min(lo, res.F)
			} else {
				hi = math.Max(hi, -res.F)
			}
		}
	}
	return newRIPEstimate(p, math.Max(lo, 0), hi, RIPByOptimization, evals), nil
}

// ripEval evaluates ratios for M = U diag(s) Uᵀ.
type ripEval struct {
	op   Operator
	n, p int
	U    *mat.Dense // n×p: y's QR factors, then the orthonormal factor Q
	tau  []float64
	work []float64
	phiU *mat.Dense // m×p
	K    *mat.SymDense
	uu   *mat.Dense
	y    []float64
	kc   blas64.Symmetric // the copy of K that Syev overwrites
	w    []float64        // K's eigenvalues
	ew   []float64        // Syev's work, of the size its query gives
}

func newRIPEval(op Operator, p int) *ripEval {
	n, m := op.Dims()
	e := &ripEval{op: op, n: n, p: p, U: mat.NewDense(n, p, nil), tau: make([]float64, p), phiU: mat.NewDense(m, p, nil),
		K: mat.NewSymDense(p, nil), uu: mat.NewDense(n, n, nil), y: make([]float64, m),
		kc: blas64.Symmetric{N: p, Stride: p, Data: make([]float64, p*p), Uplo: blas.Upper}, w: make([]float64, p)}
	q := []float64{0, 0, 0}
	lapack64.Geqrf(e.U.RawMatrix(), e.tau, q[:1], -1)
	lapack64.Orgqr(e.U.RawMatrix(), e.tau, q[1:2], -1)
	e.work = make([]float64, int(math.Max(q[0], q[1])))
	lapack64.Syev(lapack.EVNone, e.kc, e.w, q[2:], -1)
	e.ew = make([]float64, int(q[2]))
	return e
}

// setU orthonormalises y (n×p), builds K_U and returns its extreme
// eigenvalues. U is the thin Q of y's Householder QR (LAPACK's geqrf and
// orgqr, as gonum's mat.QR computes it, without the condition estimate
// and the square Q that mat.QR adds: its p columns are the same numbers).
// The rest is what gonum's mat.Dense.Outer, SymDense.SymOuterK and
// EigenSym.Factorize compute, called at the BLAS and LAPACK level without
// their allocations and checks: the same routines on the same operands,
// so the same numbers to the bit (TestRIPEvalMatchesMat).
func (e *ripEval) setU(y *mat.Dense) (lo, hi float64) {
	e.U.Copy(y)
	raw := e.U.RawMatrix()
	lapack64.Geqrf(raw, e.tau, e.work, len(e.work))
	lapack64.Orgqr(raw, e.tau, e.work, len(e.work))
	n, p, uu := e.n, e.p, e.uu.RawMatrix().Data
	for k := 0; k < p; k++ {
		// uu = u_k u_kᵀ as Dense.Outer(1, u, u): a zeroed matrix plus BLAS Ger's 1·u_i·u_j,
		// written out: blas64.Ger on the strided column gives the same numbers
		// but costs the RIP table 1.6× in WebAssembly (BenchmarkRIPOptimize under node, AMD EPYC).
		clear(uu)
		for i := 0; i < n; i++ {
			ui := 1 * raw.Data[i*raw.Stride+k]
			row := uu[i*n : i*n+n]
			for j := range row {
				row[j] += ui * raw.Data[j*raw.Stride+k]
			}
		}
		e.op.Apply(e.y, e.uu)
		e.phiU.SetCol(k, e.y)
	}
	// K = Φ_Uᵀ Φ_U as SymOuterK: the upper triangle zeroed, then Syrk with β = 1.
	K := e.K.RawSymmetric()
	for i := 0; i < p; i++ {
		clear(K.Data[i*K.Stride+i : i*K.Stride+p])
	}
	blas64.Syrk(blas.Trans, 1, e.phiU.RawMatrix(), 1, K)
	// The eigenvalues as EigenSym.Factorize(K, false): Syev on a zeroed
	// matrix holding K's upper triangle, with the work its query asks for.
	clear(e.kc.Data)
	for i := 0; i < p; i++ {
		copy(e.kc.Data[i*p+i:i*p+p], K.Data[i*K.Stride+i:i*K.Stride+p])
	}
	if !lapack64.Syev(lapack.EVNone, e.kc, e.w, e.ew, len(e.ew)) {
		return math.Inf(1), math.Inf(-1)
	}
	return e.w[0], e.w[p-1]
}

// ratio returns sᵀK_U s / ‖s‖² for the current U.
func (e *ripEval) ratio(s []float64) float64 {
	sv := mat.NewVecDense(len(s), s)
	return mat.Inner(sv, e.K, sv) / floats.Dot(s, s)
}

// checkOperator validates a user-supplied operator's dimensions.
func checkOperator(op Operator) error {
	if op == nil {
		return fmt.Errorf("%w: nil operator", ErrBadParameter)
	}
	n, m := op.Dims()
	if m < 1 {
		return ErrNoMeasurements
	}
	if n < 1 {
		return fmt.Errorf("%w: operator dimension n = %d", ErrShape, n)
	}
	return nil
}
