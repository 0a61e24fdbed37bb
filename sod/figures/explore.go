package figures

import (
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/widgets"
)

// explorerCases are the options of the explorer's case select.
var explorerCases = []string{"real-world (printed x̂)", "PMC n = 3, ε = 0.3"}

// explorerLs are the lifting orders the explorer draws (odd, as the closed form needs).
var explorerLs = []float64{3, 5, 7, 9, 11}

// ExplorerControls are the inputs of the escape-window explorer for
// widgets.Explore: a case select (the real-world case at the printed x̂, or
// PMC n = 3, ε = 0.3 at its spurious minimum), l ∈ {3, …, 11}, t on a log
// slider 150·10^{k/20}, k = 0…100, in whole steps, and ρ, η. The initial
// values are the real-world case study's l = 5, t = 150000, ρ = η = 0.1.
func ExplorerControls() []widgets.Control {
	unit := []float64{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99}
	return []widgets.Control{
		{Name: "case", Options: explorerCases, Initial: 0},
		{Name: "l", Values: explorerLs, Initial: 5},
		{Name: "t", Min: 150, Max: 1.5e7, Steps: 100, Log: true, Integer: true, Initial: 150000},
		{Name: "ρ", Values: unit, Initial: 0.1},
		{Name: "η", Values: unit, Initial: 0.1},
	}
}

// ExplorerInitial returns the controls' initial values: what the live
// explorer shows first.
func ExplorerInitial() widgets.Values {
	v := widgets.Values{}
	for _, c := range ExplorerControls() {
		v[c.Name] = c.Initial
	}
	return v
}

// ExplorerChart draws, for the values of ExplorerControls, U_β and U_γ of
// the closed-form TPGD (sod.NewTPGDFromCritical) for every l of the chosen
// case at the chosen ρ and η, marks t, and says in the subtitle which escape
// point the chosen (l, t) selects and whether it lowers h.
func ExplorerChart(v widgets.Values) (widgets.Chart, error) {
	k := int(v["case"])
	var in sod.Instance
	switch k {
	case 0:
		in = sod.RealWorldCase()
	case 1:
		in = sod.PMCCase()
	default:
		return nil, fmt.Errorf("%w: explorer case %d, want 0 or 1", ErrBadFigure, k)
	}
	cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
	if err != nil {
		return nil, err
	}
	l, t, rho, eta := int(v["l"]), int64(math.Round(v["t"])), v["ρ"], v["η"]
	w := widgets.EscapeWindows{Title: fmt.Sprintf("Escape windows: %s, ρ = %g, η = %g", explorerCases[k], rho, eta),
		Marks: []float64{float64(t)}}
	var sel *sod.TPGDClosedForm
	for _, lv := range explorerLs {
		cf, err := sod.NewTPGDFromCritical(cp, int(lv), rho, eta)
		if err != nil {
			return nil, err
		}
		label := fmt.Sprintf("l = %d (ρ_min = %.3g)", int(lv), cf.RhoMin())
		if int(lv) == l {
			label, sel = "▶ "+label, cf
		}
		w.Rows = append(w.Rows, widgets.WindowRow{Label: label, Beta: window(cf.UBeta()), Gamma: window(cf.UGamma())})
	}
	if sel == nil {
		return nil, fmt.Errorf("%w: explorer l = %d is not one of %v", ErrBadFigure, l, explorerLs)
	}
	var sub string
	x, kind, err := sel.EscapePointAt(cp, t)
	switch {
	case err != nil:
		sub = fmt.Sprintf("l = %d, t = %d: %v", l, t, err)
	case x == nil:
		sub = fmt.Sprintf("l = %d, t = %d: X̌ undefined (t is in neither U_β nor U_γ)", l, t)
	default:
		hx, verdict := in.P.H(x), "raises h"
		if hx < cp.H {
			verdict = "lowers h"
		}
		sub = fmt.Sprintf("l = %d, t = %d: %v-type X̌, h(X̌) = %.6g vs h(X̂) = %.6g: %s", l, t, kind, hx, cp.H, verdict)
	}
	return w.Chart(widgets.Subtitle(sub))
}
