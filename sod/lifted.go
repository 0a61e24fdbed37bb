package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// LiftedSubspace evaluates the lifted objective of the paper's eq.
// tensor_objfunc_h,
//
//	h^l(w) = ‖⟨𝒜^{⊗l}, 𝓜(w)⟩ − b^{⊗l}‖_F²      (no ½, as the paper's f^l),
//
// and its gradient projected on rank-1 directions, for tensors in
// S = span{vec(Y_1)^{⊗l}, …, vec(Y_K)^{⊗l}}, in closed form with m-vectors
// only (REPRODUCTION.md C7). For w = Σ_j c_j vec(Y_j)^{⊗l}, with
// a_jk = 𝒜(Y_j Y_kᵀ) ∈ ℝ^m,
//
//	h^l(w) = Σ_{jkpq} c_j c_k c_p c_q ⟨a_jk, a_pq⟩^l − 2 Σ_{jk} c_j c_k ⟨a_jk, b⟩^l + ‖b‖^{2l},
//	⟨∇h^l(w), vec(Y_i)^{⊗l}⟩ = 4 Σ_j c_j [Σ_{pq} c_p c_q ⟨a_pq, a_ji⟩^l − ⟨b, a_ji⟩^l],
//	⟨vec(Y_j)^{⊗l}, vec(Y_k)^{⊗l}⟩ = ⟨Y_j, Y_k⟩_F^l.
//
// The factor 4 in the gradient is omitted by the paper's Lemma "Gradient of
// the Tensor Objective Function". Nothing of size (nr)^l is ever formed:
// the cost is O(K⁴ m) once, then O(K⁴) per evaluation.
//
// Internally each direction is normalised to ‖Ŷ_j‖_F = 1 and its norm is
// folded into the coefficient (ĉ_j = c_j ‖Y_j‖^l), so that inner products
// stay O(1); the log-domain methods accept coefficients of any magnitude.
//
// A LiftedSubspace (and a SubspacePGD built on it) holds workspaces and is
// not safe for concurrent use; build one per goroutine.
type LiftedSubspace struct {
	// L is the lifting order (odd, ≥ 3).
	L int

	n, r, m, k int
	logScale   []float64 // log ‖Y_j‖_F
	dirs       []*mat.Dense

	pl    []float64 // k⁴: ⟨â_jk, â_pq⟩^l, index ((j*k+kk)*k+p)*k+q
	plLog []float64 // log|⟨â_jk, â_pq⟩| (−Inf when zero)
	plSgn []int8    // sign of ⟨â_jk, â_pq⟩^l
	bl    []float64 // k²: ⟨â_jk, b⟩^l
	blLog []float64
	blSgn []int8
	bLog  float64 // log ‖b‖^{2l}
	bPow  float64 // ‖b‖^{2l} (may be +Inf; then only the log path is used)
	gram  *mat.SymDense

	// workspaces
	t    []float64 // k²
	hat  []float64 // k
	lsT  []float64 // log-sum-exp terms
	lsS  []int8
	lhat []float64
	shat []int8
}

// MaxLiftingOrder is the largest lifting order l of the exact lifted
// dynamics (LiftedSubspace, SubspacePGD, ExplicitLifting), whose work grows
// with l. The paper's orders are at most 11; the closed form
// (TPGDClosedForm) works in the log domain and takes any odd l ≥ 3.
const MaxLiftingOrder = 100_001

