package sod_test

import (
	"context"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// Gradient descent on the paper's real-world case from the printed x̂
// converges to the nearby spurious minimum.
func ExampleGradientDescent() {
	p := sod.RealWorldProblem()
	res, err := sod.GradientDescent(context.Background(), p, sod.RealWorldXHat(), sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-12})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("converged=%v x=(%.6f, %.6f, %.6f) h=%.6f ‖XXᵀ−M*‖=%.4f\n",
		res.Stop == sod.StopConverged, res.X.At(0, 0), res.X.At(1, 0), res.X.At(2, 0), res.H, p.DistStar(res.X))
	// Output:
	// converged=true x=(0.223471, 0.091832, 0.598578) h=0.058289 ‖XXᵀ−M*‖=1.0362
}

// The quantities of section 3 at the printed real-world x̂, with the
// documented sign convention for u_n.
func ExampleAnalyzeCritical() {
	cp, err := sod.AnalyzeCritical(sod.RealWorldProblem(), sod.RealWorldXHat(), sod.CriticalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	u := cp.Un.RawVector().Data
	fmt.Printf("λ_n = %.5f, u_n = (%.5f, %.5f, %.5f)\n", cp.LambdaN, u[0], u[1], u[2])
	fmt.Printf("σ_r = %.5f, Euu = %.5f, Ξ² = %.5f, m = %d\n", cp.SigmaR, cp.Euu, cp.Xi2, cp.M)
	fmt.Printf("spurious: %v, local minimum: %v\n", cp.CheckSpurious(1e-3) == nil, cp.IsLocalMinimum(0))
	// Output:
	// λ_n = -0.13323, u_n = (-0.93577, 0.12392, 0.33013)
	// σ_r = 0.64540, Euu = 0.63338, Ξ² = 0.96423, m = 6
	// spurious: true, local minimum: true
}

// Single-step SOD on the real-world case: EFS is far below 1, so no escape
// is certified (REPRODUCTION.md F3).
func ExampleSingleStep() {
	s, err := sod.SingleStep(sod.RealWorldProblem(), sod.RealWorldXHat(), sod.SingleStepOptions{Delta: 0.81106})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("NCM = %.4f, AIC = %.4f, EFS = %.4f, feasible = %v\n", s.NCM, s.AIC, s.EFS, s.Feasible)
	fmt.Println(s.Verdict)
	// Output:
	// NCM = 0.1766, AIC = 0.0612, EFS = 0.2378, feasible = false
	// no escape: EFS = 0.2378 ≤ 1 and h does not decrease anywhere on X̂ + ρ u_n q_rᵀ
}

// RIP constants of the real-world operator: exact over all symmetric
// matrices, and optimised over rank-1 matrices.
func ExampleRIPExact() {
	op := sod.RealWorldOperator()
	full, err := sod.RIPExact(op)
	if err != nil {
		log.Fatal(err)
	}
	r1, err := sod.RIPOptimize(context.Background(), op, 1, 10, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("all symmetric: [%.5f, %.5f] δ = %.5f\n", full.MinRatio, full.MaxRatio, full.Delta)
	fmt.Printf("rank 1:        [%.5f, %.5f] δ = %.5f\n", r1.MinRatio, r1.MaxRatio, r1.Delta)
	// Output:
	// all symmetric: [0.10172, 1.89835] δ = 0.89835
	// rank 1:        [0.18894, 1.77207] δ = 0.81106
}

// The PMC operator of Appendix case 1 is elementwise; for n = 3 and
// ε = 0.3 the spurious minimum is ±√((1−ε²)/(1+ε²))(1, 0, −1).
func ExampleNewPMCOperator() {
	p, err := sod.PMCCaseStudyProblem(0.3)
	if err != nil {
		log.Fatal(err)
	}
	res, err := sod.GradientDescent(context.Background(), p, mat.NewDense(3, 1, []float64{1, 0, -1}), sod.GDOptions{Iteration: sod.Iteration{Step: 0.01, MaxIter: 20000}, GradTol: 1e-12})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("x = (%.6f, %.6f, %.6f), h = %.6f\n", res.X.At(0, 0), res.X.At(1, 0)+0, res.X.At(2, 0), res.H)
	// Output:
	// x = (0.913708, 0.000000, -0.913708), h = 0.330275
}

// An operator from explicit symmetric sensing matrices; invalid input is an
// error, not a panic.
func ExampleNewDenseOperator() {
	_, err := sod.NewDenseOperator([]*mat.Dense{mat.NewDense(2, 2, []float64{1, 2, 3, 4})})
	fmt.Println(err)
	op, err := sod.NewDenseOperator([]*mat.Dense{mat.NewDense(2, 2, []float64{1, 2, 2, 4})})
	if err != nil {
		log.Fatal(err)
	}
	y := make([]float64, 1)
	op.Apply(y, mat.NewDense(2, 2, []float64{1, 1, 1, 1}))
	fmt.Println(y)
	// Output:
	// sod: sensing matrix is not symmetric: A_0[0,1] = 2 but A_0[1,0] = 3
	// [9]
}

// The Paley–Zygmund bound of section 4.3 next to a seeded Monte Carlo
// estimate of the same event, P(AIC ≥ θ E[AIC]), written as P(EFS > 1)
// with NCM = 1 − θ E[AIC].
func ExamplePZBound() {
	const m, delta, theta = 10, 0.3, 0.5
	eAIC, _, err := sod.AICMoments(m, delta)
	if err != nil {
		log.Fatal(err)
	}
	bound, err := sod.PZBound(theta, m)
	if err != nil {
		log.Fatal(err)
	}
	mc, err := sod.MonteCarloEFS(context.Background(), 3, m, delta, 1-theta*eAIC, 20000, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PZ bound %.4f ≤ Monte Carlo %.3f ± %.3f\n", bound, mc.P, mc.StdErr)
	// Output:
	// PZ bound 0.0694 ≤ Monte Carlo 0.451 ± 0.004
}

// diagonalSensing is a user-defined operator: it measures the diagonal,
// A_i = e_i e_iᵀ.
type diagonalSensing struct{ n int }

func (d diagonalSensing) Dims() (n, m int) { return d.n, d.n }

func (d diagonalSensing) Apply(dst []float64, M mat.Matrix) {
	for i := range dst {
		dst[i] = M.At(i, i)
	}
}

func (d diagonalSensing) Adjoint(dst *mat.Dense, y []float64) {
	dst.Zero()
	for i, v := range y {
		dst.Set(i, i, v)
	}
}

// Any type with Dims, Apply and Adjoint can be used as an Operator; the
// package extracts sensing matrices through the adjoint when it needs them.
func ExampleOperator() {
	p, err := sod.NewProblem(diagonalSensing{n: 2}, mat.NewDense(2, 1, []float64{1, 2}), 1)
	if err != nil {
		log.Fatal(err)
	}
	res, err := sod.GradientDescent(context.Background(), p, mat.NewDense(2, 1, []float64{0.5, 0.5}), sod.GDOptions{Iteration: sod.Iteration{Step: 0.05, MaxIter: 2000}, GradTol: 1e-10})
	if err != nil {
		log.Fatal(err)
	}
	xi2, _ := sod.XiSquared(p.Op)
	fmt.Printf("x = (%.4f, %.4f), h < 1e-12: %v, Ξ² = %v\n", res.X.At(0, 0), res.X.At(1, 0), res.H < 1e-12, xi2)
	// Output:
	// x = (1.0000, 2.0000), h < 1e-12: true, Ξ² = 1
}

// The paper's three instances at their spurious points, with the (l, t) of
// their multi-step escape and the RIP constants they are evaluated with.
func ExamplePaperInstances() {
	for _, in := range sod.PaperInstances() {
		cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-14s h(X̂) = %.6f  λ_n = %+.4f  (l, t) = (%d, %d)  δ:", in.Name, cp.H, cp.LambdaN, in.L, in.T)
		for _, d := range in.Deltas {
			fmt.Printf(" %g (%s)", d.Delta, d.Label)
		}
		fmt.Println()
	}
	// Output:
	// basic example  h(X̂) = 0.375000  λ_n = -0.7500  (l, t) = (3, 40)  δ: 0.5 (exact)
	// PMC n=3 ε=0.3  h(X̂) = 0.330275  λ_n = -0.3303  (l, t) = (11, 59000)  δ: 0.455 (δ₁) 0.538 (paper's (1−ε)/(1+ε)) 0.91 (δ₂ = exact)
	// real-world     h(X̂) = 0.058289  λ_n = -0.1332  (l, t) = (5, 150000)  δ: 0.81106 (δ₁) 0.89834 (δ₂ = exact)
}

// The single-step point X̂ + ρ u_n q_rᵀ and the paper's "Case 1" point
// −X̂ + ρ u_n q_rᵀ at the minimiser ρ* of h along the line, on a Gaussian
// instance whose line contains descent points: with this sign of u_n the
// Case 1 point is the mirror point, where h rises.
func ExampleCriticalPoint_LinePoint() {
	in, err := sod.GaussianSpuriousInstance()
	if err != nil {
		log.Fatal(err)
	}
	s, err := sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), Critical: sod.CriticalOptions{FlipUn: true}})
	if err != nil {
		log.Fatal(err)
	}
	for _, sign := range []float64{1, -1} {
		x := s.CP.LinePoint(sign, s.Exact.BestRho)
		fmt.Printf("s = %+.0f: h = %.5f (h(X̂) = %.5f)\n", sign, in.P.H(x), s.HHat)
	}
	// Output:
	// s = +1: h = 0.00004 (h(X̂) = 0.01162)
	// s = -1: h = 0.92680 (h(X̂) = 0.01162)
}

