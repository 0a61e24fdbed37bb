package exercises

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/experiments"
)

// catalog returns every exercise by id. The expected values are computed
// with the library each time an answer is checked.
func catalog() map[string]exercise {
	m := map[string]exercise{}
	for _, ex := range []exercise{
		// 00 · Welcome
		{id: "00.1", asks: "h(x̂ + 0.5·e₁), a number", check: func(a any) (string, error) {
			want := sod.BasicExampleProblem().H(col(0.5, 1/math.Sqrt2))
			return near(a, want, 1e-6, "h(x̂ + r·e₁) = (r⁴ + 3/4)/2 and r⁴ = 0.0625")
		}},
		// 01 · Matrix sensing and RIP
		{id: "01.1", asks: "the RIP constant δ of the basic example over all symmetric M", check: func(a any) (string, error) {
			e, err := sod.RIPExact(sod.BasicExampleOperator())
			if err != nil {
				return "", err
			}
			return remark(near(a, e.Delta, 1e-6, "the off-diagonal part gives the ratio 3/2; for the diagonal part find the eigenvalues of [[1, ½], [½, 1]]"))(
				fmt.Sprintf("δ = %.4f (ratio range [%.2f, %.2f])", e.Delta, e.MinRatio, e.MaxRatio))
		}},
		{id: "01.2", asks: "the scale a of the PMC spurious minimum a·(1, 0, −1), 4 decimals", check: func(a any) (string, error) {
			want, h, err := pmcRayMinimum(0.3, col(1, 0, -1))
			if err != nil {
				return "", err
			}
			return remark(near(a, want, 1e-4, "h(a(1,0,−1)) = ½[2(a² − 1)² + 2ε²(a² + 1)²]; set its derivative in a² to zero"))(
				fmt.Sprintf("GD from (1, 0, −1) converges to %.6f·(1, 0, −1), h = %.6f", want, h))
		}},
		// 02 · Single-step SOD
		{id: "02.1", asks: "the EFS of the basic example with δ = 1/2", check: func(a any) (string, error) {
			s, err := sod.SingleStep(sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.SingleStepOptions{Delta: 0.5})
			if err != nil {
				return "", err
			}
			return remark(near(a, s.EFS, 1e-6, "NCM = −λ_n/(σ_r²(1+δ)) = (3/4)/((1/2)(3/2))"))(
				fmt.Sprintf("NCM = %.4f, AIC = %.4f, EFS = %.4f: exactly on the boundary Δ = 0, no certified escape", s.NCM, s.AIC, s.EFS))
		}},
		{id: "02.2", asks: "the sign of the roots ρ̂₁ < ρ̂₂: +1 or −1", check: func(a any) (string, error) {
			// The roots of C₁ρ² + C₂ρ + C₃ for coefficients with C₂ > 0, C₃ > 0 and Δ > 0.
			c1, c2, c3 := 1.6, 2.0, 0.4
			d := math.Sqrt(c2*c2 - 4*c1*c3)
			r1, r2 := (-c2-d)/(2*c1), (-c2+d)/(2*c1)
			want := int64(math.Copysign(1, r2))
			if math.Signbit(r1) != math.Signbit(r2) {
				return "", fmt.Errorf("internal: roots %v, %v of different signs", r1, r2)
			}
			got, err := integer(a)
			if err != nil {
				return "", err
			}
			if got != want {
				return "", fmt.Errorf("not quite: the product C₃/C₁ > 0 says the roots have the same sign, and their sum −C₂/C₁ is negative")
			}
			return fmt.Sprintf("both roots are negative (C = (%.1f, %.1f, %.1f) gives ρ̂ ∈ (%.3f, %.3f)): use X̂ + ρ̂ u qᵀ with ρ̂ < 0, not −X̂ + ρ̂ u qᵀ", c1, c2, c3, r1, r2), nil
		}},
		// 03 · Paley–Zygmund
		{id: "03.1", asks: "the Paley–Zygmund bound for m = 10, θ = 0.5, 4 decimals", check: func(a any) (string, error) {
			want, err := sod.PZBound(0.5, 10)
			if err != nil {
				return "", err
			}
			return remark(near(a, want, 5e-5, "(1 − 0.5)² = 0.25 and m/(3(m+2)) = 10/36"))(
				fmt.Sprintf("%.4f; the Monte Carlo probability at the same θ is several times larger", want))
		}},
		{id: "03.2", asks: "r₂ of the real-world case with δ₁ = 0.81106, 2 decimals", check: func(a any) (string, error) {
			cp, err := sod.AnalyzeCritical(sod.RealWorldProblem(), sod.RealWorldXHat(), sod.CriticalOptions{SkipHessian: true})
			if err != nil {
				return "", err
			}
			_, r2, err := sod.Radii(0.81106, cp.SigmaR, 1, cp.M)
			if err != nil {
				return "", err
			}
			return remark(near(a, r2, 0.01, "r₂ = 2(1+δ)/(1−δ)·σ_r²·Tr(M*)"))(
				fmt.Sprintf("r₂ = %.4f, so r₂/2 = %.2f > ‖X̂X̂ᵀ − M*‖² = %.4f: the strict-saddle band of section 5 fails", r2, r2/2, cp.Dist*cp.Dist))
		}},
		// 04 · Tensor lifting and TPGD
		{id: "04.1", asks: "the number of entries of w = vec(X)^{⊗l} for n = 3, r = 1, l = 11", check: func(a any) (string, error) {
			want := int64(1)
			for range 11 {
				want *= 3 * 1
			}
			got, err := integer(a)
			if err != nil {
				return "", err
			}
			if got != want {
				return "", fmt.Errorf("not quite: %d. Hint: vec(X) has nr entries, and w is its l-fold outer product", got)
			}
			bytes, _ := sod.ExplicitBytes(3, 1, 6, 11) // constant valid sizes
			return fmt.Sprintf("(nr)^l = 3¹¹ = %d; the lifted operator would need %.3g bytes (sod.ExplicitBytes), the simulation a few m-vectors",
				want, bytes), nil
		}},
		{id: "04.2", asks: "β̃(t) = ρ(1 − ηλ_n^l)^t at t = 100 for the basic example, l = 3, ρ = η = 0.1 (3 significant digits)", check: func(a any) (string, error) {
			cf, err := basicClosedForm()
			if err != nil {
				return "", err
			}
			_, beta, _, err := cf.Coefficients(100)
			if err != nil {
				return "", err
			}
			want := beta.Float()
			return remark(near(a, want, 0.005*want, "λ_n³ = −27/64, so Q = 1 + 0.1·27/64"))(
				fmt.Sprintf("β̃(100) = %.4f; Q = %.7f", want, math.Exp(cf.LogQ())))
		}},
		// 05 · The basic example
		{id: "05.1", asks: "the real t at which the β-type escape point c_β(t)·e₁ lands on z = e₁", check: func(a any) (string, error) {
			t, err := number(a)
			if err != nil {
				return "", err
			}
			cf, err := basicClosedForm()
			if err != nil {
				return "", err
			}
			if !(t > 0 && t < 1e9) {
				return "", fmt.Errorf("not quite: t must be a positive number of steps (got %v)", t)
			}
			lo := int64(math.Floor(t))
			clo, err := cf.BetaScale(lo)
			if err != nil {
				return "", err
			}
			chi, err := cf.BetaScale(lo + 1)
			if err != nil {
				return "", err
			}
			switch {
			case chi < 1:
				return "", fmt.Errorf("too small: c_β(%d) = %.4f < 1. Hint: solve ρ^{1/l} Q^{t/l} = 1 for t", lo+1, chi)
			case clo > 1:
				return "", fmt.Errorf("too large: c_β(%d) = %.4f > 1. Hint: log Q = log(1 + 0.1·0.75³)", lo, clo)
			}
			return fmt.Sprintf("c_β(%d) = %.4f and c_β(%d) = %.4f bracket 1", lo, clo, lo+1, chi), nil
		}},
		{id: "05.2", asks: "c_lo, the lower end of the c > 0 with h(c·e₁) < h(x̂) = 3/8", check: func(a any) (string, error) {
			c, err := number(a)
			if err != nil {
				return "", err
			}
			p := sod.BasicExampleProblem()
			h := p.H(col(c, 0))
			if !(c > 0 && c < 1) || math.Abs(h-3.0/8) > 1e-4 {
				return "", fmt.Errorf("not quite: h(%.4f·e₁) = %.6f, want 3/8 at the lower end (0 < c_lo < 1). Hint: (c² − 1)² = 3/4", c, h)
			}
			return fmt.Sprintf("h(%.4f·e₁) = %.6f = 3/8", c, h), nil
		}},
		// 06 · PMC
		{id: "06.1", asks: "the first entry of ∇h(1, 0, −1) for PMC ε = 0.3", check: func(a any) (string, error) {
			p, err := sod.PMCCaseStudyProblem(0.3)
			if err != nil {
				return "", err
			}
			g := mat.NewDense(3, 1, nil)
			p.Grad(g, col(1, 0, -1))
			want := g.At(0, 0)
			if v, err := number(a); err == nil && math.Abs(v+want) < 1e-6 {
				return "", fmt.Errorf("right size, wrong sign. Hint: (xxᵀ − zzᵀ)₁₃ = −1 − 1 = −2")
			}
			return remark(near(a, want, 1e-6, "only the unobserved entries (1,3), (3,1) of xxᵀ − zzᵀ are non-zero; they carry the weight ε² = 0.09"))(
				fmt.Sprintf("%.4f, so (1, 0, −1) is not a critical point", want))
		}},
		{id: "06.2", asks: "the scale a > 0 of the spurious minimum a·(1, 0, −1) for ε = 0.2", check: func(a any) (string, error) {
			want, _, err := pmcRayMinimum(0.2, col(0.5, 0, -0.5))
			if err != nil {
				return "", err
			}
			return remark(near(a, want, 1e-4, "differentiate with respect to s = a²"))(fmt.Sprintf("GD converges to %.6f·(1, 0, −1)", want))
		}},
		// 07 · Real-world case and the ablation table
		{id: "07.1", asks: "{l, t} of the ablation-table cell whose escape point lowers h", check: checkAblationCell},
		{id: "07.2", asks: "ρ_min for l = 3 on the real-world case", check: func(a any) (string, error) {
			cp, err := sod.AnalyzeCritical(sod.RealWorldProblem(), sod.RealWorldXHat(), sod.CriticalOptions{SkipHessian: true})
			if err != nil {
				return "", err
			}
			cf, err := sod.NewTPGDFromCritical(cp, 3, 0.1, 0.1)
			if err != nil {
				return "", err
			}
			want := cf.RhoMin()
			return remark(near(a, want, 5e-4, fmt.Sprintf("K₃ = ½·(2·%.4f/(%.4f·%.4f))³", -cp.LambdaN, cp.SigmaR, cp.EXNorm)))(
				fmt.Sprintf("ρ_min = %.4f > ρ = 0.1, so U_β = ∅ for l = 3 (the table's first row)", want))
		}},
		// 08 · Success rates
		{id: "08.1", asks: "the number of spurious sign patterns for n = 5", check: func(a any) (string, error) {
			want, err := spuriousPatterns(5, 0.1)
			if err != nil {
				return "", err
			}
			got, err := integer(a)
			if err != nil {
				return "", err
			}
			if got != int64(want) {
				return "", fmt.Errorf("not quite: %d. Hint: three odd entries, and one sign is fixed by the global sign", got)
			}
			return fmt.Sprintf("GD stalls at a spurious solution from %d patterns (2^(⌈n/2⌉−1) − 1 = %d)", want, 1<<2-1), nil
		}},
		{id: "08.2", asks: "the study's GD step at n = 60", check: func(a any) (string, error) {
			scale := experiments.DefaultStudyConfig().StepScale
			return remark(near(a, scale/60, 1e-6, fmt.Sprintf("η = StepScale/n with StepScale = %g", scale)))(fmt.Sprintf("η = %.6f", scale/60))
		}},
		// 09 · Quadratic network
		{id: "09.1", asks: "the network output f(x) = ‖Wᵀx‖²", check: func(a any) (string, error) {
			op, err := sod.NewDataPointsOperator(mat.NewDense(1, 5, []float64{0.5, -1, 2, 0, 1}))
			if err != nil {
				return "", err
			}
			W := mat.NewDense(5, 2, []float64{1, 0, 0, 1, 0, 0, 0, 0, 0, 0})
			var M mat.Dense
			M.Mul(W, W.T())
			out := make([]float64, 1)
			op.Apply(out, &M)
			return remark(near(a, out[0], 1e-9, "Wᵀx keeps the first two entries of x"))(fmt.Sprintf("𝒜(WWᵀ) = %g", out[0]))
		}},
		{id: "09.2", asks: "the smallest possible loss of 50 flowers labelled −1", check: func(a any) (string, error) {
			// ½(f + 1)² over outputs f ≥ 0, minimised on a fine grid, times 50.
			best := math.Inf(1)
			for f := 0.0; f <= 2; f += 1e-4 {
				best = math.Min(best, 0.5*(f+1)*(f+1))
			}
			return remark(near(a, 50*best, 1e-6, "the best output for a −1 target is f = 0"))(
				fmt.Sprintf("%.1f: a floor no training can go below, which is why the classes are coded 1 and 0", 50*best))
		}},
		{id: "09.3", asks: "the factor k for the measurement rows of W (bias row kept)", check: checkFeatureScale},
		// 10 · Prototype your escape
		{id: "10.1", asks: "an escape variant proposing X̂ + ρ u_n q_rᵀ", run: runMyLine, judge: judgeMyLine},
		{id: "10.2", asks: "1 or 2: which point has the loss of the Case 1 point −X̂ + ρ̂ u qᵀ", check: func(a any) (string, error) {
			got, err := integer(a)
			if err != nil {
				return "", err
			}
			p := sod.RealWorldProblem()
			cp, err := sod.AnalyzeCritical(p, sod.RealWorldXHat(), sod.CriticalOptions{SkipHessian: true})
			if err != nil {
				return "", err
			}
			const rho = 0.3
			hCase1, hPlus, hMinus := p.H(cp.LinePoint(-1, rho)), p.H(cp.LinePoint(1, rho)), p.H(cp.LinePoint(1, -rho))
			want := int64(2)
			if math.Abs(hCase1-hPlus) < math.Abs(hCase1-hMinus) {
				want = 1
			}
			if got != want {
				return "", fmt.Errorf("not quite: h(−X̂ + ρuqᵀ) = %.6f, h(X̂ + ρuqᵀ) = %.6f, h(X̂ − ρuqᵀ) = %.6f (ρ = %g)", hCase1, hPlus, hMinus, rho)
			}
			return fmt.Sprintf("h(−X̂ + ρuqᵀ) = %.6f = h(X̂ − ρuqᵀ); h(X̂ + ρuqᵀ) = %.6f: Case 1 is the mirror point", hCase1, hPlus), nil
		}},
		// 11 · Benchmark your escape
		{id: "11.1", asks: "the smallest n for which n successes in n trials give a 95 % Wilson lower end ≥ 0.9", check: func(a any) (string, error) {
			got, err := integer(a)
			if err != nil {
				return "", err
			}
			want := 1
			for lo, _, _ := escapebench.Wilson(want, want); lo < 0.9; lo, _, _ = escapebench.Wilson(want, want) {
				want++
			}
			if got != int64(want) {
				lo, _, _ := escapebench.Wilson(int(max(1, min(got, 1e6))), int(max(1, min(got, 1e6))))
				return "", fmt.Errorf("not quite: %d/%d gives a lower end %.4f. Hint: at p̂ = 1 the lower end is n/(n + z²), z = 1.96", got, got, lo)
			}
			lo20, _, _ := escapebench.Wilson(20, 20)
			return fmt.Sprintf("n ≥ 9z² = %.2f, so n = %d; 20/20 only gives a lower end %.3f", 9*1.959963984540054*1.959963984540054, want, lo20), nil
		}},
	} {
		m[ex.id] = ex
	}
	return m
}

