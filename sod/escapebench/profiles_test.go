package escapebench

import (
	"math"
	"slices"
	"testing"
	"time"

	"sodworkbench.org/workbench/sod"
)

// TestAnalyzeByHand checks aRT, the ECDF, the performance and data
// profiles, the matrix and the paired test on six runs computed by hand.
func TestAnalyzeByHand(t *testing.T) {
	ts := []Target{{Of: TargetDist, Level: 0.5, Relative: true}, {Of: TargetDist, Level: 0.02}}
	run := func(inst, m string, trial int, total int64, ok bool, hits ...int64) *TrialResult {
		r := &TrialResult{Family: "f", Instance: inst, Method: m, Trial: trial, Success: ok, Cost: Cost{EvalCounts: sod.EvalCounts{Grad: total}, CPU: time.Second}}
		for k, h := range hits {
			if h > 0 {
				r.Hits = append(r.Hits, Hit{Target: k, EvalCounts: sod.EvalCounts{Grad: h}})
			}
		}
		return r
	}
	rs := []*TrialResult{
		run("i1", "A", 0, 40, true, 10, 30),
		run("i1", "B", 0, 50, false, 5),
		run("i1", "B", 1, 25, true, 15, 25),
		run("i2", "A", 0, 100, false, 20),
		run("i2", "B", 0, 60, false),
		run("i2", "B", 1, 80, false),
	}
	rs[5].Cost.CPU = -1 // not measured: left out of the CPU total
	insts := []InstanceInfo{{Family: "f", Name: "i1"}, {Family: "f", Name: "i2"}}
	as, err := Analyze(rs, insts, AnalysisOptions{Targets: ts, MaxIter: 10})
	if err != nil || len(as) != 1 {
		t.Fatal(as, err)
	}
	a := as[0]
	inf := math.Inf(1)
	// aRT: A t0 (10+20)/2, t1 (30+100)/1; B t0 (5+15+60+80)/2, t1 (50+25+60+80)/1.
	wantART := [][]float64{{15, 130}, {80, 215}}
	for m := range wantART {
		for k := range wantART[m] {
			if float64(a.ART[m][k]) != wantART[m][k] {
				t.Errorf("aRT[%s][%d] = %v, want %v", a.Methods[m], k, a.ART[m][k], wantART[m][k])
			}
		}
	}
	curve := func(name string, c Curve2D, x, y []float64) {
		t.Helper()
		if !slices.Equal(c.X, x) || len(c.Y) != len(y) {
			t.Errorf("%s %s: x %v y %v, want x %v y %v", name, c.Method, c.X, c.Y, x, y)
			return
		}
		for i := range y {
			if math.Abs(c.Y[i]-y[i]) > 1e-15 {
				t.Errorf("%s %s: y %v, want %v", name, c.Method, c.Y, y)
			}
		}
	}
	// ECDF: A's triples weigh 1/(2·1·2), B's 1/(2·2·2).
	curve("ECDF", a.ECDF[0], []float64{10, 20, 30}, []float64{0.25, 0.5, 0.75})
	curve("ECDF", a.ECDF[1], []float64{5, 15, 25}, []float64{0.125, 0.25, 0.375})
	// Problems (i1,t0) A 10 B 10; (i1,t1) A 30 B 75; (i2,t0) A 20 B ∞; (i2,t1) ∞.
	curve("perf", a.Perf[0], []float64{1}, []float64{0.75})
	curve("perf", a.Perf[1], []float64{1, 2.5}, []float64{0.25, 0.5})
	// Data profile: aRT in phases of 10.
	curve("data", a.Data[0], []float64{1, 2, 3}, []float64{0.25, 0.5, 0.75})
	curve("data", a.Data[1], []float64{1, 7.5}, []float64{0.25, 0.5})
	curve("data", a.Data[2], []float64{1, 2, 3}, []float64{0.25, 0.5, 0.75})
	if a.Data[2].Method != VirtualBest {
		t.Errorf("last data curve %q, want the virtual best", a.Data[2].Method)
	}
	if got := [][]OptFloat{{1, 0.5}, {0, 0}}; !slices.EqualFunc(a.Matrix, got, slices.Equal[[]OptFloat]) {
		t.Errorf("matrix %v, want %v", a.Matrix, got)
	}
	if len(a.Paired) != 1 || a.Paired[0] != (PairedTest{Method: "B", Best: "A", Instances: 2, P: 1}) {
		t.Errorf("paired %+v", a.Paired)
	}
	if a.CPU[1] != (CPUTotal{Method: "B", Seconds: 3, Runs: 3, All: 4}) {
		t.Errorf("CPU %+v", a.CPU[1])
	}
	_ = inf
}

// TestMcNemar against binomial sums by hand.
func TestMcNemar(t *testing.T) {
	for _, c := range []struct {
		b, c int
		want float64
	}{
		{0, 0, 1},
		{1, 9, 2 * 11.0 / 1024}, // 2·(C(10,0)+C(10,1))/2¹⁰
		{9, 1, 2 * 11.0 / 1024},
		{0, 5, 2.0 / 32},
		{3, 3, 1}, // 2·42/64 capped
	} {
		p, err := McNemar(c.b, c.c)
		if err != nil || math.Abs(p-c.want) > 1e-12 {
			t.Errorf("McNemar(%d, %d) = %v, %v; want %v", c.b, c.c, p, err, c.want)
		}
	}
	if _, err := McNemar(-1, 2); err == nil {
		t.Error("b = -1 accepted")
	}
}

// TestCostUnits: one ∇h-equivalent per gradient, the weights for the rest.
func TestCostUnits(t *testing.T) {
	w := CostWeights{H: 0.5, HessVec: 2, Eigen: 100}
	if got, err := w.Units(sod.EvalCounts{H: 4, Grad: 10, HessVec: 3, Eigen: 1}); got != 10+2+6+100 || err != nil {
		t.Errorf("Units = %v, %v; want 118", got, err)
	}
	for _, bad := range []CostWeights{{H: -1}, {Eigen: math.NaN()}, {HessVec: math.Inf(1)}} {
		if _, err := bad.Units(sod.EvalCounts{Grad: 1}); err == nil {
			t.Errorf("weights %+v accepted", bad)
		}
	}
}
