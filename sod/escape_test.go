package sod

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/paper"
)

// pmcSpuriousStart returns the PMC case-study start used below: the
// paper's small initialisation x0 = 0.01·N(0, I) with a fixed seed such
// that 6000 GD steps of size 0.001 end near the spurious minimum
// ±√((1−ε²)/(1+ε²))(1, 0, −1) (REPRODUCTION.md F1).
func pmcSpuriousStart() *mat.Dense {
	rng := rand.New(rand.NewPCG(1, 1))
	return mat.NewDense(3, 1, []float64{0.01 * rng.NormFloat64(), 0.01 * rng.NormFloat64(), 0.01 * rng.NormFloat64()})
}

// TestRunEscapeRealWorld runs the escape driver from the real-world
// spurious minimum. h is recomputed with the test's own operator to check
// the driver's descent verdicts independently.
func TestRunEscapeRealWorld(t *testing.T) {
	p := RealWorldProblem()
	op, b, _, _, _ := refRealWorld()
	gd := GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 2000}, GradTol: 1e-10}
	rc := paper.RealWorldSettings()
	tests := []struct {
		name    string
		esc     Escaper
		allow   bool
		outcome Outcome
	}{
		// Descent-verified SOD line search over β/γ points, l = 5.
		{"line search l=5", &SODLineSearch{L: 5, Rho: 0.1, Eta: 0.1}, false, Solved},
		// The one ablation cell whose point lowers h (REPRODUCTION.md F8).
		{"γ l=7 t=2e6", &MultiStepSOD{L: 7, T: 2000000, Rho: 0.1, Eta: 0.1}, false, Solved},
		// The paper's case-study setting (l=5, t=150000): the γ-type point
		// raises h (0.0729 > 0.0583), so the driver refuses it …
		{"paper l=5 t=150000", &MultiStepSOD{L: rc.L, T: rc.T, Rho: 0.1, Eta: 0.1}, false, NoDescent},
		// … and, told to use it anyway, GD from it still reaches the solution.
		{"paper l=5 t=150000, ascent allowed", &MultiStepSOD{L: rc.L, T: rc.T, Rho: 0.1, Eta: 0.1}, true, Solved},
	}
	for _, tc := range tests {
		run, err := RunEscape(t.Context(), p, RealWorldXHat(), tc.esc, EscapeOptions{GD: gd, MaxEscapes: 2, AllowAscent: tc.allow, TargetH: 1e-16})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if run.Outcome != tc.outcome {
			t.Errorf("%s: outcome %q, want %q", tc.name, run.Outcome, tc.outcome)
		}
		if len(run.Escapes) == 0 {
			t.Fatalf("%s: no escape round", tc.name)
		}
		e := run.Escapes[0]
		hHat := refH(op, b, e.From)
		for _, c := range e.Candidates {
			if c.Reason == RejectInvalid {
				continue
			}
			hc := refH(op, b, c.X)
			if !relClose(c.H, hc, 1e-12) {
				t.Errorf("%s %s: driver h = %v, independent %v", tc.name, c.Label, c.H, hc)
			}
			if c.Descent != (hc < hHat) {
				t.Errorf("%s %s: descent verdict %v but h %v vs h(X̂) %v", tc.name, c.Label, c.Descent, hc, hHat)
			}
			if c.Accepted && !c.Descent && !e.Ascent {
				t.Errorf("%s: non-descending candidate %s accepted silently", tc.name, c.Label)
			}
		}
		if tc.outcome == Solved {
			if d := p.DistStar(run.X); d > 1e-6 {
				t.Errorf("%s: final ‖XXᵀ−M*‖ = %v", tc.name, d)
			}
			if e.Ascent != tc.allow {
				t.Errorf("%s: Ascent = %v", tc.name, e.Ascent)
			}
		}
	}
}

