package figures

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/widgets"
)

// PaperDirections returns the directions X̂, u_n q_rᵀ and E X̂ whose l-fold
// tensor powers a, b, c span the paper's subspace S (eq. tensor_subspace).
// A nil or incomplete critical point gives nil.
func PaperDirections(cp *sod.CriticalPoint) []mat.Matrix {
	if cp == nil || cp.X == nil || cp.Un == nil || cp.Qr == nil || cp.EX == nil {
		return nil // documented: no directions without an analysed point
	}
	n, r := cp.X.Dims()
	b := mat.NewDense(n, r, nil)
	b.Outer(1, cp.Un, cp.Qr)
	return []mat.Matrix{cp.X, b, cp.EX}
}

// LiftingCheckTable lifts the basic example and the real-world case
// explicitly (sod.ExplicitLifting, dense tensors of (nr)^l entries) for
// l = 3 and 5 and compares, at w = a + 0.1 b − 0.05 c, the explicit h^l with
// the m-vector closed form (sod.LiftedSubspace), and 20 steps of projected
// gradient descent in S both ways.
func LiftingCheckTable() (widgets.Table, error) {
	tab := widgets.Table{Caption: "Explicit lifting vs the m-vector closed form",
		Header: []string{"instance", "l", "(nr)^l", "h^l explicit", "h^l closed form", "rel. diff", "PGD coef. max diff (20 steps)"}}
	for _, in := range []sod.Instance{sod.BasicExample(), sod.RealWorldCase()} {
		cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
		if err != nil {
			return widgets.Table{}, err
		}
		for _, l := range []int{3, 5} {
			row, err := liftingRow(in, cp, l)
			if err != nil {
				return widgets.Table{}, fmt.Errorf("%s, l = %d: %w", in.Name, l, err)
			}
			tab.Rows = append(tab.Rows, row)
		}
	}
	tab.Notes = []string{"w = a + 0.1 b − 0.05 c. Basic example: E X̂ ∥ u_n q_rᵀ, so c ∥ b and only the tensor, not its coefficients, is unique (NaN). See REPRODUCTION.md C7."}
	return tab, nil
}

func liftingRow(in sod.Instance, cp *sod.CriticalPoint, l int) ([]widgets.Cell, error) {
	_, r := in.XHat.Dims()
	ex, err := sod.NewExplicitLifting(in.P.Op, in.P.B, r, l)
	if err != nil {
		return nil, err
	}
	ls, err := sod.NewPaperSubspace(in.P, cp, l)
	if err != nil {
		return nil, err
	}
	coef := []float64{1, 0.1, -0.05}
	w, err := ex.Lift(coef, PaperDirections(cp)...)
	if err != nil {
		return nil, err
	}
	hEx, err := ex.Objective(w)
	if err != nil {
		return nil, err
	}
	hCF, err := ls.Objective(coef)
	if err != nil {
		return nil, err
	}
	expl, err := ex.PGD(context.Background(), []float64{1, 0.1, 0}, PaperDirections(cp), 0.1, 20)
	if err != nil {
		return nil, err
	}
	pgd, err := sod.NewSubspacePGD(ls, 0.1)
	if err != nil {
		return nil, err
	}
	tr, err := pgd.Run(context.Background(), []float64{1, 0.1, 0}, 20, 20) // 20 steps: not worth a ctx
	if err != nil {
		return nil, err
	}
	last, diff := tr.Coef[len(tr.Coef)-1], 0.0
	for j, v := range expl.Coef[len(expl.Coef)-1] {
		diff = math.Max(diff, math.Abs(v-last[j]))
	}
	if pgd.Rank() < 3 {
		diff = math.NaN() // dependent directions: the coefficients are not unique
	}
	return []widgets.Cell{{Text: in.Name}, {Text: strconv.Itoa(l)}, {Text: strconv.Itoa(ex.Size())},
		num("%.10g", hEx), num("%.10g", hCF), num("%.1e", math.Abs(hEx-hCF)/hEx), num("%.1e", diff)}, nil
}

