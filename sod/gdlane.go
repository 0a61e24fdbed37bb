package sod

import (
	"context"
	"fmt"
	"math"
	"sodworkbench.org/workbench/sod/internal/kernel"

	"gonum.org/v1/gonum/mat"
)

// This file holds GradientDescent's lane for the structured path at
// r = k = 1 with the parity layout (the PMC study's instances): between
// two trace points it steps with pass11, one pass over the rows per step
// instead of the two of stepEval (kernel.Step11), and evaluates h and ∇h only where the
// loop reports them. The iterates, the steps at which the run stops and
// every reported value are those of the two-pass loop to the last bit
// (TestGDLaneBitExact): the pass performs the same operations, the tests
// that decide each step are decided the same way, and where a pass cannot
// decide one (a gradient norm within rounding of GradTol, a point whose h
// or ‖∇h‖_F might exceed the divergence limit, Gram entries outside
// eval11's range) the lane evaluates exactly as the loop does, or hands
// the step back to it.

// gdCheckEvery is how often (in steps) GradientDescent checks its
// context, in the two-pass loop and in the lane alike.
const gdCheckEvery = 1 << 10

// laneMinSteps is the shortest stretch between two trace points the lane
// takes: it evaluates once at each end, so shorter stretches (TraceEvery
// 1, the default) keep the two-pass step.
const laneMinSteps = 8

// laneBackoff is how many steps GradientDescent takes with the two-pass
// step after the lane handed a step back for an unsafe or unbounded
// point, before it tries the lane again.
const laneBackoff = 64

// laneEnd says why descend11 returned.
type laneEnd int

const (
	laneNotTaken laneEnd = iota // X's Gram entries are outside eval11's range: no step taken
	laneReached                 // the stretch's last step, a trace point or MaxIter
	laneDecide                  // ‖∇h(X)‖_F is within GradTol, or too close to it to tell from the pass
	laneExact                   // a point the pass could not vouch for, evaluated exactly and accepted
	laneDiverged                // the step from X led to a point over the divergence limit
)

func (e laneEnd) String() string {
	switch e {
	case laneNotTaken:
		return "not taken"
	case laneReached:
		return "reached"
	case laneDecide:
		return "decide"
	case laneExact:
		return "exact"
	case laneDiverged:
		return "diverged"
	}
	return fmt.Sprintf("laneEnd(%d)", int(e))
}

// laneUsable reports whether descend11 applies to p and GD's buffers.
func (p *Problem) laneUsable(x, next, g *mat.Dense) bool {
	st := p.st
	return kernel.Lane11 && st != nil && st.r == 1 && st.k == 1 && st.parity &&
		kernel.Contiguous(x) != nil && kernel.Contiguous(next) != nil && kernel.Contiguous(g) != nil
}

// laneTarget is the iterate a lane stretch from k runs to: the next
// trace point (a multiple of every), or maxIter if that comes first.
func laneTarget(k, every, maxIter int) int {
	if rem := every - k%every; k <= math.MaxInt-rem {
		return min(maxIter, k+rem)
	}
	return maxIter
}

// laneStop is where descend11 stopped: GD's two buffers (x holds the
// iterate), the iterate k, and why; at every end but laneNotTaken and
// laneDiverged, h and gn are h and ‖∇h‖_F there, and g holds ∇h there, as
// the two-pass loop would hold them.
type laneStop struct {
	x, next *mat.Dense
	k       int
	h       float64
	gn      gradNorm
	end     laneEnd
}