// TestRunEscapePMC follows the paper's PMC protocol (n = 3, ε = 0.3,
// 6000 GD steps of size 0.001, multi-step SOD with l = 11, t = 59000,
// 1000 more steps) and requires the paper's success criterion
// ‖XXᵀ − M*‖_F < 0.02.
func TestRunEscapePMC(t *testing.T) {
	c := paper.PMCSettings()
	p, err := PMCCaseStudyProblem(c.Eps)
	if err != nil {
		t.Fatal(err)
	}
	for _, esc := range []Escaper{
		&MultiStepSOD{L: c.L, T: c.T, Rho: 0.1, Eta: 0.1},
		&SODLineSearch{L: c.L, Rho: 0.1, Eta: 0.1},
	} {
		run, err := RunEscape(t.Context(), p, pmcSpuriousStart(), esc, EscapeOptions{
			GD: GDOptions{Iteration: Iteration{Step: c.Step, MaxIter: c.After}}, FirstPhaseIter: c.Before, MaxEscapes: 1, TargetDist: 0.02})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Escapes) != 1 {
			t.Fatalf("%s: %d escapes (outcome %s)", esc.Name(), len(run.Escapes), run.Outcome)
		}
		// The stalled point is the true spurious minimum ±a(1,0,−1).
		a := math.Sqrt((1 - 0.09) / (1 + 0.09))
		from := run.Escapes[0].From.RawMatrix().Data
		if math.Abs(math.Abs(from[0])-a) > 1e-3 || math.Abs(from[1]) > 1e-3 || math.Abs(from[0]+from[2]) > 1e-3 {
			t.Errorf("%s: stalled at %v, want ±%.6f(1,0,−1)", esc.Name(), from, a)
		}
		if run.Outcome != Solved || p.DistStar(run.X) >= 0.02 {
			t.Errorf("%s: outcome %s, final dist %v", esc.Name(), run.Outcome, p.DistStar(run.X))
		}
		acc := run.Escapes[0].Candidates[run.Escapes[0].Accepted]
		if !(acc.H < run.Escapes[0].HFrom) {
			t.Errorf("%s: accepted candidate h %v ≥ h(X̂) %v", esc.Name(), acc.H, run.Escapes[0].HFrom)
		}
	}
}

// TestRunEscapeReportsNonDescent uses a custom variant proposing the mirror
// point −X̂ (same h) and a worse point; neither may be used silently.
func TestRunEscapeReportsNonDescent(t *testing.T) {
	p := RealWorldProblem()
	esc := EscapeFunc("mirror", func(_ context.Context, st *EscapeState) ([]Candidate, error) {
		var m, w mat.Dense
		m.Scale(-1, st.X)
		w.Scale(3, st.X)
		return []Candidate{{X: &m, Label: "mirror"}, {X: &w, Label: "3X̂"}, {X: mat.NewDense(2, 2, nil), Label: "bad shape"}}, nil
	})
	gd := GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 200}}
	run, err := RunEscape(t.Context(), p, RealWorldXHat(), esc, EscapeOptions{GD: gd})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != NoDescent || run.Escapes[0].Accepted != -1 {
		t.Fatalf("outcome %q accepted %d", run.Outcome, run.Escapes[0].Accepted)
	}
	want := []Rejection{RejectNoDecrease, RejectNoDecrease, RejectInvalid}
	for i, c := range run.Escapes[0].Candidates {
		if c.Reason != want[i] || c.Accepted {
			t.Errorf("candidate %s: reason %q accepted %v, want %q", c.Label, c.Reason, c.Accepted, want[i])
		}
	}
	run, err = RunEscape(t.Context(), p, RealWorldXHat(), esc, EscapeOptions{GD: gd, AllowAscent: true})
	if err != nil {
		t.Fatal(err)
	}
	if !run.Escapes[0].Ascent || run.Escapes[0].Accepted != 0 {
		t.Errorf("AllowAscent: ascent=%v accepted=%d, want true, 0 (lowest h)", run.Escapes[0].Ascent, run.Escapes[0].Accepted)
	}
	// The global trace has the stalled point twice at the escape iteration.
	if len(run.PhaseStart) != 2 || run.Trace.Iter[len(run.Phases[0].Trace.Iter)] != run.PhaseStart[1] {
		t.Errorf("trace phases %v", run.PhaseStart)
	}
}

