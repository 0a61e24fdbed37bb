package experiments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
)

// The paper's ablation table for l = 7 (real-world case, ρ = η = 0.1).
func ExampleRunAblation() {
	cfg := experiments.DefaultAblationConfig()
	cfg.Ls = []int{7}
	cfg.Ts = []int64{5000, 2000000}
	res, err := experiments.RunAblation(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	row := res.Rows[0]
	fmt.Printf("l=%d ρ_min=%.3f U_β=%v U_γ=%v\n", row.L, row.RhoMin, row.UBeta, row.UGamma)
	for _, c := range row.Cells {
		fmt.Printf("t=%d %s d̂=%.3f d*=%.3f ratio=%.3f final=%s descent=%v\n", c.T, c.Kind, c.DHat, c.DStar, c.Ratio, c.Final, c.Descent)
	}
	// Output:
	// l=7 ρ_min=0.043 U_β=(0.00, 1093342.41) U_γ=(1093342.41, +Inf)
	// t=5000 β d̂=0.665 d*=0.601 ratio=1.106 final=- descent=false
	// t=2000000 γ d̂=0.754 d*=0.461 ratio=1.634 final=+ descent=true
}

func ExampleRunBasicExample() {
	r, err := experiments.RunBasicExample(context.Background(), experiments.DefaultBasicExampleConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range r.Paths[:3] {
		fmt.Printf("%-6s ends at (%.3f, %.3f)\n", p.Method, p.X[len(p.X)-1], p.Y[len(p.Y)-1])
	}
	// Output:
	// GD     ends at (0.060, -0.702)
	// GD+SOD ends at (1.000, 0.000)
	// SGD    ends at (0.000, -0.537)
}

// The three runs of Fig. basic_example from (0.05, 1).
func ExampleRunBasicFromStart() {
	r, err := experiments.RunBasicFromStart(context.Background(), experiments.DefaultBasicFromStartConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	sgd := r.SGDX[len(r.SGDX)-1]
	fmt.Printf("GD:       ‖xxᵀ − M*‖ = %.4f\n", r.P.DistStar(r.GD.X))
	fmt.Printf("SGD:      ‖xxᵀ − M*‖ = %.4f\n", r.P.DistStar(sgd))
	fmt.Printf("GD + SOD: ‖xxᵀ − M*‖ < 1e-12: %v (%s)\n", r.P.DistStar(r.SOD.X) < 1e-12, r.SOD.Outcome)
	// Output:
	// GD:       ‖xxᵀ − M*‖ = 1.1166
	// SGD:      ‖xxᵀ − M*‖ = 1.2322
	// GD + SOD: ‖xxᵀ − M*‖ < 1e-12: true (solved)
}

// The PMC case study (Fig. "exp2") with the paper's settings.
func ExampleRunCaseStudy() {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.PMCCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	n := len(r.Dist)
	fmt.Printf("X̂ = %.4f, h(X̂) = %.4f, %s-type escape, h(X̌) = %.4f\n", r.XHat, r.HHat, r.Kind, r.HCheck)
	fmt.Printf("‖XXᵀ−M*‖: %.3f before, %.4f after %d more steps\n", r.Dist[r.EscapeAt-1], r.Dist[n-1], r.Iter[n-1]-r.Iter[r.EscapeAt])
	// Output:
	// X̂ = [-0.9136 0.0000 0.9138], h(X̂) = 0.3303, γ-type escape, h(X̌) = 0.0762
	// ‖XXᵀ−M*‖: 2.605 before, 0.0053 after 1000 more steps
}

// GD's success rate on PMC, n = 3, from 10 starts, as δ = 1 − ε² grows.
func ExampleRunDeltaSweep() {
	cfg := experiments.DefaultDeltaSweepConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{3}, []float64{1, 0.3, 0.05}, 10
	res, err := experiments.RunDeltaSweep(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for j := range cfg.Epsilons {
		fmt.Printf("δ = %.4f: success rate %.1f\n", res.Delta[0][j], res.Rate[0][j])
	}
	// Output:
	// δ = 0.0000: success rate 1.0
	// δ = 0.9100: success rate 0.8
	// δ = 0.9975: success rate 0.5
}

// The floors of h along the two SOD lines at the default quadratic network's spurious minimum:
// both below h(Ŵ), so some SOD escape point lowers h there.
func ExampleSODFloors() {
	opt := experiments.DefaultQNNScanConfig()
	opt.Starts = 1
	cfg := opt.QNN
	sc, err := experiments.RunQNNScan(context.Background(), opt, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := experiments.QNNProblem(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, r := p.Dims()
	beta, gamma, cp, err := experiments.SODFloors(p, mat.NewDense(n, r, sc.Minima[0].X))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("h(Ŵ) = %.4f; min h on the β line %.4f, on the γ line %.4f\n", cp.H, beta, gamma)
	// Output:
	// h(Ŵ) = 12.3457; min h on the β line 7.3676, on the γ line 7.1172
}

// The floor of the basic example's h along e₁ is 0, at z = e₁.
func ExampleLineFloor() {
	f, err := experiments.LineFloor(sod.BasicExampleProblem(), mat.NewDense(2, 1, []float64{1, 0}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.6f\n", f)
	// Output:
	// 0.000000
}

// The same quadratic network on z-score features: halve the measurement weights, keep the bias.
func ExampleScaleMeasurements() {
	w, err := experiments.ScaleMeasurements([]float64{0.2, -0.4, 0.6, 0.8, 1}, 5, 1, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.RawMatrix().Data)
	// Output:
	// [0.1 -0.2 0.3 0.4 1]
}

// The Paley–Zygmund bound against the probability it bounds, at the edges of the band.
func ExampleRunPZCurve() {
	cfg := experiments.DefaultPZCurveConfig()
	cfg.Points, cfg.Samples = 5, 1000
	res, err := experiments.RunPZCurve(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("r₁ = %.4f, r₂ = %.4f\n", res.R1, res.R2)
	for i, d := range res.D {
		fmt.Printf("D = %.3f: bound %.4f, Monte Carlo %.3f\n", d, res.Bound[i], res.MC[i])
	}
	// Output:
	// r₁ = 5.7333, r₂ = 6.0000
	// D = 5.573: bound 0.0000, Monte Carlo 0.199
	// D = 5.707: bound 0.0000, Monte Carlo 0.268
	// D = 5.840: bound 0.0444, Monte Carlo 0.399
	// D = 5.973: bound 0.2250, Monte Carlo 0.743
	// D = 6.107: bound 1.0000, Monte Carlo 1.000
}

// The quadratic network with the documented defaults: GD stalls at a
// spurious minimum and one SOD escape leaves it.
func ExampleRunQNN() {
	res, err := experiments.RunQNN(context.Background(), experiments.DefaultQNNConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("GD stagnates at step %d, h = %.3f\n", res.StallIter, res.StallH)
	for _, c := range res.Optimizers {
		fmt.Printf("%-7s final h = %.3f, accuracy %.2f\n", c.Name, c.FinalH, c.Accuracy)
	}
	e := res.Searches[0].Escapes[0]
	fmt.Printf("SOD escape at step %d: h %.3f → %.3f (%s)\n", e.Iter, e.HHat, e.HCheck, e.Label)
	// Output:
	// GD stagnates at step 2587, h = 12.346
	// GD      final h = 12.346, accuracy 0.67
	// SGD     final h = 3.351, accuracy 0.95
	// Adam    final h = 12.346, accuracy 0.67
	// GD+SOD  final h = 3.324, accuracy 0.96
	// SOD escape at step 2587: h 12.346 → 7.183 (γ t=1)
}

// The width-2 network without the bias: GD ends at a spurious minimum
// from some starts, but no SOD escape point (any l, t, ρ, η) lowers h there.
func ExampleRunQNNScan() {
	cfg := experiments.DefaultQNNConfig()
	cfg.NoBias, cfg.Width, cfg.InitScale, cfg.Step, cfg.Seed = true, 2, 0.1, 0.002, 1
	res, err := experiments.RunQNNScan(context.Background(), experiments.QNNScanConfig{QNN: cfg, Starts: 4}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("lowest h %.4f\n", res.BestH)
	for _, m := range res.Minima {
		fmt.Printf("seed %d: h = %.4f spurious %-5v best SOD points: β %.2f, γ %.2f\n", m.Seed, m.H, m.Spurious, m.BetaBest, m.GammaBest)
	}
	// Output:
	// lowest h 11.8262
	// seed 1: h = 11.9817 spurious true  best SOD points: β 19.70, γ 19.58
	// seed 2: h = 11.8262 spurious false best SOD points: β 21.01, γ 20.39
	// seed 3: h = 11.8262 spurious false best SOD points: β 21.01, γ 20.39
	// seed 4: h = 11.9817 spurious true  best SOD points: β 19.70, γ 19.58
}

// A small version of the study (the full one is DefaultStudyConfig).
func ExampleRunStudy() {
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes = []int{16}
	cfg.Epsilons = []float64{0.10}
	cfg.Trials = 10
	res, err := experiments.RunStudy(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Cells {
		fmt.Printf("n=%d ε=%.2f: GD %d/%d, GD+SOD %d/%d\n", c.N, c.Eps, c.GDSuccesses, len(c.Trials), c.SODSuccesses, len(c.Trials))
	}
	// Output:
	// n=16 ε=0.10: GD 0/10, GD+SOD 10/10
}

// A study saved by one notebook cell and read back by the next.
func ExampleSaveStudy() {
	cfg := experiments.DefaultStudyConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{40}, []float64{0.1}, 2
	res, err := experiments.RunStudy(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	path := filepath.Join(os.TempDir(), "sod-example-study.gob")
	defer os.Remove(path)
	if err := experiments.SaveStudy(path, res); err != nil {
		fmt.Println(err)
		return
	}
	back, err := experiments.LoadStudy(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := back.Cell(40, 0.1)
	fmt.Printf("n = %d, ε = %.2f: GD %d/2, GD + SOD %d/2\n", c.N, c.Eps, c.GDSuccesses, c.SODSuccesses)
	// Output:
	// n = 40, ε = 0.10: GD 0/2, GD + SOD 2/2
}

// The configuration of the quadratic-network experiment, in three lines.
func ExampleQNNConfig_Summary() {
	fmt.Println(experiments.DefaultQNNConfig().Summary())
	// Output:
	// features "standardized/2", no bias: false, ±1 targets: false; width 1, W₀ = 1·N(0, I) from seed 13
	// GD step 0.001 for 10000 steps; stagnation: relative decrease < 1e-05 over 200 steps; SGD batch 10; Adam step 0.01
	// SOD line search: l = 3, ρ = 0.1, η = 0.1 capped by GrowthQ = 2; at most 3 escapes
}

// Where the PMC case study's closed form and exact PGD are below h^l(ŵ).
func ExampleLiftedPanels_BelowReference() {
	r, err := experiments.RunCaseStudy(context.Background(), experiments.PMCCaseStudyConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	cf, cl, ef, el := r.Lifted.BelowReference()
	fmt.Printf("closed form below for t in [%g, %g], exact PGD for t in [%g, %g]\n", cf, cl, ef, el)
	// Output:
	// closed form below for t in [1, 20670], exact PGD for t in [1, 59000]
}

// The paper's multi-step SOD and the SOD line search from the real-world spurious point.
func ExampleRunVariantComparison() {
	cfg := experiments.DefaultVariantComparisonConfig()
	cfg.Instances = sod.PaperInstances()[2:]
	cfg.Variants = func(in sod.Instance) ([]sod.Escaper, error) {
		return experiments.DefaultVariants(in, 0.89834)[1:3], nil
	}
	res, err := experiments.RunVariantComparison(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rows {
		fmt.Printf("%s: %d candidates, %d lower h, outcome %s\n", r.Variant, r.Candidates, r.Lowering, r.Run.Outcome)
	}
	// Output:
	// multi-step SOD (l=5, t=150000, ρ=0.1, η=0.1): 1 candidates, 0 lower h, outcome no-descent
	// SOD line search (l=5, ρ=0.1, η=0.1): 132 candidates, 6 lower h, outcome solved
}

// The built-in variants on the basic example, single-step SOD given its exact RIP constant.
func ExampleExactRIPVariants() {
	vs, err := experiments.ExactRIPVariants(sod.BasicExample())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range vs {
		fmt.Println(v.Name())
	}
	// Output:
	// single-step SOD (δ=0.5000000000000002)
	// multi-step SOD (l=3, t=40, ρ=0.1, η=0.1)
	// SOD line search (l=5, ρ=0.1, η=0.1)
	// exact subspace SOD (l=5, t=1000, ρ=0.1, η=0.1)
	// perturbed GD (r=0.1, t_thres=50, seed=1)
	// random line search (seed=1)
	// negative-gradient line search
}

// The windows of the paper's Fig. ablation for l = 3, …, 11 on the real-world case.
func ExampleRunEscapeWindows() {
	cfg := experiments.DefaultAblationConfig()
	cfg.Ls = []int{3, 5, 7, 9, 11}
	res, err := experiments.RunEscapeWindows(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range res.Rows {
		fmt.Printf("l = %2d: ρ_min = %.3f, U_β = %s, U_γ = %s\n", row.L, row.RhoMin, row.UBetaS, row.UGamS)
	}
	// Output:
	// l =  3: ρ_min = 0.208, U_β = ∅, U_γ = (2006.17, +Inf)
	// l =  5: ρ_min = 0.097, U_β = (26948.72, 33974.73), U_γ = (33974.73, +Inf)
	// l =  7: ρ_min = 0.043, U_β = (0.00, 1093342.41), U_γ = (1093342.41, +Inf)
	// l =  9: ρ_min = 0.019, U_β = (0.00, 35646363.46), U_γ = (35646363.46, +Inf)
	// l = 11: ρ_min = 0.008, U_β = (0.00, 1170586669.70), U_γ = (1170586669.70, +Inf)
}
