package paper_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"sodworkbench.org/workbench/sod/paper"
)

func TestPrinted(t *testing.T) {
	tests := []struct {
		p          paper.Printed
		number     bool
		value      float64
		unit       float64
		decimals   int
		scientific bool
	}{
		{"1.08", true, 1.08, 0.01, 2, false},
		{"0.600", true, 0.6, 0.001, 3, false},
		{"4.08e6", true, 4.08e6, 1e4, 2, true},
		{"9.94e33", true, 9.94e33, 1e31, 2, true},
		{"0", true, 0, 1, 0, false},
		{"2006.17", true, 2006.17, 0.01, 2, false},
		{paper.Undefined, false, math.NaN(), math.NaN(), -1, false},
		{paper.Unstable, false, math.NaN(), math.NaN(), -1, false},
		{paper.Infinity, false, math.Inf(1), math.NaN(), -1, false},
		// Go float spellings that are no printed numbers.
		{"NaN", false, math.NaN(), math.NaN(), -1, false},
		{"nan", false, math.NaN(), math.NaN(), -1, false},
		{"Inf", false, math.NaN(), math.NaN(), -1, false},
		{"-Inf", false, math.NaN(), math.NaN(), -1, false},
		{"0x1p3", false, math.NaN(), math.NaN(), -1, false},
		{"1_000", false, math.NaN(), math.NaN(), -1, false},
		{".5", false, math.NaN(), math.NaN(), -1, false},
		{" 1", false, math.NaN(), math.NaN(), -1, false},
		{"1e400", false, math.NaN(), math.NaN(), -1, false},
		{"", false, math.NaN(), math.NaN(), -1, false},
		{"-0.5", true, -0.5, 0.1, 1, false},
	}
	same := func(a, b float64) bool {
		return (math.IsNaN(a) && math.IsNaN(b)) || a == b || math.Abs(a-b) <= 1e-12*math.Abs(b)
	}
	for _, tc := range tests {
		if got := tc.p.IsNumber(); got != tc.number {
			t.Errorf("%q.IsNumber() = %v", tc.p, got)
		}
		if got := tc.p.Value(); !same(got, tc.value) {
			t.Errorf("%q.Value() = %v, want %v", tc.p, got, tc.value)
		}
		if got := tc.p.Unit(); !same(got, tc.unit) {
			t.Errorf("%q.Unit() = %v, want %v", tc.p, got, tc.unit)
		}
		if got := tc.p.Decimals(); got != tc.decimals {
			t.Errorf("%q.Decimals() = %d, want %d", tc.p, got, tc.decimals)
		}
		if got := tc.p.Scientific(); got != tc.scientific {
			t.Errorf("%q.Scientific() = %v", tc.p, got)
		}
	}
}

func TestPrintedRounds(t *testing.T) {
	tests := []struct {
		p    paper.Printed
		x    float64
		want bool
	}{
		{"1.08", 1.0849, true}, {"1.08", 1.0751, true}, {"1.08", 1.0851, false}, {"1.08", 1.0749, false},
		{"0.600", 0.600763, false}, {"0.601", 0.600763, true},
		{"4.08e6", 4.0849e6, true}, {"4.08e6", 4.086e6, false},
		{"114.22", 114.198, false}, {"114.22", 114.216, true},
		{paper.Unstable, 1, false}, {"1.08", math.NaN(), false},
	}
	for _, tc := range tests {
		if got := tc.p.Rounds(tc.x); got != tc.want {
			t.Errorf("%q.Rounds(%v) = %v, want %v", tc.p, tc.x, got, tc.want)
		}
	}
}