func TestRunEscapeErrors(t *testing.T) {
	p := RealWorldProblem()
	x := RealWorldXHat()
	gd := GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 10}}
	if _, err := RunEscape(t.Context(), p, x, nil, EscapeOptions{GD: gd}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("nil escaper: %v", err)
	}
	if _, err := RunEscape(t.Context(), p, mat.NewDense(2, 1, nil), &NegGradLineSearch{}, EscapeOptions{GD: gd}); !errors.Is(err, ErrShape) {
		t.Errorf("bad x0: %v", err)
	}
	if _, err := RunEscape(t.Context(), p, x, &NegGradLineSearch{}, EscapeOptions{GD: gd, MaxEscapes: -1}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("negative MaxEscapes: %v", err)
	}
	for _, esc := range []Escaper{
		&MultiStepSOD{L: 4, T: 10, Rho: 0.1, Eta: 0.1},
		&MultiStepSOD{L: 5, T: -1, Rho: 0.1, Eta: 0.1},
		&MultiStepSOD{L: 5, T: 10, Rho: 1.5, Eta: 0.1},
		&SODLineSearch{L: 1, Rho: 0.1, Eta: 0.1},
		&SODLineSearch{L: 3, Rho: 0.1, Eta: -0.1},
		&PerturbedGD{Radius: -1},
		&PerturbedGD{TThres: -1},
		&SODLineSearch{TDecades: 19},
		&SODLineSearch{TPerDecade: 1001},
		&ExactSubspaceSOD{T: MaxSubspaceSteps + 1},
		&PerturbedGD{Radius: 1, Samples: -1},
		&RandomLineSearch{Directions: MaxCandidates + 1},
		&RandomLineSearch{Alphas: []float64{1, math.NaN()}},
		&NegGradLineSearch{Alphas: []float64{-1}},
		&SODLineSearch{L: 3, Rho: 0.1, Eta: 0.1, GrowthQ: 0.5},
		&SODLineSearch{L: 3, Rho: 0.1, Eta: 0.1, Kinds: []EscapeKind{EscapeKind(99)}},
		&MultiStepSOD{L: 3, T: 10, Rho: 0.1, Eta: 0.1, Force: EscapeKind(99)},
		&ExactSubspaceSOD{L: 3, T: -1, Rho: 0.1, Eta: 0.1},
		&SingleStepSOD{Options: SingleStepOptions{Delta: math.NaN()}},
		EscapeFunc("nil", nil),
	} {
		// A variant's bad settings are refused by its Validate before any
		// work (by its Validate), not recorded as an escape error.
		if _, err := RunEscape(t.Context(), p, x, esc, EscapeOptions{GD: gd}); !errors.Is(err, ErrBadParameter) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrDelta) {
			t.Errorf("%s: RunEscape error %v, want ErrBadParameter, ErrTooLarge or ErrDelta before any work", esc.Name(), err)
		}
	}
	if _, err := RunEscape(t.Context(), p, x, &NegGradLineSearch{}, EscapeOptions{GD: gd, Accept: AcceptRule(99)}); !errors.Is(err, ErrBadParameter) {
		t.Errorf("unknown AcceptRule: %v", err)
	}
}

