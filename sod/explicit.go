package sod

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// ExplicitMaxBytes is the memory limit of ExplicitLifting: NewExplicitLifting
// refuses (with ErrTooLarge) a problem whose dense tensors would need more
// than this many bytes in total. 512 MiB allows, for example, n = 5, r = 1,
// l = 5 with m ≤ 15, but not n = 6, l = 5 (n^{2l} alone is 484 MB).
const ExplicitMaxBytes = 512 << 20

// ExplicitLifting is the tensor over-parameterization of paper section 2.3
// done literally, with dense tensors of size (nr)^l, for tiny problems. It
// exists to check the closed forms (LiftedSubspace, SubspacePGD) and to
// measure what the simulation saves; nothing else in the package uses it.
//
// Conventions (REPRODUCTION.md C7): w ∈ ℝ^{(nr)^l} with mode index i·r + k
// for entry (i, k) of an n×r matrix (row-major vec), first mode most
// significant; 𝓜(w) = W Wᵀ where W (n^l × r^l) is w with every r-index
// moved to the column side (P(w) in the paper); and
// h^l(w) = ‖(𝒜 ⊗ … ⊗ 𝒜)(𝓜(w)) − b^{⊗l}‖² with no ½. It holds large
// workspaces and is not safe for concurrent use.
type ExplicitLifting struct {
	L          int
	n, r, m    int
	amat       *mat.Dense // m × n², row i = vec(A_i)
	bl         []float64  // b^{⊗l}, length m^l
	nl, rl, ml int        // n^l, r^l, m^l

	// workspaces
	wmat, gw   *mat.Dense // n^l × r^l
	mm, gm     *mat.Dense // n^l × n^l
	pair       []float64  // n^{2l}, 𝓜 in paired order
	bufA, bufB []float64  // mode-product buffers
}

// ExplicitBytes returns the number of bytes ExplicitLifting needs for the
// given sizes (the quantity compared with ExplicitMaxBytes), or +Inf when it
// does not even fit in a float64. Sizes below 1 are refused with an error
// wrapping ErrBadParameter. The cost is O(1) whatever l.
func ExplicitBytes(n, r, m, l int) (float64, error) {
	if n < 1 || r < 1 || m < 1 || l < 1 {
		return 0, fmt.Errorf("%w: ExplicitBytes needs n, r, m, l ≥ 1, got n = %d, r = %d, m = %d, l = %d", ErrBadParameter, n, r, m, l)
	}
	fl := float64(l)
	nl := math.Pow(float64(n), fl)
	rl := math.Pow(float64(r), fl)
	ml := math.Pow(float64(m), fl)
	// The largest intermediate of the l mode products, max over t of
	// m^t (n²)^{l−t}: a geometric sequence in t, so its largest term is
	// at t = 0 or t = l.
	maxMode := math.Max(math.Pow(float64(n)*float64(n), fl), ml)
	return 8 * (2*nl*rl + 3*nl*nl + 2*maxMode + ml), nil
}

// NewExplicitLifting builds the explicit lifted problem of order l (odd,
// ≥ 3) for rank r. It refuses with ErrTooLarge when the dense tensors would
// need more than ExplicitMaxBytes.
func NewExplicitLifting(op Operator, b []float64, r, l int) (*ExplicitLifting, error) {
	if l < 3 || l%2 == 0 || l > MaxLiftingOrder {
		return nil, fmt.Errorf("%w: lifting order l must be odd and ≥ 3, got %d (and at most MaxLiftingOrder = %d)", ErrBadParameter, l, MaxLiftingOrder)
	}
	if op == nil || r < 1 {
		return nil, fmt.Errorf("%w: need an operator and r ≥ 1", ErrBadParameter)
	}
	n, m := op.Dims()
	if m == 0 {
		return nil, ErrNoMeasurements
	}
	if len(b) != m {
		return nil, fmt.Errorf("%w: len(b) = %d, operator has m = %d", ErrShape, len(b), m)
	}
	if need, err := ExplicitBytes(n, r, m, l); err != nil {
		return nil, err
	} else if need > ExplicitMaxBytes {
		return nil, fmt.Errorf("%w: explicit lifting with n=%d r=%d m=%d l=%d needs %.3g bytes, more than ExplicitMaxBytes = %d MiB", ErrTooLarge, n, r, m, l, need, ExplicitMaxBytes>>20)
	}
	e := &ExplicitLifting{L: l, n: n, r: r, m: m}
	e.nl, e.rl, e.ml = intPow(n, l), intPow(r, l), intPow(m, l)
	e.amat = mat.NewDense(m, n*n, nil)
	for i := 0; i < m; i++ {
		a, err := SensingMatrix(op, i)
		if err != nil {
			return nil, err
		}
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				e.amat.Set(i, j*n+k, a.At(j, k))
			}
		}
	}
	e.bl = kronPower(b, l)
	e.wmat = mat.NewDense(e.nl, e.rl, nil)
	e.gw = mat.NewDense(e.nl, e.rl, nil)
	e.mm = mat.NewDense(e.nl, e.nl, nil)
	e.gm = mat.NewDense(e.nl, e.nl, nil)
	e.pair = make([]float64, e.nl*e.nl)
	maxMode := 0
	for t := 0; t <= l; t++ {
		maxMode = max(maxMode, intPow(m, t)*intPow(n*n, l-t))
	}
	e.bufA = make([]float64, maxMode)
	e.bufB = make([]float64, maxMode)
	return e, nil
}

