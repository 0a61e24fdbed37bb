package widgets

import (
	"math"
	"reflect"
	"sodworkbench.org/workbench/sod/randstream"
)

// GalleryItem is one chart of the gallery, with the paper's figure it
// serves.
type GalleryItem struct {
	Name   string // a short identifier, e.g. "curves"
	Figure string // the paper's figure (label) the chart serves
	Chart  Chart  // nil for the table
	HTML   string // the table's HTML (GalleryData.Ablation), for pages; shown in a cell with DisplayTable
}

// GalleryData holds the synthetic inputs of every chart of Gallery (and of
// every static figure of package widgets/plots' StaticGallery).
type GalleryData struct {
	Curves      Curves
	Landscape   Landscape
	Trajectory  Trajectory3D
	Lifted      LiftedObjective
	Terms       TermNorms
	Windows     EscapeWindows
	Zones       EFSZones
	Probability ProbabilityCurve
	Success     SuccessRates
	Bundle      Bundle
	Ablation    Table
}

// Gallery returns one chart of every kind this package draws, filled with
// small SYNTHETIC data (smooth made-up curves and a made-up double-well
// landscape, seeded with seed), not with results of the paper's
// experiments. It exists to test that every chart renders (the browser
// tests load it in Chromium) and to preview the charts. Each item names the
// paper's figure the chart serves.
func Gallery(seed uint64) ([]GalleryItem, error) {
	return galleryItems(NewGalleryData(seed))
}

// GalleryWithText is Gallery with every caller-text field of every chart's
// and table's data (titles, axis, series, path and point names, labels,
// captions, headers, cells, notes: every string field, found by
// reflection) set to text. It exists for the injection tests, which check
// that markup in any text is shown as text and never run.
func GalleryWithText(seed uint64, text string) ([]GalleryItem, error) {
	return galleryItems(NewGalleryDataWithText(seed, text))
}

// NewGalleryDataWithText is NewGalleryData with every string field set to
// text, as in GalleryWithText.
func NewGalleryDataWithText(seed uint64, text string) GalleryData {
	gd := NewGalleryData(seed)
	setStrings(reflect.ValueOf(&gd).Elem(), text)
	return gd
}

// GalleryFigure returns the paper's figure (label) that the gallery item
// called name serves, e.g. "r1_r2" for "efs-zones", and "" for an unknown
// name. The static gallery of package widgets/plots uses the same names.
func GalleryFigure(name string) string { return galleryFigures[name] }

var galleryFigures = map[string]string{
	"curves": figCurves, "landscape": figLandscape, "trajectory3d": figTrajectory,
	"lifted-objective": figLifted, "term-norms": figTerms, "escape-windows": figWindows,
	"efs-zones": figZones, "paley-zygmund": figProbability, "success-rates": figSuccess,
	"bundles": figBundle, "ablation-table": figAblation,
}

// setStrings sets every settable string reachable from v (struct fields,
// slice and array elements) to s and returns how many it set.
func setStrings(v reflect.Value, s string) int {
	n := 0
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(s)
			n++
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			n += setStrings(v.Field(i), s)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			n += setStrings(v.Index(i), s)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			n += setStrings(v.Elem(), s)
		}
	}
	return n
}

func galleryItems(gd GalleryData) ([]GalleryItem, error) {
	var items []GalleryItem
	add := func(name string, c Chart, err error) error {
		if err != nil {
			return err
		}
		items = append(items, GalleryItem{Name: name, Figure: GalleryFigure(name), Chart: c})
		return nil
	}
	c1, err := gd.Curves.Chart()
	if err := add("curves", c1, err); err != nil {
		return nil, err
	}
	c2, err := gd.Landscape.Chart()
	if err := add("landscape", c2, err); err != nil {
		return nil, err
	}
	c3, err := gd.Trajectory.Chart()
	if err := add("trajectory3d", c3, err); err != nil {
		return nil, err
	}
	c4, err := gd.Lifted.Chart()
	if err := add("lifted-objective", c4, err); err != nil {
		return nil, err
	}
	c5, err := gd.Terms.Chart()
	if err := add("term-norms", c5, err); err != nil {
		return nil, err
	}
	c6, err := gd.Windows.Chart()
	if err := add("escape-windows", c6, err); err != nil {
		return nil, err
	}
	c7, err := gd.Zones.Chart()
	if err := add("efs-zones", c7, err); err != nil {
		return nil, err
	}
	c8, err := gd.Probability.Chart()
	if err := add("paley-zygmund", c8, err); err != nil {
		return nil, err
	}
	c9, err := gd.Success.Chart()
	if err := add("success-rates", c9, err); err != nil {
		return nil, err
	}
	c10, err := gd.Bundle.Chart()
	if err := add("bundles", c10, err); err != nil {
		return nil, err
	}
	tab, err := gd.Ablation.HTML()
	if err != nil {
		return nil, err
	}
	items = append(items, GalleryItem{Name: "ablation-table", Figure: GalleryFigure("ablation-table"), HTML: tab})
	return items, nil
}