// TestRunEscapeFailingVariant: an Escaper whose Propose returns an error
// in round k ends the run at the point GD reached in phase k, with the
// error recorded in that round and in the run; one that panics in round k
// makes RunEscape return an error (ErrEscaperPanic) and no run. The reference points are
// computed by separate GradientDescent calls, and the first round's
// candidate is checked to lower h with the test's own operator.
func TestRunEscapeFailingVariant(t *testing.T) {
	p := RealWorldProblem()
	op, b, _, _, _ := refRealWorld()
	errBoom := errors.New("boom")
	gd := GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 5}}
	// near is a point close to z = e₁, where h is far below h(X̂).
	near := mat.NewDense(3, 1, []float64{0.9, 0.05, 0})
	if hn, hx := refH(op, b, near), refH(op, b, RealWorldXHat()); !(hn < hx) {
		t.Fatalf("test set-up: h(near) = %v not below h(X̂) = %v", hn, hx)
	}
	// failAt returns a variant that proposes near in the rounds before
	// round k and then fails, by error or by panic.
	failAt := func(k int, panics bool) Escaper {
		return EscapeFunc("failing", func(_ context.Context, st *EscapeState) ([]Candidate, error) {
			if st.Round < k {
				return []Candidate{{X: near, Label: "near z"}}, nil
			}
			if panics {
				var s []int
				_ = s[st.Round] // index out of range
			}
			return nil, fmt.Errorf("round %d: %w", st.Round, errBoom)
		})
	}
	phase0, err := GradientDescent(t.Context(), p, RealWorldXHat(), gd)
	if err != nil {
		t.Fatal(err)
	}
	phase1, err := GradientDescent(t.Context(), p, near, gd)
	if err != nil {
		t.Fatal(err)
	}
	for _, round := range []int{0, 1} {
		run, err := RunEscape(t.Context(), p, RealWorldXHat(), failAt(round, true), EscapeOptions{GD: gd, MaxEscapes: 3, TargetH: 1e-16})
		if run != nil || !errors.Is(err, ErrEscaperPanic) {
			t.Errorf("panic in round %d: run %v, error %v, want no run and ErrEscaperPanic", round, run != nil, err)
			continue
		}
		// The error names the escaper and the round, wraps the panic value
		// (a runtime error here) and holds the stack down to the panic.
		var rerr runtime.Error
		msg := err.Error()
		for _, want := range []string{`"failing"`, fmt.Sprintf("round %d", round), "index out of range", "goroutine ", "TestRunEscapeFailingVariant"} {
			if !strings.Contains(msg, want) {
				t.Errorf("panic in round %d: error lacks %q:\n%s", round, want, msg)
			}
		}
		if !errors.As(err, &rerr) {
			t.Errorf("panic in round %d: error does not wrap the runtime error: %v", round, err)
		}
	}
	for _, tc := range []struct {
		name  string
		round int
		want  *GDResult // GD phase whose point ends the run
	}{
		{"error in round 0", 0, phase0},
		{"error in round 1", 1, phase1},
	} {
		run, err := RunEscape(t.Context(), p, RealWorldXHat(), failAt(tc.round, false), EscapeOptions{GD: gd, MaxEscapes: 3, TargetH: 1e-16})
		if err != nil {
			t.Errorf("%s: RunEscape error %v", tc.name, err)
			continue
		}
		if run.Outcome != EscapeError || run.Err == nil {
			t.Errorf("%s: outcome %q err %v, want escape-error", tc.name, run.Outcome, run.Err)
			continue
		}
		if !errors.Is(run.Err, errBoom) {
			t.Errorf("%s: run.Err = %v does not wrap the variant's error", tc.name, run.Err)
		}
		if len(run.Escapes) != tc.round+1 || len(run.Phases) != tc.round+1 {
			t.Errorf("%s: %d rounds, %d phases, want %d each", tc.name, len(run.Escapes), len(run.Phases), tc.round+1)
			continue
		}
		last := run.Escapes[tc.round]
		if last.Err == nil || len(last.Candidates) != 0 || last.Accepted != -1 {
			t.Errorf("%s: last round err %v, %d candidates, accepted %d", tc.name, last.Err, len(last.Candidates), last.Accepted)
		}
		for _, e := range run.Escapes[:tc.round] {
			if e.Err != nil || e.Accepted != 0 {
				t.Errorf("%s: earlier round %d: err %v accepted %d", tc.name, e.Round, e.Err, e.Accepted)
			}
		}
		if !mat.Equal(run.X, tc.want.X) || !mat.Equal(last.From, tc.want.X) {
			t.Errorf("%s: run ends at %v, GD reached %v", tc.name, mat.Formatted(run.X.T()), mat.Formatted(tc.want.X.T()))
		}
		if h := refH(op, b, run.X); math.Abs(run.H-h) > 1e-12*math.Max(h, 1) {
			t.Errorf("%s: run.H = %v, h(run.X) = %v", tc.name, run.H, h)
		}
		if wantLen := len(phase0.Trace.Iter) + tc.round*len(phase1.Trace.Iter); len(run.Trace.Iter) != wantLen {
			t.Errorf("%s: trace length %d, want %d", tc.name, len(run.Trace.Iter), wantLen)
		}
	}
}

