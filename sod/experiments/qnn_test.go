package experiments

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"sodworkbench.org/workbench/sod/randstream"
)

// qnnHand is the quadratic network written out by hand from the CSV
// features: x_i (standardised with the sample standard deviation, halved,
// then a constant 1 unless noBias) and targets y_i (1 for virginica, 0 for
// versicolor).
type qnnHand struct {
	x [][]float64
	y []float64
}

func newQNNHand(t *testing.T, noBias bool) *qnnHand {
	t.Helper()
	ir, err := LoadIris()
	if err != nil {
		t.Fatal(err)
	}
	feat, y, _ := ir.BinaryTask("virginica", "versicolor")
	var mean, sd [4]float64
	for j := 0; j < 4; j++ {
		for i := range feat {
			mean[j] += feat[i][j] / float64(len(feat))
		}
		for i := range feat {
			d := feat[i][j] - mean[j]
			sd[j] += d * d / float64(len(feat)-1)
		}
		sd[j] = math.Sqrt(sd[j])
	}
	q := &qnnHand{}
	for i, f := range feat {
		x := []float64{(f[0] - mean[0]) / sd[0] / 2, (f[1] - mean[1]) / sd[1] / 2, (f[2] - mean[2]) / sd[2] / 2, (f[3] - mean[3]) / sd[3] / 2}
		if !noBias {
			x = append(x, 1)
		}
		q.x = append(q.x, x)
		q.y = append(q.y, math.Max(y[i], 0))
	}
	return q
}

// out is the network output ‖Wᵀx‖² for W (n×r, row-major).
func (q *qnnHand) out(w []float64, r int, x []float64) float64 {
	o := 0.0
	for k := 0; k < r; k++ {
		s := 0.0
		for j := range x {
			s += w[j*r+k] * x[j]
		}
		o += s * s
	}
	return o
}

// h is ½ Σ_i (‖Wᵀx_i‖² − y_i)².
func (q *qnnHand) h(w []float64, r int) float64 {
	v := 0.0
	for i, x := range q.x {
		d := q.out(w, r, x) - q.y[i]
		v += d * d / 2
	}
	return v
}

// grad is ∇h = 2 Σ_i (‖Wᵀx_i‖² − y_i) x_i x_iᵀ W.
func (q *qnnHand) grad(g, w []float64, r int) {
	for k := range g {
		g[k] = 0
	}
	for i, x := range q.x {
		d := q.out(w, r, x) - q.y[i]
		for k := 0; k < r; k++ {
			s := 0.0
			for j := range x {
				s += w[j*r+k] * x[j]
			}
			for j := range x {
				g[j*r+k] += 2 * d * s * x[j]
			}
		}
	}
}

// minimum returns the lowest h found by L-BFGS (gonum/optimize) on the
// hand-written h from starts seeded 0 … starts−1.
func (q *qnnHand) minimum(t *testing.T, r, starts int) float64 {
	t.Helper()
	n := len(q.x[0])
	best := math.Inf(1)
	for s := 0; s < starts; s++ {
		rng := rand.New(rand.NewPCG(uint64(s), 77))
		w0 := make([]float64, n*r)
		for k := range w0 {
			w0[k] = rng.NormFloat64()
		}
		res, err := optimize.Minimize(optimize.Problem{
			Func: func(w []float64) float64 { return q.h(w, r) },
			Grad: func(g, w []float64) { q.grad(g, w, r) },
		}, w0, &optimize.Settings{GradientThreshold: 1e-9}, &optimize.LBFGS{})
		if err == nil || res != nil {
			best = math.Min(best, res.F)
		}
	}
	return best
}

