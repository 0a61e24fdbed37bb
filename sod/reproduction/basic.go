package reproduction

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
)

// the basic example

// BasicValues are the report's values of the basic example (§1.1, eq. basic_example; Fig. 2).
type BasicValues struct {
	Config          experiments.BasicExampleConfig
	HessEig         []float64
	H, HCurve, U    float64 // h(x̂), and h at x(U) on the curve x(u) = (√u, √(½ − 2u))
	Delta, EFS      float64
	GDNear, GDAll   int // GD runs that end next to x̂
	SGDStay, SGDAll int // SGD runs that end away from M*
	SODOK, SODAll   int // GD+SOD runs that end within 10⁻⁶ of M*
	// The verdicts: h falls below h(x̂) along the curve; every GD run is
	// trapped; SGDReach SGD runs reach M*; every GD+SOD run reaches M*.
	CurveBelow, AllGDTrapped, AllSODReach bool
	SGDReach                              int
}

func computeBasic(ctx context.Context) (*BasicValues, error) {
	v := &BasicValues{}
	p, xhat := sod.BasicExampleProblem(), sod.BasicExampleXHat()
	cp, err := sod.AnalyzeCritical(p, xhat, sod.CriticalOptions{})
	if err != nil {
		return nil, err
	}
	v.U = 1e-2
	v.HessEig, v.H = cp.HessEig, cp.H
	v.HCurve = p.H(mat.NewDense(2, 1, []float64{math.Sqrt(v.U), math.Sqrt(0.5 - 2*v.U)}))
	rip, err := sod.RIPExact(p.Op)
	if err != nil {
		return nil, err
	}
	ss, err := sod.SingleStep(p, xhat, sod.SingleStepOptions{Delta: rip.Delta})
	if err != nil {
		return nil, err
	}
	v.Delta, v.EFS = rip.Delta, ss.EFS

	v.Config = experiments.DefaultBasicExampleConfig()
	res, err := experiments.RunBasicExample(ctx, v.Config, nil)
	if err != nil {
		return nil, err
	}
	for _, path := range res.Paths {
		last := len(path.X) - 1
		near := math.Abs(path.X[last]) < 0.1 && math.Abs(math.Abs(path.Y[last])-1/math.Sqrt2) < 0.05
		switch path.Method {
		case "GD":
			v.GDAll++
			if near {
				v.GDNear++
			}
		case "SGD":
			v.SGDAll++
			if path.Final > 0.02 {
				v.SGDStay++
			}
		case "GD+SOD":
			v.SODAll++
			if path.Final < 1e-6 {
				v.SODOK++
			}
		}
	}
	v.CurveBelow, v.AllGDTrapped, v.AllSODReach, v.SGDReach = v.HCurve < v.H, v.GDNear == v.GDAll, v.SODOK == v.SODAll, v.SGDAll-v.SGDStay
	return v, nil
}