// ExplicitMemoryTable tabulates the memory explicit lifting would need
// (sod.ExplicitBytes, r = 1) for each (n, m, l), marking the sizes that
// sod.NewExplicitLifting refuses (above sod.ExplicitMaxBytes).
func ExplicitMemoryTable(sizes [][3]int) widgets.Table {
	tab := widgets.Table{Caption: "Memory of explicit lifting (sod.ExplicitBytes) for r = 1", Header: []string{"n", "m", "l", "bytes"}}
	for _, s := range sizes {
		b, err := sod.ExplicitBytes(s[0], 1, s[1], s[2])
		note := ""
		if err != nil {
			note = "  (" + err.Error() + ")"
		} else if b > sod.ExplicitMaxBytes {
			note = fmt.Sprintf("  (refused: > %d MiB)", sod.ExplicitMaxBytes>>20)
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: strconv.Itoa(s[0])}, {Text: strconv.Itoa(s[1])}, {Text: strconv.Itoa(s[2])}, {Text: fmt.Sprintf("%.3g%s", b, note)}})
	}
	return tab
}

// LiftedAlongBChart draws the lifted objective along the escape direction,
// [h^l(a + s b) − h^l(a)]/h^l(a) for s ∈ [−0.2, 0.2] and each l (Fig.
// matrix_tensor: is ŵ = a a strict saddle with escape direction b?). The
// subtitle gives h^l(a ± 0.1b) − h^l(a) and the projected gradient at ŵ.
func LiftedAlongBChart(in sod.Instance, ls []int) (widgets.Chart, error) {
	cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
	if err != nil {
		return nil, err
	}
	var s []float64
	for i := -20; i <= 20; i++ {
		s = append(s, 0.2*float64(i)/20)
	}
	series := map[string][]float64{}
	sub := ""
	for _, l := range ls {
		sp, err := sod.NewPaperSubspace(in.P, cp, l)
		if err != nil {
			return nil, err
		}
		h0, err := sp.Objective([]float64{1, 0, 0})
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("l = %d", l)
		for _, v := range s {
			h, err := sp.Objective([]float64{1, v, 0})
			if err != nil {
				return nil, err
			}
			series[name] = append(series[name], (h-h0)/h0)
		}
		g := make([]float64, 3)
		if _, err := sp.ProjectedGradient(g, []float64{1, 0, 0}); err != nil {
			return nil, err
		}
		sub += fmt.Sprintf("l = %d: h^l(a ± 0.1b) − h^l(a) = %+.3g / %+.3g, ⟨∇h^l(ŵ), a/b/c⟩ = %.2g. ", l, series[name][30]*h0, series[name][10]*h0, g)
	}
	return widgets.Curves{Title: in.Name + ": [h^l(a + s b) − h^l(a)] / h^l(a)", XName: "s", YName: "relative change", X: s,
		Series: seriesByName(series)}.Chart(widgets.Size("100%", "340px"), widgets.Subtitle(sub))
}

