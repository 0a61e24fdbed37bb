package figures

import (
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/widgets"
)

// EFSTable runs single-step SOD (sod.SingleStep, section 4) on every
// instance with every one of its RIP constants and tabulates λ_n, σ_r,
// ⟨E, u_nu_nᵀ⟩, NCM, AIC, the Escape Feasibility Score (Definition efs),
// the discriminant Δ and the verdict.
func EFSTable(insts []sod.Instance) (widgets.Table, error) {
	tab := widgets.Table{Caption: "Single-step SOD on the paper's instances",
		Header: []string{"instance", "δ", "λ_n", "σ_r", "⟨E, u_n u_nᵀ⟩", "NCM", "AIC", "EFS", "Δ", "verdict"}}
	for _, in := range insts {
		for _, d := range in.Deltas {
			s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: d.Delta})
			if err != nil {
				return widgets.Table{}, fmt.Errorf("%s, δ = %v: %w", in.Name, d.Delta, err)
			}
			tab.Rows = append(tab.Rows, []widgets.Cell{{Text: in.Name}, {Text: fmt.Sprintf("%.5g (%s)", d.Delta, d.Label)},
				num("%.4f", s.CP.LambdaN), num("%.4f", s.CP.SigmaR), num("%.4f", s.CP.Euu), num("%.4f", s.NCM), num("%.4f", s.AIC),
				{Text: fmt.Sprintf("%.4f", s.EFS), Mismatch: s.EFS > 1}, num("%.3g", s.Disc), {Text: s.Verdict}})
		}
	}
	tab.Notes = []string{"A highlighted EFS exceeds 1 (a certified escape). The EFS is exactly 1 on the basic example (its minimum is quartic along e₁); below 1 on the others (REPRODUCTION.md F3)."}
	return tab, nil
}

// EFSAgainstDeltaChart draws the EFS of each instance at X̂ against the RIP
// constant δ ∈ {0, 0.01, …, 0.99} it is computed with, beside the level
// EFS = 1 above which single-step SOD certifies an escape. EFS decreases
// with δ, so the chart answers which δ would certify one.
func EFSAgainstDeltaChart(insts []sod.Instance) (widgets.Chart, error) {
	var deltas []float64
	for i := range 100 {
		deltas = append(deltas, float64(i)/100)
	}
	curves := map[string][]float64{"EFS = 1": make([]float64, len(deltas))}
	for i := range deltas {
		curves["EFS = 1"][i] = 1
	}
	for _, in := range insts {
		cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		for _, d := range deltas {
			// Definition efs: EFS = −λ_n/(σ_r²(1+δ)) + ⟨E, u_nu_nᵀ⟩²/(2(1+δ)²).
			efs := -cp.LambdaN/(cp.SigmaR*cp.SigmaR*(1+d)) + cp.Euu*cp.Euu/(2*(1+d)*(1+d))
			curves[in.Name] = append(curves[in.Name], efs)
		}
	}
	return widgets.Curves{Title: "EFS against the RIP constant δ used", XName: "δ", YName: "EFS", X: deltas, Series: seriesByName(curves)}.Chart(
		widgets.Size("100%", "360px"),
		widgets.Subtitle("single-step SOD certifies an escape only above the line EFS = 1"))
}

// QuadraticInequality is the paper's Fig. quadratic_funcs for one
// single-step result as a chart's input: the RIP quadratic C₁ρ² + C₂ρ + C₃
// of Proposition escape_inequality, the exact quadratic of the same line
// (s.Exact, no RIP bounds) and the direct evaluation
// 2[h(X̂ + ρu_nq_rᵀ) − h(X̂)]/ρ², for ρ in [lo, hi] (ρ = 0 left out).
// Descent is where a curve is below 0. Curves.Chart and plots.CurvesPlot
// draw it.
func QuadraticInequality(title string, p *sod.Problem, s *sod.SingleStepResult, lo, hi float64) (widgets.Curves, error) {
	if err := checkProblem("QuadraticInequality", p); err != nil {
		return widgets.Curves{}, err
	}
	if s == nil || s.CP == nil || s.CP.X == nil || s.CP.Un == nil || s.CP.Qr == nil {
		return widgets.Curves{}, errNil("QuadraticInequality", "SingleStepResult")
	}
	if !(hi > lo) {
		return widgets.Curves{}, fmt.Errorf("%w: QuadraticInequality needs lo < hi, got [%v, %v]", ErrBadFigure, lo, hi)
	}
	var rho, rip, exact, direct []float64
	for i := 0; i <= 120; i++ {
		r := lo + (hi-lo)*float64(i)/120
		if math.Abs(r) < 1e-9 {
			continue
		}
		rho = append(rho, r)
		rip = append(rip, s.C1*r*r+s.C2*r+s.C3)
		exact = append(exact, s.Exact.A*r*r+s.Exact.B*r+s.Exact.C)
		direct = append(direct, 2*(p.H(s.CP.LinePoint(1, r))-s.HHat)/(r*r))
	}
	return widgets.Curves{Title: title, XName: "ρ̂", YName: "value", X: rho, Series: seriesByName(map[string][]float64{
		"RIP quadratic C₁ρ² + C₂ρ + C₃": rip, "exact quadratic": exact, "2[h(X̂ + ρuqᵀ) − h(X̂)]/ρ²": direct})}, nil
}