// TestPerturbedGDSeeded checks reproducibility and the ball radius.
func TestPerturbedGDSeeded(t *testing.T) {
	p := RealWorldProblem()
	st := &EscapeState{P: p, X: RealWorldXHat()}
	a := &PerturbedGD{Radius: 0.3, TThres: 5, Samples: 4, Seed: 7}
	b := &PerturbedGD{Radius: 0.3, TThres: 5, Samples: 4, Seed: 7}
	c := &PerturbedGD{Radius: 0.3, TThres: 5, Samples: 4, Seed: 8}
	ca, _ := a.Propose(t.Context(), st)
	cb, _ := b.Propose(t.Context(), st)
	cc, _ := c.Propose(t.Context(), st)
	for i := range ca {
		if !mat.Equal(ca[i].X, cb[i].X) {
			t.Errorf("same seed, different perturbation %d", i)
		}
		if mat.Equal(ca[i].X, cc[i].X) {
			t.Errorf("different seeds, same perturbation %d", i)
		}
		var d mat.Dense
		d.Sub(ca[i].X, st.X)
		if nrm := mat.Norm(&d, 2); nrm > 0.3 || nrm == 0 {
			t.Errorf("perturbation norm %v outside (0, 0.3]", nrm)
		}
		if ca[i].Probe != 5 {
			t.Errorf("probe %d", ca[i].Probe)
		}
	}
	r1, _ := (&RandomLineSearch{Directions: 1, Seed: 3}).Propose(t.Context(), st)
	r2, _ := (&RandomLineSearch{Directions: 1, Seed: 3}).Propose(t.Context(), st)
	if len(r1) != 16 || !mat.Equal(r1[5].X, r2[5].X) {
		t.Errorf("random line search not reproducible (%d candidates)", len(r1))
	}
}

// TestRunEscapeAcceptRules checks AcceptFirst and AcceptBest on a variant
// whose candidates are X̂·3 (worse), then two points on the way to Z.
func TestRunEscapeAcceptRules(t *testing.T) {
	p := RealWorldProblem()
	esc := EscapeFunc("fixed", func(_ context.Context, st *EscapeState) ([]Candidate, error) {
		var w mat.Dense
		w.Scale(3, st.X)
		return []Candidate{
			{X: &w, Label: "worse"},
			{X: mat.NewDense(3, 1, []float64{0.8, 0, 0}), Label: "good"},
			{X: mat.NewDense(3, 1, []float64{0.99, 0, 0}), Label: "better"},
		}, nil
	})
	for _, tc := range []struct {
		rule AcceptRule
		want int
	}{{AcceptFirst, 1}, {AcceptBest, 2}} {
		run, err := RunEscape(t.Context(), p, RealWorldXHat(), esc, EscapeOptions{GD: GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 50}}, Accept: tc.rule, MaxEscapes: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := run.Escapes[0].Accepted; got != tc.want {
			t.Errorf("rule %v: accepted %d, want %d", tc.rule, got, tc.want)
		}
		if c := run.Escapes[0].Candidates[0]; c.Accepted || c.Reason != RejectNoDecrease {
			t.Errorf("rule %v: worse candidate %+v", tc.rule, c.Reason)
		}
	}
}