// TestQNN checks the default quadratic-network experiment against
// independent computations: every curve starts at h(W₀) computed by hand;
// the GD curve ends where the test's own GD loop ends; GD stalls there
// above the width-1 minimum found by L-BFGS on the hand-written loss;
// GD+SOD's first escape lowers h and GD+SOD ends at that minimum; GD,
// Adam and the two other line searches stay at GD's point.
func TestQNN(t *testing.T) {
	cfg := DefaultQNNConfig()
	res, err := RunQNN(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := newQNNHand(t, false)
	n, r := len(q.x[0]), cfg.Width
	rng := randstream.New(cfg.Seed, randstream.QNNStarts)
	w := make([]float64, n*r)
	for k := range w {
		w[k] = cfg.InitScale * rng.NormFloat64()
	}
	h0 := q.h(w, r)
	g := make([]float64, n*r)
	for k := 0; k < cfg.Iters; k++ {
		q.grad(g, w, r)
		for j := range w {
			w[j] -= cfg.Step * g[j]
		}
	}
	hGD := q.h(w, r)
	hMin := q.minimum(t, r, 10)
	curves := map[string]LossCurve{}
	for _, c := range append(res.Optimizers, res.Searches...) {
		curves[c.Name] = c
		if math.Abs(c.H[0]-h0) > 1e-10*h0 {
			t.Errorf("%s starts at h = %.12g, by hand %.12g", c.Name, c.H[0], h0)
		}
		for _, v := range c.H {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: non-finite loss", c.Name)
			}
		}
		if c.Iter[len(c.Iter)-1] < cfg.Iters {
			t.Errorf("%s: curve ends at iteration %d of %d", c.Name, c.Iter[len(c.Iter)-1], cfg.Iters)
		}
	}
	if len(res.Optimizers) != 4 || len(res.Searches) != 3 {
		t.Fatalf("%d optimizer curves, %d line searches", len(res.Optimizers), len(res.Searches))
	}
	gd, sodc := curves["GD"], curves["GD+SOD"]
	if math.Abs(gd.FinalH-hGD) > 1e-9*hGD {
		t.Errorf("GD ends at h = %.12g, the test's GD loop at %.12g", gd.FinalH, hGD)
	}
	if res.StallIter < 0 || !(hGD > hMin+1) {
		t.Errorf("GD should stall above the width-1 minimum: stall at %d, h = %.6g, L-BFGS minimum %.6g", res.StallIter, hGD, hMin)
	}
	if len(sodc.Escapes) == 0 || !sodc.Escapes[0].Descent || !(sodc.Escapes[0].HCheck < sodc.Escapes[0].HHat) || len(sodc.EscapeAt) == 0 ||
		sodc.H[sodc.EscapeAt[0]] != sodc.Escapes[0].HCheck {
		t.Fatalf("GD+SOD: first escape %+v does not lower h or is not on the curve", sodc.Escapes)
	}
	if math.Abs(sodc.FinalH-hMin) > 1e-6*hMin {
		t.Errorf("GD+SOD ends at h = %.9g, the L-BFGS width-1 minimum is %.9g", sodc.FinalH, hMin)
	}
	// SGD does not stagnate with GD: it reaches the width-1 minimum
	// (REPRODUCTION.md F12; the paper has it stagnate).
	if c := curves["SGD"]; !(c.FinalH < hMin+0.1) {
		t.Errorf("SGD ends at h = %.9g, the L-BFGS width-1 minimum is %.9g", c.FinalH, hMin)
	}
	for _, name := range []string{"Adam", "GD+random line search", "GD+negative-gradient line search"} {
		if c := curves[name]; math.Abs(c.FinalH-hGD) > 1e-6*hGD {
			t.Errorf("%s ends at h = %.9g, GD at %.9g", name, c.FinalH, hGD)
		}
	}
}