// NewLiftedSubspace prepares the lifted objective of order l for the
// problem with operator op and measurements b, restricted to the span of
// vec(Y_j)^{⊗l} for the given n×r directions. Directions must be non-zero
// and finite; they need not be orthogonal or even independent.
func NewLiftedSubspace(op Operator, b []float64, l int, dirs ...mat.Matrix) (*LiftedSubspace, error) {
	if l < 3 || l%2 == 0 || l > MaxLiftingOrder {
		return nil, fmt.Errorf("%w: lifting order l must be odd and ≥ 3, got %d (and at most MaxLiftingOrder = %d)", ErrBadParameter, l, MaxLiftingOrder)
	}
	if op == nil {
		return nil, fmt.Errorf("%w: nil operator", ErrBadParameter)
	}
	n, m := op.Dims()
	if m == 0 {
		return nil, ErrNoMeasurements
	}
	if len(b) != m {
		return nil, fmt.Errorf("%w: len(b) = %d, operator has m = %d", ErrShape, len(b), m)
	}
	for i, v := range b {
		if !isFinite(v) {
			return nil, fmt.Errorf("%w: b[%d] = %v", ErrNotFinite, i, v)
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%w: no directions", ErrBadParameter)
	}
	k := len(dirs)
	s := &LiftedSubspace{L: l, n: n, m: m, k: k}
	for j, d := range dirs {
		dn, dr := d.Dims()
		if dn != n || (j > 0 && dr != s.r) || dr < 1 {
			return nil, fmt.Errorf("%w: direction %d is %d×%d, want %d×r with the same r for all", ErrShape, j, dn, dr, n)
		}
		s.r = dr
		if err := checkFinite(fmt.Sprintf("direction %d", j), d); err != nil {
			return nil, err
		}
		nrm := mat.Norm(d, 2)
		if nrm == 0 {
			return nil, fmt.Errorf("%w: direction %d is zero", ErrBadParameter, j)
		}
		var y mat.Dense
		y.Scale(1/nrm, d)
		s.dirs = append(s.dirs, &y)
		s.logScale = append(s.logScale, math.Log(nrm))
	}
	fl := float64(l)
	// â_jk = 𝒜(Ŷ_j Ŷ_kᵀ) (𝒜 sees only the symmetric part, so â_jk = â_kj).
	a := make([][]float64, k*k)
	var yy mat.Dense
	for j := 0; j < k; j++ {
		for kk := j; kk < k; kk++ {
			yy.Mul(s.dirs[j], s.dirs[kk].T())
			v := make([]float64, m)
			op.Apply(v, &yy)
			a[j*k+kk], a[kk*k+j] = v, v
		}
	}
	s.pl = make([]float64, k*k*k*k)
	s.plLog = make([]float64, len(s.pl))
	s.plSgn = make([]int8, len(s.pl))
	for x := 0; x < k*k; x++ {
		for y := 0; y < k*k; y++ {
			ip := floats.Dot(a[x], a[y])
			i := x*k*k + y
			s.pl[i] = powInt(ip, l)
			s.plLog[i] = fl * math.Log(math.Abs(ip))
			s.plSgn[i] = powSign(s.pl[i], ip)
		}
	}
	s.bl = make([]float64, k*k)
	s.blLog = make([]float64, k*k)
	s.blSgn = make([]int8, k*k)
	for x := 0; x < k*k; x++ {
		ip := floats.Dot(a[x], b)
		s.bl[x] = powInt(ip, l)
		s.blLog[x] = fl * math.Log(math.Abs(ip))
		s.blSgn[x] = powSign(s.bl[x], ip)
	}
	bb := floats.Dot(b, b)
	s.bLog = fl * math.Log(bb)
	s.bPow = powInt(bb, l)
	s.gram = mat.NewSymDense(k, nil)
	for j := 0; j < k; j++ {
		for kk := j; kk < k; kk++ {
			s.gram.SetSym(j, kk, powInt(mat.Sum(mulElem(s.dirs[j], s.dirs[kk])), l))
		}
	}
	s.t = make([]float64, k*k)
	s.hat = make([]float64, k)
	s.lsT = make([]float64, 0, k*k*k*k+k*k+1)
	s.lsS = make([]int8, 0, cap(s.lsT))
	s.lhat = make([]float64, k)
	s.shat = make([]int8, k)
	return s, nil
}

func mulElem(a, b mat.Matrix) *mat.Dense {
	var d mat.Dense
	d.MulElem(a, b)
	return &d
}

// powInt returns x^l for a small positive integer l.
func powInt(x float64, l int) float64 {
	p := 1.0
	for i := 0; i < l; i++ {
		p *= x
	}
	return p
}

// powSign returns the sign of the (possibly overflowed) power p = x^l.
func powSign(p, x float64) int8 {
	switch {
	case x == 0:
		return 0
	case p < 0 || (p == 0 && x < 0):
		return -1
	}
	return 1
}

// Dims returns n, r, m and the number K of directions.
func (s *LiftedSubspace) Dims() (n, r, m, k int) {
	if s == nil {
		return 0, 0, 0, 0
	}
	return s.n, s.r, s.m, s.k
}

// Gram returns the Gram matrix ⟨vec(Y_j)^{⊗l}, vec(Y_k)^{⊗l}⟩ = ⟨Y_j, Y_k⟩_F^l
// of the (unnormalised) directions. It may overflow for huge directions;
// GramNormalized is always O(1).
func (s *LiftedSubspace) Gram() *mat.SymDense {
	if s == nil || s.k == 0 {
		panic(errUnbuilt("LiftedSubspace", "Gram", "NewLiftedSubspace"))
	}
	g := mat.NewSymDense(s.k, nil)
	fl := float64(s.L)
	for j := 0; j < s.k; j++ {
		for kk := j; kk < s.k; kk++ {
			g.SetSym(j, kk, s.gram.At(j, kk)*math.Exp(fl*(s.logScale[j]+s.logScale[kk])))
		}
	}
	return g
}

// GramNormalized returns ⟨Ŷ_j, Ŷ_k⟩_F^l for the unit-norm directions.
func (s *LiftedSubspace) GramNormalized() *mat.SymDense {
	if s == nil || s.k == 0 {
		panic(errUnbuilt("LiftedSubspace", "GramNormalized", "NewLiftedSubspace"))
	}
	g := mat.NewSymDense(s.k, nil)
	g.CopySym(s.gram)
	return g
}

// toHat converts coefficients of the given directions to coefficients of
// the normalised directions: ĉ_j = c_j ‖Y_j‖^l.
func (s *LiftedSubspace) toHat(dst, coef []float64) {
	fl := float64(s.L)
	for j, c := range coef {
		dst[j] = c * math.Exp(fl*s.logScale[j])
	}
}

func (s *LiftedSubspace) fromHat(dst, hat []float64) {
	fl := float64(s.L)
	for j, c := range hat {
		dst[j] = c * math.Exp(-fl*s.logScale[j])
	}
}

func (s *LiftedSubspace) checkCoef(coef []float64) error {
	if len(coef) != s.k {
		return fmt.Errorf("%w: %d coefficients for %d directions", ErrShape, len(coef), s.k)
	}
	for i, c := range coef {
		if !isFinite(c) {
			return fmt.Errorf("%w: coefficient %d = %v", ErrNotFinite, i, c)
		}
	}
	return nil
}

// hatObjective evaluates h^l in float64 from normalised coefficients and
// fills s.t[jk] = Σ_pq ĉ_p ĉ_q ⟨â_pq, â_jk⟩^l − ⟨b, â_jk⟩^l (the residual
// paired with â_jk^{⊗l}).
func (s *LiftedSubspace) hatObjective(hat []float64) float64 {
	k := s.k
	kk := k * k
	h := 0.0
	for x := 0; x < kk; x++ {
		row := s.pl[x*kk : (x+1)*kk]
		q := 0.0
		for p := 0; p < k; p++ {
			cp := hat[p]
			for qq := 0; qq < k; qq++ {
				q += cp * hat[qq] * row[p*k+qq]
			}
		}
		cjk := hat[x/k] * hat[x%k]
		h += cjk * (q - 2*s.bl[x])
		s.t[x] = q - s.bl[x]
	}
	return h + s.bPow
}

// Objective returns h^l(Σ_j c_j vec(Y_j)^{⊗l}). It evaluates in float64
// and falls back to the log domain when that overflows; if the value
// itself does not fit in a float64 it returns ErrScaleOverflow (use
// LogObjective).
func (s *LiftedSubspace) Objective(coef []float64) (float64, error) {
	if s == nil || s.k == 0 {
		return 0, errUnbuilt("LiftedSubspace", "Objective", "NewLiftedSubspace")
	}
	if err := s.checkCoef(coef); err != nil {
		return 0, err
	}
	s.toHat(s.hat, coef)
	if h := s.hatObjective(s.hat); isFinite(h) {
		return h, nil
	}
	lc := make([]LogScalar, s.k)
	for j, c := range coef {
		lc[j] = toLogScalar(c)
	}
	v, err := s.LogObjective(lc)
	if err != nil {
		return 0, err
	}
	if f := v.Float(); isFinite(f) {
		return f, nil
	}
	return 0, fmt.Errorf("%w: h^l = 10^%.6g", ErrScaleOverflow, v.Log10())
}

func toLogScalar(c float64) LogScalar {
	switch {
	case c > 0:
		return LogScalar{Sign: 1, Log: math.Log(c)}
	case c < 0:
		return LogScalar{Sign: -1, Log: math.Log(-c)}
	}
	return LogScalar{Sign: 0, Log: math.Inf(-1)}
}

// LogObjective returns h^l(Σ_j c_j vec(Y_j)^{⊗l}) in the log domain for
// coefficients given as LogScalar (for example the closed-form TPGD
// coefficients at huge t). It never overflows: every term is formed as a
// logarithm and summed with a signed log-sum-exp. Its relative accuracy is
// that of the largest term, like a float64 evaluation. The exact value is
// ≥ 0; cancellation can make a tiny true value come out with Sign −1 or 0.
func (s *LiftedSubspace) LogObjective(coef []LogScalar) (LogScalar, error) {
	if s == nil || s.k == 0 {
		return LogScalar{}, errUnbuilt("LiftedSubspace", "LogObjective", "NewLiftedSubspace")
	}
	if len(coef) != s.k {
		return LogScalar{}, fmt.Errorf("%w: %d coefficients for %d directions", ErrShape, len(coef), s.k)
	}
	fl := float64(s.L)
	for j, c := range coef {
		if math.IsNaN(c.Log) || math.IsInf(c.Log, 1) || (c.Sign != 0 && math.IsInf(c.Log, -1)) || c.Sign < -1 || c.Sign > 1 {
			return LogScalar{}, fmt.Errorf("%w: coefficient %d = %+v", ErrNotFinite, j, c)
		}
		s.lhat[j] = c.Log + fl*s.logScale[j]
		s.shat[j] = int8(c.Sign)
	}
	k := s.k
	kk := k * k
	s.lsT, s.lsS = s.lsT[:0], s.lsS[:0]
	for x := 0; x < kk; x++ {
		j, jj := x/k, x%k
		sjk := s.shat[j] * s.shat[jj]
		if sjk == 0 {
			continue
		}
		ljk := s.lhat[j] + s.lhat[jj]
		for y := 0; y < kk; y++ {
			p, q := y/k, y%k
			sg := sjk * s.shat[p] * s.shat[q] * s.plSgn[x*kk+y]
			if sg == 0 {
				continue
			}
			s.lsT = append(s.lsT, ljk+s.lhat[p]+s.lhat[q]+s.plLog[x*kk+y])
			s.lsS = append(s.lsS, sg)
		}
		if sg := -sjk * s.blSgn[x]; sg != 0 {
			s.lsT = append(s.lsT, math.Ln2+ljk+s.blLog[x])
			s.lsS = append(s.lsS, sg)
		}
	}
	if !math.IsInf(s.bLog, -1) {
		s.lsT = append(s.lsT, s.bLog)
		s.lsS = append(s.lsS, 1)
	}
	return logSumExp(s.lsT, s.lsS), nil
}

// logSumExp returns Σ s_i e^{t_i} as a LogScalar.
func logSumExp(t []float64, sg []int8) LogScalar {
	if len(t) == 0 {
		return LogScalar{Sign: 0, Log: math.Inf(-1)}
	}
	mx := math.Inf(-1)
	for _, v := range t {
		mx = math.Max(mx, v)
	}
	sum := 0.0
	for i, v := range t {
		sum += float64(sg[i]) * math.Exp(v-mx)
	}
	switch {
	case sum > 0:
		return LogScalar{Sign: 1, Log: mx + math.Log(sum)}
	case sum < 0:
		return LogScalar{Sign: -1, Log: mx + math.Log(-sum)}
	}
	return LogScalar{Sign: 0, Log: math.Inf(-1)}
}

// ProjectedGradient stores in dst the inner products
// ⟨∇h^l(w), vec(Y_i)^{⊗l}⟩, i = 1..K, of the lifted gradient at
// w = Σ_j c_j vec(Y_j)^{⊗l} with the (unnormalised) directions, and
// returns h^l(w). dst must have length K.
func (s *LiftedSubspace) ProjectedGradient(dst, coef []float64) (float64, error) {
	if s == nil || s.k == 0 {
		return 0, errUnbuilt("LiftedSubspace", "ProjectedGradient", "NewLiftedSubspace")
	}
	if err := s.checkCoef(coef); err != nil {
		return 0, err
	}
	if len(dst) != s.k {
		return 0, fmt.Errorf("%w: len(dst) = %d, want %d", ErrShape, len(dst), s.k)
	}
	s.toHat(s.hat, coef)
	h := s.hatGrad(dst, s.hat)
	fl := float64(s.L)
	for i := range dst {
		dst[i] *= math.Exp(fl * s.logScale[i])
	}
	for _, v := range dst {
		if !isFinite(v) || !isFinite(h) {
			return 0, fmt.Errorf("%w: lifted gradient overflows float64 at these coefficients", ErrScaleOverflow)
		}
	}
	return h, nil
}

// hatGrad stores ĝ_i = ⟨∇h^l, vec(Ŷ_i)^{⊗l}⟩ = 4 Σ_j ĉ_j t[ji] in dst and
// returns h^l.
func (s *LiftedSubspace) hatGrad(dst, hat []float64) float64 {
	h := s.hatObjective(hat)
	k := s.k
	for i := 0; i < k; i++ {
		g := 0.0
		for j := 0; j < k; j++ {
			g += hat[j] * s.t[j*k+i]
		}
		dst[i] = 4 * g
	}
	return h
}

// TermNorms stores ‖c_j vec(Y_j)^{⊗l}‖_F = |c_j| ‖Y_j‖_F^l in dst (the
// curves of the paper's panels (e)). coef and dst must both have one entry
// per direction (K), else the error wraps ErrShape and dst is untouched.
func (s *LiftedSubspace) TermNorms(dst, coef []float64) error {
	if s == nil || s.k == 0 {
		return errUnbuilt("LiftedSubspace", "TermNorms", "NewLiftedSubspace")
	}
	if len(coef) != s.k || len(dst) != s.k {
		return fmt.Errorf("%w: TermNorms: len(dst) = %d, len(coef) = %d, want both K = %d", ErrShape, len(dst), len(coef), s.k)
	}
	fl := float64(s.L)
	for j, c := range coef {
		dst[j] = math.Abs(c) * math.Exp(fl*s.logScale[j])
	}
	return nil
}
