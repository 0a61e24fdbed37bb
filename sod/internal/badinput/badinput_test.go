package badinput

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/plots"
)

// A badCase is one bad input: call returns its error (a panic is turned
// into an error, so that the documented ErrShape panics of Problem.H & co.
// are checked the same way); the error must satisfy errors.Is(err, is)
// and contain every fragment of want. With small set, the call must also
// allocate less than 1 MiB (a size refused before allocating).
type badCase struct {
	name  string
	call  func() error
	is    error
	want  []string
	small bool
}

func protect(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if e, ok := v.(error); ok {
				err = fmt.Errorf("panic: %w", e)
				return
			}
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	return f()
}

func dense(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }

func ones(r, c int) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, 1)
		}
	}
	return d
}

func gd(opt sod.GDOptions) func() error {
	return func() error {
		p := sod.BasicExampleProblem()
		_, err := sod.GradientDescent(context.Background(), p, sod.BasicExampleXHat(), opt)
		return err
	}
}

func closedForm(in sod.TPGDInputs, l int, rho, eta float64) func() error {
	return func() error { _, err := sod.NewTPGDClosedForm(in, l, rho, eta); return err }
}

var goodIn = sod.TPGDInputs{LambdaN: -0.5, SigmaR: 0.6, NormX: 0.7, NormEX: 0.4}

