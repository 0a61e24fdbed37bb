package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/widgets"
)

// printed formats v like the paper's printed value p: the same number of
// decimals, or 3 significant digits in e-notation when the paper uses it
// (e-notation for |v| ≥ 10⁵ and 3 decimals otherwise when p is a mark);
// mismatch reports whether v does not round to p.
func printed(v float64, p paper.Printed) (text string, mismatch bool) {
	switch {
	case !p.IsNumber() && math.Abs(v) >= 1e5:
		return strconv.FormatFloat(v, 'e', 2, 64), false
	case !p.IsNumber():
		return strconv.FormatFloat(v, 'f', 3, 64), false
	case p.Scientific():
		return strconv.FormatFloat(v, 'e', 2, 64), !p.Rounds(v)
	}
	return strconv.FormatFloat(v, 'f', p.Decimals(), 64), !p.Rounds(v)
}

// finalName writes experiments.AblationCell.Final: "+Z", "−Z", "NaN" (GD
// diverged) or "other".
func finalName(c experiments.AblationCell) string {
	switch c.Final {
	case experiments.GDEndPlusZ, experiments.GDEndMinusZ:
		e, _ := c.PaperEndpoint()
		return e.String()
	case experiments.GDEndDiverged:
		return "NaN"
	}
	return c.Final.String()
}

// AblationTable shows experiments.RunAblation's result as the paper's
// ablation table (Appendix, Table ablation) with the paper's printed value
// (paper.Ablation) under each of ours, highlighted where ours does not
// round to the printed digits, and two columns the paper leaves out: h(X̌)
// and whether it is below h(X̂). It also returns the numbers that differ,
// with full precision.
// A nil result gives an empty table.
func AblationTable(res *experiments.AblationResult) (widgets.Table, []string) {
	if res == nil {
		return widgets.Table{}, nil // documented: an empty table
	}
	var mism []string
	t := widgets.Table{
		Caption: "Table ablation (real-world case, ρ = η = 0.1, printed x̂): ours, with the paper's value in grey",
		Header:  []string{"l", "t", "interval", "X̌", "‖X̂X̂ᵀ − X̌X̌ᵀ‖_F", "‖X̌X̌ᵀ − ZZᵀ‖_F", "ratio", "X_final", "h(X̌) (not in paper)", "h(X̌) < h(X̂)?"},
		Notes: []string{fmt.Sprintf("h(X̂) = %.6f. Highlighted: differs from the paper after rounding to its printed digits.", res.HHat),
			"✗¹: undefined (t in neither window); ✗²: the paper's \"numerically unstable\". NaN in X_final: GD from X̌ overflowed. The two cells that differ at l = 3, t = 33500: REPRODUCTION.md F11."},
	}
	dash := widgets.Cell{Text: "—"}
	for _, row := range res.Rows {
		for _, c := range row.Cells {
			pc, inPaper := paper.AblationEntryAt(row.L, c.T)
			iv := c.PaperWindow().String()
			cells := []widgets.Cell{{Text: strconv.Itoa(row.L)}, {Text: strconv.FormatInt(c.T, 10)}, {Text: iv}}
			if inPaper {
				cells[2] = widgets.Cell{Text: iv, Paper: pc.Window.String(), Mismatch: pc.Window != c.PaperWindow()}
			}
			if !c.Defined {
				t.Rows = append(t.Rows, append(cells, widgets.Cell{Text: "✗¹"}, dash, dash, dash, dash, dash, dash))
				continue
			}
			var nums []widgets.Cell
			for k, v := range []float64{c.DHat, c.DStar, c.Ratio} {
				p := []paper.Printed{pc.DHat, pc.DStar, pc.Ratio}[k]
				text, bad := printed(v, p)
				nums = append(nums, widgets.Cell{Text: text, Paper: string(p), Mismatch: bad})
				if bad {
					mism = append(mism, fmt.Sprintf("l = %d, t = %d, %s: ours %.6g, paper %s", row.L, c.T, []string{"‖X̂X̂ᵀ − X̌X̌ᵀ‖", "‖X̌X̌ᵀ − ZZᵀ‖", "ratio"}[k], v, p))
				}
			}
			h := "overflow"
			if c.HCheck >= 0 {
				h, _ = printed(c.HCheck, "")
			}
			desc := "no"
			if c.Descent {
				desc = "YES"
			}
			final := widgets.Cell{Text: finalName(c)}
			if inPaper {
				e, ok := c.PaperEndpoint()
				final.Paper, final.Mismatch = pc.Final.String(), !ok || pc.Final != e
			}
			t.Rows = append(t.Rows, append(cells, widgets.Cell{Text: "✓"}, nums[0], nums[1], nums[2],
				final, widgets.Cell{Text: h}, widgets.Cell{Text: desc, Mismatch: !c.Descent}))
		}
	}
	return t, mism
}

