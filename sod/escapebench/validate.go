package escapebench

import (
	"fmt"
	"math"
	"strings"

	"sodworkbench.org/workbench/sod"
)

// validateRun checks that r is a run RunTrial could have written: (when
// stored, with stored true) names set, a known outcome and judge; and
// always the trial within 0…MaxTrials, counts
// ≥ 0 (rounds, rounds that lowered h ≤ rounds, oracle calls, trace
// points), h and ‖XXᵀ − M*‖_F ≥ 0 or null, hits of distinct targets in
// increasing order whose counts do not exceed the run's, parameter
// names set and distinct up to case, and a wall time
// ≥ 0 (a CPU time of −1: not measured). The readers (ReadJournal,
// ReadResultsJSON, stored true) and the analyses (Summarize, Analyze,
// which need only the numbers) refuse runs it refuses, with an error wrapping ErrBadBench that names the run
// (where says which run: its index or the file's line).
func validateRun(where string, r *TrialResult, stored bool) error {
	if r == nil {
		return fmt.Errorf("%w: %s: no run", ErrBadBench, where)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s (%q / %q / %q / trial %d): %s", ErrBadBench, where, r.Family, r.Instance, r.Method, r.Trial, fmt.Sprintf(format, a...))
	}
	switch {
	case stored && (r.Family == "" || r.Instance == "" || r.Method == ""):
		return bad("a run needs a family, an instance and a method")
	case r.Trial < 0 || r.Trial > MaxTrials:
		return bad("trial %d, want 0…%d", r.Trial, MaxTrials)
	case r.Rounds < 0 || r.Lowered < 0 || r.Lowered > r.Rounds:
		return bad("%d rounds of which %d lowered h, want 0 ≤ lowered ≤ rounds", r.Rounds, r.Lowered)
	}
	if _, err := r.Outcome.MarshalText(); stored && err != nil {
		return bad("outcome %d is none of sod's outcomes", int(r.Outcome))
	}
	if _, err := r.Judge.MarshalText(); err != nil {
		return bad("judge %d, want raw-h or gd-probe", int(r.Judge))
	}
	if err := checkCounts(r.Cost.EvalCounts); err != nil {
		return bad("cost: %v", err)
	}
	if r.Cost.CPU < -1 || r.Cost.Wall < 0 {
		return bad("CPU time %d ns, wall time %d ns, want ≥ 0 (CPU −1: not measured)", int64(r.Cost.CPU), int64(r.Cost.Wall))
	}
	if !nonNegOrNull(r.H) || !nonNegOrNull(r.Dist) {
		return bad("h = %v, ‖XXᵀ − M*‖_F = %v, want ≥ 0 or null", float64(r.H), float64(r.Dist))
	}
	for i, h := range r.Hits {
		if h.Target < 0 || (i > 0 && h.Target <= r.Hits[i-1].Target) {
			return bad("hit %d of target %d: targets must be ≥ 0 and increase", i, h.Target)
		}
		if err := checkCounts(h.EvalCounts); err != nil {
			return bad("hit %d: %v", i, err)
		}
		if h.H > r.Cost.H || h.Grad > r.Cost.Grad || h.HessVec > r.Cost.HessVec || h.Eigen > r.Cost.Eigen {
			return bad("hit %d at %+v, after the run's whole cost %+v", i, h.EvalCounts, r.Cost.EvalCounts)
		}
	}
	for i, p := range r.Trace {
		if p.Grad < 0 || !nonNegOrNull(p.H) || !nonNegOrNull(p.Dist) {
			return bad("trace point %d: ∇h evaluations %d, h = %v, dist = %v, want ≥ 0 (h, dist: or null)", i, p.Grad, float64(p.H), float64(p.Dist))
		}
	}
	lower := map[string]string{}
	for k := range r.Params {
		if k == "" {
			return bad("a parameter without a name")
		}
		if o, ok := lower[strings.ToLower(k)]; ok {
			return bad("parameters %q and %q differ in case only: one setting, one key", o, k)
		}
		lower[strings.ToLower(k)] = k
	}
	return nil
}

// checkCounts refuses negative oracle counts.
func checkCounts(c sod.EvalCounts) error {
	if c.H < 0 || c.Grad < 0 || c.HessVec < 0 || c.Eigen < 0 {
		return fmt.Errorf("oracle counts h %d, ∇h %d, Hessian–vector %d, eigen %d, want ≥ 0", c.H, c.Grad, c.HessVec, c.Eigen)
	}
	return nil
}

// nonNegOrNull: v ≥ 0, or NaN / ±Inf (null in JSON: no value, an
// overflowed run).
func nonNegOrNull(v OptFloat) bool {
	f := float64(v)
	return f >= 0 || math.IsNaN(f) || math.IsInf(f, 0)
}

// validateRuns checks the numbers of every run of rs (validateRun),
// naming the caller.
func validateRuns(caller string, rs []*TrialResult) error {
	for i, r := range rs {
		if err := validateRun(fmt.Sprintf("%s: run %d", caller, i), r, false); err != nil {
			return err
		}
	}
	return nil
}
