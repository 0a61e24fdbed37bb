package experiments

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// TestQNN checks the quadratic-network experiment against independent
// computations: the loss at the start, h(W₀) = ½ Σ_i (‖W₀ᵀx_i‖² − y_i)²
// computed from the CSV features by hand, is the first point of every
// curve; GD stagnates (the paper's premise); every curve is finite; GD and
// Adam classify at least 90% of the flowers correctly.
func TestQNN(t *testing.T) {
	cfg := DefaultQNNConfig()
	cfg.Iters = 3000
	res, err := QNN(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ir, _ := LoadIris()
	feat, y, _ := ir.BinaryTask("virginica", "versicolor")
	var mean, sd [4]float64
	for j := 0; j < 4; j++ {
		for i := range feat {
			mean[j] += feat[i][j] / 100
		}
		for i := range feat {
			d := feat[i][j] - mean[j]
			sd[j] += d * d / 99
		}
		sd[j] = math.Sqrt(sd[j])
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x9_11))
	var w [5][2]float64
	for i := range w {
		for k := range w[i] {
			w[i][k] = cfg.InitScale * rng.NormFloat64()
		}
	}
	h0 := 0.0
	for i, f := range feat {
		x := [5]float64{(f[0] - mean[0]) / sd[0] / 2, (f[1] - mean[1]) / sd[1] / 2, (f[2] - mean[2]) / sd[2] / 2, (f[3] - mean[3]) / sd[3] / 2, 1}
		out := 0.0
		for k := 0; k < 2; k++ {
			s := 0.0
			for j := range x {
				s += w[j][k] * x[j]
			}
			out += s * s
		}
		target := 0.0
		if y[i] > 0 {
			target = 1
		}
		h0 += 0.5 * (out - target) * (out - target)
	}
	if res.StallIter < 0 {
		t.Error("GD did not stagnate")
	}
	for _, c := range append(res.Optimizers, res.Searches...) {
		if math.Abs(c.H[0]-h0) > 1e-10*h0 {
			t.Errorf("%s starts at h = %.12g, by hand %.12g", c.Name, c.H[0], h0)
		}
		for _, v := range c.H {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: non-finite loss", c.Name)
			}
		}
		if c.Iter[len(c.Iter)-1] < cfg.Iters-1 {
			t.Errorf("%s: curve ends at iteration %d of %d", c.Name, c.Iter[len(c.Iter)-1], cfg.Iters)
		}
		if (c.Name == "GD" || c.Name == "Adam") && c.Accuracy < 0.9 {
			t.Errorf("%s: training accuracy %.2f", c.Name, c.Accuracy)
		}
	}
	if len(res.Optimizers) != 4 || len(res.Searches) != 3 {
		t.Errorf("%d optimizer curves, %d line searches", len(res.Optimizers), len(res.Searches))
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
		if _, err := QNN(cfg, nil); !errors.Is(err, sod.ErrBadParameter) {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}

// The quadratic network with the documented defaults: GD slows down on a
// plateau, where no SOD candidate lowers the loss.
func ExampleQNN() {
	res, err := QNN(DefaultQNNConfig(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("GD stagnates at step %d, h = %.3f\n", res.StallIter, res.StallH)
	for _, c := range res.Optimizers {
		fmt.Printf("%-7s final h = %.3f, accuracy %.2f\n", c.Name, c.FinalH, c.Accuracy)
	}
	fmt.Println("SOD escape:", res.Searches[0].Outcome)
	// Output:
	// GD stagnates at step 1539, h = 3.308
	// GD      final h = 3.152, accuracy 0.95
	// SGD     final h = 3.561, accuracy 0.92
	// Adam    final h = 3.151, accuracy 0.95
	// GD+SOD  final h = 3.152, accuracy 0.95
	// SOD escape: no-descent, GD continued
}
