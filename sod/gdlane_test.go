package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sodworkbench.org/workbench/sod/internal/kernel"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// pmcProblem returns the PMC problem of the benchmark (z = 1 on the
// unobserved rows) at size n, or with a random z.
func pmcProblem(t *testing.T, n int, eps float64, randomZ bool) *Problem {
	t.Helper()
	op, err := NewPMCOperator(n, eps)
	if err != nil {
		t.Fatal(err)
	}
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i += 2 {
		z.Set(i, 0, 1)
	}
	if randomZ {
		z = randDense(n, 1, 5)
	}
	p, err := NewProblem(op, z, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.st == nil || !p.st.parity {
		t.Fatalf("n = %d: not on the structured parity path", n)
	}
	return p
}

// TestStep11Kernel: the pass over row pairs (assembly on amd64) equals
// step11Go to the bit, and pass11 equals the two-pass step (stepGram11
// after finish11) to the bit: X_{j+1}, its Gram entries and the sum of
// squares of ∇h(X_j), at odd and even n, on data with signed zeros,
// subnormals, huge and mixed-scale entries, and coordinates at and around
// the flush threshold, which both flush alike (+0 below τ).
func TestStep11Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-310, 1e150, -1e100, 1, -1, kernel.FlushBelow, -kernel.FlushBelow, math.Nextafter(kernel.FlushBelow, 0), -0.9 * kernel.FlushBelow, 1e-200}
	for _, tc := range []struct {
		n     int
		scale float64 // spread of the magnitudes, in decades
		spec  bool    // sprinkle special values
	}{{2, 0, false}, {3, 0, false}, {8, 1, false}, {9, 1, true}, {1000, 3, true}, {1001, 8, true}, {4096, 0, false}} {
		x := make([]float64, tc.n)
		z := make([]float64, tc.n)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, tc.scale*(rng.Float64()-0.5))
			z[i] = rng.NormFloat64()
			if tc.spec && rng.IntN(5) == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
			if tc.spec && rng.IntN(7) == 0 {
				z[i] = special[rng.IntN(3)]
			}
		}
		name := fmt.Sprintf("n=%d", tc.n)
		// The kernel against step11Go on the pairs, without and with the
		// flush (a step of 0 stores x itself: the flush of the data).
		np := tc.n / 2
		zp := make([]float64, 2*np)
		for t := range np {
			zp[2*t], zp[2*t+1] = z[2*t], z[2*t+1]
		}
		for _, kc := range []struct{ alpha, tau float64 }{{-1e-3, 0}, {-1e-3, kernel.FlushBelow}, {0, kernel.FlushBelow}, {-1e-3, 1e-3}} {
			k := kernel.Coef11{0.3, 1.7, -0.2, 0.9, kc.alpha, kc.alpha, 0.99, 0, kc.tau, kc.tau}
			a, b := make([]float64, 2*np), make([]float64, 2*np)
			var sa, sb kernel.Sums11
			kernel.Step11(a, x[:2*np], zp, &k, &sa)
			kernel.Step11Go(b, x[:2*np], zp, &k, &sb)
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("%s, α = %v, τ = %v: step11 row %d = %v, step11Go %v", name, kc.alpha, kc.tau, i, a[i], b[i])
				}
				if a[i] != 0 && math.Abs(a[i]) < kc.tau {
					t.Fatalf("%s, α = %v, τ = %v: row %d = %v not flushed", name, kc.alpha, kc.tau, i, a[i])
				}
			}
			for i := range sa {
				if math.Float64bits(sa[i]) != math.Float64bits(sb[i]) {
					t.Fatalf("%s, α = %v, τ = %v: step11 sum %d = %v, step11Go %v", name, kc.alpha, kc.tau, i, sa[i], sb[i])
				}
			}
		}
		// pass11 against the two-pass step, on a PMC problem with this z
		// (where GD uses the pass: elsewhere Go may fuse operations).
		if tc.n < 8 || !kernel.Lane11 {
			continue
		}
		op, _ := NewPMCOperator(tc.n, 0.3)
		Z := mat.NewDense(tc.n, 1, z)
		st := newMaskedForce(op, Z, 1)
		X := mat.NewDense(tc.n, 1, append([]float64(nil), x...))
		for i, v := range X.RawMatrix().Data {
			if math.Abs(v) > 1e100 { // outside eval11's range: the two-pass step falls back
				X.Set(i, 0, 1)
			}
		}
		alpha := -0.5 / float64(tc.n)
		s := st.gram11(X.RawMatrix().Data, 1)
		w := st.newWork()
		g := mat.NewDense(tc.n, 1, nil)
		if _, ok := st.finish11(w, g, X.RawMatrix().Data, 1, s); !ok {
			t.Fatalf("%s: unsafe data", name)
		}
		wantSS := w.gradSS
		want := make([]float64, tc.n)
		ws := st.stepGram11(want, X.RawMatrix().Data, g.RawMatrix().Data, alpha)
		got := make([]float64, tc.n)
		gs, ss := st.pass11(got, X.RawMatrix().Data, s, alpha)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: pass11 row %d = %v, two-pass %v", name, i, got[i], want[i])
			}
		}
		gs.diag = ws.diag
		if gs != ws || math.Float64bits(ss) != math.Float64bits(wantSS) {
			t.Fatalf("%s: pass11 sums %+v ss %v, two-pass %+v ss %v", name, gs, ss, ws, wantSS)
		}
	}
}