// remark returns a function that attaches a remark to a successful check.
func remark(_ string, err error) func(string) (string, error) {
	return func(r string) (string, error) {
		if err != nil {
			return "", err
		}
		return r, nil
	}
}

func col(v ...float64) *mat.Dense { return mat.NewDense(len(v), 1, v) }

// basicClosedForm is the closed-form TPGD of the basic example at x̂ with l = 3, ρ = η = 0.1.
func basicClosedForm() (*sod.TPGDClosedForm, error) {
	cp, err := sod.AnalyzeCritical(sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.CriticalOptions{SkipHessian: true})
	if err != nil {
		return nil, err
	}
	return sod.NewTPGDFromCritical(cp, 3, 0.1, 0.1)
}

// pmcRayMinimum runs GD from x0 on PMCCaseStudyProblem(eps) and returns the first entry of the limit
// (the scale a of a·(1, 0, −1)) and h there: an independent route to the minimum on the ray.
func pmcRayMinimum(eps float64, x0 *mat.Dense) (a, h float64, err error) {
	p, err := sod.PMCCaseStudyProblem(eps)
	if err != nil {
		return 0, 0, err
	}
	res, err := sod.GradientDescent(context.Background(), p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.05, MaxIter: 20000}, GradTol: 1e-12})
	if err != nil {
		return 0, 0, err
	}
	return res.X.At(0, 0), res.H, nil
}

// spuriousPatterns counts the sign patterns (1, 0, ±1, 0, ±1, …) (x₁ = +1 fixes the global
// sign) from which GD on the study's PMC problem stalls away from M*.
func spuriousPatterns(n int, eps float64) (int, error) {
	p, err := experiments.PMCStudyProblem(n, eps)
	if err != nil {
		return 0, err
	}
	odd := (n + 1) / 2
	count := 0
	for mask := 0; mask < 1<<(odd-1); mask++ {
		x0 := mat.NewDense(n, 1, nil)
		x0.Set(0, 0, 1)
		for k := 1; k < odd; k++ {
			x0.Set(2*k, 0, float64(1-2*((mask>>(k-1))&1)))
		}
		res, err := sod.GradientDescent(context.Background(), p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 5000}, GradTol: 1e-10})
		if err != nil {
			return 0, err
		}
		if p.DistStar(res.X) > 0.1 {
			count++
		}
	}
	return count, nil
}
