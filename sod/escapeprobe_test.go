package sod

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRunEscapeProbeContinues: when a probed candidate is accepted, the
// next phase continues from the probe's last iterate. The run ends at the
// point a phase from the candidate reaches (GD from it with the phases'
// options, computed here directly), to the last bit, and the probe's
// steps are evaluated once: the run's gradient count is the first
// phase's, plus the probe's, plus one evaluation at the probe's end (the
// probe met GradTol), and the global iteration numbers count the probe.
func TestRunEscapeProbeContinues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start []float64 // the candidate
		probe int
	}{
		{"probe meets GradTol", []float64{0.9, 0.3, 0.2}, 20000},
		{"probe shorter than a phase", []float64{0.9, 0.3, 0.2}, 700},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, err := PMCCaseStudyProblem(0.3)
			if err != nil {
				t.Fatal(err)
			}
			var c EvalCounter
			p := base.WithCounter(&c)
			gd := GDOptions{Iteration: Iteration{Step: 0.01, MaxIter: 20000, TraceEvery: 100}, GradTol: 1e-11}
			cand := mat.NewDense(3, 1, tc.start)
			esc := EscapeFunc("fixed", func(context.Context, *EscapeState) ([]Candidate, error) {
				return []Candidate{{X: cand, Probe: tc.probe}}, nil
			})
			spurious := mat.NewDense(3, 1, []float64{1, 0, -1})
			run, err := RunEscape(t.Context(), p, spurious, esc, EscapeOptions{GD: gd, MaxEscapes: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Escapes) != 1 || run.Escapes[0].Accepted != 0 || len(run.Phases) != 2 {
				t.Fatalf("want one accepted escape and two phases, got %d rounds, %d phases (%v)", len(run.Escapes), len(run.Phases), run.Outcome)
			}
			want, err := GradientDescent(t.Context(), base, cand, gd)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(run.X, want.X) || run.H != want.H {
				t.Fatalf("run ends at h = %v, a phase from the candidate at h = %v (max |Δx| = %g)", run.H, want.H, maxAbsDiff(run.X, want.X))
			}
			cr := run.Escapes[0].Candidates[0]
			wantProbe := min(tc.probe, want.Iter)
			if cr.ProbeIter != wantProbe || cr.ProbeX == nil {
				t.Fatalf("probe took %d steps, want %d", cr.ProbeIter, wantProbe)
			}
			first, second := run.Phases[0], run.Phases[1]
			if second.Iter != want.Iter-wantProbe {
				t.Errorf("second phase took %d steps, want %d − %d", second.Iter, want.Iter, wantProbe)
			}
			// Each phase evaluates ∇h at its start and after every step; the
			// probe likewise; judging the candidate evaluates h once.
			wantGrad := int64(first.Iter+1) + int64(wantProbe+1) + int64(second.Iter+1)
			if got := c.Counts().Grad; got != wantGrad {
				t.Errorf("∇h evaluated %d times, want %d (each step once)", got, wantGrad)
			}
			if got := run.PhaseStart[1]; got != first.Iter+wantProbe {
				t.Errorf("second phase starts at global iteration %d, want %d + %d", got, first.Iter, wantProbe)
			}
		})
	}
}
