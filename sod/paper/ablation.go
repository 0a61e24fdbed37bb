package paper

// Window is the interval of the ablation table's row "U" in which t lies,
// which decides the escape point by the paper's selection rule (Appendix,
// dominance of the b- and c-terms): the β-type point in U_β, else the
// γ-type point in U_γ, else none.
type Window int

const (
	// NoWindow: t lies in neither window, X̌ is undefined (✗¹).
	NoWindow Window = iota
	// InUBeta: t ∈ U_β, the b-term dominates (β-type point).
	InUBeta
	// InUGamma: t ∈ U_γ, the c-term dominates (γ-type point).
	InUGamma
)

// String writes the window as the table does: "U_β", "U_γ", or "✗¹" for
// NoWindow.
func (w Window) String() string {
	switch w {
	case InUBeta:
		return "U_β"
	case InUGamma:
		return "U_γ"
	}
	return string(Undefined)
}

// Endpoint is the ablation table's row X_final: where gradient descent from
// the escape point X̌ ends.
type Endpoint int

const (
	// EndUndefined: there is no escape point (✗¹).
	EndUndefined Endpoint = iota
	// EndPlusZ: GD converges to +Z (printed "+").
	EndPlusZ
	// EndMinusZ: GD converges to −Z (printed "−").
	EndMinusZ
	// EndUnstable: the paper's ✗², numerically unstable.
	EndUnstable
)

// String writes the end point: "+Z", "−Z", "✗¹" or "✗²".
func (e Endpoint) String() string {
	switch e {
	case EndPlusZ:
		return "+Z"
	case EndMinusZ:
		return "−Z"
	case EndUnstable:
		return string(Unstable)
	}
	return string(Undefined)
}

// AblationEntry is one column (l, t) of the paper's Table "ablation" as
// printed: the window t lies in, the distances ‖X̂X̂ᵀ − X̌X̌ᵀ‖_F (DHat) and
// ‖X̌X̌ᵀ − ZZᵀ‖_F (DStar), their ratio (eq. escape_ratio) and where GD from
// X̌ ends. Where X̌ is undefined every entry is Undefined; where the paper
// prints ✗² it is Unstable.
type AblationEntry struct {
	L                  int
	T                  int64
	Window             Window
	DHat, DStar, Ratio Printed
	Final              Endpoint
}

// Defined reports whether the paper has an escape point in this column
// (its row X̌ is ✓ or ✗², not ✗¹).
func (e AblationEntry) Defined() bool { return e.Window != NoWindow }

// AblationBlock is the part of Table "ablation" for one lifting order l:
// ρ_min (eq. u_beta_validity), the windows U_β (eq. u_beta) and U_γ (eq.
// u_gamma), and one entry per t.
type AblationBlock struct {
	L             int
	RhoMin        Printed
	UBeta, UGamma PrintedInterval
	Entries       []AblationEntry
}

// The step size η of the simulated TPGD and the scale ρ that Table
// "ablation" fixes (Appendix, "we fix both ρ and η to a small constant
// value of 0.1").
const (
	AblationRho = 0.1
	AblationEta = 0.1
)

// Ablation returns the paper's Table "ablation" (Appendix, Hyperparameter
// Analysis of l and t on the real-world case of case study 2, at
// RealWorldSettings().XHat, ρ = AblationRho, η = AblationEta), one block per l ∈
// {3, 5, 7} and one entry per t ∈ {1000, 5000, 33500, 10⁵, 5·10⁵, 2·10⁶},
// exactly as printed. Each call returns a new copy.
func Ablation() []AblationBlock {
	undefined := func(l int, t int64) AblationEntry {
		return AblationEntry{L: l, T: t, Window: NoWindow, DHat: Undefined, DStar: Undefined, Ratio: Undefined, Final: EndUndefined}
	}
	entry := func(l int, t int64, w Window, dHat, dStar, ratio Printed, final Endpoint) AblationEntry {
		return AblationEntry{L: l, T: t, Window: w, DHat: dHat, DStar: dStar, Ratio: ratio, Final: final}
	}
	const b, c = InUBeta, InUGamma
	const plus, minus, unstable = EndPlusZ, EndMinusZ, EndUnstable
	return []AblationBlock{
		{L: 3, RhoMin: "0.208",
			UBeta: PrintedInterval{}, UGamma: PrintedInterval{Lo: "2006.17", Hi: Infinity},
			Entries: []AblationEntry{
				undefined(3, 1000),
				entry(3, 5000, c, "1.08", "0.36", "3.03", plus),
				entry(3, 33500, c, "114.22", "113.29", "1.01", unstable),
				entry(3, 100000, c, "4.08e6", "4.08e6", "1.00", unstable),
				entry(3, 500000, c, "9.94e33", "9.94e33", "1.00", unstable),
				entry(3, 2000000, c, Unstable, Unstable, Unstable, unstable),
			}},
		{L: 5, RhoMin: "0.097",
			UBeta: PrintedInterval{Lo: "26948.72", Hi: "33974.73"}, UGamma: PrintedInterval{Lo: "33974.73", Hi: Infinity},
			Entries: []AblationEntry{
				undefined(5, 1000),
				undefined(5, 5000),
				entry(5, 33500, b, "0.59", "0.66", "0.89", minus),
				entry(5, 100000, c, "0.80", "0.43", "1.86", plus),
				entry(5, 500000, c, "2.00", "1.08", "1.84", plus),
				entry(5, 2000000, c, "25.65", "24.72", "1.04", unstable),
			}},
		{L: 7, RhoMin: "0.043",
			UBeta: PrintedInterval{Lo: "0", Hi: "1093342.41"}, UGamma: PrintedInterval{Lo: "1093342.41", Hi: Infinity},
			Entries: []AblationEntry{
				entry(7, 1000, b, "0.665", "0.601", "1.106", minus),
				entry(7, 5000, b, "0.665", "0.601", "1.106", minus),
				entry(7, 33500, b, "0.665", "0.600", "1.107", minus),
				entry(7, 100000, b, "0.666", "0.600", "1.109", minus),
				entry(7, 500000, b, "0.669", "0.598", "1.119", minus),
				entry(7, 2000000, c, "0.754", "0.461", "1.634", plus),
			}},
	}
}

// AblationOrders returns the lifting orders l of Table "ablation", {3, 5, 7}.
func AblationOrders() []int {
	var ls []int
	for _, b := range Ablation() {
		ls = append(ls, b.L)
	}
	return ls
}

// AblationSteps returns the step counts t of Table "ablation",
// {1000, 5000, 33500, 10⁵, 5·10⁵, 2·10⁶}.
func AblationSteps() []int64 {
	var ts []int64
	for _, e := range Ablation()[0].Entries {
		ts = append(ts, e.T)
	}
	return ts
}

// AblationEntryAt returns the entry of Table "ablation" at (l, t), and
// false if the table has no such column.
func AblationEntryAt(l int, t int64) (AblationEntry, bool) {
	for _, b := range Ablation() {
		for _, e := range b.Entries {
			if e.L == l && e.T == t {
				return e, true
			}
		}
	}
	return AblationEntry{}, false
}

// AblationBlockOf returns the block of Table "ablation" for lifting order l,
// and false if the table has none.
func AblationBlockOf(l int) (AblationBlock, bool) {
	for _, b := range Ablation() {
		if b.L == l {
			return b, true
		}
	}
	return AblationBlock{}, false
}