// Simulation is the paper's Fig. simulation as the input of its two panels,
// from a comparison of the closed-form TPGD with exact projected gradient
// descent in S (sod.CompareTPGD): the lifted objective h^l against t, both
// ways, with the reference level h^l(ŵ), and the norms of the a-, b- and
// c-terms. The point t = 0 is left out (log axes). Their Chart methods and
// plots.LiftedObjectivePlot, plots.TermNormsFigure draw them.
func Simulation(title string, cmp *sod.TPGDComparison, l int) (widgets.LiftedObjective, widgets.TermNorms, error) {
	if cmp == nil {
		return widgets.LiftedObjective{}, widgets.TermNorms{}, errNil("Simulation", "TPGDComparison")
	}
	var T, closed, exact []float64
	var cf, ex widgets.Terms
	for i, t := range cmp.T {
		if t == 0 {
			continue
		}
		T = append(T, float64(t))
		c := math.NaN()
		if cmp.ClosedHL[i].Sign > 0 {
			c = cmp.ClosedHL[i].Float()
		}
		closed = append(closed, c)
		cf.A = append(cf.A, math.Exp(cmp.ClosedTermNorms[i][0]))
		cf.B = append(cf.B, math.Exp(cmp.ClosedTermNorms[i][1]))
		cf.C = append(cf.C, math.Exp(cmp.ClosedTermNorms[i][2]))
		e, ea, eb, ec := math.NaN(), math.NaN(), math.NaN(), math.NaN()
		if i < len(cmp.Exact.HL) {
			e, ea, eb, ec = cmp.Exact.HL[i], cmp.Exact.TermNorms[i][0], cmp.Exact.TermNorms[i][1], cmp.Exact.TermNorms[i][2]
		}
		exact = append(exact, e)
		ex.A, ex.B, ex.C = append(ex.A, ea), append(ex.B, eb), append(ex.C, ec)
	}
	return widgets.LiftedObjective{Title: title + ": lifted objective along TPGD", T: T, ClosedForm: closed, Exact: exact, Reference: cmp.HLHat, L: l},
		widgets.TermNorms{Title: title + ": norms of the a-, b-, c-terms", T: T, ClosedForm: cf, Exact: &ex}, nil
}

// SimulationCharts draws the two panels of Simulation(title, cmp, l)
// interactively.
func SimulationCharts(title string, cmp *sod.TPGDComparison, l int) (lifted, terms widgets.Chart, err error) {
	lo, tn, err := Simulation(title, cmp, l)
	if err != nil {
		return nil, nil, err
	}
	if lifted, err = lo.Chart(); err != nil {
		return nil, nil, err
	}
	if terms, err = tn.Chart(); err != nil {
		return nil, nil, err
	}
	return lifted, terms, nil
}

// FirstStepGapTable compares one TPGD step from w_escape = a + ρb, the
// paper's closed form (Lemma "Closed-Form Coefficient Dynamics") against
// exact projected gradient descent in S, for each ρ: if the gap shrinks
// like ρ (last column constant), it is first order in ρ, not a truncation
// residual.
func FirstStepGapTable(in sod.Instance, l int, eta float64, rhos []float64) (widgets.Table, error) {
	cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
	if err != nil {
		return widgets.Table{}, err
	}
	sp, err := sod.NewPaperSubspace(in.P, cp, l)
	if err != nil {
		return widgets.Table{}, err
	}
	pgd, err := sod.NewSubspacePGD(sp, eta)
	if err != nil {
		return widgets.Table{}, err
	}
	tab := widgets.Table{Caption: fmt.Sprintf("%s, l = %d, η = %g: one step from a + ρb, closed form vs exact PGD in S", in.Name, l, eta),
		Header: []string{"ρ", "closed (α, β, γ)", "exact (α, β, γ)", "max |difference|", "max |difference| / ρ"}}
	for _, r := range rhos {
		c := []float64{1, r, 0}
		if _, err := pgd.Step(c); err != nil {
			return widgets.Table{}, err
		}
		cf, err := sod.NewTPGDFromCritical(cp, l, r, eta)
		if err != nil {
			return widgets.Table{}, err
		}
		a, b, g, err := cf.Coefficients(1)
		if err != nil {
			return widgets.Table{}, err
		}
		cl := []float64{a.Float(), b.Float(), g.Float()}
		d := 0.0
		for j := range c {
			d = math.Max(d, math.Abs(c[j]-cl[j]))
		}
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: strconv.FormatFloat(r, 'g', -1, 64)},
			{Text: fmt.Sprintf("(%.7f, %.7f, %.3g)", cl[0], cl[1], cl[2])}, {Text: fmt.Sprintf("(%.7f, %.7f, %.3g)", c[0], c[1], c[2])},
			num("%.2g", d), num("%.3g", d/r)})
	}
	tab.Notes = []string{"At a rounded X̂ (such as the printed real-world point) ∇h^l(a) ≠ 0, so exact PGD moves α by O(η‖∇h^l(a)‖) even as ρ → 0; the closed form keeps α = 1 (REPRODUCTION.md C9)."}
	return tab, nil
}
