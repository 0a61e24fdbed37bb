package figures_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/figures"
	"sodworkbench.org/workbench/sod/paper"
	"sodworkbench.org/workbench/widgets"
)

var titleRe = regexp.MustCompile(`"text":"((?:[^"\\]|\\.)*)"`)

// title is the title of a chart, as a notebook would show it.
func title(c widgets.Chart, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	m := titleRe.FindStringSubmatch(c.RenderSnippet().Option)
	if m == nil {
		return "(no title)"
	}
	return m[1]
}

func row(c []widgets.Cell) string {
	var s []string
	for _, x := range c {
		s = append(s, x.Text)
	}
	return strings.Join(s, " | ")
}

func ExampleHGrid() {
	g, err := figures.HGrid(sod.BasicExampleProblem(), -1.5, 1.5, 3, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.X, g.Z[1]) // h on the x₁ axis: ½(x₁² − 1)²
	// Output:
	// [-1.5 0 1.5] [0.78125 0.5 0.78125]
}

func ExampleGDPaths() {
	paths, runs, err := figures.GDPaths(context.Background(), sod.BasicExampleProblem(), [][2]float64{{1.3, 1.1}}, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 300}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d points, ends at (%.4f, %.4f)\n", paths[0].Name, len(paths[0].X), runs[0].X.At(0, 0), runs[0].X.At(1, 0))
	// Output:
	// GD from (1.3, 1.1): 301 points, ends at (1.0000, 0.0000)
}

func ExamplePathFromIterates() {
	res, err := sod.GradientDescent(context.Background(), sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 2, KeepIterates: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := figures.PathFromIterates("GD from x̂", res.Trace.Iterates)
	fmt.Println(p.Name, len(p.X), p.X[0], p.Y[0] > 0.7)
	// Output:
	// GD from x̂ 3 0 true
}

func ExampleBasicPoints() {
	for _, p := range figures.BasicPoints() {
		fmt.Printf("%s = (%.4f, %.4f)\n", p.Name, p.X, p.Y)
	}
	// Output:
	// z = (1.0000, 0.0000)
	// −z = (-1.0000, 0.0000)
	// x̂ = (0.0000, 0.7071)
	// −x̂ = (0.0000, -0.7071)
}

func ExampleEFSTable() {
	tab, err := figures.EFSTable(sod.PaperInstances())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Println(r[0].Text, "|", r[1].Text, "| EFS", r[7].Text)
	}
	// Output:
	// basic example | 0.5 (exact) | EFS 1.0000
	// PMC n=3 ε=0.3 | 0.455 (δ₁) | EFS 0.1359
	// PMC n=3 ε=0.3 | 0.538 (paper's (1−ε)/(1+ε)) | EFS 0.1286
	// PMC n=3 ε=0.3 | 0.91 (δ₂ = exact) | EFS 0.1036
	// real-world | 0.81106 (δ₁) | EFS 0.2378
	// real-world | 0.89834 (δ₂ = exact) | EFS 0.2242
}

func ExampleEFSAgainstDeltaChart() {
	fmt.Println(title(figures.EFSAgainstDeltaChart(sod.PaperInstances())))
	// Output:
	// EFS against the RIP constant δ used
}

func ExampleQuadraticInequalityChart() {
	in := sod.DesignedSaddleInstance()
	s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), GradTol: 1e-9})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.QuadraticInequalityChart("Designed 2×2 saddle: EFS > 1", in.P, s, -2.5, 1.5)))
	fmt.Printf("EFS = %.4f, ρ̂ ∈ (%.4f, %.4f)\n", s.EFS, s.Rho1, s.Rho2)
	// Output:
	// Designed 2×2 saddle: EFS > 1
	// EFS = 1.7924, ρ̂ ∈ (-1.7426, 0.7752)
}

func ExampleSingleStepLineChart() {
	in := sod.DesignedSaddleInstance()
	s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), GradTol: 1e-9})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.SingleStepLineChart("Designed saddle: h(X̂ + ρ u_n q_rᵀ) − h(X̂)", in.P, s, -3, 1.5)))
	// Output:
	// Designed saddle: h(X̂ + ρ u_n q_rᵀ) − h(X̂)
}