// WindowsTable tabulates K_l, ρ_min, U_β and U_γ of every row of an
// ablation result (experiments.RunAblation or RunEscapeWindows), with the
// paper's printed values (paper.Ablation) under ours where it prints them.
// A nil result gives an empty table.
func WindowsTable(res *experiments.AblationResult) widgets.Table {
	if res == nil {
		return widgets.Table{} // documented: an empty table
	}
	tab := widgets.Table{Caption: "ρ_min, U_β, U_γ (the paper's printed value below ours)", Header: []string{"l", "K_l", "ρ_min", "U_β", "U_γ"}}
	for _, row := range res.Rows {
		rm := fmt.Sprintf("%.3f", row.RhoMin)
		cells := []widgets.Cell{{Text: strconv.Itoa(row.L)}, num("%.4f", row.K), {Text: rm}, {Text: row.UBetaS}, {Text: row.UGamS}}
		if pb, ok := paper.AblationBlockOf(row.L); ok {
			cells[2] = widgets.Cell{Text: rm, Paper: string(pb.RhoMin), Mismatch: !pb.RhoMin.Rounds(row.RhoMin)}
			cells[3].Paper, cells[4].Paper = pb.UBeta.String(), pb.UGamma.String()
		}
		tab.Rows = append(tab.Rows, cells)
	}
	return tab
}

// window converts an interval of the closed form to the chart's (an empty
// one stays empty).
func window(iv sod.StepInterval) widgets.Interval {
	if iv.Empty() {
		return widgets.Interval{Lo: math.NaN(), Hi: math.NaN()}
	}
	return widgets.Interval{Lo: iv.Lo, Hi: iv.Hi}
}

// AblationWindows is the paper's Fig. ablation as a chart's input: U_β
// (β-type escape point) and U_γ (γ-type) of every row of an ablation result
// against t, with the step counts marks marked (e.g. paper.AblationSteps(),
// the t of the paper's table). widgets.EscapeWindows.Chart and
// plots.EscapeWindowsPlot draw it.
func AblationWindows(title string, res *experiments.AblationResult, marks []int64) (widgets.EscapeWindows, error) {
	if res == nil {
		return widgets.EscapeWindows{}, errNil("AblationWindows", "AblationResult")
	}
	w := widgets.EscapeWindows{Title: title}
	for _, t := range marks {
		w.Marks = append(w.Marks, float64(t))
	}
	for _, row := range res.Rows {
		w.Rows = append(w.Rows, widgets.WindowRow{Label: fmt.Sprintf("l = %d (ρ_min = %.3f)", row.L, row.RhoMin),
			Beta: window(row.UBeta), Gamma: window(row.UGamma)})
	}
	return w, nil
}

// AblationWindowsChart draws AblationWindows(title, res, marks) interactively.
func AblationWindowsChart(title string, res *experiments.AblationResult, marks []int64) (widgets.Chart, error) {
	w, err := AblationWindows(title, res, marks)
	if err != nil {
		return nil, err
	}
	return w.Chart()
}

// DescentScanChart draws h at the β-type point c_β(t)·u_nq_rᵀ and at the γ-type
// point c_γ(t)·E X̂ against t (both computed for every t, whatever the
// selection rule says), for each scan (one per l), beside h(X̂): a point
// lowers h only where its curve is below that line. Overflowed values are
// gaps, counted in the subtitle.
func DescentScanChart(title string, scans []*experiments.DescentScanResult) (widgets.Chart, error) {
	for i, s := range scans {
		if s == nil {
			return nil, errNil(fmt.Sprintf("DescentScanChart: scans[%d]", i), "DescentScanResult")
		}
	}
	if len(scans) == 0 {
		return nil, fmt.Errorf("%w: DescentScanChart: no scans", ErrBadFigure)
	}
	series := map[string][]float64{}
	for _, s := range scans {
		if len(s.T) != len(scans[0].T) {
			return nil, fmt.Errorf("%w: DescentScanChart: scans on different t grids (%d and %d points)", ErrBadFigure, len(s.T), len(scans[0].T))
		}
		series[fmt.Sprintf("β-type, l = %d", s.L)] = s.HBeta
		series[fmt.Sprintf("γ-type, l = %d", s.L)] = s.HGamma
	}
	ref := make([]float64, len(scans[0].T))
	for i := range ref {
		ref[i] = scans[0].HHat
	}
	series["h(X̂)"] = ref
	return widgets.Curves{Title: title, XName: "t", YName: "h", X: scans[0].T, Series: seriesByName(series), LogX: true, LogY: true}.Chart(
		widgets.Subtitle("a point lowers h only where its curve is below the h(X̂) line"), widgets.Size("100%", "480px"))
}

// DescentWindows describes, for one scan, the t (on the scan's grid) at
// which the β-type and the γ-type point start and stop lowering h.
// A nil result gives "".
func DescentWindows(s *experiments.DescentScanResult) string {
	if s == nil {
		return "" // documented: nothing to describe
	}
	var win []string
	for _, kind := range []struct {
		name string
		h    experiments.Floats
	}{{"β", s.HBeta}, {"γ", s.HGamma}} {
		inside := false
		for i, t := range s.T {
			if d := kind.h[i] < s.HHat; d != inside {
				win = append(win, fmt.Sprintf("%s %s at t ≈ %g", kind.name, map[bool]string{true: "starts lowering h", false: "stops lowering h"}[d], t))
				inside = d
			}
		}
	}
	if len(win) == 0 {
		return fmt.Sprintf("l = %d: no point lowers h on this grid", s.L)
	}
	return fmt.Sprintf("l = %d: %s", s.L, strings.Join(win, "; "))
}
