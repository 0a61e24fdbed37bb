package figures

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/widgets"
)

// option renders a chart and returns its ECharts option as JSON (embedded functions blanked).
func option(t *testing.T, c widgets.Chart) map[string]any {
	t.Helper()
	o := strings.TrimSuffix(strings.TrimSpace(c.RenderSnippet().Option), ";")
	for {
		i := strings.Index(o, "function (")
		if i < 0 {
			break
		}
		depth, j := 0, i
		for ; j < len(o); j++ {
			if o[j] == '{' {
				depth++
			} else if o[j] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		o = o[:i] + "null" + o[j+1:]
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(o), &m); err != nil {
		t.Fatalf("option is not JSON: %v", err)
	}
	return m
}

// series returns the y values of the named line series ([x, y] pairs or plain values); NaN for gaps.
func series(t *testing.T, c widgets.Chart, name string) []float64 {
	t.Helper()
	for _, s := range option(t, c)["series"].([]any) {
		sm := s.(map[string]any)
		if sm["name"] != name {
			continue
		}
		var ys []float64
		for _, d := range sm["data"].([]any) {
			v := d
			if dm, ok := d.(map[string]any); ok {
				v = dm["value"]
			}
			if pair, ok := v.([]any); ok {
				v = pair[len(pair)-1]
			}
			f, ok := v.(float64)
			if !ok {
				f = math.NaN()
			}
			ys = append(ys, f)
		}
		return ys
	}
	t.Fatalf("no series %q", name)
	return nil
}

func cellFloat(t *testing.T, c widgets.Cell) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(strings.TrimSpace(c.Text), 64)
	if err != nil {
		t.Fatalf("cell %q is not a number", c.Text)
	}
	return f
}

func TestHGrid(t *testing.T) {
	p := sod.BasicExampleProblem()
	g, err := HGrid(p, -1, 1, 5, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for j, y := range g.Y {
		for i, x := range g.X {
			if want := p.H(mat.NewDense(2, 1, []float64{x, y})) + 0.5; g.Z[j][i] != want {
				t.Errorf("Z[%d][%d] = %v, want h(%v, %v) + 0.5 = %v", j, i, g.Z[j][i], x, y, want)
			}
		}
	}
	if g.X[0] != -1 || g.X[4] != 1 || g.Y[2] != 0 {
		t.Errorf("axes %v, %v", g.X, g.Y)
	}
	for _, bad := range []struct {
		p          *sod.Problem
		lo, hi, fl float64
		n          int
	}{{p, 1, -1, 0, 5}, {p, 0, 1, 0, 1}, {p, 0, 1, 0, maxGridPoints + 1}, {p, 0, 1, -1, 5}, {p, 0, math.Inf(1), 0, 5}, {sod.RealWorldProblem(), 0, 1, 0, 5}} {
		if _, err := HGrid(bad.p, bad.lo, bad.hi, bad.n, bad.fl); err == nil {
			t.Errorf("HGrid([%v, %v], %d, floor %v) accepted", bad.lo, bad.hi, bad.n, bad.fl)
		}
	}
}

func TestGDPaths(t *testing.T) {
	paths, runs, err := GDPaths(context.Background(), sod.BasicExampleProblem(), [][2]float64{{0.08, 1.3}, {1.3, 1.1}}, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 50}})
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range paths {
		last := len(p.X) - 1
		if p.X[last] != runs[k].X.At(0, 0) || p.Y[last] != runs[k].X.At(1, 0) || len(p.X) != 51 {
			t.Errorf("path %q ends at (%v, %v) after %d points, GD at %v", p.Name, p.X[last], p.Y[last], len(p.X), runs[k].X.RawMatrix().Data)
		}
	}
	if _, _, err := GDPaths(context.Background(), sod.RealWorldProblem(), [][2]float64{{0, 1}}, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1}}); err == nil {
		t.Error("a 3-D problem accepted")
	}
}

// The EFS of the basic example at δ = ½ is 1 by hand: NCM = (3/4)/((1/2)(3/2)) = 1, AIC = 0.
func TestEFSTable(t *testing.T) {
	tab, err := EFSTable(sod.PaperInstances())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 6 {
		t.Fatalf("%d rows, want one per instance and δ (6)", len(tab.Rows))
	}
	if efs := cellFloat(t, tab.Rows[0][7]); math.Abs(efs-1) > 1e-4 {
		t.Errorf("basic example: EFS %v, want 1", efs)
	}
	for _, r := range tab.Rows {
		if cellFloat(t, r[7]) > 1 || r[7].Mismatch {
			t.Errorf("%s %s: EFS %s > 1 (none of the paper's instances has one)", r[0].Text, r[1].Text, r[7].Text)
		}
	}
}