func intPow(a, l int) int {
	p := 1
	for i := 0; i < l; i++ {
		p *= a
	}
	return p
}

// kronPower returns v^{⊗l} (first factor most significant).
func kronPower(v []float64, l int) []float64 {
	out := []float64{1}
	for t := 0; t < l; t++ {
		next := make([]float64, len(out)*len(v))
		for i, x := range out {
			for j, y := range v {
				next[i*len(v)+j] = x * y
			}
		}
		out = next
	}
	return out
}

// Size returns the length (nr)^l of a lifted tensor.
func (e *ExplicitLifting) Size() int {
	if e == nil {
		return 0
	}
	return e.nl * e.rl
}

// Lift returns w = Σ_j c_j vec(Y_j)^{⊗l} as a dense vector of length (nr)^l.
func (e *ExplicitLifting) Lift(coef []float64, dirs ...mat.Matrix) ([]float64, error) {
	if e == nil || e.amat == nil {
		return nil, errUnbuilt("ExplicitLifting", "Lift", "NewExplicitLifting")
	}
	if len(coef) != len(dirs) {
		return nil, fmt.Errorf("%w: %d coefficients for %d directions", ErrShape, len(coef), len(dirs))
	}
	if err := checkFiniteSlice("coefficients", coef); err != nil {
		return nil, err
	}
	w := make([]float64, e.Size())
	for j, d := range dirs {
		if d == nil {
			return nil, fmt.Errorf("%w: direction %d is nil, want %d×%d", ErrShape, j, e.n, e.r)
		}
		dn, dr := d.Dims()
		if dn != e.n || dr != e.r {
			return nil, fmt.Errorf("%w: direction %d is %d×%d, want %d×%d", ErrShape, j, dn, dr, e.n, e.r)
		}
		if err := checkFinite(fmt.Sprintf("direction %d", j), d); err != nil {
			return nil, err
		}
		v := make([]float64, e.n*e.r)
		for i := 0; i < e.n; i++ {
			for k := 0; k < e.r; k++ {
				v[i*e.r+k] = d.At(i, k)
			}
		}
		floats.AddScaled(w, coef[j], kronPower(v, e.L))
	}
	return w, nil
}

// toW permutes w (modes (i_t, k_t) interleaved) into W[(i_1..i_l),(k_1..k_l)]
// (paper's reshaping operator P), or back when inverse is true.
func (e *ExplicitLifting) toW(w []float64, wm *mat.Dense, inverse bool) {
	nr := e.n * e.r
	for idx := 0; idx < e.nl*e.rl; idx++ {
		rem := idx
		row, col := 0, 0
		mul := 1
		mulR := 1
		for t := 0; t < e.L; t++ { // least significant mode first
			d := rem % nr
			rem /= nr
			row += (d / e.r) * mul
			col += (d % e.r) * mulR
			mul *= e.n
			mulR *= e.r
		}
		if inverse {
			w[idx] = wm.At(row, col)
		} else {
			wm.Set(row, col, w[idx])
		}
	}
}