// QuadraticInequalityChart draws QuadraticInequality(title, p, s, lo, hi)
// interactively, with EFS and δ in the subtitle.
func QuadraticInequalityChart(title string, p *sod.Problem, s *sod.SingleStepResult, lo, hi float64) (widgets.Chart, error) {
	c, err := QuadraticInequality(title, p, s, lo, hi)
	if err != nil {
		return nil, err
	}
	return c.Chart(widgets.Size("100%", "360px"),
		widgets.Subtitle(fmt.Sprintf("EFS = %.4f, δ = %.4f; descent where a curve is below 0", s.EFS, s.Delta)))
}

// SingleStepLineChart draws h(X̂ + ρu_nq_rᵀ) − h(X̂) for ρ in [lo, hi], with the
// interval (ρ̂₁, ρ̂₂) that single-step SOD certifies (eq. root1_root2) drawn
// at 0 when EFS > 1.
func SingleStepLineChart(title string, p *sod.Problem, s *sod.SingleStepResult, lo, hi float64) (widgets.Chart, error) {
	if err := checkProblem("SingleStepLineChart", p); err != nil {
		return nil, err
	}
	if s == nil || s.CP == nil || s.CP.X == nil || s.CP.Un == nil || s.CP.Qr == nil {
		return nil, errNil("SingleStepLineChart", "SingleStepResult")
	}
	if !(hi > lo) {
		return nil, fmt.Errorf("%w: SingleStepLine needs lo < hi, got [%v, %v]", ErrBadFigure, lo, hi)
	}
	var rho, dh, certified []float64
	for i := 0; i <= 160; i++ {
		r := lo + (hi-lo)*float64(i)/160
		rho = append(rho, r)
		dh = append(dh, p.H(s.CP.LinePoint(1, r))-s.HHat)
		c := math.NaN()
		if s.Feasible && r > s.Rho1 && r < s.Rho2 {
			c = 0
		}
		certified = append(certified, c)
	}
	return widgets.Curves{Title: title, XName: "ρ", YName: "Δh", X: rho,
		Series: seriesByName(map[string][]float64{"h(X̂ + ρuqᵀ) − h(X̂)": dh, "certified interval (ρ̂₁, ρ̂₂)": certified})}.Chart(
		widgets.Size("100%", "360px"))
}

// CaseOneLandscapeChart draws log₁₀ h of a two-dimensional instance with the
// single-step line X̂ + ρu_nq_rᵀ and the paper's "Case 1" line
// −X̂ + ρu_nq_rᵀ for ρ ∈ [−1.3, 0], and both points at the exact line
// minimiser ρ* (s.Exact.BestRho): on an instance whose line descends, one is
// the descent point and the other its mirror.
func CaseOneLandscapeChart(in *sod.Instance, s *sod.SingleStepResult) (widgets.Chart, error) {
	if in == nil {
		return nil, errNil("CaseOneLandscapeChart", "Instance")
	}
	if s == nil || s.CP == nil || s.CP.X == nil || s.CP.Un == nil || s.CP.Qr == nil {
		return nil, errNil("CaseOneLandscapeChart", "SingleStepResult")
	}
	grid, err := HGrid(in.P, -1.5, 1.5, 81, 0)
	if err != nil {
		return nil, err
	}
	line := func(name string, sign float64) widgets.Path {
		p := widgets.Path{Name: name}
		for i := 0; i <= 40; i++ {
			q := s.CP.LinePoint(sign, -1.3+1.3*float64(i)/40)
			p.X, p.Y = append(p.X, q.At(0, 0)), append(p.Y, q.At(1, 0))
		}
		return p
	}
	x := in.XHat
	good, mirror := s.CP.LinePoint(1, s.Exact.BestRho), s.CP.LinePoint(-1, s.Exact.BestRho)
	var pts []widgets.Point
	if z := in.P.Z; z != nil {
		pts = append(pts, widgets.Point{Name: "z", X: z.At(0, 0), Y: z.At(1, 0)}, widgets.Point{Name: "−z", X: -z.At(0, 0), Y: -z.At(1, 0)})
	}
	pts = append(pts, widgets.Point{Name: "X̂", X: x.At(0, 0), Y: x.At(1, 0)}, widgets.Point{Name: "−X̂", X: -x.At(0, 0), Y: -x.At(1, 0)},
		widgets.Point{Name: "X̂ + ρ*uqᵀ", X: good.At(0, 0), Y: good.At(1, 0)}, widgets.Point{Name: "Case 1 point", X: mirror.At(0, 0), Y: mirror.At(1, 0)})
	return widgets.Landscape{
		Title: in.Name + ": log₁₀ h", XName: "x₁", YName: "x₂", Grid: grid, LogZ: true,
		Paths:  []widgets.Path{line("X̂ + ρuqᵀ, ρ ∈ [−1.3, 0]", 1), line("Case 1: −X̂ + ρuqᵀ, ρ ∈ [−1.3, 0]", -1)},
		Points: pts,
	}.Chart(widgets.Size("100%", "560px"))
}