func ExampleCaseOneLandscapeChart() {
	in, err := sod.GaussianSpuriousInstance()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.CaseOneLandscapeChart(in, s)))
	// Output:
	// Gaussian n=2 m=3 seed 164: log₁₀ h
}

func ExampleRIPTable() {
	tab, err := figures.RIPTable(context.Background(), sod.PaperInstances()[:1], 500, 10, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Println(row(r))
	}
	// Output:
	// basic example | sample | 1 | [1.00000, 1.49999] | 0.49999 | [1.0, 1.5] → 0.5
	// basic example | optimize | 1 | [1.00000, 1.50000] | 0.50000 | [1.0, 1.5] → 0.5
	// basic example | sample | 2 | [0.50226, 1.50000] | 0.50000 | [0.5, 1.5] → 0.5
	// basic example | optimize | 2 | [0.50000, 1.50000] | 0.50000 | [0.5, 1.5] → 0.5
	// basic example | exact | 2 | [0.50000, 1.50000] | 0.50000 | [0.5, 1.5] → 0.5
}

func ExampleDeltaSweepChart() {
	cfg := experiments.DefaultDeltaSweepConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{3}, []float64{1, 0.5}, 4
	res, err := experiments.RunDeltaSweep(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.DeltaSweepChart(res)))
	// Output:
	// PMC: GD success rate against the exact RIP constant δ = 1 − ε²
}

func ExampleSMomentsTable() {
	tab, err := figures.SMomentsTable(context.Background(), 3, []int{10}, 2000, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(tab.Header, " | "))
	fmt.Println(row(tab.Rows[0]))
	// Output:
	// m | E S: theory | MC | E S²: theory | MC | E S⁴: theory | MC | SE of MC E S²
	// 10 | 0.0000 | +0.0048 | 0.2000 | 0.2041 | 0.1440 | 0.1427 | 0.0071
}

func ExamplePZCurveChart() {
	cfg := experiments.DefaultPZCurveConfig()
	cfg.Points, cfg.Samples = 5, 200
	res, err := experiments.RunPZCurve(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.PZCurveChart(res)))
	// Output:
	// P(EFS > 1) under the Gaussian ensemble: Paley–Zygmund bound vs Monte Carlo
}

func ExampleEFSZonesCharts() {
	tab, charts, err := figures.EFSZonesCharts(sod.PaperInstances())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range tab.Rows {
		fmt.Println(r[0].Text, "| case", r[4].Text, "|", title(charts[i], nil))
	}
	// Output:
	// basic example (δ = 0.5) | case 2 (< r₁) | EFS zones: basic example (δ = 0.5)
	// PMC n=3 ε=0.3 (δ = 0.455) | case 2 (< r₁) | EFS zones: PMC n=3 ε=0.3 (δ = 0.455)
	// real-world (δ = 0.81106) | case 2 (< r₁) | EFS zones: real-world (δ = 0.81106)
}