// TestQNNPlateau: with the earlier defaults (PlateauQNNConfig) GD slows
// down without stalling at a spurious minimum and no SOD candidate lowers
// h; GD+SOD, refused, continues as GD and its curve is GD's curve.
func TestQNNPlateau(t *testing.T) {
	cfg := PlateauQNNConfig()
	cfg.Iters = 3000
	res, err := RunQNN(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	gd, sodc := res.Optimizers[0], res.Optimizers[3]
	if res.StallIter < 0 || sodc.Outcome != "no-descent, GD continued" || len(sodc.Escapes) != 1 || sodc.Escapes[0].Descent {
		t.Fatalf("stall at %d; GD+SOD outcome %q, escapes %+v", res.StallIter, sodc.Outcome, sodc.Escapes)
	}
	// A refused escape starts no new phase, so the continued curve is
	// GD's curve, point for point.
	if len(sodc.H) != len(gd.H) {
		t.Fatalf("GD+SOD curve has %d points, GD %d", len(sodc.H), len(gd.H))
	}
	for k := range gd.H {
		if gd.Iter[k] != sodc.Iter[k] || gd.H[k] != sodc.H[k] {
			t.Fatalf("point %d: GD (%d, %v), GD+SOD (%d, %v)", k, gd.Iter[k], gd.H[k], sodc.Iter[k], sodc.H[k])
		}
	}
}

// TestQNNProblemOptions: every preprocessing option gives the loss written
// out by hand (for the halved standardised features) or a consistent one.
func TestQNNProblemOptions(t *testing.T) {
	for _, noBias := range []bool{false, true} {
		cfg := DefaultQNNConfig()
		cfg.NoBias, cfg.Width = noBias, 2
		p, err := QNNProblem(cfg)
		if err != nil {
			t.Fatal(err)
		}
		q := newQNNHand(t, noBias)
		n, r := p.Dims()
		if n != len(q.x[0]) || r != 2 {
			t.Fatalf("NoBias=%v: dims %d×%d", noBias, n, r)
		}
		rng := rand.New(rand.NewPCG(5, 5))
		w := make([]float64, n*r)
		for k := range w {
			w[k] = rng.NormFloat64()
		}
		if got, want := p.H(mat.NewDense(n, r, w)), q.h(w, r); math.Abs(got-want) > 1e-12*want {
			t.Errorf("NoBias=%v: h = %.15g, by hand %.15g", noBias, got, want)
		}
	}
	// Standardised features are twice the halved ones: h(W) with
	// "standardized" equals h(W′) with the default, W′ = W with the rows of
	// the four measurements doubled (the bias row kept).
	base, _ := QNNProblem(DefaultQNNConfig())
	cfg := DefaultQNNConfig()
	cfg.Features = "standardized"
	std, err := QNNProblem(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := mat.NewDense(5, 1, []float64{0.3, -0.2, 0.5, 0.1, 0.7})
	w2 := mat.NewDense(5, 1, []float64{0.6, -0.4, 1.0, 0.2, 0.7})
	if a, b := std.H(w), base.H(w2); math.Abs(a-b) > 1e-12*b {
		t.Errorf("standardized h(W) = %v, halved h(W′) = %v", a, b)
	}
	// 𝒜(e_j e_jᵀ)_i = x_ij²: raw features are the CSV's centimetres,
	// min-max features span [0, 1] exactly.
	ir, _ := LoadIris()
	feat, _, _ := ir.BinaryTask("virginica", "versicolor")
	for _, f := range []string{"raw", "minmax"} {
		cfg.Features = f
		p, err := QNNProblem(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, m := p.Op.Dims()
		out := make([]float64, m)
		for j := 0; j < 4; j++ {
			e := mat.NewDense(5, 5, nil)
			e.Set(j, j, 1)
			p.Op.Apply(out, e)
			lo, hi := math.Inf(1), math.Inf(-1)
			for i, v := range out {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
				if want := feat[i][j] * feat[i][j]; f == "raw" && math.Abs(v-want) > 1e-12*want {
					t.Fatalf("raw x_%d,%d² = %v, CSV %v", i, j, v, want)
				}
			}
			if f == "minmax" && (math.Abs(lo) > 1e-15 || math.Abs(hi-1) > 1e-12) {
				t.Errorf("minmax feature %d: squares span [%v, %v], want [0, 1]", j, lo, hi)
			}
		}
	}
	cfg.Features, cfg.PlusMinusOne = "", true
	pm, err := QNNProblem(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if v := pm.H(mat.NewDense(5, 1, nil)); v != 50 {
		t.Errorf("±1 targets: h(0) = %v, want ½·100 = 50", v)
	}
	cfg.Features = "log"
	if _, err := QNNProblem(cfg); !errors.Is(err, ErrBadExperiment) {
		t.Errorf("unknown features: err = %v", err)
	}
}

func TestQNNErrors(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*QNNConfig)
	}{
		{"step 0", func(c *QNNConfig) { c.Step = 0 }},
		{"width 0", func(c *QNNConfig) { c.Width = 0 }},
		{"same species", func(c *QNNConfig) { c.Negative = c.Positive }},
	}
	for _, tc := range tests {
		cfg := DefaultQNNConfig()
		tc.mod(&cfg)
		if _, err := RunQNN(context.Background(), cfg, nil); !errors.Is(err, ErrBadExperiment) {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}
