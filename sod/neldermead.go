package sod

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// Nelder–Mead in the caller's goroutine.
//
// RIPOptimize (the paper's RIP estimate by optimisation, REPRODUCTION.md C4)
// minimises with gonum's Nelder–Mead. gonum's optimize.Minimize runs every
// method in a goroutine of its own and hands each evaluation over channels
// (method → distributor → worker → statistics loop → method): four channel
// operations and as many goroutine switches per evaluation, which cost
// little natively but about as much as the evaluation itself in
// WebAssembly, where goroutines are emulated on one thread (the live book).
// NelderMead's steps (initLocal, iterateLocal) are unexported, so
// minimizeNelderMead repeats them, and Minimize's loop for one task,
// operation for operation: the same points, in the same order, with the
// same floating-point operations (gonum's floats and sort.Sort on the same
// vertex sorter), hence the same minimum to the bit and the same number of
// evaluations. TestNelderMeadMatchesGonum holds the two equal on the RIP
// objective and on test functions with ties, NaN, infinities and the
// evaluation limit.

// nmResult is what minimizeNelderMead returns: Minimize's Result.F and
// Result.X (its last major iteration's best vertex, or +Inf and zeros if
// the run stopped before one) and the number of evaluations of f.
type nmResult struct {
	F     float64
	X     []float64
	Evals int
}

// minimizeNelderMead is optimize.Minimize(optimize.Problem{Func: f}, x0,
// &optimize.Settings{FuncEvaluations: maxEvals, Converger: conv},
// &optimize.NelderMead{}) run in the caller's goroutine (see above). conv
// is a FunctionConverge (or any Converger), Init-ed here as Minimize does;
// maxEvals ≤ 0 means no limit.
func minimizeNelderMead(f func([]float64) float64, x0 []float64, maxEvals int, conv optimize.Converger) nmResult {
	dim := len(x0)
	opt := nmResult{F: math.Inf(1), X: make([]float64, dim)}
	conv.Init(dim)
	x := append([]float64(nil), x0...) // the task's location, which the method moves
	arg := make([]float64, dim)        // Minimize's worker hands f a copy
	var fx float64
	// evaluate is Minimize's worker and its evaluation limit: it reports
	// whether the run goes on.
	evaluate := func() bool {
		copy(arg, x)
		fx = f(arg)
		opt.Evals++
		return maxEvals <= 0 || opt.Evals < maxEvals
	}
	// major is performMajorIteration with its convergence checks.
	loc := optimize.Location{X: opt.X}
	major := func() bool {
		opt.F = fx
		copy(opt.X, x)
		loc.F = fx
		if math.IsInf(fx, -1) {
			return false
		}
		return conv.Converged(&loc) == optimize.NotTerminated
	}
	// localOptimizer.run: the initial evaluation, its check, the major
	// iteration at the start, then the method's steps.
	if !evaluate() {
		return opt
	}
	if math.IsInf(fx, 1) || math.IsNaN(fx) {
		return opt // Failure (optimize.ErrFunc): no major iteration was made
	}
	if !major() {
		return opt
	}
	var nm nmState
	op := nm.init(x, fx)
	for {
		switch op {
		case optimize.FuncEvaluation:
			if !evaluate() {
				return opt
			}
		case optimize.MajorIteration:
			if !major() {
				return opt
			}
		}
		op = nm.iterate(x, fx)
		if op == optimize.MajorIteration {
			fx = nm.values[0] // returnNext sets the location's F to the best value
		}
	}
}

// nmState is gonum's optimize.NelderMead with its default parameters
// (gonum v0.17.0, neldermead.go, BSD licence): the same fields and steps,
// on a location given as (x, f).
type nmState struct {
	reflection, expansion, contraction, shrink, simplexSize float64

	vertices [][]float64 // the vertices sorted by ascending f
	values   []float64   // f at the vertices, ascending
	centroid []float64   // centroid of all but the worst vertex

	fillIdx        int    // index for filling the simplex at the start and in a shrink
	lastIter       nmIter // the last step
	reflectedPoint []float64
	reflectedValue float64
}

type nmIter int

const (
	nmReflected nmIter = iota
	nmExpanded
	nmContractedInside
	nmContractedOutside
	nmInitialize
	nmShrink
	nmMajor
)

// nmSorter is gonum's nmVertexSorter: sort.Sort with it orders the
// vertices as gonum does, ties included.
type nmSorter struct {
	vertices [][]float64
	values   []float64
}

func (s nmSorter) Len() int           { return len(s.values) }
func (s nmSorter) Less(i, j int) bool { return s.values[i] < s.values[j] }
func (s nmSorter) Swap(i, j int) {
	s.values[i], s.values[j] = s.values[j], s.values[i]
	s.vertices[i], s.vertices[j] = s.vertices[j], s.vertices[i]
}