func ExamplePaperDirections() {
	cp, err := sod.AnalyzeCritical(sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.CriticalOptions{SkipHessian: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range figures.PaperDirections(cp) {
		fmt.Printf("%.4f\n", d.At(0, 0)*d.At(0, 0)+d.At(1, 0)*d.At(1, 0))
	}
	// Output:
	// 0.5000
	// 1.0000
	// 1.1250
}

func ExampleLiftingCheckTable() {
	tab, err := figures.LiftingCheckTable()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Println(r[0].Text, "l =", r[1].Text, "entries", r[2].Text, "h^l", r[3].Text)
	}
	// Output:
	// basic example l = 3 entries 8 h^l 0.9815174346
	// basic example l = 5 entries 32 h^l 0.9968965848
	// real-world l = 3 entries 27 h^l 0.006593158744
	// real-world l = 5 entries 243 h^l 0.0002519733184
}

func ExampleExplicitMemoryTable() {
	for _, r := range figures.ExplicitMemoryTable([][3]int{{3, 6, 3}, {3, 6, 11}}).Rows {
		fmt.Println(row(r))
	}
	// Output:
	// 3 | 6 | 3 | 3.13e+04
	// 3 | 6 | 11 | 1.26e+12  (refused: > 512 MiB)
}

func ExampleLiftedAlongBChart() {
	fmt.Println(title(figures.LiftedAlongBChart(sod.RealWorldCase(), []int{3, 5})))
	// Output:
	// real-world: [h^l(a + s b) − h^l(a)] / h^l(a)
}

func ExampleSimulationCharts() {
	in := sod.BasicExample()
	cp, err := in.Critical(sod.CriticalOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	cmp, err := sod.CompareTPGD(context.Background(), in.P, cp, 3, 0.1, 0.1, 100, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	lifted, terms, err := figures.SimulationCharts("Basic example", cmp, 3)
	fmt.Println(title(lifted, err))
	fmt.Println(title(terms, err))
	// Output:
	// Basic example: lifted objective along TPGD
	// Basic example: norms of the a-, b-, c-terms
}

func ExampleFirstStepGapTable() {
	tab, err := figures.FirstStepGapTable(sod.RealWorldCase(), 3, 0.1, []float64{0.1, 0.01})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Println(row(r))
	}
	// Output:
	// 0.1 | (1.0000000, 0.1000237, -0.000672) | (0.9993986, 0.0995981, 0.000352) | 0.001 | 0.0102
	// 0.01 | (1.0000000, 0.0100024, -6.72e-05) | (0.9999964, 0.0100161, -0.000255) | 0.00019 | 0.0187
}

func ExampleAblationTable() {
	res, err := experiments.RunAblation(context.Background(), experiments.DefaultAblationConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	tab, mism := figures.AblationTable(res)
	fmt.Println(len(tab.Rows), "cells; differ from the printed digits:")
	for _, m := range mism {
		fmt.Println(m)
	}
	// Output:
	// 18 cells; differ from the printed digits:
	// l = 3, t = 33500, ‖X̂X̂ᵀ − X̌X̌ᵀ‖: ours 114.198, paper 114.22
	// l = 3, t = 33500, ‖X̌X̌ᵀ − ZZᵀ‖: ours 113.269, paper 113.29
	// l = 7, t = 33500, ‖X̌X̌ᵀ − ZZᵀ‖: ours 0.600763, paper 0.600
}

func ExampleWindowsTable() {
	cfg := experiments.DefaultAblationConfig()
	cfg.Ls = []int{3, 5, 7, 9}
	res, err := experiments.RunEscapeWindows(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range figures.WindowsTable(res).Rows {
		fmt.Printf("l = %s: ρ_min = %s (paper %q)\n", r[0].Text, r[2].Text, r[2].Paper)
	}
	// Output:
	// l = 3: ρ_min = 0.208 (paper "0.208")
	// l = 5: ρ_min = 0.097 (paper "0.097")
	// l = 7: ρ_min = 0.043 (paper "0.043")
	// l = 9: ρ_min = 0.019 (paper "")
}

func ExampleAblationWindowsChart() {
	cfg := experiments.DefaultAblationConfig()
	cfg.Ls = []int{3, 5, 7, 9, 11}
	res, err := experiments.RunEscapeWindows(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.AblationWindowsChart("Fig. ablation", res, paper.AblationSteps())))
	// Output:
	// Fig. ablation
}

func ExampleDescentScanChart() {
	cfg := experiments.DescentScanConfig{Ablation: experiments.DefaultAblationConfig()}
	ts, err := experiments.LogGrid(100, 10000000, 141)
	if err != nil {
		fmt.Println(err)
		return
	}
	var scans []*experiments.DescentScanResult
	cfg.Ts = ts
	for _, l := range []int{3, 5, 7} {
		cfg.L = l
		s, err := experiments.RunDescentScan(context.Background(), cfg, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		scans = append(scans, s)
		fmt.Println(figures.DescentWindows(s))
	}
	fmt.Println(title(figures.DescentScanChart("Real-world case: h at the escape points", scans)))
	// Output:
	// l = 3: γ starts lowering h at t ≈ 1509; γ stops lowering h at t ≈ 3728
	// l = 5: γ starts lowering h at t ≈ 17783; γ stops lowering h at t ≈ 100000
	// l = 7: γ starts lowering h at t ≈ 193070; γ stops lowering h at t ≈ 2.682696e+06
	// Real-world case: h at the escape points
}

func ExampleDescentWindows() {
	ts, err := experiments.LogGrid(100, 10000000, 141)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := experiments.RunDescentScan(context.Background(), experiments.DescentScanConfig{Ablation: experiments.DefaultAblationConfig(), L: 5, Ts: ts}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(figures.DescentWindows(s))
	// Output:
	// l = 5: γ starts lowering h at t ≈ 17783; γ stops lowering h at t ≈ 100000
}

func ExampleCaseCurves() {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.RealWorldCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	curves, err := figures.CaseCurves("Fig. exp3", r, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range curves {
		fmt.Println(c.Title, "—", len(c.X), "points, escape at index", c.EscapeAt)
	}
	// Output:
	// Fig. exp3 (a) objective — 202 points, escape at index [101]
	// Fig. exp3 (b) gradient norm — 202 points, escape at index [101]
	// Fig. exp3 (c) distance to the ground truth — 202 points, escape at index [101]
}

func ExampleCaseLifted() {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.PMCCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	lo, tn := figures.CaseLifted("Fig. exp2", r)
	fmt.Println(lo.Title)
	fmt.Println(tn.Title)
	fmt.Printf("h^l(ŵ) = %.4g at t from %g to %g\n", lo.Reference, lo.T[0], lo.T[len(lo.T)-1])
	// Output:
	// Fig. exp2 (d): lifted objective h^l vs simulated TPGD steps t
	// Fig. exp2 (e): norms of the a-, b- and c-terms vs t
	// h^l(ŵ) = 5185 at t from 1 to 59000
}

func ExampleCaseTrajectory() {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.RealWorldCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	tr := figures.CaseTrajectory("Fig. exp3 (f)", r, []float64{1, 0, 0}, 1)
	for _, p := range tr.Points {
		fmt.Printf("%s = (%.3f, %.3f, %.3f)\n", p.Name, p.X, p.Y, p.Z)
	}
	// Output:
	// z = (1.000, 0.000, 0.000)
	// −z = (-1.000, -0.000, -0.000)
	// x̂ = (0.219, 0.092, 0.600)
	// x̌ = (0.899, -0.150, -0.167)
	// x_final = (1.000, 0.000, -0.000)
}

func ExampleBasicDistancesChart() {
	r, err := experiments.RunBasicFromStart(context.Background(), experiments.DefaultBasicFromStartConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.BasicDistancesChart(r)))
	fmt.Println(title(figures.BasicTrajectoriesChart(r)))
	// Output:
	// Fig. basic_example (left): distance to M* vs iteration
	// Fig. basic_example (right): log₁₀ h and trajectories
}

func ExampleBasicTrajectoriesChart() {
	r, err := experiments.RunBasicFromStart(context.Background(), experiments.DefaultBasicFromStartConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.BasicTrajectoriesChart(r)))
	// Output:
	// Fig. basic_example (right): log₁₀ h and trajectories
}

func ExampleBasicStartsChart() {
	res, err := experiments.RunBasicExample(context.Background(), experiments.DefaultBasicExampleConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.BasicStartsChart(res)))
	// Output:
	// Basic example: 4 random starts
}

// The success rates as data: the same value is drawn interactively by its
// Chart method and statically by plots.SuccessRatesPlot.
func ExampleStudySuccessRates() {
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes, cfg.Trials = []int{40}, 2
	res, err := experiments.RunStudy(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := figures.StudySuccessRates(res, 0.15, "(a)")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GroupName, s.Groups, s.Methods, s.Trials, "trials")
	fmt.Println(title(s.Chart()))
	// Output:
	// n [40] [GD GD+SOD] 2 trials
	// Fig. numerical_study (a): success rate, ε = 0.15
}

func ExampleSuccessRatesChart() {
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes, cfg.Trials = []int{40}, 2
	res, err := experiments.RunStudy(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.SuccessRatesChart(res, 0.15, "(a)")))
	fmt.Println(title(figures.StudyBundleChart(res, 40, 0.10, experiments.MethodGDSOD, 100, "(d)")))
	// Output:
	// Fig. numerical_study (a): success rate, ε = 0.15
	// Fig. numerical_study (d): GD+SOD, n = 40, ε = 0.10, 2 trials
}

func ExampleStudyBundleChart() {
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{40}, []float64{0.1}, 2
	res, err := experiments.RunStudy(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.StudyBundleChart(res, 40, 0.1, experiments.MethodGD, 100, "(c)")))
	fmt.Println(title(figures.StudyBundleChart(res, 50, 0.1, experiments.MethodGD, 100, "(c)")))
	// Output:
	// Fig. numerical_study (c): GD, n = 40, ε = 0.10, 2 trials
	// error: figures: parameter out of range: the study has no cell n = 50, ε = 0.1
}

func ExampleQNNLossesChart() {
	res, err := experiments.RunQNN(context.Background(), experiments.DefaultQNNConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title(figures.QNNLossesChart("Fig. quadratic_nn (a)", res.Optimizers, res.StallIter)))
	// Output:
	// Fig. quadratic_nn (a)
}

func ExampleQNNSummaryTable() {
	res, err := experiments.RunQNN(context.Background(), experiments.DefaultQNNConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	tab := figures.QNNSummaryTable(res)
	fmt.Println(tab.Caption)
	for _, r := range tab.Rows {
		fmt.Printf("%s | %s | %s | %q\n", r[0].Text, r[1].Text, r[2].Text, r[3].Text)
	}
	// Output:
	// Quadratic network: GD stagnates first at iteration 2587, h = 12.345762
	// GD | 12.345692 | 67% | ""
	// SGD | 3.351003 | 95% | ""
	// Adam | 12.345692 | 67% | ""
	// GD+SOD | 3.323945 | 96% | "no-descent, GD continued"
	// GD+SOD line search | 3.323945 | 96% | "no-descent, GD continued"
	// GD+random line search | 12.345692 | 67% | "no-descent, GD continued"
	// GD+negative-gradient line search | 12.345692 | 67% | "no-descent, GD continued"
}

func ExampleQNNScanTable() {
	opt := experiments.DefaultQNNScanConfig()
	opt.Starts = 3
	sc, err := experiments.RunQNNScan(context.Background(), opt, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	tab := figures.QNNScanTable("Width 1", sc)
	for _, r := range tab.Rows {
		fmt.Println(r[0].Text, "| h", r[3].Text, "| spurious", r[7].Text)
	}
	// Output:
	// 13 | h 12.34569 | spurious true
	// 14 | h 3.32395 | spurious false
	// 15 | h 3.32395 | spurious false
}

func ExampleVariantTable() {
	res, err := experiments.RunVariantComparison(context.Background(), experiments.DefaultVariantComparisonConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range figures.VariantTable(res.Rows).Rows {
		fmt.Println(r[0].Text, "|", r[1].Text, "|", r[6].Text)
	}
	// Output:
	// basic example | single-step SOD (δ=0.5000000000000002) | no-candidates
	// basic example | multi-step SOD (l=3, t=40, ρ=0.1, η=0.1) | solved
	// basic example | SOD line search (l=5, ρ=0.1, η=0.1) | solved
	// basic example | exact subspace SOD (l=5, t=1000, ρ=0.1, η=0.1) | solved
	// basic example | perturbed GD (r=0.1, t_thres=50, seed=1) | solved
	// basic example | random line search (seed=1) | solved
	// basic example | negative-gradient line search | no-descent
	// PMC n=3 ε=0.3 | single-step SOD (δ=0.9099999999999999) | no-candidates
	// PMC n=3 ε=0.3 | multi-step SOD (l=11, t=59000, ρ=0.1, η=0.1) | solved
	// PMC n=3 ε=0.3 | SOD line search (l=5, ρ=0.1, η=0.1) | solved
	// PMC n=3 ε=0.3 | exact subspace SOD (l=5, t=1000, ρ=0.1, η=0.1) | solved
	// PMC n=3 ε=0.3 | perturbed GD (r=0.1, t_thres=50, seed=1) | max-escapes
	// PMC n=3 ε=0.3 | random line search (seed=1) | no-descent
	// PMC n=3 ε=0.3 | negative-gradient line search | no-descent
	// real-world | single-step SOD (δ=0.8983515895547369) | no-candidates
	// real-world | multi-step SOD (l=5, t=150000, ρ=0.1, η=0.1) | no-descent
	// real-world | SOD line search (l=5, ρ=0.1, η=0.1) | solved
	// real-world | exact subspace SOD (l=5, t=1000, ρ=0.1, η=0.1) | no-descent
	// real-world | perturbed GD (r=0.1, t_thres=50, seed=1) | no-descent
	// real-world | random line search (seed=1) | no-descent
	// real-world | negative-gradient line search | solved
}

func ExampleVariantCurvesChart() {
	in := sod.RealWorldCase()
	vs := []sod.Escaper{&sod.MultiStepSOD{L: in.L, T: in.T, Rho: 0.1, Eta: 0.1}, &sod.NegGradLineSearch{}}
	fmt.Println(title(figures.VariantCurvesChart(context.Background(), in, vs, 150)))
	// Output:
	// real-world: h with one escape round, per variant
}

func ExampleExplorerControls() {
	for _, c := range figures.ExplorerControls() {
		fmt.Println(c.Name, c.Initial)
	}
	// Output:
	// case 0
	// l 5
	// t 150000
	// ρ 0.1
	// η 0.1
}

func ExampleExplorerInitial() {
	v := figures.ExplorerInitial()
	fmt.Println(v["l"], v["t"])
	// Output:
	// 5 150000
}

func ExampleExplorerChart() {
	fmt.Println(title(figures.ExplorerChart(figures.ExplorerInitial())))
	// Output:
	// Escape windows: real-world (printed x̂), ρ = 0.1, η = 0.1
}

// BenchMetricsTable turns the summaries of an escape benchmark into one
// family's table; BenchCurvesCharts gives its convergence bands and
// WriteBenchReport the whole offline page.
func ExampleBenchMetricsTable() {
	// run is a hand-made run: success or not, its gradient count and a
	// two-point trace from 1 to dist.
	run := func(method string, trial int, ok bool, grad int64, dist float64) *escapebench.TrialResult {
		r := &escapebench.TrialResult{Family: "paper", Instance: "paper #0", Method: method, Trial: trial,
			Outcome: sod.NoDescent, Success: ok, Rounds: 1, Dist: escapebench.OptFloat(dist),
			Trace: []escapebench.TracePoint{{Grad: 0, Dist: escapebench.OptFloat(1)}, {Grad: grad, Dist: escapebench.OptFloat(dist)}}}
		if ok {
			r.Outcome, r.Lowered = sod.Solved, 1
		}
		r.Cost.Grad = grad
		return r
	}
	runs := []*escapebench.TrialResult{
		run("sod-line-search", 0, true, 100, 1e-9),
		run("sod-line-search", 1, false, 300, 0.5),
		run("gd-alone", 0, false, 50, 1),
	}
	ss, err := escapebench.Summarize(runs)
	if err != nil {
		fmt.Println(err)
		return
	}
	tab, err := figures.BenchMetricsTable(ss, "paper")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Println(r[0].Text, "|", r[1].Text, "|", r[2].Text, "|", r[3].Text)
	}
	// Output:
	// sod-line-search | 1/2 | 50 % [9, 91] | 100
	// gd-alone | 0/1 | 0 % [0, 79] | —
}
