package sod

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
	"sodworkbench.org/workbench/sod/randstream"
)

// Baseline optimisers for the paper's comparisons (section 6: Fig. 2's SGD
// and the quadratic network's SGD and Adam). Both minimise h(X) =
// ½‖𝒜(XXᵀ) − b‖² and return a GDResult whose trace holds the exact (full)
// h, ‖∇h‖_F and ‖XXᵀ − M*‖_F, so that they plot beside GradientDescent.

// Minibatch holds the sampling options SGD and Adam share.
type Minibatch struct {
	// BatchSize is the number of measurements per minibatch, drawn without
	// replacement each step; 0 or m means full batch (then SGD is GD and
	// Adam uses the full gradient).
	BatchSize int
	// Seed seeds the minibatch sampler (randstream.Minibatches), any value;
	// zero is the seed 0. The same Seed gives the same path, with or without
	// Iteration.KeepIterates.
	Seed uint64
}

// SGDOptions configures SGD: Iteration.Step is the step size, and the
// full h is recorded every TraceEvery steps.
type SGDOptions struct {
	Iteration
	Minibatch
}

// AdamOptions configures Adam: Iteration.Step is the learning rate α.
type AdamOptions struct {
	Iteration
	Minibatch
	// Beta1, Beta2 ∈ [0, 1) are the moment decay rates (defaults 0.9, 0.999
	// when both are zero).
	Beta1, Beta2 float64
	// Eps > 0 is the denominator offset (default 1e-8).
	Eps float64
}

// stochasticGradient holds the workspaces of a stochastic gradient.
type stochasticGradient struct {
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

func newStochasticGradient(p *Problem, batch int, seed uint64) (*stochasticGradient, error) {
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
	s := &stochasticGradient{p: p, n: n, r: r, m: m, batch: batch,
		rng:  randstream.New(seed, randstream.Minibatches),
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
func (s *stochasticGradient) grad(x *mat.Dense) {
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

// runBaseline runs a first-order method whose update is done by step,
// recording the full h (and, with KeepIterates, the iterate) like
// GradientDescent.
func runBaseline(ctx context.Context, p *Problem, x0 mat.Matrix, it Iteration, st *stochasticGradient,
	step func(x *mat.Dense, k int)) (*GDResult, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	iters, every, limit, keep := it.MaxIter, it.TraceEvery, it.limit(), it.KeepIterates
	if every == 0 {
		every = 1
	}
	x := mat.DenseCopyOf(x0)
	prev := mat.DenseCopyOf(x0)
	res := &GDResult{StagnatedAt: -1, Stop: StopMaxIter}
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
				res.Stop = StopDiverged
				record(k, h, gn)
				break
			}
			record(k, h, gn)
		} else if v := mat.Norm(x, 2); !isFinite(v) || v > math.Sqrt(limit) {
			x.Copy(prev)
			k--
			h, gn = full()
			res.Stop = StopDiverged
			record(k, h, gn)
			break
		}
	}
	res.X, res.Iter, res.H, res.GradNorm = x, k, h, gn
	return res, nil
}

// SGD runs minibatch stochastic gradient descent X ← X − Step·g, where g is
// the gradient of h restricted to a random minibatch of measurements,
// rescaled by m/|S| (an unbiased estimate of ∇h). With BatchSize 0 or m it
// is plain gradient descent. ctx is checked every 1024 steps, as in
// GradientDescent.
func SGD(ctx context.Context, p *Problem, x0 mat.Matrix, opt SGDOptions) (*GDResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckX(x0); err != nil {
		return nil, err
	}
	if err := opt.Iteration.check("SGD"); err != nil {
		return nil, err
	}
	st, err := newStochasticGradient(p, opt.BatchSize, opt.Seed)
	if err != nil {
		return nil, err
	}
	return runBaseline(ctx, p, x0, opt.Iteration, st, func(x *mat.Dense, _ int) {
		st.grad(x)
		kernel.AxpyDense(-opt.Step, st.g, x)
	})
}

// Adam runs Adam (Kingma and Ba, 2015) on h with bias-corrected first and
// second moments, elementwise on the entries of X, with full or minibatch
// gradients. ctx is checked every 1024 steps, as in GradientDescent.
func Adam(ctx context.Context, p *Problem, x0 mat.Matrix, opt AdamOptions) (*GDResult, error) {
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
	if err := opt.Iteration.check("Adam"); err != nil {
		return nil, err
	}
	if !(b1 >= 0 && b1 < 1) || !(b2 >= 0 && b2 < 1) || !(eps > 0) || math.IsInf(eps, 0) {
		return nil, fmt.Errorf("%w: Adam β₁ = %v, β₂ = %v, ε = %v, want β₁, β₂ in [0, 1) and ε finite and > 0", ErrBadParameter, b1, b2, eps)
	}
	st, err := newStochasticGradient(p, opt.BatchSize, opt.Seed)
	if err != nil {
		return nil, err
	}
	n, r := p.Dims()
	mom := make([]float64, n*r)
	vel := make([]float64, n*r)
	return runBaseline(ctx, p, x0, opt.Iteration, st, func(x *mat.Dense, k int) {
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
