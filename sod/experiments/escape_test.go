package experiments

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// TestAutoTFlushed uses the study trial (n = 40, ε = 0.10, seed 1, trial
// 11) whose GD end point has coordinates of 1e-159, where gonum's
// EigenSym fails (see sod.MultiStepAutoT). The λ_n of the escaper's
// analysis (its candidate's sod.MultiStepInfo) must agree with an
// independent eigensolver (mat.Eigen, general, on ∇f(X̂X̂ᵀ) of the
// unflushed point), and GD+SOD must succeed on that trial.
func TestAutoTFlushed(t *testing.T) {
	cfg := DefaultStudyConfig()
	cfg.Sizes, cfg.Epsilons, cfg.Trials = []int{40}, []float64{0.15, 0.10}, 12
	res, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Cells[1].Trials[11]
	p, _ := PMCStudyProblem(40, 0.10)
	x := mat.NewDense(40, 1, tr.GDX)
	tiny := math.Inf(1)
	for _, v := range tr.GDX {
		if v != 0 {
			tiny = math.Min(tiny, math.Abs(v))
		}
	}
	if tiny > 1e-100 {
		t.Logf("smallest coordinate %g: the gonum failure case is not exercised", tiny)
	}
	cands, err := sod.MultiStepAutoT(11, 0.1, 0.1, sod.AutoT(1.1)).Propose(context.Background(), &sod.EscapeState{P: p, X: x, H: p.H(x)})
	if err != nil || len(cands) != 1 {
		t.Fatalf("%d candidates, %v", len(cands), err)
	}
	cp := cands[0].Data.(*sod.MultiStepInfo).Critical
	var xx, gf mat.Dense
	xx.Mul(x, x.T())
	p.GradF(&gf, &xx)
	var eig mat.Eigen
	if !eig.Factorize(&gf, mat.EigenNone) {
		t.Fatal("mat.Eigen failed")
	}
	want := math.Inf(1)
	for _, v := range eig.Values(nil) {
		want = math.Min(want, real(v))
	}
	if math.Abs(cp.LambdaN-want) > 1e-12 {
		t.Errorf("λ_n = %.15g, general eigensolver %.15g", cp.LambdaN, want)
	}
	if tr.GDSuccess || !tr.SODSuccess {
		t.Errorf("trial 11: GD success %v, GD+SOD success %v (outcome %s)", tr.GDSuccess, tr.SODSuccess, tr.Outcome)
	}
}