// init is NelderMead.initLocal without initial vertices.
func (n *nmState) init(x []float64, f float64) optimize.Operation {
	dim := len(x)
	n.vertices = make([][]float64, dim+1)
	for i := range n.vertices {
		n.vertices[i] = make([]float64, dim)
	}
	n.values = make([]float64, dim+1)
	n.centroid = make([]float64, dim)
	n.reflectedPoint = make([]float64, dim)
	n.simplexSize = 0.05
	// gonum's dimension-dependent defaults (Gao and Han, ANMS).
	n.reflection = 1
	n.expansion = 1 + 2/float64(dim)
	n.contraction = 0.75 - 1/(2*float64(dim))
	n.shrink = 1 - 1/float64(dim)
	if dim == 1 {
		n.expansion, n.contraction, n.shrink = 2, 0.5, 0.5
	}
	copy(n.vertices[dim], x)
	n.values[dim] = f
	n.fillIdx = 0
	x[n.fillIdx] += n.simplexSize
	n.lastIter = nmInitialize
	return optimize.FuncEvaluation
}

// iterate is NelderMead.iterateLocal: x and f are the location's point
// and value after the last operation; x is moved to the next point.
func (n *nmState) iterate(x []float64, f float64) optimize.Operation {
	dim := len(x)
	switch n.lastIter {
	case nmInitialize:
		n.values[n.fillIdx] = f
		copy(n.vertices[n.fillIdx], x)
		n.fillIdx++
		if n.fillIdx == dim {
			sort.Sort(nmSorter{n.vertices, n.values})
			nmCentroid(n.vertices, n.centroid)
			return n.next(nmMajor, x)
		}
		copy(x, n.vertices[dim])
		x[n.fillIdx] += n.simplexSize
		return optimize.FuncEvaluation
	case nmMajor:
		return n.next(nmReflected, x)
	case nmReflected:
		n.reflectedValue = f
		switch {
		case f >= n.values[0] && f < n.values[dim-1]:
			n.replaceWorst(x, f)
			return n.next(nmMajor, x)
		case f < n.values[0]:
			return n.next(nmExpanded, x)
		default:
			if f < n.values[dim] {
				return n.next(nmContractedOutside, x)
			}
			return n.next(nmContractedInside, x)
		}
	case nmExpanded:
		if f < n.reflectedValue {
			n.replaceWorst(x, f)
		} else {
			n.replaceWorst(n.reflectedPoint, n.reflectedValue)
		}
		return n.next(nmMajor, x)
	case nmContractedOutside:
		if f <= n.reflectedValue {
			n.replaceWorst(x, f)
			return n.next(nmMajor, x)
		}
		n.fillIdx = 1
		return n.next(nmShrink, x)
	case nmContractedInside:
		if f < n.values[dim] {
			n.replaceWorst(x, f)
			return n.next(nmMajor, x)
		}
		n.fillIdx = 1
		return n.next(nmShrink, x)
	case nmShrink:
		copy(n.vertices[n.fillIdx], x)
		n.values[n.fillIdx] = f
		n.fillIdx++
		if n.fillIdx != dim+1 {
			return n.next(nmShrink, x)
		}
		sort.Sort(nmSorter{n.vertices, n.values})
		nmCentroid(n.vertices, n.centroid)
		return n.next(nmMajor, x)
	default:
		panic("sod: Nelder–Mead: unreachable step")
	}
}

// next is NelderMead.returnNext; at a major step it leaves the best vertex
// in x, and the caller takes its value, values[0].
func (n *nmState) next(iter nmIter, x []float64) optimize.Operation {
	n.lastIter = iter
	switch iter {
	case nmMajor:
		copy(x, n.vertices[0])
		return optimize.MajorIteration
	case nmReflected, nmExpanded, nmContractedOutside, nmContractedInside:
		var scale float64
		switch iter {
		case nmReflected:
			scale = n.reflection
		case nmExpanded:
			scale = n.reflection * n.expansion
		case nmContractedOutside:
			scale = n.reflection * n.contraction
		case nmContractedInside:
			scale = -n.contraction
		}
		dim := len(x)
		floats.SubTo(x, n.centroid, n.vertices[dim])
		floats.Scale(scale, x)
		floats.Add(x, n.centroid)
		if iter == nmReflected {
			copy(n.reflectedPoint, x)
		}
		return optimize.FuncEvaluation
	case nmShrink:
		floats.SubTo(x, n.vertices[n.fillIdx], n.vertices[0])
		floats.Scale(n.shrink, x)
		floats.Add(x, n.vertices[0])
		return optimize.FuncEvaluation
	default:
		panic("sod: Nelder–Mead: unreachable step")
	}
}

// replaceWorst is NelderMead.replaceWorst.
func (n *nmState) replaceWorst(x []float64, f float64) {
	dim := len(x)
	if f >= n.values[dim] {
		panic("sod: Nelder–Mead: increase in simplex value")
	}
	copy(n.vertices[dim], x)
	n.values[dim] = f
	for i := dim - 1; i >= 0; i-- {
		if n.values[i] < f {
			break
		}
		n.vertices[i], n.vertices[i+1] = n.vertices[i+1], n.vertices[i]
		n.values[i], n.values[i+1] = n.values[i+1], n.values[i]
	}
	floats.AddScaled(n.centroid, -1/float64(dim), n.vertices[dim])
	floats.AddScaled(n.centroid, 1/float64(dim), x)
}

// nmCentroid is gonum's computeCentroid: the mean of all vertices but the last.
func nmCentroid(vertices [][]float64, centroid []float64) {
	dim := len(centroid)
	for i := range centroid {
		centroid[i] = 0
	}
	for i := 0; i < dim; i++ {
		for j, v := range vertices[i] {
			centroid[j] += v
		}
	}
	for i := range centroid {
		centroid[i] /= float64(dim)
	}
}
