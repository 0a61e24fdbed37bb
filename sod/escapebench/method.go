package escapebench

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/randstream"
)

// Method is an escape method under test: a name, its parameters and a
// constructor of a fresh sod.Escaper for one run (trial seed given, so
// seeded methods differ between trials and runs on parallel workers share
// no state).
type Method struct {
	// Name is the method's name in every table (for a built-in method
	// with settings, the canonical name ResolveMethod gives).
	Name string
	// Params describes the method's settings. A result records the
	// settings read back from the escaper that ran (sod.EscaperParams of
	// its table); Params is recorded only for keys that escaper has no
	// table entry for (a method of your own).
	Params map[string]string
	// Seeded says that the method's runs depend on the trial seed. A
	// method that does not (a deterministic escaper) is run once per
	// instance whatever Suite.Trials: repeating it would give identical
	// runs and a falsely narrow interval.
	Seeded bool
	// Weight is the relative cost of one run against a run of gradient
	// descent alone, for progress estimates only (0 means 1).
	Weight float64
	// Judge is the rule by which the method's runs accept a candidate
	// (the zero value is JudgeRawH); WithJudge makes the method judged
	// the other way.
	Judge JudgingRule
	// MaxN is the largest n the method applies to (0: any n). The suite
	// does not run it on larger instances: single-step and exact subspace
	// SOD need n×n arrays (sod.MaxDenseSize).
	MaxN int
	// New returns the escaper of one run on instance in.
	New func(in CertifiedInstance, seed uint64) (sod.Escaper, error)

	// configure, for a built-in method, returns it configured by settings
	// text, and the canonical name's settings (ResolveMethod).
	configure func(kvs []sod.KeyValue) (Method, []string, error)
	// perRunKeys are the settings a built-in method's runs choose (the
	// seed): a result records them in its own fields, not in Params.
	perRunKeys []string
}

// EscaperMethod makes a Method of a user escaper: newEsc is called once per
// run (return a fresh value if the escaper has state). The method counts
// as Seeded (run Suite.Trials times); set Seeded = false on the result for
// a deterministic escaper.
func EscaperMethod(name string, params map[string]string, newEsc func(in CertifiedInstance, seed uint64) sod.Escaper) Method {
	return Method{Name: name, Params: params, Seeded: true, New: func(in CertifiedInstance, seed uint64) (sod.Escaper, error) {
		if newEsc == nil {
			return nil, fmt.Errorf("%w: method %q: nil escaper constructor (EscaperMethod's newEsc)", ErrBadBench, name)
		}
		esc := newEsc(in, seed)
		if esc == nil {
			return nil, fmt.Errorf("%w: method %q: the escaper constructor returned nil", ErrBadBench, name)
		}
		return esc, nil
	}}
}

// ConfigurableMethod makes a Method of your own escaper type E with a
// table of settings (sod.Configurable, its entries made with
// sod.NewParam): its name then takes "+key-value" settings and grids
// ("mine:scale=0.5,1,2", ExpandMethodGrid) as a built-in method's does,
// each configuration named canonically (ResolveMethod), and its results
// record the settings read back from the escaper that ran. The settings
// are declared once, in the table. Each run gets a copy of cfg, on which
// perRun (if not nil) sets what the run chooses (the trial seed); seeded
// says whether runs depend on the seed (Method.Seeded).
func ConfigurableMethod[E any, P interface {
	*E
	sod.Configurable
}](name string, cfg E, seeded bool, perRun func(e P, in CertifiedInstance, seed uint64)) Method {
	return builtin(Method{Name: name, Seeded: seeded}, cfg, nil, perRun, nil)
}

// MethodDelta is the RIP constant δ single-step SOD is given on every
// instance (computing δ exactly is out of reach at benchmark sizes).
const MethodDelta = 0.5

