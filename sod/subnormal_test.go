package sod

import (
	"context"
	"fmt"
	"math"
	"sodworkbench.org/workbench/sod/internal/kernel"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// subnormals counts the subnormal values among the operands and results
// of the arithmetic that countedStep11 performs.
type subnormals struct{ count int }

func (c *subnormals) see(vals ...float64) {
	for _, v := range vals {
		if v != 0 && math.Abs(v) < 0x1p-1022 {
			c.count++
		}
	}
}

func (c *subnormals) mul(a, b float64) float64 { r := a * b; c.see(a, b, r); return r }
func (c *subnormals) add(a, b float64) float64 { r := a + b; c.see(a, b, r); return r }
func (c *subnormals) sub(a, b float64) float64 { r := a - b; c.see(a, b, r); return r }
func (c *subnormals) div(a, b float64) float64 { r := a / b; c.see(a, b, r); return r }

// countedStep11 is one step of gradient descent at r = k = 1 with the
// parity layout, written out operation by operation as the kernels
// perform it (gram11's sums, coef11, finish11's residuals and rows of
// ∇h, the step with its flush at tau, as in step11Go and stepGram11),
// counting every subnormal operand and result in c. It returns the next
// iterate.
func countedStep11(st *masked, x []float64, alpha, tau float64, c *subnormals) []float64 {
	n := len(x)
	var xxO, xzO, xxU, xzU, diag float64
	row := func(i int) (xu, zu float64, isU bool) {
		t := i / 2
		if i%2 == 0 {
			return x[i], st.zU[t], true
		}
		return x[i], st.zO[t], false
	}
	for i := 0; i < n; i++ { // gram11 (rows in order: each block's sums in its row order)
		xi, zi, u := row(i)
		if u {
			xxU = c.add(xxU, c.mul(xi, xi))
			xzU = c.add(xzU, c.mul(xi, zi))
			d := c.sub(c.mul(xi, xi), c.mul(zi, zi))
			diag = c.add(diag, c.mul(d, d))
		} else {
			xxO = c.add(xxO, c.mul(xi, xi))
			xzO = c.add(xzO, c.mul(xi, zi))
		}
	}
	mxO, mzO := c.add(xxO, xxU), c.add(xzO, xzU)
	mxU, mzU := c.add(xxO, c.mul(st.eps2, xxU)), c.add(xzO, c.mul(st.eps2, xzU))
	var betaO, betaU, res float64
	if xxO > 0 {
		betaO = c.div(xzO, xxO)
	}
	if xxU > 0 {
		betaU = c.div(xzU, xxU)
	}
	next := make([]float64, n)
	for i := 0; i < n; i++ {
		xi, zi, u := row(i)
		var g float64
		if u {
			e := c.sub(zi, c.mul(betaU, xi))
			res = c.add(res, c.mul(e, e))
			cubic := c.mul(c.mul(st.c, c.sub(c.mul(xi, xi), c.mul(zi, zi))), xi)
			g = c.mul(2, c.add(c.sub(c.mul(xi, mxU), c.mul(zi, mzU)), cubic))
		} else {
			e := c.sub(zi, c.mul(betaO, xi))
			res = c.add(res, c.mul(e, e))
			g = c.mul(2, c.sub(c.mul(xi, mxO), c.mul(zi, mzO)))
		}
		c.mul(g, g) // ss
		v := c.add(xi, c.mul(alpha, g))
		if math.Abs(v) < tau {
			v = 0
		}
		next[i] = v
	}
	return next
}

// decayingStart is x_i = (1, 1/2, …, 1/r) on the observed rows and v
// times that on the unobserved ones, whose coordinates gradient descent
// shrinks geometrically on decayProblem.
func decayingStart(n, r int, v float64) *mat.Dense {
	x := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < r; j++ {
			if i%2 == 0 {
				x.Set(i, j, v/float64(j+1))
			} else {
				x.Set(i, j, 1/float64(j+1))
			}
		}
	}
	return x
}

