package figures

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/widgets"
)

// maxGridPoints bounds the points per axis of HGrid (401² evaluations of h).
const maxGridPoints = 401

// HGrid evaluates h on the square [lo, hi]² with points values per axis,
// for a problem with n = 2 and r = 1: Z[j][i] = h(X[i], Y[j]) + floor. A
// floor > 0 lifts the zeros of h (at ±z) so that they can be drawn on a log
// scale; use 0 for none.
func HGrid(p *sod.Problem, lo, hi float64, points int, floor float64) (widgets.Grid, error) {
	if err := checkProblem("HGrid", p); err != nil {
		return widgets.Grid{}, err
	}
	if n, r := p.Dims(); n != 2 || r != 1 {
		return widgets.Grid{}, fmt.Errorf("%w: HGrid needs a problem with n = 2, r = 1, got n = %d, r = %d", ErrBadFigure, n, r)
	}
	if !(hi > lo) || math.IsInf(hi-lo, 0) || points < 2 || points > maxGridPoints || !(floor >= 0) {
		return widgets.Grid{}, fmt.Errorf("%w: HGrid window [%v, %v] with %d points (2 to %d) and floor %v (≥ 0)", ErrBadFigure, lo, hi, points, maxGridPoints, floor)
	}
	g := widgets.Grid{X: make([]float64, points), Y: make([]float64, points), Z: make([][]float64, points)}
	for i := range g.X {
		g.X[i] = lo + (hi-lo)*float64(i)/float64(points-1)
		g.Y[i] = g.X[i]
	}
	x := mat.NewDense(2, 1, nil)
	for j := range g.Y {
		g.Z[j] = make([]float64, points)
		for i := range g.X {
			x.Set(0, 0, g.X[i])
			x.Set(1, 0, g.Y[j])
			g.Z[j][i] = p.H(x) + floor
		}
	}
	return g, nil
}

// PathFromIterates turns iterates of a two-dimensional rank-1 problem (2×1
// matrices) into a path in the plane; nil, empty or smaller iterates are
// skipped. An iterate with a NaN or infinite entry gives its point as it
// is: the charts leave non-finite points out and say how many.
func PathFromIterates(name string, its []*mat.Dense) widgets.Path {
	p := widgets.Path{Name: name}
	for _, x := range its {
		if x == nil || x.IsEmpty() {
			continue // documented: nil or empty iterates are skipped
		}
		if r, c := x.Dims(); r < 2 || c < 1 {
			continue
		}
		p.X, p.Y = append(p.X, x.At(0, 0)), append(p.Y, x.At(1, 0))
	}
	return p
}

// GDPaths runs gradient descent with opt (KeepIterates is set) from every
// start of a two-dimensional problem and returns the paths, named
// "GD from (x₁, x₂)", and the runs; ctx stops the runs early.
func GDPaths(ctx context.Context, p *sod.Problem, starts [][2]float64, opt sod.GDOptions) ([]widgets.Path, []*sod.GDResult, error) {
	if err := checkProblem("GDPaths", p); err != nil {
		return nil, nil, err
	}
	if n, r := p.Dims(); n != 2 || r != 1 {
		return nil, nil, fmt.Errorf("%w: GDPaths needs a problem with n = 2, r = 1, got n = %d, r = %d", ErrBadFigure, n, r)
	}
	opt.KeepIterates = true
	var paths []widgets.Path
	var runs []*sod.GDResult
	for _, s := range starts {
		res, err := sod.GradientDescent(ctx, p, mat.NewDense(2, 1, []float64{s[0], s[1]}), opt)
		if err != nil {
			return nil, nil, err
		}
		paths = append(paths, PathFromIterates(fmt.Sprintf("GD from (%.2g, %.2g)", s[0], s[1]), res.Trace.Iterates))
		runs = append(runs, res)
	}
	return paths, runs, nil
}

// BasicPoints are the ground truth ±z and the spurious points ±x̂ of the
// basic example, for its landscapes.
func BasicPoints() []widgets.Point {
	r := 1 / math.Sqrt2
	return []widgets.Point{{Name: "z", X: 1}, {Name: "−z", X: -1}, {Name: "x̂", Y: r}, {Name: "−x̂", Y: -r}}
}