// TestExactSubspaceSOD: the exact subspace dynamics, collapsed term by
// term, escape PMC (l = 11, t = 59000, via the b-term) and the real-world
// case at l = 7 (via the c-term), but not the real-world case at l = 5,
// where exact PGD returns to ŵ (REPRODUCTION.md F9).
func TestExactSubspaceSOD(t *testing.T) {
	pc, rc := paper.PMCSettings(), paper.RealWorldSettings()
	pmc, _ := PMCCaseStudyProblem(pc.Eps)
	rw := RealWorldProblem()
	for _, tc := range []struct {
		name    string
		p       *Problem
		x0      *mat.Dense
		esc     *ExactSubspaceSOD
		opt     EscapeOptions
		outcome Outcome
		label   string
	}{
		{"PMC l=11", pmc, pmcSpuriousStart(), &ExactSubspaceSOD{L: pc.L, T: int(pc.T), Rho: 0.1, Eta: 0.1},
			EscapeOptions{GD: GDOptions{Iteration: Iteration{Step: 0.001, MaxIter: 1000}}, FirstPhaseIter: 6000, TargetDist: 0.02}, Solved, "exact b-term t=59000"},
		{"real-world l=7", rw, RealWorldXHat(), &ExactSubspaceSOD{L: 7, T: int(rc.T), Rho: 0.1, Eta: 0.1},
			EscapeOptions{GD: GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 2000}, GradTol: 1e-10}, TargetH: 1e-16}, Solved, "exact c-term t=150000"},
		{"real-world l=5", rw, RealWorldXHat(), &ExactSubspaceSOD{L: rc.L, T: int(rc.T), Rho: 0.1, Eta: 0.1},
			EscapeOptions{GD: GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 2000}, GradTol: 1e-10}, TargetH: 1e-16}, NoDescent, ""},
	} {
		run, err := RunEscape(t.Context(), tc.p, tc.x0, tc.esc, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if run.Outcome != tc.outcome {
			t.Errorf("%s: outcome %q, want %q", tc.name, run.Outcome, tc.outcome)
			continue
		}
		if e := run.Escapes[0]; tc.label != "" && e.Candidates[e.Accepted].Label != tc.label {
			t.Errorf("%s: accepted %q, want %q", tc.name, e.Candidates[e.Accepted].Label, tc.label)
		}
	}
}