// pairIndex maps (row, col) of an n^l × n^l matrix to the paired index
// (i_1 j_1)(i_2 j_2)… of a tensor with l modes of size n².
func (e *ExplicitLifting) pairIndex(row, col int) int {
	idx, mul := 0, 1
	for t := 0; t < e.L; t++ {
		i, j := row%e.n, col%e.n
		row /= e.n
		col /= e.n
		idx += (i*e.n + j) * mul
		mul *= e.n * e.n
	}
	return idx
}

// modeProducts applies B (rows × cols) along every one of the l modes of the
// tensor x (each mode of size cols), returning a tensor with modes of size
// rows. The result aliases one of the workspaces.
func (e *ExplicitLifting) modeProducts(x []float64, B mat.Matrix, transpose bool) []float64 {
	rows, cols := B.Dims()
	at := func(i, j int) float64 { return B.At(i, j) }
	if transpose {
		rows, cols = cols, rows
		at = func(i, j int) float64 { return B.At(j, i) }
	}
	cur := x
	size := len(x)
	for t := 0; t < e.L; t++ {
		// mode t: pre × cols × post with post = cols^{t'}… in our layout the
		// first mode is most significant, but all modes are equivalent here
		// since the same matrix is applied to each; apply to mode t counted
		// from the least significant.
		post := 1
		for s := 0; s < t; s++ {
			post *= rows
		}
		pre := size / (cols * post)
		out := e.bufA
		if &cur[0] == &e.bufA[0] {
			out = e.bufB
		}
		out = out[:pre*rows*post]
		for p := 0; p < pre; p++ {
			for i := 0; i < rows; i++ {
				dst := out[(p*rows+i)*post : (p*rows+i+1)*post]
				for k := range dst {
					dst[k] = 0
				}
				for j := 0; j < cols; j++ {
					c := at(i, j)
					if c == 0 {
						continue
					}
					floats.AddScaled(dst, c, cur[(p*cols+j)*post:(p*cols+j+1)*post])
				}
			}
		}
		cur = out
		size = len(out)
	}
	return cur
}

// residual computes W, 𝓜 = WWᵀ and R = 𝒜^{⊗l}(𝓜) − b^{⊗l}; it returns R
// (aliasing a workspace).
func (e *ExplicitLifting) residual(w []float64) ([]float64, error) {
	if len(w) != e.Size() {
		return nil, fmt.Errorf("%w: len(w) = %d, want (nr)^l = %d", ErrShape, len(w), e.Size())
	}
	e.toW(w, e.wmat, false)
	e.mm.Mul(e.wmat, e.wmat.T())
	for i := 0; i < e.nl; i++ {
		for j := 0; j < e.nl; j++ {
			e.pair[e.pairIndex(i, j)] = e.mm.At(i, j)
		}
	}
	y := e.modeProducts(e.pair, e.amat, false)
	floats.Sub(y, e.bl)
	return y, nil
}

// Objective returns h^l(w) computed with dense tensors.
func (e *ExplicitLifting) Objective(w []float64) (float64, error) {
	if e == nil || e.amat == nil {
		return 0, errUnbuilt("ExplicitLifting", "Objective", "NewExplicitLifting")
	}
	y, err := e.residual(w)
	if err != nil {
		return 0, err
	}
	return floats.Dot(y, y), nil
}

// Gradient stores ∇h^l(w) = 4 G W with G = (𝒜*)^{⊗l}(R) (REPRODUCTION.md
// C7) in dst, in w's layout, and returns h^l(w).
func (e *ExplicitLifting) Gradient(dst, w []float64) (float64, error) {
	if e == nil || e.amat == nil {
		return 0, errUnbuilt("ExplicitLifting", "Gradient", "NewExplicitLifting")
	}
	if len(dst) != e.Size() {
		return 0, fmt.Errorf("%w: len(dst) = %d, want %d", ErrShape, len(dst), e.Size())
	}
	y, err := e.residual(w)
	if err != nil {
		return 0, err
	}
	h := floats.Dot(y, y)
	g := e.modeProducts(y, e.amat, true)
	for i := 0; i < e.nl; i++ {
		for j := 0; j < e.nl; j++ {
			e.gm.Set(i, j, g[e.pairIndex(i, j)])
		}
	}
	e.gw.Mul(e.gm, e.wmat)
	e.gw.Scale(4, e.gw)
	e.toW(dst, e.gw, true)
	return h, nil
}