// EFSAgainstDelta evaluates Definition efs directly; sod.SingleStep computes it from C₁, C₂, C₃.
func TestEFSAgainstDelta(t *testing.T) {
	insts := sod.PaperInstances()
	c, err := EFSAgainstDeltaChart(insts)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range insts {
		ys := series(t, c, in.Name)
		for _, i := range []int{0, 30, 50, 81, 99} {
			s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: float64(i) / 100})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(ys[i]-s.EFS) > 1e-12*math.Max(1, s.EFS) {
				t.Errorf("%s, δ = %v: chart %v, SingleStep %v", in.Name, float64(i)/100, ys[i], s.EFS)
			}
		}
	}
}

// At an exact critical point the direct evaluation 2[h(X̂ + ρuqᵀ) − h(X̂)]/ρ² equals the exact
// quadratic of sod.ExactLine; on the designed saddle the certified interval is where h drops.
func TestQuadraticInequalityAndLine(t *testing.T) {
	in := sod.DesignedSaddleInstance()
	s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), GradTol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	q, err := QuadraticInequalityChart("saddle", in.P, s, -2.5, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	direct, exact := series(t, q, "2[h(X̂ + ρuqᵀ) − h(X̂)]/ρ²"), series(t, q, "exact quadratic")
	for i := range direct {
		if math.Abs(direct[i]-exact[i]) > 1e-9*math.Max(1, math.Abs(exact[i])) {
			t.Errorf("point %d: direct %v, exact quadratic %v", i, direct[i], exact[i])
		}
	}
	l, err := SingleStepLineChart("saddle", in.P, s, -3, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	dh, cert := series(t, l, "h(X̂ + ρuqᵀ) − h(X̂)"), series(t, l, "certified interval (ρ̂₁, ρ̂₂)")
	n := 0
	for i := range dh {
		if !math.IsNaN(cert[i]) {
			n++
			if !(dh[i] < 0) {
				t.Errorf("point %d in the certified interval: Δh = %v ≥ 0", i, dh[i])
			}
		}
	}
	if n == 0 {
		t.Error("no point in the certified interval")
	}
	if _, err := QuadraticInequalityChart("x", in.P, s, 1, 1); err == nil {
		t.Error("an empty ρ range accepted")
	}
}

// Table ablation: the numbers that differ from the printed digits, and the one descent cell.
func TestAblationTable(t *testing.T) {
	res, err := experiments.RunAblation(context.Background(), experiments.DefaultAblationConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, mism := AblationTable(res)
	if len(tab.Rows) != 18 || len(mism) != 3 {
		t.Errorf("%d rows, mismatches %q", len(tab.Rows), mism)
	}
	yes := 0
	for _, r := range tab.Rows {
		if r[9].Text == "YES" {
			yes++
			if r[0].Text != "7" || r[1].Text != "2000000" {
				t.Errorf("descent cell at l = %s, t = %s", r[0].Text, r[1].Text)
			}
		}
	}
	if yes != 1 {
		t.Errorf("%d descent cells, want 1", yes)
	}
	// Every mismatching cell is highlighted in the HTML, and only those.
	flagged := 0
	for _, r := range tab.Rows {
		for _, c := range r {
			if c.Mismatch {
				flagged++
			}
		}
	}
	if h, err := tab.HTML(); err != nil || strings.Count(h, "background:#fff3bf") != flagged {
		t.Errorf("HTML highlights %d cells, %d flagged (err %v)", strings.Count(h, "background:#fff3bf"), flagged, err)
	}
	w := WindowsTable(res)
	for _, r := range w.Rows {
		if r[2].Paper == "" || r[2].Mismatch {
			t.Errorf("l = %s: ρ_min %q, paper %q", r[0].Text, r[2].Text, r[2].Paper)
		}
	}
	for _, tc := range []struct {
		v     float64
		paper paper.Printed
		text  string
		bad   bool
	}{{114.2, "114.22", "114.20", true}, {0.6654, "0.665", "0.665", false}, {4.0812e6, "4.08e6", "4.08e+06", false}, {1234567, "", "1.23e+06", false}, {0.5, "", "0.500", false}} {
		if text, bad := printed(tc.v, tc.paper); text != tc.text || bad != tc.bad {
			t.Errorf("printed(%v, %q) = %q, %v; want %q, %v", tc.v, tc.paper, text, bad, tc.text, tc.bad)
		}
	}
}

func TestDescentWindows(t *testing.T) {
	s := &experiments.DescentScanResult{L: 3, HHat: 1, T: experiments.Floats{1, 10, 100, 1000},
		HBeta: experiments.Floats{0.5, 2, 2, 2}, HGamma: experiments.Floats{2, 0.5, 0.7, 3}}
	if got, want := DescentWindows(s), "l = 3: β starts lowering h at t ≈ 1; β stops lowering h at t ≈ 10; γ starts lowering h at t ≈ 10; γ stops lowering h at t ≈ 1000"; got != want {
		t.Errorf("DescentWindows = %q, want %q", got, want)
	}
	s.HBeta, s.HGamma = experiments.Floats{2, 2, 2, 2}, experiments.Floats{2, 2, 2, 2}
	if got := DescentWindows(s); !strings.Contains(got, "no point lowers h") {
		t.Errorf("DescentWindows = %q", got)
	}
	if _, err := DescentScanChart("x", nil); err == nil {
		t.Error("no scans accepted")
	}
}

// The explicit dense tensors and the m-vector closed form agree to rounding.
func TestLiftingCheckTable(t *testing.T) {
	tab, err := LiftingCheckTable()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		if d := cellFloat(t, r[5]); d > 1e-12 {
			t.Errorf("%s l = %s: relative difference %v", r[0].Text, r[1].Text, d)
		}
		d := cellFloat(t, r[6])
		if r[0].Text == "basic example" != math.IsNaN(d) || d > 1e-9 {
			t.Errorf("%s l = %s: PGD coefficient difference %v", r[0].Text, r[1].Text, d)
		}
	}
}

// The gap after one step is first order in ρ: while ρ shrinks 100-fold, gap/ρ changes by less
// than a factor 3 (a second-order gap would make gap/ρ shrink 100-fold too).
func TestFirstStepGapTable(t *testing.T) {
	tab, err := FirstStepGapTable(sod.PaperInstances()[2], 3, 0.1, []float64{0.1, 0.01, 0.001})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), 0.0
	for _, r := range tab.Rows {
		v := cellFloat(t, r[4])
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !(hi < 3*lo) || !(lo > 0) {
		t.Errorf("gap/ρ ranges over [%v, %v]", lo, hi)
	}
}

func TestCaseFigures(t *testing.T) {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.RealWorldCaseStudyConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lo, tn := CaseLifted("exp3", r)
	if len(lo.T) == 0 || len(lo.T) != len(lo.Exact) || len(tn.T) != len(tn.ClosedForm.C) || lo.T[0] < 1 {
		t.Fatalf("lifted panels of %d, %d, %d points starting at %v", len(lo.T), len(lo.Exact), len(tn.ClosedForm.C), lo.T)
	}
	if want := math.Pow(10, r.Lifted.HLHat); math.Abs(lo.Reference-want) > 1e-12*want {
		t.Errorf("reference %v, want %v", lo.Reference, want)
	}
	curves, err := CaseCurves("exp3", r, 1)
	if err != nil || len(curves) != 3 || len(curves[0].X) != len(r.Iter) || len(curves[0].EscapeAt) != 1 {
		t.Fatalf("curves: %v, %d", err, len(curves))
	}
	tr := CaseTrajectory("f", r, []float64{1, 0, 0}, 1)
	if len(tr.Paths[0].X)+len(tr.Paths[1].X) != len(r.Path) || len(tr.Points) != 5 {
		t.Errorf("trajectory: %d + %d points of %d, %d marks", len(tr.Paths[0].X), len(tr.Paths[1].X), len(r.Path), len(tr.Points))
	}
	if _, err := CaseCurves("x", r, 0); err == nil {
		t.Error("every = 0 accepted")
	}
}

func TestQNNLossesHoldsTheLastValue(t *testing.T) {
	c, err := QNNLossesChart("x", []experiments.LossCurve{{Name: "a", Iter: []int{0, 15, 30}, H: experiments.Floats{3, 2, 1}}}, 15)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := series(t, c, "a"), []float64{3, 3, 2, 1}; len(got) != 4 || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("on the grid 0, 10, 20, 30: %v, want %v", got, want)
	}
	if _, err := QNNLossesChart("x", []experiments.LossCurve{{Name: "empty"}}, 0); err == nil {
		t.Error("an empty curve accepted")
	}
}

func TestExplorerChart(t *testing.T) {
	c, err := ExplorerChart(ExplorerInitial())
	if err != nil {
		t.Fatal(err)
	}
	title := option(t, c)["title"].(map[string]any)
	sub, _ := title["subtext"].(string)
	for _, want := range []string{"l = 5, t = 150000: γ-type X̌", "h(X̂) = 0.0582892", "raises h"} {
		if !strings.Contains(sub, want) {
			t.Errorf("subtitle %q lacks %q", sub, want)
		}
	}
	v := ExplorerInitial()
	v["case"] = 2
	if _, err := ExplorerChart(v); err == nil {
		t.Error("case 2 accepted")
	}
	v = ExplorerInitial()
	v["l"] = 4
	if _, err := ExplorerChart(v); err == nil {
		t.Error("l = 4 accepted")
	}
}
