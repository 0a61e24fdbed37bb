package escapebench

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// TestAnalyzeZeroCost: a run that reaches a target at zero cost (A on
// target 0) gave the performance profile 0/0 = NaN, and
// bench-summary.json was then not written. The ratio is 1 for the method
// that also needed nothing and unbounded (not solved at any τ) for the
// one that spent a positive cost (perfRatio); no NaN anywhere, and the
// summary's JSON is written.
func TestAnalyzeZeroCost(t *testing.T) {
	ts := []Target{{Of: TargetDist, Level: 0.5, Relative: true}, {Of: TargetDist, Level: 0.02}}
	mk := func(m string, total, hit0, hit1 int64) *TrialResult {
		r := &TrialResult{Family: "f", Instance: "i", Method: m, Outcome: sod.Solved, Success: true, Cost: Cost{EvalCounts: sod.EvalCounts{Grad: total}}}
		r.Hits = []Hit{{Target: 0, EvalCounts: sod.EvalCounts{Grad: hit0}}, {Target: 1, EvalCounts: sod.EvalCounts{Grad: hit1}}}
		return r
	}
	rs := []*TrialResult{mk("A", 10, 0, 10), mk("B", 20, 5, 20), mk("C", 10, 0, 0)}
	as, err := Analyze(rs, nil, AnalysisOptions{Targets: ts, MaxIter: 10})
	if err != nil {
		t.Fatal(err)
	}
	a := as[0]
	// Problems (i, 0): best 0 (A, C); (i, 1): best 0 (C).
	// A: ratio 1 on (i, 0), +Inf on (i, 1) → ρ(1) = ½.
	// B: +Inf on both. C: 1 on both.
	want := map[string][2][]float64{"A": {{1}, {0.5}}, "B": {{}, {}}, "C": {{1}, {1}}}
	for _, c := range a.Perf {
		w := want[c.Method]
		if len(c.X) != len(w[0]) || (len(c.X) > 0 && (c.X[0] != w[0][0] || c.Y[0] != w[1][0])) {
			t.Errorf("perf profile %s: x %v y %v, want x %v y %v", c.Method, c.X, c.Y, w[0], w[1])
		}
	}
	for _, cs := range [][]Curve2D{a.Perf, a.Data, a.ECDF} {
		for _, c := range cs {
			for i := range c.X {
				if math.IsNaN(c.X[i]) || math.IsInf(c.X[i], 0) || math.IsNaN(c.Y[i]) {
					t.Errorf("curve %s: point (%v, %v)", c.Method, c.X[i], c.Y[i])
				}
			}
		}
	}
	var b bytes.Buffer
	if err := WriteSummaryJSON(&b, testEnv, nil, as, DefaultCostWeights); err != nil {
		t.Errorf("WriteSummaryJSON: %v", err)
	}
}

// TestAnalysesRefuseImpossibleRuns: negative oracle counts (in the cost
// or at a hit), a hit after the run's whole cost, hits out of order,
// lowered rounds above the rounds, a negative trial or trace count are
// refused by Analyze and Summarize with an error naming the run, not
// analysed.
func TestAnalysesRefuseImpossibleRuns(t *testing.T) {
	ok := func() *TrialResult {
		return &TrialResult{Family: "f", Instance: "i", Method: "m", Outcome: sod.Solved, Cost: Cost{EvalCounts: sod.EvalCounts{Grad: 10, H: 2}},
			Hits: []Hit{{Target: 0, EvalCounts: sod.EvalCounts{Grad: 5}}}, Rounds: 2, Lowered: 1}
	}
	for name, c := range map[string]struct {
		edit func(r *TrialResult)
		want string
	}{
		"negative grad":     {func(r *TrialResult) { r.Cost.Grad = -1 }, "want ≥ 0"},
		"negative h":        {func(r *TrialResult) { r.Cost.H = -5 }, "want ≥ 0"},
		"negative hit":      {func(r *TrialResult) { r.Hits[0].HessVec = -1 }, "hit 0"},
		"hit after cost":    {func(r *TrialResult) { r.Hits[0].Grad = 11 }, "after the run's whole cost"},
		"hits out of order": {func(r *TrialResult) { r.Hits = append(r.Hits, Hit{Target: 0}) }, "must be ≥ 0 and increase"},
		"lowered > rounds":  {func(r *TrialResult) { r.Lowered = 3 }, "lowered ≤ rounds"},
		"negative trial":    {func(r *TrialResult) { r.Trial = -1 }, "trial -1"},
		"negative trace":    {func(r *TrialResult) { r.Trace = []TracePoint{{Grad: -1}} }, "trace point 0"},
		"negative h value":  {func(r *TrialResult) { r.H = -1 }, "want ≥ 0 or null"},
		"wall < 0":          {func(r *TrialResult) { r.Cost.Wall = -1 }, "wall time"},
		"bad judge":         {func(r *TrialResult) { r.Judge = 7 }, "judge 7"},
	} {
		r := ok()
		c.edit(r)
		rs := []*TrialResult{ok(), r}
		rs[0].Instance = "h"
		_, err1 := Analyze(rs, nil, AnalysisOptions{})
		_, err2 := Summarize(rs)
		for _, err := range []error{err1, err2} {
			if !errors.Is(err, ErrBadBench) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "run 1") {
				t.Errorf("%s: %v, want an error naming run 1 and %q", name, err, c.want)
			}
		}
	}
	if _, err := Analyze([]*TrialResult{ok()}, nil, AnalysisOptions{}); err != nil {
		t.Errorf("a valid run: %v", err)
	}
}

// TestFeatureClaimsAreBounds: the sentences under "Instance features"
// state bounds computed from the features, rounded in the bound's
// direction: a minimal δ lower bound of 0.808 was printed "≥ 0.81"
// (false); a minimal line ratio of 1.5549 must not read 1.56.
func TestFeatureClaimsAreBounds(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0.808, "0.808"}, {0.8089, "0.808"}, {0.4, "0.4"}, {0.97399, "0.973"}, {1.5549, "1.55"}, {1530, "1.53e+03"}, {1, "1"}, {-1.06e-6, "-1.06e-06"}, {-0.8081, "-0.809"}} {
		if got := lowerBound(c.v); got != c.want {
			t.Errorf("lowerBound(%v) = %s, want %s", c.v, got, c.want)
		}
		if f, _ := strconv.ParseFloat(lowerBound(c.v), 64); f > c.v {
			t.Errorf("lowerBound(%v) = %v is above it", c.v, f)
		}
	}
	// Gaussian-like features: every line minimum ≥ 1.5549, δ bound ≥ 0.808.
	vals := [][]float64{{1.5549, 2, 0.58, 0.1, 0.808, 1}, {13.9, 12.7, 0.2, 0.05, 0.973, 1.7}}
	text := strings.Join(featureSentences("gaussian", vals), "\n")
	for _, want := range []string{"at least 1.55·h(X̂)", "≥ 1 − 2h/d² ≥ 0.808 on every instance", "EFS(0) ≤ 1 on all 2 instances"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "0.81 ") || strings.Contains(text, "1.56") {
		t.Errorf("a bound rounded the wrong way:\n%s", text)
	}
}