// BuiltinMethods returns the built-in methods: every sod escaper with its
// sod defaults (its zero value, or the Default constructor where that
// differs, as experiments.DefaultVariants uses them) and the benchmark's
// own choices: single-step SOD with δ = MethodDelta, the paper's
// multi-step SOD at the instance's (l, t) — on instances without one, its
// zero value: l = sod.DefaultLiftingOrder and t chosen per point by
// sod.AutoT(1) — the SOD line search over the t grid 10^0 … 10^12 with
// eight points per decade, exact subspace SOD, perturbed GD, random and
// negative-gradient line searches; single-step and exact subspace SOD
// only up to n = sod.MaxDenseSize (Method.MaxN); the seeded ones take the
// trial seed, the others are deterministic and run once per instance;
// then the baselines "gd-alone" (no escape: gradient descent only) and
// "random-restart" (a fresh start x₀ = N(0, ‖X̂‖²_F/(nr)·I), judged after
// a full gradient descent phase).
//
// Every Params listing is sod.EscaperParams of the escaper the method
// configures, so it cannot drift from the values that run; a setting that
// the method chooses per instance or per trial is listed by how it is
// chosen ("seed": "trial"). A result records the settings read back from
// the escaper that ran (TrialResult.Params), its seed in TrialResult.Seed.
func BuiltinMethods() []Method {
	seeded := []string{"seed"}
	return []Method{
		builtin(Method{Name: "single-step-sod", MaxN: sod.MaxDenseSize}, *sod.DefaultSingleStepSOD(MethodDelta), nil, nil, nil),
		builtin(Method{Name: "multi-step-sod"}, sod.MultiStepSOD{}, nil,
			func(e *sod.MultiStepSOD, in CertifiedInstance, _ uint64) {
				// The paper's (l, t) where the instance has one and the
				// configuration sets neither; elsewhere t is chosen per
				// point from the closed form (T zero: AutoT(1)), since a
				// fixed t lies outside U_β ∪ U_γ at most points.
				if in.L != 0 && (e.L == 0 || e.L == sod.DefaultLiftingOrder) && e.T == 0 {
					e.L, e.T = in.L, in.T
				}
			},
			func(p map[string]string) {
				if p["t"] == "auto" && p["l"] == strconv.Itoa(sod.DefaultLiftingOrder) {
					p["l"] = "instance (paper) or " + p["l"]
					p["t"] = "instance (paper) or AutoT(1)"
				}
			}),
		builtin(Method{Name: "sod-line-search"}, sod.SODLineSearch{BothSigns: true, TDecades: benchTDecades, TPerDecade: benchTPerDecade}, nil, nil, nil),
		builtin(Method{Name: "exact-subspace-sod", MaxN: sod.MaxDenseSize}, *sod.DefaultExactSubspaceSOD(), nil, nil, nil),
		builtin(Method{Name: "perturbed-gd", Seeded: true, Judge: JudgeProbe}, sod.PerturbedGD{}, seeded,
			func(e *sod.PerturbedGD, _ CertifiedInstance, seed uint64) { e.Seed = seed }, nil),
		builtin(Method{Name: "random-line-search", Seeded: true}, sod.RandomLineSearch{}, seeded,
			func(e *sod.RandomLineSearch, _ CertifiedInstance, seed uint64) { e.Seed = seed }, nil),
		builtin(Method{Name: "neg-grad-line-search"}, sod.NegGradLineSearch{}, nil, nil, nil),
		{Name: "gd-alone", Params: map[string]string{}, New: func(CertifiedInstance, uint64) (sod.Escaper, error) {
			return sod.EscapeFunc("gd-alone", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, nil }), nil
		}},
		// A restart descends from a random start over a full phase (probe)
		// where the others stop at a stall point: at PMC n = 10³ and 10⁴ its
		// median run takes up to 20 times as long as the cheapest method's
		// (RESULTS.md's run). Its scale is a formula of the stall point,
		// not a setting.
		{Name: "random-restart", Seeded: true, Judge: JudgeProbe, Weight: 15, Params: map[string]string{"scale": "‖X̂‖_F/√(nr)", "seed": "trial"}, New: func(_ CertifiedInstance, seed uint64) (sod.Escaper, error) {
			return &randomRestart{seed: seed}, nil
		}},
	}
}

// The SOD line search's t grid in the benchmark: 10^0 … 10^12 with eight
// points per decade. sod's default grid stops at 10^8 with four per
// decade; at PMC n = 10⁴ the closed form is in its linear regime (λ_n ≈
// −ε²n) and the scale that escapes needs t near 10^10–10^11, in a window
// narrower than a quarter decade.
const (
	benchTDecades   = 12
	benchTPerDecade = 8
)

// recordedParams is what a run of m with the escaper esc records: the
// settings read back from the escaper (its table, sod.EscaperParams, under
// a judge's wrapper), but for those the run chooses (the seed, recorded
// in TrialResult.Seed); m.Params for an escaper without a table (a
// method of your own), whose keys the escaper's table overrides.
func recordedParams(m Method, esc sod.Escaper) map[string]string {
	out := map[string]string{}
	if m.configure == nil {
		maps.Copy(out, m.Params)
	}
	for k, v := range sod.EscaperParams(unwrapJudge(esc)) {
		if !slices.Contains(m.perRunKeys, k) {
			out[k] = v
		}
	}
	return out
}

// Applies reports whether the suite runs m on in (n ≤ MaxN, or MaxN 0).
func (m Method) Applies(in CertifiedInstance) bool {
	if m.MaxN <= 0 {
		return true
	}
	n, _ := in.P.Dims()
	return n <= m.MaxN
}

// randomRestart proposes a fresh random start, judged after a full GD
// phase (Candidate.Probe).
type randomRestart struct {
	seed  uint64
	probe int
}

var _ sod.Escaper = (*randomRestart)(nil)

func (*randomRestart) Name() string { return "random-restart" }

func (rr *randomRestart) Propose(_ context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	n, r := st.X.Dims()
	rng := randstream.NewIndexed(rr.seed, randstream.RestartRounds, uint64(st.Round))
	sc := mat.Norm(st.X, 2) / math.Sqrt(float64(n*r))
	x := mat.NewDense(n, r, nil)
	for i := range n {
		for k := range r {
			x.Set(i, k, sc*rng.NormFloat64())
		}
	}
	return []sod.Candidate{{X: x, Label: fmt.Sprintf("restart %d", st.Round), Probe: rr.probe}}, nil
}
