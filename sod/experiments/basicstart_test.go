package experiments

import (
	"context"
	"errors"
	"math"
	"testing"
)

// From (0.05, 1): GD stays next to x̂ = (0, 1/√2) (‖x̂x̂ᵀ − M*‖ = √5/2 there), the escape point
// lowers h (checked with basicH, written out by hand) and GD + SOD reaches ±z.
func TestBasicFromStart(t *testing.T) {
	r, err := RunBasicFromStart(context.Background(), DefaultBasicFromStartConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.P.DistStar(r.GD.X); math.Abs(d-math.Sqrt(5)/2) > 0.05 {
		t.Errorf("GD ends at distance %v from M*, want ≈ √5/2 (stuck next to x̂)", d)
	}
	if !r.SOD.Solved() || r.P.DistStar(r.SOD.X) > 1e-6 {
		t.Errorf("GD + SOD: outcome %s, distance %v", r.SOD.Outcome, r.P.DistStar(r.SOD.X))
	}
	e := r.SOD.Escapes[0]
	c := e.Candidates[e.Accepted]
	if h := basicH(c.X.At(0, 0), c.X.At(1, 0)); math.Abs(h-c.H) > 1e-12 || !(h < basicH(e.From.At(0, 0), e.From.At(1, 0))) {
		t.Errorf("escape point %v: h = %v (driver %v), h before %v", c.X.RawMatrix().Data, h, c.H, e.HFrom)
	}
	if last := r.SGDIter[len(r.SGDIter)-1]; last != 2*r.Config.Phase || len(r.SGDX) != len(r.SGDIter) {
		t.Errorf("SGD recorded up to %d with %d iterates", last, len(r.SGDX))
	}
	bad := DefaultBasicFromStartConfig()
	bad.Step = 0
	if _, err := RunBasicFromStart(context.Background(), bad, nil); !errors.Is(err, ErrBadExperiment) {
		t.Errorf("step 0: %v", err)
	}
}