func cf(t *testing.T) *sod.TPGDClosedForm {
	c, err := sod.NewTPGDClosedForm(goodIn, 3, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func conditions(mod func(*sod.TPGDConditionInputs)) func() error {
	return func() error {
		in := sod.TPGDConditionInputs{L: 3, Delta: 0.3, LambdaN: -0.5, SigmaR: 0.5, SumSigmaSq: 0.5, TraceMStar: 1, DistSq: 0.5, M: 3, Xi: 1}
		mod(&in)
		_, err := sod.TPGDConditions(in)
		return err
	}
}

func study(mod func(*experiments.StudyConfig)) func() error {
	return func() error {
		cfg := experiments.DefaultStudyConfig()
		cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{4}, []float64{0.1}, 1
		mod(&cfg)
		_, err := experiments.RunStudy(context.Background(), cfg, nil)
		return err
	}
}

func basic(mod func(*experiments.BasicExampleConfig)) func() error {
	return func() error {
		cfg := experiments.DefaultBasicExampleConfig()
		mod(&cfg)
		_, err := experiments.RunBasicExample(context.Background(), cfg, nil)
		return err
	}
}

func ablation(mod func(*experiments.AblationConfig)) func() error {
	return func() error {
		cfg := experiments.DefaultAblationConfig()
		cfg.Ls, cfg.Ts = []int{3}, []int64{1000}
		mod(&cfg)
		_, err := experiments.RunAblation(context.Background(), cfg, nil)
		return err
	}
}

func caseStudy(mod func(*experiments.CaseStudyConfig)) func() error {
	return func() error {
		cfg := experiments.RealWorldCaseStudyConfig()
		mod(&cfg)
		_, err := experiments.RunCaseStudy(context.Background(), cfg, nil)
		return err
	}
}

func probability(mod func(*widgets.ProbabilityCurve)) func() error {
	return func() error {
		pc := widgets.ProbabilityCurve{Title: "t", X: []float64{1, 2}, Bound: []float64{0.2, 0.3}, MonteCarlo: []float64{0.4, 0.5}}
		mod(&pc)
		_, err := pc.Chart()
		return err
	}
}

func cases(t *testing.T) []badCase {
	rw := sod.RealWorldProblem() // n = 3, r = 1
	z := mat.NewDense(3, 1, []float64{1, 0, 0})
	var zz mat.Dense
	zz.Mul(z, z.T())
	c := cf(t)
	un, qr := mat.NewVecDense(3, []float64{1, 0, 0}), mat.NewVecDense(1, []float64{1})
	ls, err := sod.NewLiftedSubspace(rw.Op, rw.B, 3, z, ones(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	pgd, err := sod.NewSubspacePGD(ls, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	iris, err := experiments.LoadIris()
	if err != nil {
		t.Fatal(err)
	}
	fig := plot.New()
	bad := sod.ErrBadParameter
	badExp := experiments.ErrBadExperiment // the errors experiments finds itself
	return []badCase{
		// Operators and sizes.
		{"NewPMCOperator 2³¹", func() error { _, err := sod.NewPMCOperator(1<<31, 0.1); return err }, bad, []string{"n = 2147483648", "want 1 ≤ n ≤ 10000000"}, true},
		{"NewPMCOperator 10⁹", func() error { _, err := sod.NewPMCOperator(1_000_000_000, 0.1); return err }, bad, []string{"n = 1000000000"}, true},
		{"NewPMCOperator n=0", func() error { _, err := sod.NewPMCOperator(0, 0.1); return err }, bad, []string{"n = 0"}, true},
		{"NewPMCOperator ε NaN", func() error { _, err := sod.NewPMCOperator(10, math.NaN()); return err }, bad, []string{"ε = NaN", "want finite ε > 0"}, true},
		{"NewPMCOperator ε 0", func() error { _, err := sod.NewPMCOperator(10, 0); return err }, bad, []string{"ε = 0"}, true},
		{"NewPMCOperator ε +Inf", func() error { _, err := sod.NewPMCOperator(10, math.Inf(1)); return err }, bad, []string{"ε = +Inf"}, true},
		{"NewGaussianOperator 10⁶", func() error { _, err := sod.NewGaussianOperator(1_000_000, 1, 1); return err }, bad, []string{"n = 1000000", "MaxDenseSize"}, true},
		{"NewGaussianOperator m too many", func() error { _, err := sod.NewGaussianOperator(2048, 1000, 1); return err }, sod.ErrTooLarge, []string{"n = 2048, m = 1000", "MaxGaussianBytes = 1024 MiB"}, true},
		{"NewGaussianOperator m=0", func() error { _, err := sod.NewGaussianOperator(3, 0, 1); return err }, sod.ErrNoMeasurements, []string{"m = 0"}, true},
		{"NewExplicitLifting too large", func() error { _, err := sod.NewExplicitLifting(rw.Op, rw.B, 1, 99); return err }, sod.ErrTooLarge, []string{"l=99", "ExplicitMaxBytes = 512 MiB"}, true},
		{"SampleS samples MaxInt", func() error { _, err := sod.SampleS(t.Context(), 3, 2, math.MaxInt, 1); return err }, bad, []string{"samples = 9223372036854775807", "[1, 100000000]"}, true},
		{"SampleS n 10⁹", func() error { _, err := sod.SampleS(t.Context(), 1_000_000_000, 2, 1, 1); return err }, bad, []string{"n = 1000000000", "[2, 2048]"}, true},
		{"NewProblem nil operator", func() error { _, err := sod.NewProblem(nil, z, 1); return err }, bad, []string{"nil operator"}, true},
		{"NewProblem r=0", func() error { _, err := sod.NewProblem(rw.Op, z, 0); return err }, bad, []string{"r = 0"}, true},
		{"RIPSample p > n", func() error { _, err := sod.RIPSample(t.Context(), rw.Op, 4, 10, 1); return err }, bad, []string{"p in [1, n = 3]", "p = 4"}, true},
		{"RIPSample p = 0", func() error { _, err := sod.RIPSample(t.Context(), rw.Op, 0, 10, 1); return err }, bad, []string{"p = 0"}, true},
		{"RIPOptimize p > n", func() error { _, err := sod.RIPOptimize(t.Context(), rw.Op, 5, 2, 1); return err }, bad, []string{"p in [1, n = 3]", "p = 5"}, true},
		// h and ∇h: shape mismatches panic with ErrShape naming the shapes.
		{"H 4×1 on n=3", func() error { rw.H(dense(4, 1)); return nil }, sod.ErrShape, []string{"X is 4×1, want 3×1"}, true},
		{"H 2×1 on n=3", func() error { rw.H(dense(2, 1)); return nil }, sod.ErrShape, []string{"X is 2×1, want 3×1"}, true},
		{"H 3×2 on r=1", func() error { rw.H(dense(3, 2)); return nil }, sod.ErrShape, []string{"X is 3×2, want 3×1"}, true},
		{"H nil", func() error { rw.H(nil); return nil }, sod.ErrShape, []string{"nil X"}, true},
		{"Grad X 4×1", func() error { rw.Grad(&mat.Dense{}, dense(4, 1)); return nil }, sod.ErrShape, []string{"Problem.Grad: X is 4×1"}, true},
		{"Grad dst 2×1", func() error { rw.Grad(dense(2, 1), dense(3, 1)); return nil }, sod.ErrShape, []string{"dst is 2×1, want 3×1"}, true},
		{"GradF M 2×2", func() error { rw.GradF(&mat.Dense{}, dense(2, 2)); return nil }, sod.ErrShape, []string{"M is 2×2, want 3×3"}, true},
		{"HessVec D 1×1", func() error { rw.HessVec(&mat.Dense{}, dense(3, 1), dense(1, 1)); return nil }, sod.ErrShape, []string{"D is 1×1, want 3×1"}, true},
		{"DistStar 5×1", func() error { rw.DistStar(dense(5, 1)); return nil }, sod.ErrShape, []string{"X is 5×1"}, true},
		{"CheckX 4×1", func() error { return rw.CheckX(dense(4, 1)) }, sod.ErrShape, []string{"X is 4×1, want 3×1"}, true},
		{"CheckX NaN", func() error { return rw.CheckX(mat.NewDense(3, 1, []float64{0, math.NaN(), 0})) }, sod.ErrNotFinite, []string{"NaN"}, true},
		// Gradient descent options.
		{"GD MaxIter MaxInt, StagnationWindow MaxInt", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: math.MaxInt}, StagnationWindow: math.MaxInt}), bad, []string{"StagnationWindow = 9223372036854775807", "MaxStagnationWindow = 1048576"}, true},
		{"GD DivergenceLimit NaN", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 10, DivergenceLimit: math.NaN()}}), bad, []string{"DivergenceLimit = NaN", "(0, +Inf]"}, true},
		{"GD DivergenceLimit < 0", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 10, DivergenceLimit: -1}}), bad, []string{"DivergenceLimit = -1"}, true},
		{"GD step 0", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0, MaxIter: 10}}), bad, []string{"GD step 0", "finite > 0"}, true},
		{"GD step NaN", gd(sod.GDOptions{Iteration: sod.Iteration{Step: math.NaN(), MaxIter: 10}}), bad, []string{"GD step NaN"}, true},
		{"GD step +Inf", gd(sod.GDOptions{Iteration: sod.Iteration{Step: math.Inf(1), MaxIter: 10}}), bad, []string{"GD step +Inf"}, true},
		{"GD MaxIter < 0", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: -1}}), bad, []string{"MaxIter = -1, want ≥ 0"}, true},
		{"GD TraceEvery < 0", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 1, TraceEvery: -5}}), bad, []string{"TraceEvery = -5"}, true},
		{"GD GradTol NaN", gd(sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 1}, GradTol: math.NaN()}), bad, []string{"GradTol = NaN"}, true},
		{"GD canceled context", func() error {
			_, err := sod.GradientDescent(canceled, rw, z, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 10}})
			return err
		}, context.Canceled, []string{"not started"}, true},
		{"GD x0 4×1", func() error {
			_, err := sod.GradientDescent(t.Context(), rw, dense(4, 1), sod.GDOptions{Iteration: sod.Iteration{Step: 0.1}})
			return err
		}, sod.ErrShape, []string{"X is 4×1, want 3×1"}, true},
		{"SGD DivergenceLimit NaN", func() error {
			_, err := sod.SGD(t.Context(), rw, z, sod.SGDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 1, DivergenceLimit: math.NaN()}})
			return err
		}, bad, []string{"SGD DivergenceLimit = NaN"}, true},
		{"Adam step -1", func() error {
			_, err := sod.Adam(t.Context(), rw, z, sod.AdamOptions{Iteration: sod.Iteration{Step: -1, MaxIter: 1}})
			return err
		}, bad, []string{"Adam step -1"}, true},
		// The escape loop.
		{"RunEscape ExactSubspaceSOD T MaxInt", func() error {
			run, err := sod.RunEscape(t.Context(), sod.BasicExampleProblem(), sod.BasicExampleXHat(), &sod.ExactSubspaceSOD{L: 3, T: math.MaxInt, Rho: 0.1, Eta: 0.1},
				sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 300}, GradTol: 1e-9}})
			if err != nil {
				return err
			}
			return run.Err
		}, bad, []string{"T must lie in [1, MaxSubspaceSteps = 1000000000] (0: 1000), got 9223372036854775807"}, false},
		{"RunEscape nil Escaper", func() error { _, err := sod.RunEscape(t.Context(), rw, z, nil, sod.EscapeOptions{}); return err }, bad, []string{"nil Escaper"}, true},
		{"RunEscape TargetH NaN", func() error {
			_, err := sod.RunEscape(t.Context(), rw, z, &sod.MultiStepSOD{L: 3, T: 1, Rho: 0.1, Eta: 0.1}, sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1}}, TargetH: math.NaN()})
			return err
		}, bad, []string{"TargetH = NaN"}, true},
		{"RunEscape MaxEscapes -1", func() error {
			_, err := sod.RunEscape(t.Context(), rw, z, &sod.MultiStepSOD{L: 3, T: 1, Rho: 0.1, Eta: 0.1}, sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1}}, MaxEscapes: -1})
			return err
		}, bad, []string{"MaxEscapes = -1"}, true},
		{"RunEscape GD DivergenceLimit NaN", func() error {
			_, err := sod.RunEscape(t.Context(), rw, z, &sod.MultiStepSOD{L: 3, T: 1, Rho: 0.1, Eta: 0.1}, sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, DivergenceLimit: math.NaN()}}})
			return err
		}, bad, []string{"DivergenceLimit = NaN"}, true},
		{"SubspacePGD.Run steps MaxInt", func() error { _, err := pgd.Run(t.Context(), []float64{1, 0.1}, math.MaxInt, math.MaxInt); return err }, bad, []string{"steps must lie in [0, MaxSubspaceSteps = 1000000000], got 9223372036854775807"}, true},
		{"SubspacePGD.Run 10⁹ steps recorded every step", func() error { _, err := pgd.Run(t.Context(), []float64{1, 0.1}, 1_000_000_000, 1); return err }, bad, []string{"would record 1000000002 entries", "limit 1000000"}, true},
		{"SubspacePGD.Run canceled", func() error {
			_, err := pgd.Run(canceled, []float64{1, 0.1}, 100000, 100000)
			return err
		}, context.Canceled, []string{"not started"}, true},
		{"NewLiftedSubspace l even", func() error { _, err := sod.NewLiftedSubspace(rw.Op, rw.B, 4, z); return err }, bad, []string{"odd and ≥ 3, got 4"}, true},
		{"NewSubspacePGD η NaN", func() error { _, err := sod.NewSubspacePGD(ls, math.NaN()); return err }, bad, []string{"got NaN"}, true},
		{"TermNorms short dst", func() error { return ls.TermNorms(make([]float64, 1), []float64{1, 2}) }, sod.ErrShape, []string{"len(dst) = 1, len(coef) = 2, want both K = 2"}, true},
		{"TermNorms long coef", func() error { return ls.TermNorms(make([]float64, 3), []float64{1, 2, 3}) }, sod.ErrShape, []string{"len(coef) = 3"}, true},
		// The closed-form TPGD.
		{"TPGD l even", closedForm(goodIn, 4, 0.1, 0.1), bad, []string{"odd and ≥ 3, got 4"}, true},
		{"TPGD l = 1", closedForm(goodIn, 1, 0.1, 0.1), bad, []string{"got 1"}, true},
		{"TPGD l = MinInt", closedForm(goodIn, math.MinInt, 0.1, 0.1), bad, []string{"got -9223372036854775808"}, true},
		{"TPGD ρ = 1", closedForm(goodIn, 3, 1, 0.1), bad, []string{"ρ must lie in (0, 1), got 1"}, true},
		{"TPGD η NaN", closedForm(goodIn, 3, 0.1, math.NaN()), bad, []string{"η must lie in (0, 1), got NaN"}, true},
		{"TPGD λ_n = −Inf", closedForm(sod.TPGDInputs{LambdaN: math.Inf(-1), SigmaR: 1, NormX: 1, NormEX: 1}, 3, 0.1, 0.1), bad, []string{"finite λ_n < 0", "got -Inf"}, true},
		{"TPGD λ_n = 0", closedForm(sod.TPGDInputs{LambdaN: 0, SigmaR: 1, NormX: 1, NormEX: 1}, 3, 0.1, 0.1), bad, []string{"got 0"}, true},
		{"TPGD σ_r = +Inf", closedForm(sod.TPGDInputs{LambdaN: -1, SigmaR: math.Inf(1), NormX: 1, NormEX: 1}, 3, 0.1, 0.1), bad, []string{"σ_r > 0, got +Inf"}, true},
		{"TPGD ‖X̂‖ NaN", closedForm(sod.TPGDInputs{LambdaN: -1, SigmaR: 1, NormX: math.NaN(), NormEX: 1}, 3, 0.1, 0.1), bad, []string{"‖X̂‖_F > 0, got NaN"}, true},
		{"TPGD Coefficients t < 0", func() error { _, _, _, err := c.Coefficients(-1); return err }, bad, []string{"t must be ≥ 0, got -1"}, true},
		{"TPGD BetaScale t MinInt64", func() error { _, err := c.BetaScale(math.MinInt64); return err }, bad, []string{"got -9223372036854775808"}, true},
		{"TPGD GammaScale t < 0", func() error { _, err := c.GammaScale(-7); return err }, bad, []string{"got -7"}, true},
		{"EscapePoint nil", func() error { _, _, err := c.EscapePoint(100, nil, nil, nil); return err }, sod.ErrShape, []string{"got nil"}, true},
		{"EscapePoint u_n wrong length", func() error { _, _, err := c.EscapePoint(100, mat.NewVecDense(2, nil), qr, dense(3, 1)); return err }, sod.ErrShape, []string{"u_n has length 2", "E X̂ is 3×1"}, true},
		{"EscapePoint E X̂ wrong shape", func() error { _, _, err := c.EscapePoint(100, un, qr, dense(3, 2)); return err }, sod.ErrShape, []string{"E X̂ is 3×2"}, true},
		{"EscapePoint NaN u_n", func() error {
			_, _, err := c.EscapePoint(100, mat.NewVecDense(3, []float64{math.NaN(), 0, 0}), qr, dense(3, 1))
			return err
		}, sod.ErrNotFinite, []string{"u_n"}, true},
		{"EscapePoint t < 0", func() error { _, _, err := c.EscapePoint(-2, un, qr, dense(3, 1)); return err }, bad, []string{"got -2"}, true},
		{"EscapeDistances shapes", func() error { _, _, _, err := sod.EscapeDistances(dense(3, 1), dense(2, 1), &zz); return err }, sod.ErrShape, []string{"X̂ is 3×1, X̌ 2×1 and M* 3×3"}, true},
		{"EscapeDistances M* shape", func() error { _, _, _, err := sod.EscapeDistances(z, z, dense(2, 2)); return err }, sod.ErrShape, []string{"M* 2×2"}, true},
		{"EscapeDistances nil", func() error { _, _, _, err := sod.EscapeDistances(nil, z, &zz); return err }, sod.ErrShape, []string{"nil matrix"}, true},
		{"EscapeDistances 0/0", func() error { _, _, _, err := sod.EscapeDistances(z, z, &zz); return err }, bad, []string{"ratio 0/0 is undefined"}, true},
		{"EscapeDistances Inf", func() error {
			_, _, _, err := sod.EscapeDistances(mat.NewDense(3, 1, []float64{math.Inf(1), 0, 0}), z, &zz)
			return err
		}, sod.ErrNotFinite, []string{"+Inf"}, true},
		{"TPGDConditions σ_r +Inf", conditions(func(in *sod.TPGDConditionInputs) { in.SigmaR = math.Inf(1) }), bad, []string{"σ_r finite and > 0, got +Inf"}, true},
		{"TPGDConditions distance +Inf", conditions(func(in *sod.TPGDConditionInputs) { in.DistSq = math.Inf(1) }), bad, []string{"‖X̂X̂ᵀ−M*‖² finite and > 0, got +Inf"}, true},
		{"TPGDConditions Ξ +Inf", conditions(func(in *sod.TPGDConditionInputs) { in.Xi = math.Inf(1) }), bad, []string{"Ξ finite and > 0, got +Inf"}, true},
		{"TPGDConditions λ_n −Inf", conditions(func(in *sod.TPGDConditionInputs) { in.LambdaN = math.Inf(-1) }), bad, []string{"−λ_n finite and > 0, got +Inf"}, true},
		{"TPGDConditions Tr M* NaN", conditions(func(in *sod.TPGDConditionInputs) { in.TraceMStar = math.NaN() }), bad, []string{"Tr M* finite and > 0, got NaN"}, true},
		{"TPGDConditions δ = 1", conditions(func(in *sod.TPGDConditionInputs) { in.Delta = 1 }), sod.ErrDelta, []string{"got 1"}, true},
		{"TPGDConditions m = 0", conditions(func(in *sod.TPGDConditionInputs) { in.M = 0 }), bad, []string{"m = 0"}, true},
		// Experiments.
		{"AlternatingTruth(0)", func() error { _, err := experiments.AlternatingTruth(0); return err }, badExp, []string{"n in [1, 10000000], got 0"}, true},
		{"AlternatingTruth(-1)", func() error { _, err := experiments.AlternatingTruth(-1); return err }, badExp, []string{"got -1"}, true},
		{"AlternatingTruth(MaxInt)", func() error { _, err := experiments.AlternatingTruth(math.MaxInt); return err }, badExp, []string{"got 9223372036854775807"}, true},
		{"RunStudy nil context", func() error {
			//lint:ignore SA1012 a nil context is the bad input under test
			_, err := experiments.RunStudy(nil, experiments.DefaultStudyConfig(), nil)
			return err
		}, badExp, []string{"needs a context, got nil"}, true},
		{"RunStudy canceled", func() error {
			_, err := experiments.RunStudy(canceled, experiments.DefaultStudyConfig(), nil)
			return err
		}, context.Canceled, nil, false},
		{"RunStudy trials 0", study(func(c *experiments.StudyConfig) { c.Trials = 0 }), badExp, []string{"0 trials per cell"}, true},
		{"RunStudy trials MaxInt", study(func(c *experiments.StudyConfig) { c.Trials = math.MaxInt }), badExp, []string{"9223372036854775807 trials per cell", "at most 10000000 runs"}, true},
		{"RunStudy n = 1", study(func(c *experiments.StudyConfig) { c.Sizes = []int{1} }), badExp, []string{"n = 1, want n in [2, 10000000]"}, true},
		{"RunStudy n MaxInt", study(func(c *experiments.StudyConfig) { c.Sizes = []int{math.MaxInt} }), badExp, []string{"n = 9223372036854775807"}, true},
		{"RunStudy ε NaN", study(func(c *experiments.StudyConfig) { c.Epsilons = []float64{math.NaN()} }), badExp, []string{"ε = NaN"}, true},
		{"RunStudy workers 10⁹", study(func(c *experiments.StudyConfig) { c.Workers = 1_000_000_000 }), badExp, []string{"1000000000 workers, want at most 4096"}, true},
		{"RunStudy rank > n", study(func(c *experiments.StudyConfig) { c.Rank = 5 }), badExp, []string{"search rank 5 exceeds the size n = 4"}, true},
		{"RunStudy step NaN", study(func(c *experiments.StudyConfig) { c.Step = math.NaN() }), badExp, []string{"Step = NaN"}, true},
		{"BasicExample GridMax +Inf", basic(func(c *experiments.BasicExampleConfig) { c.GridMax = math.Inf(1) }), badExp, []string{"grid [-1.5, +Inf]", "want GridMin < GridMax in [−1e+06, 1e+06]"}, true},
		{"BasicExample GridMin −Inf", basic(func(c *experiments.BasicExampleConfig) { c.GridMin = math.Inf(-1) }), badExp, []string{"grid [-Inf, 1.5]"}, true},
		{"BasicExample GridSize 10⁹", basic(func(c *experiments.BasicExampleConfig) { c.GridSize = 1_000_000_000 }), badExp, []string{"GridSize = 1000000000, want [2, 2001]"}, true},
		{"BasicExample Starts 0", basic(func(c *experiments.BasicExampleConfig) { c.Starts = 0 }), badExp, []string{"Starts = 0, want [1, 100]"}, true},
		{"BasicExample Iters MaxInt", basic(func(c *experiments.BasicExampleConfig) { c.Iters = math.MaxInt }), badExp, []string{"Iters = 9223372036854775807, want [1, 1000000]"}, true},
		{"BasicExample Step NaN", basic(func(c *experiments.BasicExampleConfig) { c.Step = math.NaN() }), badExp, []string{"Step = NaN"}, true},
		{"LogGrid(1, 0, 3)", func() error { _, err := experiments.LogGrid(1, 0, 3); return err }, badExp, []string{"1 ≤ lo ≤ hi, got lo = 1, hi = 0"}, true},
		{"LogGrid(0, 10, 3)", func() error { _, err := experiments.LogGrid(0, 10, 3); return err }, badExp, []string{"lo = 0"}, true},
		{"LogGrid k = 0", func() error { _, err := experiments.LogGrid(1, 10, 0); return err }, badExp, []string{"k in [1, 1000000] points, got 0"}, true},
		{"LogGrid k MaxInt", func() error { _, err := experiments.LogGrid(1, 10, math.MaxInt); return err }, badExp, []string{"got 9223372036854775807"}, true},
		{"Ablation X̂ without Problem", ablation(func(c *experiments.AblationConfig) { c.Problem, c.XHat = nil, dense(3, 1) }), badExp, []string{"has an X̂ but no Problem"}, true},
		{"Ablation Problem without X̂", ablation(func(c *experiments.AblationConfig) { c.XHat = nil }), badExp, []string{"has a Problem but no X̂"}, true},
		{"Ablation X̂ wrong shape", ablation(func(c *experiments.AblationConfig) { c.XHat = dense(2, 1) }), sod.ErrShape, []string{"X is 2×1, want 3×1"}, true},
		{"Ablation t < 0", ablation(func(c *experiments.AblationConfig) { c.Ts = []int64{-1} }), badExp, []string{"t = -1, want ≥ 0"}, true},
		{"Ablation l even", ablation(func(c *experiments.AblationConfig) { c.Ls = []int{4} }), bad, []string{"got 4"}, false},
		{"DescentScan X̂ without Problem", func() error {
			_, err := experiments.RunDescentScan(context.Background(), experiments.DescentScanConfig{Ablation: experiments.AblationConfig{XHat: dense(3, 1), Rho: 0.1, Eta: 0.1}, L: 3, Ts: []int64{1}}, nil)
			return err
		}, badExp, []string{"has an X̂ but no Problem"}, true},
		{"Iris misspelt species", func() error { _, _, err := iris.BinaryTask("versicolor", "virgnica"); return err }, badExp, []string{`no species "virgnica"`, "setosa, versicolor, virginica"}, true},
		{"Iris same species", func() error { _, _, err := iris.BinaryTask("setosa", "setosa"); return err }, badExp, []string{"two different species"}, true},
		{"QNNProblem misspelt species", func() error {
			cfg := experiments.DefaultQNNConfig()
			cfg.Positive = "Virginica"
			_, err := experiments.QNNProblem(cfg)
			return err
		}, badExp, []string{`no species "Virginica"`}, true},
		{"QNNProblem features", func() error {
			cfg := experiments.DefaultQNNConfig()
			cfg.Features = "zscore"
			_, err := experiments.QNNProblem(cfg)
			return err
		}, badExp, []string{`features "zscore"`}, false},
		{"CaseStudy t MaxInt64", caseStudy(func(c *experiments.CaseStudyConfig) { c.T = math.MaxInt64 }), badExp, []string{"t = 9223372036854775807, want [1, sod.MaxSubspaceSteps = 1000000000]"}, true},
		{"CaseStudy step NaN", caseStudy(func(c *experiments.CaseStudyConfig) { c.Step = math.NaN() }), badExp, []string{"step NaN"}, true},
		{"CaseStudy CurvePoints MaxInt", caseStudy(func(c *experiments.CaseStudyConfig) { c.CurvePoints = math.MaxInt }), badExp, []string{"CurvePoints = 9223372036854775807"}, true},
		// Cancellation: every long-running entry point honours its context.
		{"RunBasicExample canceled", func() error {
			_, err := experiments.RunBasicExample(canceled, experiments.DefaultBasicExampleConfig(), nil)
			return err
		}, context.Canceled, nil, false},
		{"RunCaseStudy canceled", func() error {
			_, err := experiments.RunCaseStudy(canceled, experiments.RealWorldCaseStudyConfig(), nil)
			return err
		}, context.Canceled, nil, false},
		{"RunAblation canceled", func() error {
			_, err := experiments.RunAblation(canceled, experiments.DefaultAblationConfig(), nil)
			return err
		}, context.Canceled, nil, false},
		{"QNN canceled", func() error {
			_, err := experiments.RunQNN(canceled, experiments.DefaultQNNConfig(), nil)
			return err
		}, context.Canceled, nil, false},
		{"QNNScan canceled", func() error {
			_, err := experiments.RunQNNScan(canceled, experiments.DefaultQNNScanConfig(), nil)
			return err
		}, context.Canceled, nil, false},
		{"SGD canceled", func() error {
			_, err := sod.SGD(canceled, rw, z, sod.SGDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 10}})
			return err
		}, context.Canceled, []string{"not started"}, true},
		{"Adam canceled", func() error {
			_, err := sod.Adam(canceled, rw, z, sod.AdamOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 10}})
			return err
		}, context.Canceled, nil, true},
		// Widgets.
		{"Render 1e6 × 1e6 png", func() error { _, err := plots.Render(fig, 1e6, 1e6, "png"); return err }, plots.ErrRenderTooLarge, []string{"size 1e+06 × 1e+06 pt", "MaxRenderSize"}, true},
		{"Render NaN size", func() error { _, err := plots.Render(fig, plots.Length(math.NaN()), 100, "svg"); return err }, plots.ErrBadPlot, []string{"size NaN × 100 pt"}, true},
		{"Render negative size", func() error { _, err := plots.Render(fig, -1, 100, "svg"); return err }, plots.ErrBadPlot, []string{"size -1 × 100 pt"}, true},
		{"Render nil figure", func() error { _, err := plots.Render(nil, 100, 100, "svg"); return err }, plots.ErrBadPlot, []string{"nil figure"}, true},
		{"Save too large", func() error { return plots.Save(fig, "/nonexistent/x.png", 1e5, 10) }, plots.ErrRenderTooLarge, []string{"size 100000 × 10 pt"}, true},
		{"Explore nil draw", func() error { return widgets.Explore(context.Background(), nil, nil) }, widgets.ErrBadInput, []string{"draw false"}, true},
		{"Explore nil context", func() error {
			//lint:ignore SA1012 a nil context is the bad input under test
			return widgets.Explore(nil, nil, func(widgets.Values) (widgets.Chart, error) { return nil, nil })
		}, widgets.ErrBadInput, []string{"context false"}, true},
		{"ProbabilityChart bound 1.5", probability(func(pc *widgets.ProbabilityCurve) { pc.Bound[1] = 1.5 }), widgets.ErrBadInput, []string{"Bound[1] = 1.5 is not a probability, want [0, 1]"}, true},
		{"ProbabilityChart MC −0.1", probability(func(pc *widgets.ProbabilityCurve) { pc.MonteCarlo[0] = -0.1 }), widgets.ErrBadInput, []string{"MonteCarlo[0] = -0.1"}, true},
		{"ProbabilityChart bound +Inf", probability(func(pc *widgets.ProbabilityCurve) { pc.Bound[0] = math.Inf(1) }), widgets.ErrBadInput, []string{"Bound[0] = +Inf"}, true},
		{"ProbabilityChart samples −5", probability(func(pc *widgets.ProbabilityCurve) { pc.Samples = -5 }), widgets.ErrBadInput, []string{"Samples = -5, want ≥ 0"}, true},
		{"ProbabilityChart StdErr −1", probability(func(pc *widgets.ProbabilityCurve) { pc.StdErr = []float64{0.1, -1} }), widgets.ErrBadInput, []string{"StdErr[1] = -1"}, true},
		{"ProbabilityPlot bound 2", func() error {
			_, err := plots.ProbabilityPlot(widgets.ProbabilityCurve{X: []float64{1}, Bound: []float64{2}, MonteCarlo: []float64{0.5}})
			return err
		}, widgets.ErrBadInput, []string{"Bound[0] = 2"}, true},
	}
}