// TestGDNoSubnormal: a long gradient descent from decaying coordinates
// (PMC, ε = 0.002, r = 1, decayProblem) performs no arithmetic on a
// subnormal number, counted operation by operation by countedStep11,
// whose iterates are those of the one-pass kernel (pass11: SSE2 on amd64)
// and of the two-pass step (finish11, stepGram11), and of
// GradientDescent, to the bit. Without the flush (threshold 0) the same
// runs do meet subnormals, so the count can see them. The check does not
// depend on the CPU: it counts values, not time.
func TestGDNoSubnormal(t *testing.T) {
	const n, steps = 1000, 3000
	p := decayProblem(t, n, 1, 0.002)
	st := p.st
	alpha := -0.5 / n
	for _, v := range []float64{1e-3, 1e-150, 1e-310} {
		for _, tau := range []float64{kernel.FlushBelow, 0} {
			name := fmt.Sprintf("start %g, flush below %g", v, tau)
			x0 := decayingStart(n, 1, v)
			x := append([]float64(nil), x0.RawMatrix().Data...)
			if tau > 0 {
				for i := range x {
					x[i] = kernel.Flush(x[i], tau)
				}
			}
			var c subnormals
			lane, two := make([]float64, n), make([]float64, n)
			g := mat.NewDense(n, 1, nil)
			w := st.newWork()
			flushAt = tau
			for k := 0; k < steps; k++ {
				next := countedStep11(st, x, alpha, tau, &c)
				if s := st.gram11(x, 1); kernel.Lane11 && s.safe() {
					st.pass11(lane, x, s, alpha)
					st.finish11(w, g, x, 1, s)
					st.stepGram11(two, x, g.RawMatrix().Data, alpha)
					for i := range next {
						if math.Float64bits(next[i]) != math.Float64bits(lane[i]) || math.Float64bits(next[i]) != math.Float64bits(two[i]) {
							t.Fatalf("%s: step %d, row %d: counted %v, pass11 %v, two-pass %v", name, k, i, next[i], lane[i], two[i])
						}
					}
				}
				x = next
			}
			var res [2]*GDResult
			for j, every := range []int{steps, 1} {
				r, err := GradientDescent(context.Background(), p, x0, GDOptions{Iteration: Iteration{Step: 0.5 / n, MaxIter: steps, TraceEvery: every}})
				if err != nil {
					t.Fatal(err)
				}
				res[j] = r
			}
			flushAt = kernel.FlushBelow
			if kernel.Lane11 && tau > 0 {
				for j, r := range res {
					for i, got := range r.X.RawMatrix().Data {
						if math.Float64bits(got) != math.Float64bits(x[i]) {
							t.Fatalf("%s: GradientDescent (run %d) X[%d] = %v, counted steps %v", name, j, i, got, x[i])
						}
					}
				}
			}
			t.Logf("%s: %d subnormal operands and results in %d steps (x_0 = %g after them)", name, c.count, steps, x[0])
			if tau > 0 && c.count != 0 {
				t.Errorf("%s: %d subnormal operands and results, want 0", name, c.count)
			}
			if tau == 0 && c.count == 0 {
				t.Errorf("%s: no subnormal without the flush: the test does not reach them", name)
			}
		}
	}
}

// TestGDIteratesFlushed: on every path (r = 1 with and without the lane,
// r = 2 structured, the dense path), every iterate of GradientDescent
// from decaying coordinates has entries that are 0 or of magnitude at
// least kernel.FlushBelow, so no kernel reads a subnormal coordinate.
func TestGDIteratesFlushed(t *testing.T) {
	const n = 100
	for _, r := range []int{1, 2} {
		for _, dense := range []bool{false, true} {
			for _, every := range []int{1, 100} {
				p := decayProblem(t, n, r, 0.002)
				if dense {
					p.st = nil
				}
				name := fmt.Sprintf("r=%d dense=%v every=%d", r, dense, every)
				// At r = 2 the unobserved rows keep a component orthogonal
				// to the observed ones (from rounding), which decays slowly:
				// a start in the subnormal range tests the flush there.
				v := 1e-3
				if r > 1 {
					v = 1e-310
				}
				res, err := GradientDescent(context.Background(), p, decayingStart(n, r, v), GDOptions{Iteration: Iteration{Step: 0.5 / n, MaxIter: 1500, TraceEvery: every, KeepIterates: true}})
				if err != nil {
					t.Fatal(err)
				}
				zeros := 0
				for k, it := range append(res.Trace.Iterates, res.X) {
					for i, v := range it.RawMatrix().Data {
						if v != 0 && math.Abs(v) < kernel.FlushBelow {
							t.Fatalf("%s: iterate %d entry %d = %v, inside (0, kernel.FlushBelow)", name, k, i, v)
						}
						if v == 0 && k == len(res.Trace.Iterates) {
							zeros++
						}
					}
				}
				if zeros == 0 {
					t.Errorf("%s: no coordinate was flushed: the run does not decay far enough", name)
				}
			}
		}
	}
}