// The printed table is consistent with itself: the grid is the one the text
// states; each entry's window is the window its t lies in by the printed
// intervals (the selection rule: U_β first, then U_γ); ✗¹ marks exactly the
// undefined columns; the printed ratio is the ratio of the printed distances
// within their precision; U_γ begins where a bounded U_β ends; ρ_min falls
// as l grows, and U_β is empty exactly when ρ = 0.1 ≤ ρ_min.
func TestAblationConsistent(t *testing.T) {
	if got := paper.AblationOrders(); !slices.Equal(got, []int{3, 5, 7}) {
		t.Errorf("orders %v", got)
	}
	if got := paper.AblationSteps(); !slices.Equal(got, []int64{1000, 5000, 33500, 100000, 500000, 2000000}) {
		t.Errorf("steps %v", got)
	}
	prevRho := math.Inf(1)
	for _, b := range paper.Ablation() {
		if !(b.RhoMin.Value() < prevRho) {
			t.Errorf("l = %d: ρ_min %s does not fall with l", b.L, b.RhoMin)
		}
		prevRho = b.RhoMin.Value()
		if b.UBeta.Empty() != (paper.AblationRho <= b.RhoMin.Value()) {
			t.Errorf("l = %d: U_β = %s with ρ = %v, ρ_min = %s", b.L, b.UBeta, paper.AblationRho, b.RhoMin)
		}
		if !b.UBeta.Empty() && b.UBeta.Hi != b.UGamma.Lo {
			t.Errorf("l = %d: U_β = %s ends where U_γ = %s does not begin", b.L, b.UBeta, b.UGamma)
		}
		if b.UGamma.Hi != paper.Infinity {
			t.Errorf("l = %d: U_γ = %s is bounded", b.L, b.UGamma)
		}
		for _, e := range b.Entries {
			if e.L != b.L {
				t.Errorf("entry l = %d in block l = %d", e.L, b.L)
			}
			w := paper.NoWindow
			switch {
			case b.UBeta.Contains(float64(e.T)):
				w = paper.InUBeta
			case b.UGamma.Contains(float64(e.T)):
				w = paper.InUGamma
			}
			if e.Window != w {
				t.Errorf("l = %d, t = %d: window %v, the intervals give %v", e.L, e.T, e.Window, w)
			}
			undefined := e.DHat == paper.Undefined || e.DStar == paper.Undefined || e.Ratio == paper.Undefined || e.Final == paper.EndUndefined
			if undefined == e.Defined() {
				t.Errorf("l = %d, t = %d: ✗¹ marks %v but defined = %v", e.L, e.T, undefined, e.Defined())
			}
			if !e.DHat.IsNumber() {
				continue
			}
			hLo, hHi := e.DHat.Bounds()
			sLo, sHi := e.DStar.Bounds()
			rLo, rHi := e.Ratio.Bounds()
			if hHi/sLo < rLo || hLo/sHi > rHi {
				t.Errorf("l = %d, t = %d: %s / %s cannot print as %s", e.L, e.T, e.DHat, e.DStar, e.Ratio)
			}
		}
	}
	if _, ok := paper.AblationEntryAt(4, 1000); ok {
		t.Error("AblationEntryAt(4, 1000) found an entry")
	}
	if e, ok := paper.AblationEntryAt(5, 33500); !ok || e.DHat != "0.59" || e.Window != paper.InUBeta {
		t.Errorf("AblationEntryAt(5, 33500) = %+v, %v", e, ok)
	}
	if _, ok := paper.AblationBlockOf(9); ok {
		t.Error("AblationBlockOf(9) found a block")
	}
}

// Ablation returns a copy: changing it changes no later call.
func TestAblationCopy(t *testing.T) {
	a := paper.Ablation()
	a[0].Entries[1].DHat = "0"
	a[0].RhoMin = "1"
	if b := paper.Ablation(); b[0].Entries[1].DHat != "1.08" || b[0].RhoMin != "0.208" {
		t.Error("Ablation shares its data between calls")
	}
	s := paper.SuccessStudy()
	s.Sizes[0] = 1
	if paper.SuccessStudy().Sizes[0] != 40 {
		t.Error("SuccessStudy shares its data between calls")
	}
}

// The printed sensing matrices are symmetric, and a new copy each time.
func TestRealWorldMatrices(t *testing.T) {
	as := paper.RealWorldMatrices()
	if len(as) != 6 {
		t.Fatalf("%d matrices, the paper prints A_1, …, A_6", len(as))
	}
	for k, a := range as {
		for i := 0; i < 3; i++ {
			for j := 0; j < i; j++ {
				if a[3*i+j] != a[3*j+i] {
					t.Errorf("A_%d is not symmetric at (%d, %d)", k+1, i, j)
				}
			}
		}
	}
	as[0][0] = 1
	if paper.RealWorldMatrices()[0][0] != 0.0783 {
		t.Error("RealWorldMatrices shares its data between calls")
	}
}

