package main

import "strings"

// The values the paper prints, as data, each with where it is printed. The
// report computes the workbench's counterpart of every one on each run; none
// of the workbench's values is stored here.

// Where the paper prints things (section, equation and table labels of the
// paper).
const (
	whereCase2     = "Appendix, case study 2"
	whereCase2Eq   = "Appendix, eq. sensing-matrices-real-world"
	whereExp3      = "§6.1, Fig. exp3"
	whereCase1     = "Appendix, case study 1"
	whereExp2      = "§6.1, Fig. exp2"
	whereTable     = "Appendix, table ablation"
	whereTableText = "Appendix, text after table ablation"
	whereMulti     = "§5, Theorem multi-step SOD escape"
	whereBasic     = "§1.1, eq. basic_example"
	whereFig2      = "§1.1, Fig. basic_example"
	whereMoments   = "§4.3, moments of S_𝒜(P, Q)"
	wherePZ        = "§4.3, proof of Theorem single-step SOD (Case 3)"
	whereCaseOne   = "§4.2, proof of Proposition escape_inequality (Case 1)"
	whereStudy     = "§6.2, Fig. numerical_study"
	whereQNN       = "§6.3, Fig. quadratic_nn"
)

// paperRealWorldXHat is the spurious local minimum printed for the
// real-world case (Appendix, case study 2).
var paperRealWorldXHat = [3]string{"0.2234", "0.0918", "0.5985"}

// paperPMCDeltaText is the paper's RIP constant for the PMC operator
// (Appendix, case study 1): δ_p ≈ (1−ε)/(1+ε).
const paperPMCDeltaText = "δ_p ≈ (1−ε)/(1+ε) = 0.538"

// ablationPaperCell is one column of the paper's ablation table for one l:
// the step count t and the printed entries. "x1" is the paper's ✗¹
// (undefined), "x2" its ✗² (numerically unstable, NaN).
type ablationPaperCell struct {
	t                  int64
	dHat, dStar, ratio string
	final              string // "+", "-", "x1" or "x2"
}

// ablationPaperRow is the block of the ablation table for one lifting
// order l, as printed.
type ablationPaperRow struct {
	l      int
	rhoMin string
	uBeta  string // "∅" or "(lo, hi)"
	uGamma string // "(lo, +∞)"
	cells  []ablationPaperCell
}

// paperAblation is the paper's ablation table (Appendix, table ablation:
// real-world case, ρ = η = 0.1).
var paperAblation = []ablationPaperRow{
	{l: 3, rhoMin: "0.208", uBeta: "∅", uGamma: "(2006.17, +∞)", cells: []ablationPaperCell{
		{1000, "x1", "x1", "x1", "x1"},
		{5000, "1.08", "0.36", "3.03", "+"},
		{33500, "114.22", "113.29", "1.01", "x2"},
		{100000, "4.08e6", "4.08e6", "1.00", "x2"},
		{500000, "9.94e33", "9.94e33", "1.00", "x2"},
		{2000000, "x2", "x2", "x2", "x2"},
	}},
	{l: 5, rhoMin: "0.097", uBeta: "(26948.72, 33974.73)", uGamma: "(33974.73, +∞)", cells: []ablationPaperCell{
		{1000, "x1", "x1", "x1", "x1"},
		{5000, "x1", "x1", "x1", "x1"},
		{33500, "0.59", "0.66", "0.89", "-"},
		{100000, "0.80", "0.43", "1.86", "+"},
		{500000, "2.00", "1.08", "1.84", "+"},
		{2000000, "25.65", "24.72", "1.04", "x2"},
	}},
	{l: 7, rhoMin: "0.043", uBeta: "(0, 1093342.41)", uGamma: "(1093342.41, +∞)", cells: []ablationPaperCell{
		{1000, "0.665", "0.601", "1.106", "-"},
		{5000, "0.665", "0.601", "1.106", "-"},
		{33500, "0.665", "0.600", "1.107", "-"},
		{100000, "0.666", "0.600", "1.109", "-"},
		{500000, "0.669", "0.598", "1.119", "-"},
		{2000000, "0.754", "0.461", "1.634", "+"},
	}},
}

// The moments of S_𝒜(P, Q) = Σ_i ⟨A_i, P⟩⟨A_i, Q⟩ under the Gaussian
// ensemble, as printed in §4.3 (functions of m).
var paperMoments = []struct {
	name, formula string
	k             int // which moment
}{
	{"E S", "⟨P, Q⟩", 1},
	{"E S²", "2/m", 2},
	{"E S⁴", "12(m+2)/m³", 4},
}

// whereCondition is where the paper states the multi-step theorem's
// condition of the given sod.Condition name.
func whereCondition(name string) string {
	switch {
	case strings.HasPrefix(name, "strict-saddle"):
		return "§5, eq. strict_saddle_condition"
	case strings.HasPrefix(name, "l condition"):
		return "§5, eq. l_condition"
	case strings.HasPrefix(name, "U_β premise"):
		return "Appendix, premise of eq. u_beta_validality_l"
	case strings.HasPrefix(name, "U_β validity"):
		return "Appendix, eq. u_beta_validality_l"
	}
	return "§5"
}