// RunEscape escapes the real-world spurious minimum with SOD used as a
// descent-verified line search over the β and γ points (l = 5).
func ExampleRunEscape() {
	p := sod.RealWorldProblem()
	run, err := sod.RunEscape(context.Background(), p, sod.RealWorldXHat(), &sod.SODLineSearch{L: 5, Rho: 0.1, Eta: 0.1},
		sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 2000}, GradTol: 1e-10}, TargetH: 1e-16})
	if err != nil {
		log.Fatal(err)
	}
	e := run.Escapes[0]
	acc := e.Candidates[e.Accepted]
	fmt.Printf("stalled at h = %.5f; %d candidates, accepted %s with h = %.5f\n", e.HFrom, len(e.Candidates), acc.Label, acc.H)
	fmt.Printf("outcome: %s, ‖XXᵀ − M*‖ < 1e-8: %v\n", run.Outcome, p.DistStar(run.X) < 1e-8)
	// Output:
	// stalled at h = 0.05829; 66 candidates, accepted γ t=56234 with h = 0.05266
	// outcome: solved, ‖XXᵀ − M*‖ < 1e-8: true
}

// EscapeFunc writes a new escape variant in a few lines: here, the points
// c·E X̂ for a few scales c (a hand-made γ-direction line search).
func ExampleEscapeFunc() {
	esc := sod.EscapeFunc("E X̂ line", func(_ context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
		cp, err := st.Critical()
		if err != nil {
			return nil, err
		}
		var out []sod.Candidate
		for _, c := range []float64{0.5, 1.2, 1.4, 1.6} {
			var x mat.Dense
			x.Scale(c, cp.EX)
			out = append(out, sod.Candidate{X: &x, Label: fmt.Sprintf("c=%g", c)})
		}
		return out, nil
	})
	opt := sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 2000}, GradTol: 1e-10}, TargetH: 1e-16}
	run, err := sod.RunEscape(context.Background(), sod.RealWorldProblem(), sod.RealWorldXHat(), esc, opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range run.Escapes[0].Candidates {
		fmt.Printf("%-5s h = %.4f  lowers h: %v\n", c.Label, c.H, c.Descent)
	}
	fmt.Println("outcome:", run.Outcome)
	// Output:
	// c=0.5 h = 0.0836  lowers h: false
	// c=1.2 h = 0.0537  lowers h: true
	// c=1.4 h = 0.0533  lowers h: true
	// c=1.6 h = 0.0624  lowers h: false
	// outcome: solved
}