// The paper's figures (by LaTeX label) each chart serves.
const (
	figCurves      = "exp2/exp3 (a)–(c), basic_example (left), quadratic_nn"
	figLandscape   = "basic_example (right)"
	figTrajectory  = "exp2/exp3 (f)"
	figLifted      = "exp2/exp3 (d), simulation (a)"
	figTerms       = "exp2/exp3 (e), simulation (b)"
	figWindows     = "figure ablation (requirements on l and t: U_β, U_γ), ablation table (interval column)"
	figZones       = "r1_r2"
	figProbability = "probabilistic escape analysis (Paley–Zygmund bound vs Monte Carlo)"
	figSuccess     = "numerical_study (a), (b)"
	figBundle      = "numerical_study (c), (d)"
	figAblation    = "ablation table (Appendix, hyperparameter analysis of l and t)"
)

// NewGalleryData returns the gallery's synthetic inputs, seeded with seed.
func NewGalleryData(seed uint64) GalleryData {
	rng := randstream.New(seed, randstream.GallerySamples)
	var gd GalleryData

	// Curves: a run stuck at a spurious minimum, escaping at iteration 100.
	n := 200
	it := make([]float64, n)
	h, g, d := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range it {
		it[i] = float64(i)
		if i < 100 {
			h[i] = 0.33 + 2*math.Exp(-float64(i)/10)
			g[i] = 3 * math.Exp(-float64(i)/8)
			d[i] = 1.1 + math.Exp(-float64(i)/10)
		} else {
			s := float64(i - 100)
			h[i] = 0.8 * math.Exp(-s/9)
			g[i] = 1.5 * math.Exp(-s/10)
			d[i] = 1.3 * math.Exp(-s/18)
		}
	}
	gd.Curves = Curves{Title: "Loss, gradient norm and distance (synthetic)", XName: "iteration", YName: "value",
		X: it, Series: []Series{{"h(X)", h}, {"‖∇h(X)‖_F", g}, {"‖XXᵀ − M*‖_F", d}}, EscapeAt: []int{100}, LogY: true}

	// Landscape: a made-up double well with a path trapped in one well and
	// a path that jumps to the other one.
	m := 61
	gx := make([]float64, m)
	for i := range gx {
		gx[i] = -1.5 + 3*float64(i)/float64(m-1)
	}
	z := make([][]float64, m)
	for j := range z {
		z[j] = make([]float64, m)
		for i := range gx {
			x, y := gx[i], gx[j]
			z[j][i] = math.Pow(x*x+y*y-1, 2) + 0.5*y*y*(1-0.9*math.Exp(-(x*x+(y-1)*(y-1))/0.1)) + 1e-3
		}
	}
	var px, py, qx, qy []float64
	x, y := 0.6, 1.2
	for k := 0; k < 30; k++ {
		px, py = append(px, x), append(py, y)
		x, y = 0.8*x+0.02*rng.NormFloat64(), y+0.3*(1-y)*0.5
	}
	for k := 0; k < 30; k++ {
		t := float64(k) / 29
		qx, qy = append(qx, -1.2+1.2*t*(2-t)), append(qy, 0.2*math.Sin(3*t))
	}
	gd.Landscape = Landscape{Title: "log landscape with trajectories (synthetic)", XName: "x₁", YName: "x₂",
		Grid: Grid{X: gx, Y: gx, Z: z}, LogZ: true,
		Paths:  []Path{{"GD (trapped)", px, py}, {"GD + SOD", qx, qy}},
		Points: []Point{{"x̂", 0, 1}, {"z", 1, 0}, {"−z", -1, 0}}}
	// 3-D trajectory.
	var tx, ty, tz []float64
	for k := 0; k <= 120; k++ {
		s := float64(k) / 120
		if k <= 60 {
			tx, ty, tz = append(tx, 0.01+0.9*s*2*(1-s)), append(ty, 0.3*s), append(tz, -0.9*s*2*(1-s))
		} else {
			u := (s - 0.5) * 2
			tx, ty, tz = append(tx, 0.45+0.55*u), append(ty, 0.15*(1-u)), append(tz, -0.45+1.45*u)
		}
	}
	gd.Trajectory = Trajectory3D{Title: "trajectory for n = 3 (synthetic)",
		Paths:  []Path3D{{"GD + SOD", tx, ty, tz}},
		Points: []Point3D{{"z", 1, 0, 1}, {"−z", -1, 0, -1}, {"x̂", 0.45, 0.15, -0.45}}}

	// Lifted objective and term norms against t.
	nt := 40
	ts := make([]float64, nt)
	obj, ex := make([]float64, nt), make([]float64, nt)
	ta, tb, tc := make([]float64, nt), make([]float64, nt), make([]float64, nt)
	eb, ec := make([]float64, nt), make([]float64, nt)
	for i := range ts {
		ts[i] = math.Pow(10, 1+5*float64(i)/float64(nt-1))
		q := math.Log1p(2e-5 * ts[i])
		obj[i] = 0.5 - 0.1*math.Tanh(ts[i]/1e4) + 1e-6*math.Exp(q*8)
		ex[i] = 0.5 - 0.05*math.Tanh(ts[i]/3e4)
		ta[i] = 0.02
		tb[i] = 0.1 * math.Exp(q)
		tc[i] = 1e-4 * ts[i] / (1 + ts[i]/1e5)
		eb[i], ec[i] = 0.8*tb[i], 1.3*tc[i]
	}
	gd.Lifted = LiftedObjective{Title: "lifted objective along TPGD (synthetic)", T: ts,
		ClosedForm: obj, Exact: ex, Reference: 0.5, L: 5}
	gd.Terms = TermNorms{Title: "a-, b-, c-term norms (synthetic)", T: ts,
		ClosedForm: Terms{A: ta, B: tb, C: tc}, Exact: &Terms{A: ta, B: eb, C: ec}}

	// Escape windows: shapes like the ablation table's (made-up numbers).
	gd.Windows = EscapeWindows{Title: "escape windows U_β, U_γ (synthetic)",
		Rows: []WindowRow{
			{"l = 3", Interval{math.NaN(), math.NaN()}, Interval{2000, math.Inf(1)}},
			{"l = 5", Interval{20000, 40000}, Interval{40000, math.Inf(1)}},
			{"l = 7", Interval{0, 1e6}, Interval{1e6, math.Inf(1)}},
		}, Marks: []float64{1000, 5000, 33500, 1e5, 5e5, 2e6}}

	// EFS zones and a probability curve.
	gd.Zones = EFSZones{Title: "EFS zones (synthetic radii)", R1: 2, R2: 4,
		Instances: []Radial{{"instance A", 1.07}, {"instance B", 3}, {"instance C", 5}}}
	px2 := make([]float64, 12)
	bound, mc, se := make([]float64, 12), make([]float64, 12), make([]float64, 12)
	for i := range px2 {
		px2[i] = 0.5 * float64(i+1)
		bound[i] = math.Max(0, 1-2/px2[i]) * 0.3
		hits := 0
		for k := 0; k < 400; k++ {
			if rng.Float64() < 0.33*(1-math.Exp(-(px2[i]-1)/2)) {
				hits++
			}
		}
		mc[i] = float64(hits) / 400
		se[i] = math.Sqrt(mc[i] * (1 - mc[i]) / 400)
	}
	gd.Probability = ProbabilityCurve{Title: "P(EFS > 1): bound vs Monte Carlo (synthetic)", XName: "R",
		X: px2, Bound: bound, MonteCarlo: mc, StdErr: se, Samples: 400, R1: 2, R2: 4}

	// Success rates and trajectory bundles.
	gd.Success = SuccessRates{Title: "success rates, ε = 0.15 (synthetic)", GroupName: "n",
		Groups: []string{"40", "50", "60", "70", "80"}, Methods: []string{"GD", "GD + SOD"},
		Successes: [][]int{{31, 29, 30, 27, 26}, {50, 49, 50, 48, 49}}, Trials: 50}
	bx := make([]float64, 150)
	for i := range bx {
		bx[i] = float64(i)
	}
	groups := []RunGroup{{Name: "GD"}, {Name: "GD + SOD"}}
	for gi := range groups {
		for r := 0; r < 50; r++ {
			y := make([]float64, len(bx))
			stuck := rng.Float64() < 0.4
			rate := 0.03 + 0.03*rng.Float64()
			for i := range bx {
				y[i] = 2 * math.Exp(-rate*bx[i])
				if stuck && !(gi == 1 && i > 80) {
					y[i] = math.Max(y[i], 0.5+0.2*float64(r%5)/5)
				}
			}
			groups[gi].Runs = append(groups[gi].Runs, y)
		}
	}
	gd.Bundle = Bundle{Title: "50 trajectories per method (synthetic)", XName: "iteration",
		YName: "‖XXᵀ − ZZᵀ‖_F", X: bx, Groups: groups, Threshold: 0.02, LogY: true}

	// Ablation table.
	gd.Ablation = Table{Caption: "ablation table (synthetic numbers)",
		Header: []string{"l", "t", "interval", "X̌ defined", "‖X̂X̂ᵀ − X̌X̌ᵀ‖_F", "‖X̌X̌ᵀ − ZZᵀ‖_F", "ratio", "GD from X̌ ends at"},
		Notes:  []string{"Highlighted cells differ from the paper's printed value (shown in grey) after rounding to the printed digits."},
		Rows: [][]Cell{
			{{Text: "3"}, {Text: "1000"}, {Text: "U_γ", Paper: "U_γ"}, {Text: "✓"}, {Text: "1.23", Paper: "1.23"},
				{Text: "0.50", Paper: "0.50"}, {Text: "2.47", Paper: "2.47"}, {Text: "+Z", Paper: "+Z"}},
			{{Text: "5"}, {Text: "33500"}, {Text: "✗"}, {Text: "✗"}, {Text: "NaN"}, {Text: "NaN"}, {Text: "NaN"}, {Text: "—"}},
		}}
	return gd
}
