package escapebench

import (
	"fmt"
	"math"
	"strconv"

	"sodworkbench.org/workbench/sod"
)

// TargetQuantity is what a Target bounds: the distance to the ground
// truth or the objective.
type TargetQuantity int

const (
	// TargetDist bounds ‖XXᵀ − M*‖_F.
	TargetDist TargetQuantity = iota + 1
	// TargetH bounds h(X).
	TargetH
)

// String returns "dist" or "h".
func (q TargetQuantity) String() string {
	switch q {
	case TargetDist:
		return "dist"
	case TargetH:
		return "h"
	}
	return fmt.Sprintf("TargetQuantity(%d)", int(q))
}

// MarshalText implements encoding.TextMarshaler.
func (q TargetQuantity) MarshalText() ([]byte, error) {
	if q != TargetDist && q != TargetH {
		return nil, fmt.Errorf("%w: invalid TargetQuantity %d", ErrBadBench, int(q))
	}
	return []byte(q.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (q *TargetQuantity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "dist":
		*q = TargetDist
	case "h":
		*q = TargetH
	default:
		return fmt.Errorf("%w: unknown target quantity %q, want dist or h", ErrBadBench, b)
	}
	return nil
}

// Target is one rung of the ladder of targets a run is timed to (in the
// manner of COCO's runtime to a ladder of target values): a run reaches
// it when Of < Level·(Of at X̂) if Relative, Of < Level otherwise.
type Target struct {
	Of       TargetQuantity `json:"of"`
	Level    float64        `json:"level"`
	Relative bool           `json:"relative"`
}

// String names the target, e.g. "dist < 0.1·dist(X̂)" or "dist < 0.02".
func (t Target) String() string {
	l := strconv.FormatFloat(t.Level, 'g', -1, 64)
	if t.Relative {
		return fmt.Sprintf("%v < %s·%v(X̂)", t.Of, l, t.Of)
	}
	return fmt.Sprintf("%v < %s", t.Of, l)
}

// threshold is the value below which the quantity reaches t, given its
// value at X̂.
func (t Target) threshold(atXHat float64) float64 {
	if t.Relative {
		return t.Level * atXHat
	}
	return t.Level
}

// DefaultTargets is the ladder of every run: the distance to M* halved
// and divided by ten, the success criterion dist < DefaultMinDist (index
// SuccessTarget; RunTrial sets its level to TrialOptions.SuccessDist),
// and h divided by 2, 10², 10⁴ and 10⁸ (from h(X̂)).
func DefaultTargets() []Target {
	return []Target{
		{Of: TargetDist, Level: 0.5, Relative: true},
		{Of: TargetDist, Level: 0.1, Relative: true},
		{Of: TargetDist, Level: DefaultMinDist},
		{Of: TargetH, Level: 0.5, Relative: true},
		{Of: TargetH, Level: 1e-2, Relative: true},
		{Of: TargetH, Level: 1e-4, Relative: true},
		{Of: TargetH, Level: 1e-8, Relative: true},
	}
}

// SuccessTarget is the index in DefaultTargets of the success criterion.
const SuccessTarget = 2

// validateTargets checks a ladder: at least one target, each with a known
// quantity and a finite Level > 0 (< 1 if Relative).
func validateTargets(ts []Target) error {
	if len(ts) == 0 || len(ts) > 100 {
		return fmt.Errorf("%w: %d targets, want 1…100", ErrBadBench, len(ts))
	}
	for i, t := range ts {
		if (t.Of != TargetDist && t.Of != TargetH) || !(t.Level > 0) || math.IsInf(t.Level, 0) || (t.Relative && !(t.Level < 1)) {
			return fmt.Errorf("%w: target %d (%v): want quantity dist or h and a finite level > 0 (< 1 if relative)", ErrBadBench, i, t)
		}
	}
	return nil
}

// Hit is the cost of a run when it first reached target Target (an index
// into the ladder, TrialOptions.Targets): the oracle calls counted so far.
// A run has a Hit for the targets it reached, in ladder order.
type Hit struct {
	Target int `json:"target"`
	sod.EvalCounts
}

// hitRecorder records the first hits of a run's checks.
type hitRecorder struct {
	targets []Target
	thr     []float64
	reached []bool
	hits    []Hit
}

func newHitRecorder(ts []Target, hHat, distHat float64) *hitRecorder {
	r := &hitRecorder{targets: ts, thr: make([]float64, len(ts)), reached: make([]bool, len(ts))}
	for i, t := range ts {
		if t.Of == TargetDist {
			r.thr[i] = t.threshold(distHat)
		} else {
			r.thr[i] = t.threshold(hHat)
		}
	}
	return r
}

// check records the targets that (h, dist) reaches for the first time,
// at cost c.
func (r *hitRecorder) check(h, dist float64, c sod.EvalCounts) {
	for i, t := range r.targets {
		v := dist
		if t.Of == TargetH {
			v = h
		}
		if !r.reached[i] && v < r.thr[i] {
			r.reached[i] = true
			r.hits = append(r.hits, Hit{Target: i, EvalCounts: c})
		}
	}
}

// sorted returns the hits in ladder order.
func (r *hitRecorder) sorted() []Hit {
	out := make([]Hit, 0, len(r.hits))
	for i := range r.targets {
		for _, h := range r.hits {
			if h.Target == i {
				out = append(out, h)
			}
		}
	}
	return out
}
