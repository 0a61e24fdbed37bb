package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// printed formats v like the paper's printed value: the same number of
// decimals, or 3 significant digits in e-notation when the paper uses it;
// mismatch reports whether the two differ after that rounding.
func printed(v float64, paper string) (text string, mismatch bool) {
	pv, err := strconv.ParseFloat(paper, 64)
	switch {
	case err != nil && math.Abs(v) >= 1e5:
		return strconv.FormatFloat(v, 'e', 2, 64), false
	case err != nil:
		return strconv.FormatFloat(v, 'f', 3, 64), false
	case strings.ContainsAny(paper, "eE"):
		text = strconv.FormatFloat(v, 'e', 2, 64)
		return text, text != strconv.FormatFloat(pv, 'e', 2, 64)
	}
	d := 0
	if i := strings.IndexByte(paper, '.'); i >= 0 {
		d = len(paper) - i - 1
	}
	text = strconv.FormatFloat(v, 'f', d, 64)
	return text, text != paper
}

func finalName(s string) string {
	switch s {
	case "+":
		return "+Z"
	case "-":
		return "−Z"
	case "nan":
		return "NaN"
	}
	return s
}

// AblationTable shows experiments.Ablation's result as the paper's ablation
// table (Appendix, Table ablation) with the paper's printed value
// (experiments.PaperAblation) under each of ours, highlighted where the two
// differ after rounding to the printed digits, and two columns the paper
// leaves out: h(X̌) and whether it is below h(X̂). It also returns the
// numbers that differ, with full precision.
func AblationTable(res *experiments.AblationResult) (widgets.Table, []string) {
	paper := map[[2]int64]experiments.PaperAblationCell{}
	for _, c := range experiments.PaperAblation() {
		paper[[2]int64{int64(c.L), c.T}] = c
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
			pc := paper[[2]int64{int64(row.L), c.T}]
			iv := map[string]string{"β": "U_β", "γ": "U_γ", "none": "✗¹"}[c.Kind]
			cells := []widgets.Cell{{Text: strconv.Itoa(row.L)}, {Text: strconv.FormatInt(c.T, 10)},
				{Text: iv, Paper: pc.Interval, Mismatch: pc.Interval != "" && pc.Interval != iv}}
			if !c.Defined {
				t.Rows = append(t.Rows, append(cells, widgets.Cell{Text: "✗¹"}, dash, dash, dash, dash, dash, dash))
				continue
			}
			var nums []widgets.Cell
			for k, v := range []float64{c.DHat, c.DStar, c.Ratio} {
				p := []string{pc.DHat, pc.DStar, pc.Ratio}[k]
				text, bad := printed(v, p)
				nums = append(nums, widgets.Cell{Text: text, Paper: p, Mismatch: bad && p != "✗²"})
				if bad && p != "✗²" && p != "" {
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
			fn := finalName(c.Final)
			finalOK := fn == pc.Final || (fn == "NaN" && pc.Final == "✗²")
			t.Rows = append(t.Rows, append(cells, widgets.Cell{Text: "✓"}, nums[0], nums[1], nums[2],
				widgets.Cell{Text: fn, Paper: pc.Final, Mismatch: !finalOK}, widgets.Cell{Text: h}, widgets.Cell{Text: desc, Mismatch: !c.Descent}))
		}
	}
	return t, mism
}

// WindowsTable tabulates K_l, ρ_min, U_β and U_γ of every row of an
// ablation result (experiments.Ablation or EscapeWindows), with the paper's
// printed values (experiments.PaperWindows) under ours where it prints
// them.
func WindowsTable(res *experiments.AblationResult) widgets.Table {
	paper := map[int]experiments.PaperWindow{}
	for _, w := range experiments.PaperWindows() {
		paper[w.L] = w
	}
	tab := widgets.Table{Caption: "ρ_min, U_β, U_γ (the paper's printed value below ours)", Header: []string{"l", "K_l", "ρ_min", "U_β", "U_γ"}}
	for _, row := range res.Rows {
		pw := paper[row.L]
		rm := fmt.Sprintf("%.3f", row.RhoMin)
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: strconv.Itoa(row.L)}, num("%.4f", row.K),
			{Text: rm, Paper: pw.RhoMin, Mismatch: pw.RhoMin != "" && pw.RhoMin != rm}, {Text: row.UBetaS, Paper: pw.UBeta}, {Text: row.UGamS, Paper: pw.UGamma}})
	}
	return tab
}

// window converts an interval of the closed form to the chart's (an empty
// one stays empty).
func window(iv sod.Interval) widgets.Interval {
	if iv.Empty {
		return widgets.Interval{Lo: math.NaN(), Hi: math.NaN()}
	}
	return widgets.Interval{Lo: iv.Lo, Hi: iv.Hi}
}

// AblationWindows draws the paper's Fig. ablation: U_β (β-type escape
// point) and U_γ (γ-type) of every row of an ablation result against t,
// with the t values marks marked.
func AblationWindows(title string, res *experiments.AblationResult, marks []float64) (widgets.Chart, error) {
	w := widgets.EscapeWindows{Title: title, Marks: marks}
	for _, row := range res.Rows {
		w.Rows = append(w.Rows, widgets.WindowRow{Label: fmt.Sprintf("l = %d (ρ_min = %.3f)", row.L, row.RhoMin),
			Beta: window(row.UBeta), Gamma: window(row.UGamma)})
	}
	return widgets.EscapeWindowsChart(w)
}

// DescentScan draws h at the β-type point c_β(t)·u_nq_rᵀ and at the γ-type
// point c_γ(t)·E X̂ against t (both computed for every t, whatever the
// selection rule says), for each scan (one per l), beside h(X̂): a point
// lowers h only where its curve is below that line. Overflowed values are
// gaps, counted in the subtitle.
func DescentScan(title string, scans []*experiments.DescentScanResult) (widgets.Chart, error) {
	if len(scans) == 0 {
		return nil, fmt.Errorf("figures: DescentScan: no scans")
	}
	series := map[string][]float64{}
	for _, s := range scans {
		if len(s.T) != len(scans[0].T) {
			return nil, fmt.Errorf("figures: DescentScan: scans on different t grids (%d and %d points)", len(s.T), len(scans[0].T))
		}
		series[fmt.Sprintf("β-type, l = %d", s.L)] = s.HBeta
		series[fmt.Sprintf("γ-type, l = %d", s.L)] = s.HGamma
	}
	ref := make([]float64, len(scans[0].T))
	for i := range ref {
		ref[i] = scans[0].HHat
	}
	series["h(X̂)"] = ref
	return widgets.LineChart(title, scans[0].T, series, widgets.AxisNames("t", "h"), widgets.LogX(), widgets.LogY(),
		widgets.Subtitle("a point lowers h only where its curve is below the h(X̂) line"), widgets.Size("100%", "480px"))
}

// DescentWindows describes, for one scan, the t (on the scan's grid) at
// which the β-type and the γ-type point start and stop lowering h.
func DescentWindows(s *experiments.DescentScanResult) string {
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