// gdBoth runs GradientDescent with and without the one-pass lane and
// fails unless the two runs agree to the bit: error, X, steps, stop,
// h, ‖∇h‖_F, the trace, the callback's arguments and the counts.
func gdBoth(t *testing.T, p *Problem, x0 *mat.Dense, opt GDOptions, ctxAt int) *GDResult {
	t.Helper()
	type call struct {
		k     int
		x0    uint64
		h, gn float64
	}
	run := func(off bool) (*GDResult, []call, EvalCounts, error) {
		gdLaneOff = off
		defer func() { gdLaneOff = false }()
		var c EvalCounter
		q := p.WithCounter(&c)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var calls []call
		o := opt
		user := opt.Callback
		o.Callback = func(k int, X *mat.Dense, h, gn float64) bool {
			calls = append(calls, call{k, math.Float64bits(X.At(0, 0)), h, gn})
			if ctxAt >= 0 && k >= ctxAt {
				cancel()
			}
			if user != nil {
				return user(k, X, h, gn)
			}
			return true
		}
		res, err := GradientDescent(ctx, q, x0, o)
		return res, calls, c.Counts(), err
	}
	a, ca, na, ea := run(false)
	b, cb, nb, eb := run(true)
	if (ea == nil) != (eb == nil) || (ea != nil && ea.Error() != eb.Error()) {
		t.Fatalf("errors differ: lane %v, two-pass %v", ea, eb)
	}
	if na != nb {
		t.Fatalf("counts differ: lane %+v, two-pass %+v", na, nb)
	}
	if fmt.Sprint(ca) != fmt.Sprint(cb) {
		t.Fatalf("callbacks differ:\nlane     %v\ntwo-pass %v", ca, cb)
	}
	if ea != nil {
		return nil
	}
	if a.Iter != b.Iter || a.Stop != b.Stop || a.Stagnated != b.Stagnated {
		t.Fatalf("lane: %d steps (%v), two-pass: %d steps (%v)", a.Iter, a.Stop, b.Iter, b.Stop)
	}
	for i, v := range a.X.RawMatrix().Data {
		if math.Float64bits(v) != math.Float64bits(b.X.RawMatrix().Data[i]) {
			t.Fatalf("X[%d] = %v with the lane, %v without", i, v, b.X.RawMatrix().Data[i])
		}
	}
	if math.Float64bits(a.H) != math.Float64bits(b.H) || math.Float64bits(a.GradNorm) != math.Float64bits(b.GradNorm) {
		t.Fatalf("h, ‖∇h‖: lane %v, %v; two-pass %v, %v", a.H, a.GradNorm, b.H, b.GradNorm)
	}
	if fmt.Sprint(a.Trace.Iter, a.Trace.H, a.Trace.GradNorm, a.Trace.Dist) != fmt.Sprint(b.Trace.Iter, b.Trace.H, b.Trace.GradNorm, b.Trace.Dist) {
		t.Fatalf("traces differ")
	}
	if len(a.Trace.Iterates) != len(b.Trace.Iterates) {
		t.Fatalf("%d kept iterates with the lane, %d without", len(a.Trace.Iterates), len(b.Trace.Iterates))
	}
	for i := range a.Trace.Iterates {
		if !mat.Equal(a.Trace.Iterates[i], b.Trace.Iterates[i]) {
			t.Fatalf("kept iterate %d differs", i)
		}
	}
	return a
}

