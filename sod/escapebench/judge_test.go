package escapebench

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// TestJudges: judged after a probe, a method proposes only its candidate
// of least h, with a probe of the phase length; judged by raw h, its
// candidates lose their probes; names and rules follow.
func TestJudges(t *testing.T) {
	p := sod.BasicExampleProblem()
	xs := []*mat.Dense{mat.NewDense(2, 1, []float64{0, 2}), mat.NewDense(2, 1, []float64{0.9, 0.1}), mat.NewDense(2, 1, []float64{3, 3})}
	three := EscaperMethod("three", nil, func(CertifiedInstance, uint64) sod.Escaper {
		return sod.EscapeFunc("three", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) {
			var cs []sod.Candidate
			for i, x := range xs {
				cs = append(cs, sod.Candidate{X: x, Probe: 5 * i})
			}
			return cs, nil
		})
	})
	best := 0
	for i, x := range xs {
		if p.H(x) < p.H(xs[best]) {
			best = i
		}
	}
	st := &sod.EscapeState{P: p, X: mat.NewDense(2, 1, []float64{0, 1}), H: 1}
	pm, err := WithJudge(three, JudgeProbe)
	if err != nil || pm.Name != "three+probe" || pm.Judge != JudgeProbe {
		t.Fatalf("WithJudge = %q %v, %v", pm.Name, pm.Judge, err)
	}
	e, _ := pm.New(CertifiedInstance{}, 0)
	e.(prober).setProbe(3000)
	cs, err := e.Propose(context.Background(), st)
	if err != nil || len(cs) != 1 || cs[0].X != xs[best] || cs[0].Probe != 3000 {
		t.Errorf("probe rule proposes %d candidates (%v), want candidate %d with probe 3000", len(cs), err, best)
	}
	rr := BuiltinMethods()[len(BuiltinMethods())-1]
	raw, err := WithJudge(rr, JudgeRawH)
	if err != nil || raw.Name != "random-restart+raw-h" {
		t.Fatalf("%q, %v", raw.Name, err)
	}
	e, _ = raw.New(CertifiedInstance{}, 1)
	if _, ok := e.(prober); ok {
		t.Error("the raw-h random restart takes a probe")
	}
	cs, _ = e.Propose(context.Background(), st)
	if len(cs) != 1 || cs[0].Probe != 0 {
		t.Errorf("raw-h random restart: %+v", cs)
	}
	if m, _ := WithJudge(rr, JudgeProbe); m.Name != rr.Name {
		t.Errorf("random restart judged by its own rule renamed %q", m.Name)
	}
}

// TestFeatureSentences: the page's sentences follow the features.
func TestFeatureSentences(t *testing.T) {
	nan := 0.0
	vals := [][]float64{{1.5, 2, 0.5, 0.1, 0.81, 1}, {3, 1.9, 0.58, 0.2, 0.9, nan}}
	got := strings.Join(featureSentences("g", vals), "\n")
	for _, want := range []string{"on all 2 instances the minimum of h over the whole β and γ lines is at least 1.5·h(X̂)", "EFS(0) ≤ 1 on all 2", "≥ 0.81 on every instance"} {
		if !strings.Contains(got, want) {
			t.Errorf("sentences lack %q:\n%s", want, got)
		}
	}
	got = strings.Join(featureSentences("p", [][]float64{{0.5, 2, 3, 0, 0.5, 1}, {2, 2, 3, 0, 0.5, 1}}), "\n")
	if !strings.Contains(got, "on 1 of 2 instances no point of the β or γ line lowers h") || strings.Contains(got, "EFS(0) ≤ 1") {
		t.Errorf("sentences:\n%s", got)
	}
}
