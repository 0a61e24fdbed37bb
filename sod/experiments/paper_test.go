package experiments

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestPaperAblationData checks the printed table against the computed one: every interval
// agrees, and every number agrees after rounding to the printed digits except the cells
// REPRODUCTION.md F11 documents (l = 3, t = 33500: one term of the sum off) and one last
// printed digit (l = 7, t = 33500, ‖X̌X̌ᵀ − ZZᵀ‖).
func TestPaperAblationData(t *testing.T) {
	res, err := Ablation(DefaultAblationConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int64]AblationCell{}
	for _, row := range res.Rows {
		for _, c := range row.Cells {
			got[[2]int64{int64(row.L), c.T}] = c
		}
	}
	cells := PaperAblation()
	if len(cells) != 18 {
		t.Fatalf("%d printed cells, want 3 × 6", len(cells))
	}
	var mism []string
	for _, p := range cells {
		c, ok := got[[2]int64{int64(p.L), p.T}]
		if !ok {
			t.Fatalf("no computed cell l = %d, t = %d", p.L, p.T)
		}
		if want := map[string]string{"β": "U_β", "γ": "U_γ", "none": "✗¹"}[c.Kind]; want != p.Interval {
			t.Errorf("l = %d, t = %d: interval %s, printed %s", p.L, p.T, want, p.Interval)
		}
		for k, v := range []float64{c.DHat, c.DStar, c.Ratio} {
			s := []string{p.DHat, p.DStar, p.Ratio}[k]
			if s == "" || s == "✗²" {
				continue
			}
			if printedDiffers(v, s) {
				mism = append(mism, fmt.Sprintf("%d/%d/%d", p.L, p.T, k))
			}
		}
	}
	if got := strings.Join(mism, " "); got != "3/33500/0 3/33500/1 7/33500/1" {
		t.Errorf("numbers that differ from the printed digits: %s", got)
	}
	for _, w := range PaperWindows() {
		var row *AblationRow
		for i := range res.Rows {
			if res.Rows[i].L == w.L {
				row = &res.Rows[i]
			}
		}
		if row == nil || fmt.Sprintf("%.3f", row.RhoMin) != w.RhoMin || (w.UBeta == "∅") != row.UBeta.Empty {
			t.Errorf("l = %d: printed ρ_min %s, U_β %s; computed %v", w.L, w.RhoMin, w.UBeta, row)
		}
	}
}

// printedDiffers rounds v to the digits of the printed s and compares.
func printedDiffers(v float64, s string) bool {
	pv, _ := strconv.ParseFloat(s, 64)
	if strings.Contains(s, "e") {
		return strconv.FormatFloat(v, 'e', 2, 64) != strconv.FormatFloat(pv, 'e', 2, 64)
	}
	d := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		d = len(s) - i - 1
	}
	return math.IsNaN(v) || strconv.FormatFloat(v, 'f', d, 64) != s
}

// The paper's printed ablation row for l = 7.
func ExamplePaperAblation() {
	for _, c := range PaperAblation() {
		if c.L == 7 {
			fmt.Println(c.T, c.Interval, c.DHat, c.DStar, c.Ratio, c.Final)
		}
	}
	// Output:
	// 1000 U_β 0.665 0.601 1.106 −Z
	// 5000 U_β 0.665 0.601 1.106 −Z
	// 33500 U_β 0.665 0.600 1.107 −Z
	// 100000 U_β 0.666 0.600 1.109 −Z
	// 500000 U_β 0.669 0.598 1.119 −Z
	// 2000000 U_γ 0.754 0.461 1.634 +Z
}

// The windows the paper prints for each l.
func ExamplePaperWindows() {
	for _, w := range PaperWindows() {
		fmt.Printf("l = %d: ρ_min = %s, U_β = %s, U_γ = %s\n", w.L, w.RhoMin, w.UBeta, w.UGamma)
	}
	// Output:
	// l = 3: ρ_min = 0.208, U_β = ∅, U_γ = (2006.17, +∞)
	// l = 5: ρ_min = 0.097, U_β = (26948.72, 33974.73), U_γ = (33974.73, +∞)
	// l = 7: ρ_min = 0.043, U_β = (0, 1093342.41), U_γ = (1093342.41, +∞)
}