// TestGDLaneBitExact: gradient descent with the one-pass lane (descend11)
// and with the two-pass step take the same iterates and stop at the same
// step with the same report, to the bit, whatever ends the run: MaxIter,
// GradTol (also a GradTol equal to a ‖∇h‖ the run passes, which the
// pass's sum cannot decide), divergence (a finite limit and overflow), a
// callback that stops the run or reads X, a cancelled context, starts
// whose Gram entries leave eval11's range, KeepIterates, odd and even n,
// the study's z and a random one, ε < 1 and ε > 1.
func TestGDLaneBitExact(t *testing.T) {
	if !kernel.Lane11 {
		t.Skip("no one-pass lane on this platform (kernel.Lane11)")
	}
	ctx := context.Background()
	// A run of the two-pass loop: the last step up to 300 whose ‖∇h‖ is
	// below every earlier one gives a GradTol at which the run must stop
	// there, and which the pass's sum cannot decide.
	p := pmcProblem(t, 1000, 0.1, false)
	x0 := randDense(1000, 1, 3)
	gdLaneOff = true
	ref, err := GradientDescent(ctx, p, x0, GDOptions{Iteration: Iteration{Step: 0.5 / 1000, MaxIter: 300, TraceEvery: 1}})
	gdLaneOff = false
	if err != nil {
		t.Fatal(err)
	}
	atIter, low := 0, math.Inf(1)
	for k, v := range ref.Trace.GradNorm {
		if v < low {
			atIter, low = k, v
		}
	}
	atTol := low
	if atIter < 2*laneMinSteps {
		t.Fatalf("‖∇h‖ is lowest at step %d of 300: choose another start", atIter)
	}
	tiny := randDense(1001, 1, 4)
	for i := 1; i < 1001; i += 2 {
		tiny.Set(i, 0, 1e-130*tiny.At(i, 0)) // x_Oᵀx_O < 1e-250: eval11 falls back
	}
	for _, tc := range []struct {
		name     string
		n        int
		eps      float64
		randomZ  bool
		x0       *mat.Dense
		opt      GDOptions
		ctxAt    int // cancel the context at the first callback at or after this step (−1: never)
		wantStop StopReason
	}{
		{"MaxIter, n = 1000", 1000, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 1000, MaxIter: 5000, TraceEvery: 250}}, -1, StopMaxIter},
		{"MaxIter, n = 1001, random z, KeepIterates", 1001, 0.3, true, nil, GDOptions{Iteration: Iteration{Step: 0.2 / 1001, MaxIter: 3000, TraceEvery: 700, KeepIterates: true}}, -1, StopMaxIter},
		{"GradTol, a probe (one trace point)", 200, 0.05, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 200, MaxIter: 1 << 20, TraceEvery: 1 << 20}, GradTol: 1e-10}, -1, StopConverged},
		{"GradTol, MaxIter and TraceEvery math.MaxInt", 200, 0.05, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 200, MaxIter: math.MaxInt, TraceEvery: math.MaxInt}, GradTol: 1e-8}, -1, StopConverged},
		{"GradTol, n = 1001", 1001, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 1001, MaxIter: 200000, TraceEvery: 1000}, GradTol: 1e-6}, -1, StopConverged},
		{"GradTol = a ‖∇h‖ of the run", 1000, 0.1, false, x0, GDOptions{Iteration: Iteration{Step: 0.5 / 1000, MaxIter: 1000, TraceEvery: 1000}, GradTol: atTol}, -1, StopConverged},
		{"ε > 1 (weights above 1)", 100, 2, true, nil, GDOptions{Iteration: Iteration{Step: 0.05 / 100, MaxIter: 3000, TraceEvery: 1000}}, -1, StopMaxIter},
		{"divergence, finite limit", 100, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5, MaxIter: 1000, TraceEvery: 100, DivergenceLimit: 1e40}}, -1, StopDiverged},
		{"divergence, overflow", 100, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5, MaxIter: 1000, TraceEvery: 100, DivergenceLimit: math.Inf(1)}}, -1, StopDiverged},
		{"limit near h: exact evaluations", 100, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 100, MaxIter: 2000, TraceEvery: 500, DivergenceLimit: 2e4}}, -1, StopMaxIter},
		{"unsafe start: x_O tiny", 1001, 0.1, false, tiny, GDOptions{Iteration: Iteration{Step: 0.5 / 1001, MaxIter: 3000, TraceEvery: 1500}}, -1, StopMaxIter},
		{"callback reads X", 1000, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 1000, MaxIter: 2000, TraceEvery: 300}, Callback: func(k int, X *mat.Dense, _, _ float64) bool {
			return mat.Norm(X, 2) > 0
		}}, -1, StopMaxIter},
		{"callback stops", 1000, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 1000, MaxIter: 2000, TraceEvery: 300}, Callback: func(k int, _ *mat.Dense, _, _ float64) bool { return k < 900 }}, -1, StopCallback},
		{"context cancelled", 1000, 0.1, false, nil, GDOptions{Iteration: Iteration{Step: 0.5 / 1000, MaxIter: 5000, TraceEvery: 1500}}, 1500, StopMaxIter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pmcProblem(t, tc.n, tc.eps, tc.randomZ)
			x0 := tc.x0
			if x0 == nil {
				x0 = randDense(tc.n, 1, 9)
			}
			res := gdBoth(t, p, x0, tc.opt, tc.ctxAt)
			if tc.ctxAt >= 0 {
				if res != nil {
					t.Fatalf("the cancelled run returned %v", res.Stop)
				}
				return
			}
			if res == nil || res.Stop != tc.wantStop {
				t.Fatalf("stop %v, want %v (the case does not test what it says)", res.Stop, tc.wantStop)
			}
			if tc.opt.GradTol == atTol && res.Iter != atIter {
				t.Fatalf("stopped at %d, want %d, where ‖∇h‖ = GradTol", res.Iter, atIter)
			}
		})
	}
}

