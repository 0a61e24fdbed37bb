package sod

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Baseline optimisers for the paper's comparisons (section 6: Fig. 2's SGD
// and the quadratic network's SGD and Adam). Both minimise h(X) =
// ½‖𝒜(XXᵀ) − b‖² and return a GDResult whose trace holds the exact (full)
// h, ‖∇h‖_F and ‖XXᵀ − M*‖_F, so that they plot beside GradientDescent.

// SGDOptions configures SGD.
type SGDOptions struct {
	// Step is the step size (> 0).
	Step float64
	// MaxIter is the number of steps (≥ 0).
	MaxIter int
	// BatchSize is the number of measurements per minibatch, drawn without
	// replacement each step; 0 or m means full batch (then SGD is GD).
	BatchSize int
	// Seed seeds the minibatch sampler (math/rand/v2 PCG).
	Seed uint64
	// TraceEvery records the full h every TraceEvery steps (default 1).
	TraceEvery int
	// DivergenceLimit as in GDOptions (default 1e150).
	DivergenceLimit float64
	// KeepIterates records a copy of every traced iterate in
	// Trace.Iterates, as GDOptions.KeepIterates does (one n×r matrix per
	// traced step). It does not change the iterates: the same Seed gives
	// the same path with or without it.
	KeepIterates bool
	// Context, if not nil, is checked every 1024 steps, as in GDOptions.
	Context context.Context
}

// AdamOptions configures Adam.
type AdamOptions struct {
	// Step is the learning rate α (> 0).
	Step float64
	// Beta1, Beta2 ∈ [0, 1) are the moment decay rates (defaults 0.9, 0.999
	// when both are zero).
	Beta1, Beta2 float64
	// Eps > 0 is the denominator offset (default 1e-8).
	Eps float64
	// MaxIter, BatchSize, Seed, TraceEvery, DivergenceLimit and
	// KeepIterates are as in SGDOptions (BatchSize 0: full-gradient Adam).
	MaxIter         int
	BatchSize       int
	Seed            uint64
	TraceEvery      int
	DivergenceLimit float64
	KeepIterates    bool
	Context         context.Context // as in SGDOptions
}

// msStoch holds the workspaces of a stochastic gradient.
type msStoch struct {
	p      *Problem
	n, r   int
	m      int
	batch  int
	rng    *rand.Rand
	perm   []int
	y      []float64 // 𝒜(XXᵀ) − b, then the masked residual
	keep   []bool
	xx, gf *mat.Dense
	g      *mat.Dense // gradient (n×r)
	full   *mat.Dense // full gradient, for the trace
}

func msNewStoch(p *Problem, batch int, seed uint64) (*msStoch, error) {
	if err := p.needDense("a stochastic baseline"); err != nil {
		return nil, err
	}
	n, r := p.Dims()
	_, m := p.Op.Dims()
	if batch < 0 || batch > m {
		return nil, fmt.Errorf("%w: batch size %d not in [0, m=%d]", ErrBadParameter, batch, m)
	}
	if batch == 0 {
		batch = m
	}
	s := &msStoch{p: p, n: n, r: r, m: m, batch: batch,
		rng:  rand.New(rand.NewPCG(seed, 0x5d0b)),
		perm: make([]int, m), y: make([]float64, m), keep: make([]bool, m),
		xx: mat.NewDense(n, n, nil), gf: mat.NewDense(n, n, nil),
		g: mat.NewDense(n, r, nil), full: mat.NewDense(n, r, nil)}
	for i := range s.perm {
		s.perm[i] = i
	}
	return s, nil
}

// grad stores in s.g the minibatch gradient 2 (m/|S|) Σ_{i∈S} r_i A_i X,
// an unbiased estimate of ∇h(X). It applies the full operator and masks the
// residual, so a step costs as much as a GD step: the point of the baseline
// is its stochastic dynamics, not its speed.
func (s *msStoch) grad(x *mat.Dense) {
	xr := x.RawMatrix()
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, xr, xr, 0, s.xx.RawMatrix())
	s.p.Op.Apply(s.y, s.xx)
	for i := range s.y {
		s.y[i] -= s.p.B[i]
	}
	if s.batch < s.m {
		// Partial Fisher–Yates: the first batch entries of perm are a
		// uniform sample without replacement.
		for i := 0; i < s.batch; i++ {
			j := i + s.rng.IntN(s.m-i)
			s.perm[i], s.perm[j] = s.perm[j], s.perm[i]
		}
		for i := range s.keep {
			s.keep[i] = false
		}
		for _, i := range s.perm[:s.batch] {
			s.keep[i] = true
		}
		sc := float64(s.m) / float64(s.batch)
		for i := range s.y {
			if s.keep[i] {
				s.y[i] *= sc
			} else {
				s.y[i] = 0
			}
		}
	}
	s.p.Op.Adjoint(s.gf, s.y)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 2, s.gf.RawMatrix(), xr, 0, s.g.RawMatrix())
}