// TestSingleStepSODEscaper: on the real-world case EFS < 1 (REPRODUCTION.md
// F3: ≈ 0.22–0.24), so single-step SOD certifies nothing and the
// driver reports that no candidate was proposed.
func TestSingleStepSODEscaper(t *testing.T) {
	p := RealWorldProblem()
	esc := &SingleStepSOD{Options: SingleStepOptions{Delta: 0.81106}}
	run, err := RunEscape(t.Context(), p, RealWorldXHat(), esc, EscapeOptions{GD: GDOptions{Iteration: Iteration{Step: 0.1, MaxIter: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != NoCandidates {
		t.Errorf("outcome %q, want no-candidates", run.Outcome)
	}
	res, err := SingleStep(p, run.Escapes[0].From, esc.Options)
	if err != nil {
		t.Fatal(err)
	}
	if res.EFS > 0.25 || res.EFS < 0.2 {
		t.Errorf("EFS = %v, REPRODUCTION.md F3: 0.22–0.24", res.EFS)
	}
}

// BenchmarkSODEscapePMC80 measures one full multi-step SOD escape step on
// PMC with n = 80, ε = 0.15 (ground truth z = 1, rank 1): critical-point
// analysis (eigen-decomposition of ∇f, SVD of X̂, E X̂; Hessian skipped),
// the closed-form γ/β point at l = 11, t = 59000 and the exact h check, at
// a point reached by 3000 GD steps from a small seeded initialisation.
func BenchmarkSODEscapePMC80(b *testing.B) {
	op, err := NewPMCOperator(80, 0.15)
	if err != nil {
		b.Fatal(err)
	}
	z := mat.NewDense(80, 1, nil)
	for i := 0; i < 80; i++ {
		z.Set(i, 0, 1)
	}
	p, err := NewProblem(op, z, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(80, 1))
	x0 := randDenseFrom(rng, 80, 1)
	x0.Scale(0.01, x0)
	res, err := GradientDescent(b.Context(), p, x0, GDOptions{Iteration: Iteration{Step: 0.001, MaxIter: 3000}})
	if err != nil {
		b.Fatal(err)
	}
	pc := paper.PMCSettings()
	esc := &MultiStepSOD{L: pc.L, T: pc.T, Rho: 0.1, Eta: 0.1, Force: KindGamma}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := &EscapeState{P: p, X: res.X, H: res.H, critOpt: CriticalOptions{SkipHessian: true}}
		cands, err := esc.Propose(b.Context(), st)
		if err != nil || len(cands) == 0 {
			b.Fatal(err, len(cands))
		}
		judgeCandidate(b.Context(), p, cands[0], GDOptions{Iteration: Iteration{Step: 0.001}}, res.H, DefaultDivergenceLimit)
	}
}

// BenchmarkSubspacePGDStep measures one exact subspace PGD step (its cost
// does not depend on n or m once the subspace is built).
func BenchmarkSubspacePGDStep(b *testing.B) {
	p := RealWorldProblem()
	cp, _ := AnalyzeCritical(p, RealWorldXHat(), CriticalOptions{})
	s, _ := NewPaperSubspace(p, cp, 5)
	pgd, _ := NewSubspacePGD(s, 0.1)
	c := []float64{1, 0.1, 0}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pgd.Step(c)
	}
}

// TestSODLineSearchGrowthQ: with GrowthQ the β-type points are
// (ρQ^t)^{1/l} u_n q_rᵀ with Q = GrowthQ whenever the derived η is below
// Eta, so their norms are checked against (ρ·GrowthQ^t)^{1/l} without
// using λ_n; when the derived η exceeds Eta, nothing changes; a growth
// factor ≤ 1 is an error.
func TestSODLineSearchGrowthQ(t *testing.T) {
	p := RealWorldProblem()
	state := func() *EscapeState { return &EscapeState{P: p, X: RealWorldXHat(), H: p.H(RealWorldXHat())} }
	ts := []int64{0, 1, 10, 1000, 100000}
	const rho, l = 0.1, 3
	// Real-world λ_n ≈ −0.13, so (Q − 1)/(−λ_n)³ ≈ 0.04 < η = 0.1 for Q = 1.0001.
	for _, q := range []float64{1.0001, 1.00001} {
		cands, err := (&SODLineSearch{L: l, Rho: rho, Eta: 0.1, Ts: ts, Kinds: []EscapeKind{KindBeta}, GrowthQ: q}).Propose(t.Context(), state())
		if err != nil || len(cands) != len(ts) {
			t.Fatalf("Q=%v: %d candidates, err %v", q, len(cands), err)
		}
		for i, c := range cands {
			want := math.Pow(rho*math.Pow(q, float64(ts[i])), 1.0/l)
			if got := mat.Norm(c.X, 2); math.Abs(got-want) > 1e-9*want {
				t.Errorf("Q=%v t=%d: ‖X̌‖_F = %.15g, (ρQ^t)^{1/l} = %.15g", q, ts[i], got, want)
			}
		}
	}
	// Derived η = 0.5/(−λ_n)³ ≫ Eta: η stays Eta and the points are unchanged.
	plain, err := (&SODLineSearch{L: l, Rho: rho, Eta: 0.1, Ts: ts}).Propose(t.Context(), state())
	if err != nil {
		t.Fatal(err)
	}
	capped, err := (&SODLineSearch{L: l, Rho: rho, Eta: 0.1, Ts: ts, GrowthQ: 1.5}).Propose(t.Context(), state())
	if err != nil || len(capped) != len(plain) {
		t.Fatalf("capped: %d candidates (want %d), err %v", len(capped), len(plain), err)
	}
	for i := range plain {
		if !mat.Equal(plain[i].X, capped[i].X) {
			t.Errorf("candidate %s changed although the derived η exceeds Eta", plain[i].Label)
		}
	}
	for _, q := range []float64{0.5, 1, math.Inf(1), -2} {
		if _, err := (&SODLineSearch{L: l, Rho: rho, Eta: 0.1, GrowthQ: q}).Propose(t.Context(), state()); !errors.Is(err, ErrBadParameter) {
			t.Errorf("GrowthQ %v: err %v, want ErrBadParameter", q, err)
		}
	}
}