// TestBadInputs: every case gets its sentinel and a message naming the
// bad value and the range, never a success, a NaN or a raw panic; size
// cases are refused before allocating.
func TestBadInputs(t *testing.T) {
	cs := cases(t)
	if len(cs) < 80 {
		t.Errorf("%d cases; the table should keep at least 80", len(cs))
	}
	seen := map[string]bool{}
	for _, tc := range cs {
		if seen[tc.name] {
			t.Errorf("case %q twice", tc.name)
		}
		seen[tc.name] = true
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := protect(tc.call)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !errors.Is(err, tc.is) {
			t.Errorf("%s: error %q is not %v", tc.name, err, tc.is)
		}
		if strings.HasPrefix(err.Error(), "panic:") && !errors.Is(err, sod.ErrShape) {
			t.Errorf("%s: panicked: %v", tc.name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; tc.small && alloc > 1<<20 {
			t.Errorf("%s: allocated %d bytes before refusing", tc.name, alloc)
		}
	}
}

// TestAcceptedEdgeValues: values that are legitimately accepted mean what
// their documentation says (no error, no NaN, no panic).
func TestAcceptedEdgeValues(t *testing.T) {
	// GD "until converged": MaxIter = MaxInt preallocates a bounded trace.
	r, err := sod.GradientDescent(t.Context(), sod.BasicExampleProblem(), mat.NewDense(2, 1, []float64{0.9, 0.1}), sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: math.MaxInt}, GradTol: 1e-8})
	if err != nil || r.Stop != sod.StopConverged || math.IsNaN(r.H) {
		t.Errorf("GD MaxIter = MaxInt: %v, %+v", err, r)
	}
	// DivergenceLimit +Inf: only overflow counts.
	if _, err := sod.GradientDescent(t.Context(), sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 5, DivergenceLimit: math.Inf(1)}}); err != nil {
		t.Errorf("DivergenceLimit +Inf: %v", err)
	}
	// The basic example from the last seed wraps around instead of finding no seed.
	if _, err := experiments.RunBasicExample(context.Background(), func() experiments.BasicExampleConfig {
		c := experiments.DefaultBasicExampleConfig()
		c.Seed, c.Starts = math.MaxUint64, 1
		return c
	}(), nil); err != nil {
		t.Errorf("BasicExample Seed = MaxUint64: %v", err)
	}
	// LogGrid near the int64 limit stays in [lo, hi] and increasing.
	g, err := experiments.LogGrid(1, math.MaxInt64, 50)
	if err != nil || g[0] != 1 || g[len(g)-1] != math.MaxInt64 {
		t.Errorf("LogGrid(1, MaxInt64, 50) = %v, %v", g, err)
	}
	for i := 1; i < len(g); i++ {
		if g[i] <= g[i-1] {
			t.Errorf("LogGrid not increasing at %d: %v", i, g)
		}
	}
	// TextProgress with Done > Total or < 0 (a caller's miscount): the
	// numbers as given, the bar clamped, no panic; a huge width is capped.
	var b strings.Builder
	p := batch.TextProgress(&b, math.MaxInt)
	p(batch.Progress{Label: "x", Done: 7, Total: 5})
	p(batch.Progress{Label: "x", Done: -3, Total: 5})
	p(batch.Progress{Label: "x", Done: math.MaxInt, Total: math.MaxInt})
	if out := b.String(); !strings.Contains(out, "7/5") || !strings.Contains(out, "-3/5") || len(out) > 3*(batch.MaxProgressWidth+100) {
		t.Errorf("TextProgress output %q", out)
	}
	batch.TextProgress(io.Discard, 0)(batch.Progress{Done: 1, Total: 2})
	// The closed form at l = 1001 on the real-world case: finite everywhere.
	cp, err := sod.AnalyzeCritical(sod.RealWorldProblem(), sod.RealWorldXHat(), sod.CriticalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sod.NewTPGDFromCritical(cp, 1001, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []int64{1, 1000, 150000, math.MaxInt64} {
		_, _, g, err := c.Coefficients(tt)
		gs, gerr := c.GammaScale(tt)
		if err != nil || math.IsNaN(g.Log) || math.IsInf(g.Log, 0) || (gerr == nil && (math.IsNaN(gs) || gs >= 0)) {
			t.Errorf("l = 1001, t = %d: γ̃ %+v (%v), c_γ %v (%v)", tt, g, err, gs, gerr)
		}
	}
}