// msBaselineLoop runs a first-order method whose update is done by step,
// recording the full h (and, if keep, the iterate) like GradientDescent.
func msBaselineLoop(ctx context.Context, p *Problem, x0 mat.Matrix, iters, every int, limit float64, keep bool, st *msStoch,
	step func(x *mat.Dense, k int)) (*GDResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sod: not started: %w", err)
	}
	if every == 0 {
		every = 1
	}
	if limit == 0 {
		limit = 1e150
	}
	x := mat.DenseCopyOf(x0)
	prev := mat.DenseCopyOf(x0)
	res := &GDResult{StagnatedAt: -1}
	tr := &res.Trace
	full := func() (float64, float64) {
		p.Grad(st.full, x)
		return p.H(x), mat.Norm(st.full, 2)
	}
	record := func(k int, h, gn float64) {
		tr.Iter = append(tr.Iter, k)
		tr.H = append(tr.H, h)
		tr.GradNorm = append(tr.GradNorm, gn)
		if p.HasTruth() {
			tr.Dist = append(tr.Dist, p.DistStar(x))
		}
		if keep {
			tr.Iterates = append(tr.Iterates, mat.DenseCopyOf(x))
		}
	}
	h, gn := full()
	if !isFinite(h) || h > limit {
		return nil, fmt.Errorf("%w: h(x0) = %v", ErrNotFinite, h)
	}
	record(0, h, gn)
	k := 0
	for k < iters {
		prev.Copy(x)
		step(x, k)
		k++
		if k%gdCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("sod: stopped at step %d: %w", k, err)
			}
		}
		if k%every == 0 || k == iters {
			h, gn = full()
			if !isFinite(h) || !isFinite(gn) || h > limit || gn > limit {
				x.Copy(prev)
				k--
				h, gn = full()
				res.Diverged = true
				record(k, h, gn)
				break
			}
			record(k, h, gn)
		} else if v := mat.Norm(x, 2); !isFinite(v) || v > math.Sqrt(limit) {
			x.Copy(prev)
			k--
			h, gn = full()
			res.Diverged = true
			record(k, h, gn)
			break
		}
	}
	res.X, res.Iter, res.H, res.GradNorm = x, k, h, gn
	return res, nil
}

// msCheckBaseline checks the options SGD and Adam share, naming the bad
// value and its range (DivergenceLimit as in GDOptions: 0 for the default,
// else (0, +Inf]; NaN is refused).
func msCheckBaseline(name string, step float64, maxIter, every int, limit float64) error {
	switch {
	case !(step > 0) || math.IsInf(step, 0):
		return fmt.Errorf("%w: %s step %v, want finite and > 0", ErrBadParameter, name, step)
	case maxIter < 0 || every < 0:
		return fmt.Errorf("%w: %s MaxIter = %d, TraceEvery = %d, want both ≥ 0", ErrBadParameter, name, maxIter, every)
	case !(limit >= 0):
		return fmt.Errorf("%w: %s DivergenceLimit = %v, want 0 (default 1e150) or a value in (0, +Inf]", ErrBadParameter, name, limit)
	}
	return nil
}

// SGD runs minibatch stochastic gradient descent X ← X − Step·g, where g is
// the gradient of h restricted to a random minibatch of measurements,
// rescaled by m/|S| (an unbiased estimate of ∇h). With BatchSize 0 or m it
// is plain gradient descent.
func SGD(p *Problem, x0 mat.Matrix, opt SGDOptions) (*GDResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckX(x0); err != nil {
		return nil, err
	}
	if err := msCheckBaseline("SGD", opt.Step, opt.MaxIter, opt.TraceEvery, opt.DivergenceLimit); err != nil {
		return nil, err
	}
	st, err := msNewStoch(p, opt.BatchSize, opt.Seed)
	if err != nil {
		return nil, err
	}
	return msBaselineLoop(opt.Context, p, x0, opt.MaxIter, opt.TraceEvery, opt.DivergenceLimit, opt.KeepIterates, st, func(x *mat.Dense, _ int) {
		st.grad(x)
		axpyDense(-opt.Step, st.g, x)
	})
}

// Adam runs Adam (Kingma and Ba, 2015) on h with bias-corrected first and
// second moments, elementwise on the entries of X, with full or minibatch
// gradients.
func Adam(p *Problem, x0 mat.Matrix, opt AdamOptions) (*GDResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckX(x0); err != nil {
		return nil, err
	}
	b1, b2, eps := opt.Beta1, opt.Beta2, opt.Eps
	if b1 == 0 && b2 == 0 {
		b1, b2 = 0.9, 0.999
	}
	if eps == 0 {
		eps = 1e-8
	}
	if err := msCheckBaseline("Adam", opt.Step, opt.MaxIter, opt.TraceEvery, opt.DivergenceLimit); err != nil {
		return nil, err
	}
	if !(b1 >= 0 && b1 < 1) || !(b2 >= 0 && b2 < 1) || !(eps > 0) || math.IsInf(eps, 0) {
		return nil, fmt.Errorf("%w: Adam β₁ = %v, β₂ = %v, ε = %v, want β₁, β₂ in [0, 1) and ε finite and > 0", ErrBadParameter, b1, b2, eps)
	}
	st, err := msNewStoch(p, opt.BatchSize, opt.Seed)
	if err != nil {
		return nil, err
	}
	n, r := p.Dims()
	mom := make([]float64, n*r)
	vel := make([]float64, n*r)
	return msBaselineLoop(opt.Context, p, x0, opt.MaxIter, opt.TraceEvery, opt.DivergenceLimit, opt.KeepIterates, st, func(x *mat.Dense, k int) {
		st.grad(x)
		t := float64(k + 1)
		c1 := 1 - math.Pow(b1, t)
		c2 := 1 - math.Pow(b2, t)
		for i := 0; i < n; i++ {
			for j := 0; j < r; j++ {
				g := st.g.At(i, j)
				idx := i*r + j
				mom[idx] = b1*mom[idx] + (1-b1)*g
				vel[idx] = b2*vel[idx] + (1-b2)*g*g
				x.Set(i, j, x.At(i, j)-opt.Step*(mom[idx]/c1)/(math.Sqrt(vel[idx]/c2)+eps))
			}
		}
	})
}