// descend11 takes gradient descent steps X ← X + α∇h(X) from iterate k
// (x; GD has decided that the run goes on from it) towards iterate to,
// swapping x and next as it goes. At laneDiverged, x is the iterate whose
// step diverged (GD evaluates it again, as after a two-pass step). Each
// step counts one evaluation of ∇h, as stepGradFast does; the
// evaluations at the ends do not count, because the two-pass loop has
// those values from its steps. ctx is checked where GradientDescent
// checks it, every gdCheckEvery steps.
func (p *Problem) descend11(ctx context.Context, ws *workspace, x, next, g *mat.Dense, alpha float64, k, to int, gradTol, limit float64) (laneStop, error) {
	st := p.st
	xd, nd := kernel.Contiguous(x), kernel.Contiguous(next)
	s := st.gram11(xd, 1)
	if !s.safe() {
		return laneStop{x: x, next: next, k: k, end: laneNotTaken}, nil
	}
	steps := 0
	defer func() { p.count.addGrads(steps) }()
	// stop ends the stretch at iterate j (in x) and, but for laneDiverged,
	// evaluates there as the two-pass loop's step would have.
	stop := func(j int, end laneEnd) laneStop {
		ls := laneStop{x: x, next: next, k: j, end: end}
		if end != laneDiverged {
			ls.h = finiteOrInf(st.eval(ws.sw, g, x).h(st))
			ls.gn = gradNorm{g: g, ss: ws.sw.gradSSOr(g)}
		}
		return ls
	}
	j := k
	for {
		s1, ss := st.pass11(nd, xd, s, alpha)
		if j > k && gradTol > 0 {
			// The loop's convergence test at j, from the same sum.
			if within, ok := ssDecides(ss, gradTol, len(xd)); !ok || within {
				return stop(j, laneDecide), nil
			}
		}
		steps++ // the step to j + 1 is taken (a two-pass step counts here too)
		x, next = next, x
		xd, nd = nd, xd
		j++
		var exact laneStop
		if !s1.safe() || !st.bounded(s1, limit) {
			exact = stop(j, laneExact)
			if overLimit(exact.h, &exact.gn, limit) {
				x, next = next, x
				return stop(j-1, laneDiverged), nil
			}
		}
		if j%gdCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return laneStop{}, fmt.Errorf("sod: gradient descent stopped at iteration %d: %w", j, err)
			}
		}
		if exact.end == laneExact {
			return exact, nil
		}
		if j >= to {
			return stop(j, laneReached), nil
		}
		s = s1
	}
}

// bounded reports whether h and ‖∇h‖_F at the point with Gram entries s
// are at most half of the divergence limit (and of 1e300), so that the
// loop's divergence test, on values with rounding error, passes. With
// D = xxᵀ − zzᵀ and W∘W ≤ w = max(1, ε²) entrywise:
// ‖D‖_F ≤ ‖x‖² + ‖z‖², h = ½Σ W_ij²D_ij² ≤ ½w‖D‖_F², and
// ‖∇h‖_F = 2‖(W∘W∘D)x‖ ≤ 2w‖D‖_F‖x‖.
func (st *masked) bounded(s sums11, limit float64) bool {
	xx := s.xxO + s.xxU
	d := xx + st.zz
	w := math.Max(1, st.eps2)
	half := math.Min(limit, 1e300) / 2
	return 0.5*w*d*d <= half && 2*w*d*math.Sqrt(xx) <= half
}

// pass11 is one step of gradient descent from X (contiguous data x, with
// Gram entries s) into next, its coordinates flushed (flushTiny): it returns X_{j+1}'s Gram entries (diag
// unset: it is h's, not the step's) and the sum of squares of ∇h(X)'s
// entries summed as finish11 sums them.
func (st *masked) pass11(next, x []float64, s sums11, alpha float64) (sums11, float64) {
	mxO, mzO, mxU, mzU := st.coef11(s)
	k := kernel.Coef11{mxU, mxO, mzU, mzO, alpha, alpha, st.c, 0, flushAt, flushAt}
	np := len(st.zO)
	var o kernel.Sums11
	if st.zAlt {
		kernel.Step11Alt(next[:2*np], x[:2*np], st.zPair, &k, &o)
	} else {
		kernel.Step11(next[:2*np], x[:2*np], st.zPair, &k, &o)
	}
	ssU, ssO, xxU, xxO, xzU, xzO := o[0], o[1], o[2], o[3], o[4], o[5]
	for t := np; t < len(st.zU); t++ { // odd n: the last U row
		i, zu := 2*t, st.zU[t]
		xu := x[i]
		g := kernel.GradRowU11(xu, zu, mxU, mzU, st.c)
		ssU += g * g
		xu = flushTiny(xu + alpha*g)
		next[i] = xu
		xxU += xu * xu
		xzU += xu * zu
	}
	return sums11{xxO: xxO, xzO: xzO, zzO: st.zzO, xxU: xxU, xzU: xzU, zzU: st.zzU, diag: math.NaN()}, ssO + ssU
}