// decayProblem is the PMC problem at size n, rank r and ε with z = 1 on
// the observed rows and 0 on the others: from decayingStart, gradient
// descent halves the unobserved coordinates at every step (X's observed
// rows near z's, step 0.5/n), through the subnormal range to 0.
func decayProblem(t *testing.T, n, r int, eps float64) *Problem {
	t.Helper()
	op, err := NewPMCOperator(n, eps)
	if err != nil {
		t.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 1; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(op, z, r)
	if err != nil {
		t.Fatal(err)
	}
	if p.st == nil {
		p.st = newMaskedForce(op, z, r)
	}
	return p
}

// TestGDFlushBound: the flush changes gradient descent's results by no
// more than the package doc states: from decaying coordinates, on every
// path, the runs with and without it take the same number of steps, each
// coordinate of X differs by less than kernel.FlushBelow or by a relative 1e-12
// at most, and h, ‖∇h‖_F and ‖XXᵀ − M*‖_F at every trace point by a
// relative 1e-12 at most, of their value or of ‖Z‖_F², ‖Z‖_F⁴ and
// ‖Z‖_F³ (the scale of their rounding errors): a run that converges to X = Z reaches h = 0 exactly with the flush,
// and the rounding error of the scaled Householder evaluation (h ≈ 4e-28,
// ‖XXᵀ − M*‖_F ≈ 3e-14) without it.
func TestGDFlushBound(t *testing.T) {
	const n = 100
	worstX, worst := 0.0, 0.0
	// within: a and b differ by a relative 1e-12 at most, of the larger
	// or of scale (of ‖Z‖_F² to the power of the quantity's degree).
	within := func(a, b, scale float64) bool {
		d := math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), scale)
		worst = math.Max(worst, d)
		return a == b || d <= 1e-12
	}
	for _, r := range []int{1, 2} {
		for _, dense := range []bool{false, true} {
			for _, v := range []float64{1e-3, 1e-70, 1e-200, 1e-310} {
				p := decayProblem(t, n, r, 0.002)
				if dense {
					p.st = nil
				}
				name := fmt.Sprintf("r=%d dense=%v start %g", r, dense, v)
				opt := GDOptions{Iteration: Iteration{Step: 0.5 / n, MaxIter: 1500, TraceEvery: 100}}
				run := func(tau float64) *GDResult {
					flushAt = tau
					defer func() { flushAt = kernel.FlushBelow }()
					res, err := GradientDescent(context.Background(), p, decayingStart(n, r, v), opt)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				a, b := run(kernel.FlushBelow), run(0)
				if a.Iter != b.Iter || a.Stop != b.Stop {
					t.Fatalf("%s: %d steps (%v) flushed, %d (%v) not", name, a.Iter, a.Stop, b.Iter, b.Stop)
				}
				for i, x := range a.X.RawMatrix().Data {
					y := b.X.RawMatrix().Data[i]
					if math.Abs(x-y) < kernel.FlushBelow {
						continue
					}
					d := math.Abs(x-y) / math.Max(math.Abs(x), math.Abs(y))
					worstX = math.Max(worstX, d)
					if d > 1e-12 {
						t.Fatalf("%s: X[%d] = %v flushed, %v not", name, i, x, y)
					}
				}
				for k := range a.Trace.H {
					m := p.traceMStar() // ‖M*‖_* = ‖Z‖_F², the scale of the rounding errors
					if !within(a.Trace.H[k], b.Trace.H[k], m*m) || !within(a.Trace.GradNorm[k], b.Trace.GradNorm[k], m*math.Sqrt(m)) || !within(a.Trace.Dist[k], b.Trace.Dist[k], m) {
						t.Fatalf("%s: trace point %d: h, ‖∇h‖, dist = %v, %v, %v flushed; %v, %v, %v not", name, k, a.Trace.H[k], a.Trace.GradNorm[k], a.Trace.Dist[k], b.Trace.H[k], b.Trace.GradNorm[k], b.Trace.Dist[k])
					}
				}
			}
		}
	}
	t.Logf("largest relative difference: X %.3g (coordinates not within kernel.FlushBelow), h, ‖∇h‖, dist %.3g", worstX, worst)
}