// ExplicitPGDResult records an explicit projected gradient descent run.
type ExplicitPGDResult struct {
	Coef [][]float64 // coefficients after each step (Coef[0] is the start)
	HL   []float64   // h^l at each recorded point
}

// PGD runs projected gradient descent w ← Π_S(w − η∇h^l(w)) with dense
// tensors, S = span{vec(Y_j)^{⊗l}}, projection C (CᵀC)⁺ Cᵀ built from the
// explicit tensors (pseudo-inverse, so dependent directions are allowed).
// It returns the coefficients of w in the given directions after each step.
// ctx is checked before every step (each costs O((nr)^l)).
func (e *ExplicitLifting) PGD(ctx context.Context, coef0 []float64, dirs []mat.Matrix, eta float64, steps int) (*ExplicitPGDResult, error) {
	if e == nil || e.amat == nil {
		return nil, errUnbuilt("ExplicitLifting", "PGD", "NewExplicitLifting")
	}
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	if !(eta > 0) || steps < 0 || math.IsInf(eta, 0) {
		return nil, fmt.Errorf("%w: need η > 0 and steps ≥ 0", ErrBadParameter)
	}
	k := len(dirs)
	cols := make([][]float64, k)
	for j := range dirs {
		unit := make([]float64, k)
		unit[j] = 1
		c, err := e.Lift(unit, dirs...)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	if len(coef0) != k {
		return nil, fmt.Errorf("%w: %d coefficients for %d directions", ErrShape, len(coef0), k)
	}
	if err := checkFiniteSlice("coef0", coef0); err != nil {
		return nil, err
	}
	gram := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			gram.SetSym(i, j, floats.Dot(cols[i], cols[j]))
		}
	}
	pinv, _, err := pinvSym(gram, 1e-12)
	if err != nil {
		return nil, err
	}
	coef := append([]float64(nil), coef0...)
	w := make([]float64, e.Size())
	g := make([]float64, e.Size())
	ctg := mat.NewVecDense(k, nil)
	upd := mat.NewVecDense(k, nil)
	res := &ExplicitPGDResult{}
	for s := 0; ; s++ {
		for i := range w {
			w[i] = 0
		}
		for j := range cols {
			floats.AddScaled(w, coef[j], cols[j])
		}
		h, err := e.Gradient(g, w)
		if err != nil {
			return nil, err
		}
		res.Coef = append(res.Coef, append([]float64(nil), coef...))
		res.HL = append(res.HL, h)
		if s == steps {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sod: explicit PGD stopped at step %d of %d: %w", s, steps, err)
		}
		for j := range cols {
			ctg.SetVec(j, floats.Dot(cols[j], g))
		}
		upd.MulVec(pinv, ctg)
		for j := range coef {
			coef[j] -= eta * upd.AtVec(j)
		}
		if err := checkFiniteSlice("coefficients", coef); err != nil {
			return nil, fmt.Errorf("sod: explicit PGD diverged at step %d of %d (η = %g): %w", s+1, steps, eta, err)
		}
	}
	return res, nil
}

// pinvSym returns the pseudo-inverse of a symmetric positive
// semi-definite matrix, dropping eigenvalues below tol·λ_max, and its rank.
func pinvSym(a *mat.SymDense, tol float64) (*mat.Dense, int, error) {
	var eig mat.EigenSym
	if !eig.Factorize(a, true) {
		return nil, 0, fmt.Errorf("%w: eigen-decomposition of the Gram matrix", ErrFactorization)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	k := len(vals)
	lmax := 0.0
	for _, v := range vals {
		lmax = math.Max(lmax, math.Abs(v))
	}
	if lmax == 0 {
		return nil, 0, fmt.Errorf("%w: Gram matrix is zero", ErrBadParameter)
	}
	p := mat.NewDense(k, k, nil)
	rank := 0
	for t, v := range vals {
		if v <= tol*lmax {
			continue
		}
		rank++
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				p.Set(i, j, p.At(i, j)+vecs.At(i, t)*vecs.At(j, t)/v)
			}
		}
	}
	return p, rank, nil
}