// TestDescend11Ends: each way descend11 ends is reached by the cases of
// TestGDLaneBitExact (so that equality there is not vacuous), and a
// cancelled context is reported as GradientDescent reports it.
func TestDescend11Ends(t *testing.T) {
	if !kernel.Lane11 {
		t.Skip("no one-pass lane on this platform (kernel.Lane11)")
	}
	bg := context.Background()
	run := func(p *Problem, x0 *mat.Dense, alpha float64, to int, tol, limit float64, ctx context.Context) (int, laneEnd, error) {
		n, r := x0.Dims()
		ws := p.getWorkspace()
		defer p.putWorkspace(ws)
		x, next, g := mat.DenseCopyOf(x0), mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
		ls, err := p.descend11(ctx, ws, x, next, g, alpha, 0, to, tol, limit)
		return ls.k, ls.end, err
	}
	p := pmcProblem(t, 1000, 0.1, false)
	x0 := randDense(1000, 1, 9)
	tiny := mat.DenseCopyOf(x0)
	for i := 1; i < 1000; i += 2 {
		tiny.Set(i, 0, 1e-130)
	}
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	for _, tc := range []struct {
		name    string
		x0      *mat.Dense
		alpha   float64
		to      int
		tol     float64
		limit   float64
		ctx     context.Context
		wantJ   int
		wantEnd laneEnd
		wantErr error
	}{
		{"reached", x0, -0.5 / 1000, 100, 0, DefaultDivergenceLimit, bg, 100, laneReached, nil},
		{"decide: converged", x0, -0.5 / 1000, 100, 1e10, DefaultDivergenceLimit, bg, 1, laneDecide, nil},
		{"exact: near the limit", x0, -0.5 / 1000, 100, 0, 2e5, bg, 1, laneExact, nil},
		{"diverged", x0, -5, 100, 0, 1e6, bg, 0, laneDiverged, nil},
		{"not taken: unsafe", tiny, -0.5 / 1000, 100, 0, DefaultDivergenceLimit, bg, 0, laneNotTaken, nil},
		{"context", x0, -0.5 / 1000, 5000, 0, DefaultDivergenceLimit, cancelled, gdCheckEvery, 0, context.Canceled},
	} {
		j, end, err := run(p, tc.x0, tc.alpha, tc.to, tc.tol, tc.limit, tc.ctx)
		if tc.wantErr != nil {
			// GradientDescent returns the error alone, naming the iterate.
			if want := fmt.Sprintf("iteration %d:", tc.wantJ); !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v, want %v naming %q", tc.name, err, tc.wantErr, want)
			}
			continue
		}
		if j != tc.wantJ || end != tc.wantEnd || err != nil {
			t.Errorf("%s: ended at %d (%v, %v), want %d (%v, %v)", tc.name, j, end, err, tc.wantJ, tc.wantEnd, tc.wantErr)
		}
	}
}