// LiftedSubspace evaluates h^l at the lift of the real-world spurious
// minimum, ŵ = vec(X̂)^{⊗5}, and at w_escape = ŵ + ρ vec(u_n)^{⊗5}.
func ExampleLiftedSubspace() {
	p := sod.RealWorldProblem()
	cp, err := sod.AnalyzeCritical(p, sod.RealWorldXHat(), sod.CriticalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	un := mat.NewDense(3, 1, cp.Un.RawVector().Data)
	s, err := sod.NewLiftedSubspace(p.Op, p.B, 5, cp.X, un)
	if err != nil {
		log.Fatal(err)
	}
	h0, _ := s.Objective([]float64{1, 0})
	h1, _ := s.Objective([]float64{1, 0.1})
	fmt.Printf("h^5(ŵ) = %.6g\nh^5(w_escape) = %.6g\n", h0, h1)
	// Output:
	// h^5(ŵ) = 0.000245899
	// h^5(w_escape) = 0.000252295
}

// SubspacePGD compares, on the real-world case with l = 5 and ρ = η = 0.1,
// the exact PGD coefficients inside S = span{a, b, c} after 1000 steps
// with the paper's closed form at the same t.
func ExampleSubspacePGD() {
	p := sod.RealWorldProblem()
	cp, err := sod.AnalyzeCritical(p, sod.RealWorldXHat(), sod.CriticalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	s, err := sod.NewPaperSubspace(p, cp, 5)
	if err != nil {
		log.Fatal(err)
	}
	pgd, err := sod.NewSubspacePGD(s, 0.1)
	if err != nil {
		log.Fatal(err)
	}
	tr, err := pgd.Run(context.Background(), []float64{1, 0.1, 0}, 1000, 1000)
	if err != nil {
		log.Fatal(err)
	}
	last := tr.Coef[len(tr.Coef)-1]
	fmt.Printf("exact:       α = %.6f  β = %.6f  γ = %.6g  h^l = %.6g\n", last[0], last[1], last[2], tr.HL[len(tr.HL)-1])
	cf, err := sod.NewTPGDFromCritical(cp, 5, 0.1, 0.1)
	if err != nil {
		log.Fatal(err)
	}
	a, b, g, _ := cf.Coefficients(1000)
	fmt.Printf("closed form: α = %.6f  β = %.6f  γ = %.6g\n", a.Float(), b.Float(), g.Float())
	// Output:
	// exact:       α = 0.918049  β = 0.074275  γ = 0.282117  h^l = 0.000249294
	// closed form: α = 1.000000  β = 0.100421  γ = -0.0701334
}

// TPGDClosedForm evaluates the paper's closed form on the real-world case
// (λ_n, σ_r, ‖X̂‖, ‖E X̂‖ at the printed X̂), l = 5, ρ = η = 0.1.
func ExampleTPGDClosedForm() {
	in := sod.TPGDInputs{LambdaN: -0.1332331451761271, SigmaR: 0.6453968159202523,
		NormX: 0.6453968159202523, NormEX: 0.5381297008272679}
	cf, err := sod.NewTPGDClosedForm(in, 5, 0.1, 0.1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ρ_min = %.3f\nU_β = %v\nU_γ = %v\n", cf.RhoMin(), cf.UBeta(), cf.UGamma())
	for _, t := range []int64{5000, 33500, 100000} {
		_, beta, gamma, _ := cf.Coefficients(t)
		fmt.Printf("t=%d: %v-type, β̃ = %.4g, γ̃ = %.4g\n", t, cf.Select(t), beta.Float(), gamma.Float())
	}
	// Output:
	// ρ_min = 0.097
	// U_β = (26948.72, 33974.73)
	// U_γ = (33974.73, +Inf)
	// t=5000: none-type, β̃ = 0.1021, γ̃ = -0.3536
	// t=33500: β-type, β̃ = 0.1151, γ̃ = -2.517
	// t=100000: γ-type, β̃ = 0.1522, γ̃ = -8.697
}
