package experiments

// PaperAblationCell is one cell of the paper's ablation table exactly as
// printed (Appendix, Table "ablation": "Hyperparameter Analysis of l and t",
// real-world case, ρ = η = 0.1). The strings keep the printed digits, so a
// computed value can be compared after rounding to them.
type PaperAblationCell struct {
	L int
	T int64
	// Interval is "U_β", "U_γ" or "✗¹" (the paper's mark for an undefined
	// escape point).
	Interval string
	// DHat = ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F, DStar = ‖X̌X̌ᵀ − ZZᵀ‖_F and their Ratio as printed;
	// "" where the cell is ✗¹, "✗²" where the paper prints its
	// "numerically unstable" mark.
	DHat, DStar, Ratio string
	// Final is where GD from X̌ ends: "+Z", "−Z", "✗²", or "" for ✗¹ cells.
	Final string
}

// PaperAblation returns the cells of the paper's ablation table as printed,
// by l ∈ {3, 5, 7} and t ∈ {1000, 5000, 33500, 10⁵, 5·10⁵, 2·10⁶}.
func PaperAblation() []PaperAblationCell {
	u := func(l int, t int64, iv, dHat, dStar, ratio, final string) PaperAblationCell {
		return PaperAblationCell{L: l, T: t, Interval: iv, DHat: dHat, DStar: dStar, Ratio: ratio, Final: final}
	}
	none := func(l int, t int64) PaperAblationCell { return PaperAblationCell{L: l, T: t, Interval: "✗¹"} }
	return []PaperAblationCell{
		none(3, 1000), u(3, 5000, "U_γ", "1.08", "0.36", "3.03", "+Z"), u(3, 33500, "U_γ", "114.22", "113.29", "1.01", "✗²"),
		u(3, 100000, "U_γ", "4.08e6", "4.08e6", "1.00", "✗²"), u(3, 500000, "U_γ", "9.94e33", "9.94e33", "1.00", "✗²"),
		u(3, 2000000, "U_γ", "✗²", "✗²", "✗²", "✗²"),
		none(5, 1000), none(5, 5000), u(5, 33500, "U_β", "0.59", "0.66", "0.89", "−Z"),
		u(5, 100000, "U_γ", "0.80", "0.43", "1.86", "+Z"), u(5, 500000, "U_γ", "2.00", "1.08", "1.84", "+Z"),
		u(5, 2000000, "U_γ", "25.65", "24.72", "1.04", "✗²"),
		u(7, 1000, "U_β", "0.665", "0.601", "1.106", "−Z"), u(7, 5000, "U_β", "0.665", "0.601", "1.106", "−Z"),
		u(7, 33500, "U_β", "0.665", "0.600", "1.107", "−Z"), u(7, 100000, "U_β", "0.666", "0.600", "1.109", "−Z"),
		u(7, 500000, "U_β", "0.669", "0.598", "1.119", "−Z"), u(7, 2000000, "U_γ", "0.754", "0.461", "1.634", "+Z"),
	}
}

// PaperWindow is ρ_min and the dominance windows U_β, U_γ of one lifting
// order as printed in the paper's ablation table (real-world case,
// ρ = η = 0.1).
type PaperWindow struct {
	L                     int
	RhoMin, UBeta, UGamma string
}

// PaperWindows returns ρ_min, U_β and U_γ for l = 3, 5, 7 as printed.
func PaperWindows() []PaperWindow {
	return []PaperWindow{
		{3, "0.208", "∅", "(2006.17, +∞)"},
		{5, "0.097", "(26948.72, 33974.73)", "(33974.73, +∞)"},
		{7, "0.043", "(0, 1093342.41)", "(1093342.41, +∞)"},
	}
}
