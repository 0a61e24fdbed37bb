package figures

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/widgets"
)

// SMomentsTable sets the moments of S = S_𝒜(P, Q) under the Gaussian
// ensemble derived in section 4.3 (sod.SMoments: E S = 0, E S² = 2/m,
// E S⁴ = 12(m+2)/m³) beside Monte Carlo estimates from samples fresh
// ensembles of n×n matrices (sod.SampleS, seeded), for each m, with the
// standard error of the E S² estimate; ctx stops the sampling early.
func SMomentsTable(ctx context.Context, n int, ms []int, samples int, seed uint64) (widgets.Table, error) {
	tab := widgets.Table{Caption: fmt.Sprintf("Moments of S under the Gaussian ensemble (n = %d, %d samples, seed %d)", n, samples, seed),
		Header: []string{"m", "E S: theory", "MC", "E S²: theory", "MC", "E S⁴: theory", "MC", "SE of MC E S²"}}
	for _, m := range ms {
		mean, s2, s4, err := sod.SMoments(m)
		if err != nil {
			return widgets.Table{}, err
		}
		xs, err := sod.SampleS(ctx, n, m, samples, seed)
		if err != nil {
			return widgets.Table{}, err
		}
		sq, qu := make([]float64, len(xs)), make([]float64, len(xs))
		for i, x := range xs {
			sq[i], qu[i] = x*x, x*x*x*x
		}
		mSq, sdSq := stat.MeanStdDev(sq, nil)
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: strconv.Itoa(m)}, num("%.4f", mean), num("%+.4f", stat.Mean(xs, nil)),
			num("%.4f", s2), num("%.4f", mSq), num("%.4f", s4), num("%.4f", stat.Mean(qu, nil)), num("%.4f", sdSq/math.Sqrt(float64(len(xs))))})
	}
	return tab, nil
}

// PZCurve is experiments.RunPZCurve's result as a chart's input: the
// theorem's lower bound on P(EFS > 1) (0 inside r₁, Paley–Zygmund in the
// band, 1 beyond r₂) against the Monte Carlo probability with its ±2 SE
// band. widgets.ProbabilityCurve.Chart and plots.ProbabilityPlot draw it.
func PZCurve(res *experiments.PZCurveResult) (widgets.ProbabilityCurve, error) {
	if res == nil {
		return widgets.ProbabilityCurve{}, errNil("PZCurve", "PZCurveResult")
	}
	return widgets.ProbabilityCurve{
		Title: "P(EFS > 1) under the Gaussian ensemble: Paley–Zygmund bound vs Monte Carlo", XName: "‖X̂X̂ᵀ − M*‖²_F",
		X: res.D, Bound: res.Bound, BoundName: "theorem (Case 2: 0, Case 3: Paley–Zygmund, Case 1: 1)",
		MonteCarlo: res.MC, StdErr: res.StdErr, Samples: res.Samples, R1: res.R1, R2: res.R2}, nil
}

// PZCurveChart draws PZCurve(res) interactively.
func PZCurveChart(res *experiments.PZCurveResult) (widgets.Chart, error) {
	pc, err := PZCurve(res)
	if err != nil {
		return nil, err
	}
	return pc.Chart()
}

// InstanceEFSZones places each instance, with its first RIP constant, in the
// zones of Theorem single-step-sod-formal (Fig. r1_r2, sod.PaleyZygmund): a
// table of the squared distance, r₁, r₂, the case and the bound, the
// point's own NCM with the proof's θ and bound from it, and one zone
// figure's input per instance (EFSZones.Chart and plots.EFSZonesPlot draw
// it).
func InstanceEFSZones(insts []sod.Instance) (widgets.Table, []widgets.EFSZones, error) {
	tab := widgets.Table{Caption: "The paper's instances and the radii of Theorem single-step-sod-formal",
		Header: []string{"instance", "‖X̂X̂ᵀ − M*‖²", "r₁", "r₂", "case", "bound", "NCM", "θ from NCM", "bound from NCM"}}
	caseName := map[sod.PZCase]string{sod.PZFar: "1 (≥ r₂)", sod.PZNear: "2 (< r₁)", sod.PZBand: "3 (band)"}
	var zones []widgets.EFSZones
	for _, in := range insts {
		cp, err := in.Critical(sod.CriticalOptions{SkipHessian: true})
		if err != nil {
			return widgets.Table{}, nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		pz, err := sod.PaleyZygmund(in.P, cp, in.Delta())
		if err != nil {
			return widgets.Table{}, nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		name := fmt.Sprintf("%s (δ = %g)", in.Name, in.Delta())
		tab.Rows = append(tab.Rows, []widgets.Cell{{Text: name}, num("%.4g", pz.Dist2), num("%.4g", pz.R1), num("%.4g", pz.R2),
			{Text: caseName[pz.Case]}, num("%.4g", pz.Bound), num("%.4g", pz.NCM), num("%.4g", pz.ThetaNCM), num("%.4g", pz.BoundNCM)})
		zones = append(zones, widgets.EFSZones{Title: "EFS zones: " + name, R1: pz.R1, R2: pz.R2,
			Instances: []widgets.Radial{{Name: "X̂", R: pz.Dist2}}})
	}
	return tab, zones, nil
}

// EFSZonesCharts is InstanceEFSZones(insts) with each zone figure drawn
// interactively.
func EFSZonesCharts(insts []sod.Instance) (widgets.Table, []widgets.Chart, error) {
	tab, zones, err := InstanceEFSZones(insts)
	if err != nil {
		return widgets.Table{}, nil, err
	}
	charts := make([]widgets.Chart, len(zones))
	for i, z := range zones {
		if charts[i], err = z.Chart(widgets.Size("100%", "380px")); err != nil {
			return widgets.Table{}, nil, err
		}
	}
	return tab, charts, nil
}