func TestCases(t *testing.T) {
	if _, err := paper.PMCDeltaFormula(math.NaN()); err == nil {
		t.Error("PMCDeltaFormula(NaN): no error")
	}
	if got, err := paper.PMCDeltaFormula(paper.PMCSettings().Eps); err != nil || !paper.PMCDelta.Rounds(got) {
		t.Errorf("(1−ε)/(1+ε) = %v at ε = %v does not print as %s", got, paper.PMCSettings().Eps, paper.PMCDelta)
	}
	for _, c := range []paper.CaseSettings{paper.RealWorldSettings(), paper.PMCSettings()} {
		for _, p := range append(c.Z[:], c.XHat[:]...) {
			if !p.IsNumber() {
				t.Errorf("%+v: %q is no number", c, p)
			}
		}
		if c.L%2 == 0 || c.T <= 0 || !(c.Step > 0) || c.Before <= 0 || c.After <= 0 || c.N != len(c.Z) {
			t.Errorf("%+v: settings out of range", c)
		}
	}
}

func TestEnumStrings(t *testing.T) {
	for w, want := range map[paper.Window]string{paper.NoWindow: "✗¹", paper.InUBeta: "U_β", paper.InUGamma: "U_γ"} {
		if w.String() != want {
			t.Errorf("%d: %q, want %q", int(w), w, want)
		}
	}
	for e, want := range map[paper.Endpoint]string{paper.EndUndefined: "✗¹", paper.EndPlusZ: "+Z", paper.EndMinusZ: "−Z", paper.EndUnstable: "✗²"} {
		if e.String() != want {
			t.Errorf("%d: %q, want %q", int(e), e, want)
		}
	}
}

// The block of the paper's ablation table for l = 7.
func ExampleAblationBlockOf() {
	b, _ := paper.AblationBlockOf(7)
	fmt.Printf("l = %d: ρ_min = %s, U_β = %s, U_γ = %s\n", b.L, b.RhoMin, b.UBeta, b.UGamma)
	for _, e := range b.Entries {
		fmt.Println(e.T, e.Window, e.DHat, e.DStar, e.Ratio, e.Final)
	}
	// Output:
	// l = 7: ρ_min = 0.043, U_β = (0, 1093342.41), U_γ = (1093342.41, +∞)
	// 1000 U_β 0.665 0.601 1.106 −Z
	// 5000 U_β 0.665 0.601 1.106 −Z
	// 33500 U_β 0.665 0.600 1.107 −Z
	// 100000 U_β 0.666 0.600 1.109 −Z
	// 500000 U_β 0.669 0.598 1.119 −Z
	// 2000000 U_γ 0.754 0.461 1.634 +Z
}

// Whether a computed value reproduces a printed one.
func ExamplePrinted_Rounds() {
	e, _ := paper.AblationEntryAt(3, 33500)
	fmt.Println(e.DHat, e.DHat.Rounds(114.198), e.DHat.Rounds(114.216))
	// Output:
	// 114.22 false true
}

// The settings of the paper's real-world case study, as printed.
func ExampleRealWorldSettings() {
	c := paper.RealWorldSettings()
	fmt.Printf("x̂ = ±%v; GD step %v, %d steps, escape at l = %d, t = %d, %d steps more\n", c.XHat, c.Step, c.Before, c.L, c.T, c.After)
	// Output:
	// x̂ = ±[0.2234 0.0918 0.5985]; GD step 0.1, 100 steps, escape at l = 5, t = 150000, 100 steps more
}

// The quoted RIP constant of the PMC case and the formula it is printed for.
func ExamplePMCDelta() {
	eps := paper.PMCSettings().Eps
	d, err := paper.PMCDeltaFormula(eps)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("(1−ε)/(1+ε) = %.6f at ε = %v, printed %s: rounds %v\n", d, eps, paper.PMCDelta, paper.PMCDelta.Rounds(d))
	// Output:
	// (1−ε)/(1+ε) = 0.538462 at ε = 0.3, printed 0.538: rounds true
}
