package escapebench

import (
	"time"

	"sodworkbench.org/workbench/sod"
)

// Cost is the price of one run: the oracle calls counted by a
// sod.EvalCounter on the run's own counted problem (no global state, so
// runs on parallel workers count apart) and the CPU time of the run's
// goroutine (−1 where not measurable).
type Cost struct {
	sod.EvalCounts
	CPU  time.Duration `json:"-"`
	Wall time.Duration `json:"-"`
}

// TracePoint is one point of a run's convergence curve: h and
// ‖XXᵀ − M*‖_F after Grad gradient evaluations (all of the run's,
// escape proposals and probes included).
type TracePoint struct {
	Grad int64    `json:"grad"`
	H    OptFloat `json:"h"`
	Dist OptFloat `json:"dist"`
}
