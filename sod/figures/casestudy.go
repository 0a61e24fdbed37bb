package figures

import (
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// keep reports whether iteration k of a case study is drawn when every
// every-th point is: the points around the escape and the last are always
// kept.
func keep(r *experiments.CaseStudyResult, k, every int) bool {
	return k%every == 0 || k == r.EscapeAt-1 || k == r.EscapeAt || k == len(r.Iter)-1
}

// CaseCurves returns panels (a)–(c) of the paper's Figs. exp2 and exp3 from
// a case study: h, ‖∇h‖_F and ‖XXᵀ − M*‖_F against the iteration (every
// every-th point), with the escape marked; title prefixes each panel's
// title.
func CaseCurves(title string, r *experiments.CaseStudyResult, every int) ([]widgets.Curves, error) {
	if r == nil {
		return nil, errNil("CaseCurves", "CaseStudyResult")
	}
	if every < 1 || len(r.Iter) == 0 {
		return nil, fmt.Errorf("%w: CaseCurves: every = %d (≥ 1), %d iterations", ErrBadFigure, every, len(r.Iter))
	}
	var it, h, g, d []float64
	var esc []int
	for k := range r.Iter {
		if !keep(r, k, every) {
			continue
		}
		if k == r.EscapeAt {
			esc = []int{len(it)}
		}
		it = append(it, float64(r.Iter[k]))
		h, g, d = append(h, r.H[k]), append(g, r.GradNorm[k]), append(d, r.Dist[k])
	}
	mk := func(panel, yname string, y []float64) widgets.Curves {
		return widgets.Curves{Title: title + " " + panel, XName: "iteration", YName: yname, X: it,
			Series: []widgets.Series{{Name: yname, Y: y}}, EscapeAt: esc, LogY: true}
	}
	return []widgets.Curves{mk("(a) objective", "h(X)", h), mk("(b) gradient norm", "‖∇h(X)‖_F", g),
		mk("(c) distance to the ground truth", "‖XXᵀ − M*‖_F", d)}, nil
}

// CaseLifted returns panels (d) and (e) of Figs. exp2 and exp3 from a case
// study's LiftedPanels: the lifted objective h^l against the number of
// simulated TPGD steps t for the paper's closed form and for exact
// projected gradient descent in S, with the reference level h^l(ŵ), and
// the norms of the a-, b- and c-terms, both ways (t = 0 left out: log axes).
// A nil result gives empty panels.
func CaseLifted(title string, r *experiments.CaseStudyResult) (widgets.LiftedObjective, widgets.TermNorms) {
	if r == nil {
		return widgets.LiftedObjective{}, widgets.TermNorms{} // documented: empty panels
	}
	lp := r.Lifted
	pow := func(v float64) float64 { return math.Pow(10, v) } // NaN stays NaN
	lo := widgets.LiftedObjective{Title: title + " (d): lifted objective h^l vs simulated TPGD steps t", Reference: pow(lp.HLHat), L: lp.L}
	tn := widgets.TermNorms{Title: title + " (e): norms of the a-, b- and c-terms vs t", Exact: &widgets.Terms{}}
	for i, t := range lp.T {
		if t <= 0 {
			continue
		}
		lo.T = append(lo.T, t)
		lo.ClosedForm = append(lo.ClosedForm, pow(lp.CloseHL[i]))
		lo.Exact = append(lo.Exact, pow(lp.ExactHL[i]))
		tn.ClosedForm.A = append(tn.ClosedForm.A, pow(lp.CloseA[i]))
		tn.ClosedForm.B = append(tn.ClosedForm.B, pow(lp.CloseB[i]))
		tn.ClosedForm.C = append(tn.ClosedForm.C, pow(lp.CloseC[i]))
		tn.Exact.A = append(tn.Exact.A, pow(lp.ExactA[i]))
		tn.Exact.B = append(tn.Exact.B, pow(lp.ExactB[i]))
		tn.Exact.C = append(tn.Exact.C, pow(lp.ExactC[i]))
	}
	tn.T = lo.T
	return lo, tn
}

// CaseTrajectory returns panel (f) of Figs. exp2 and exp3: the path X_k in
// ℝ³ (every every-th point) before and after the escape, with ±z (z: the
// ground truth, 3 entries), X̂, X̌ and the end point.
// A nil result gives an empty trajectory.
func CaseTrajectory(title string, r *experiments.CaseStudyResult, z []float64, every int) widgets.Trajectory3D {
	if r == nil {
		return widgets.Trajectory3D{Title: title} // documented: an empty trajectory
	}
	tr := widgets.Trajectory3D{Title: title}
	gd1, gd2 := widgets.Path3D{Name: "GD before SOD"}, widgets.Path3D{Name: "GD after SOD"}
	for k, x := range r.Path {
		if len(x) != 3 || (every > 1 && !keep(r, k, every)) {
			continue
		}
		p := &gd1
		if r.EscapeAt >= 0 && k >= r.EscapeAt {
			p = &gd2
		}
		p.X, p.Y, p.Z = append(p.X, x[0]), append(p.Y, x[1]), append(p.Z, x[2])
	}
	tr.Paths = []widgets.Path3D{gd1, gd2}
	pt := func(name string, v []float64) {
		if len(v) == 3 {
			tr.Points = append(tr.Points, widgets.Point3D{Name: name, X: v[0], Y: v[1], Z: v[2]})
		}
	}
	pt("z", z)
	if len(z) == 3 {
		pt("−z", []float64{-z[0], -z[1], -z[2]})
	}
	pt("x̂", r.XHat)
	pt("x̌", r.XCheck)
	pt("x_final", r.XFinal)
	return tr
}
