package escapebench

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// TestLineMinByScan: the exact line minimum of h(c·D) agrees with a fine
// scan of c refined by golden sections, on Gaussian sensing and PMC.
func TestLineMinByScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gop, err := sod.NewGaussianOperator(6, 9, 7)
	if err != nil {
		t.Fatal(err)
	}
	pop, err := sod.NewPMCOperator(8, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		op   sod.Operator
		r    int
	}{{"gaussian", gop, 2}, {"pmc", pop, 1}} {
		n, _ := c.op.Dims()
		z := mat.NewDense(n, c.r, nil)
		d := mat.NewDense(n, c.r, nil)
		for i := range n {
			for k := range c.r {
				z.Set(i, k, rng.NormFloat64())
				d.Set(i, k, rng.NormFloat64())
			}
		}
		p, err := sod.NewProblem(c.op, z, c.r)
		if err != nil {
			t.Fatal(err)
		}
		x := mat.NewDense(n, c.r, nil)
		h := func(s float64) float64 { x.Scale(s, d); return p.H(x) }
		best, bs := math.Inf(1), 0.0
		for i := -20000; i <= 20000; i++ {
			s := float64(i) * 1e-4 * 5
			if v := h(s); v < best {
				best, bs = v, s
			}
		}
		lo, hi := bs-5e-4, bs+5e-4
		for range 100 {
			m1, m2 := lo+(hi-lo)*0.382, lo+(hi-lo)*0.618
			if h(m1) < h(m2) {
				hi = m2
			} else {
				lo = m1
			}
		}
		scan := h((lo + hi) / 2)
		got := lineMin(p, d)
		if math.Abs(got-scan) > 1e-9*math.Max(1, scan) || got > scan+1e-12 {
			t.Errorf("%s: lineMin = %.15g, scan = %.15g", c.name, got, scan)
		}
	}
}

// TestFeaturesBasicExample: at the paper's basic example (PaperFamily's
// point) the β line c·u_n q_rᵀ = c·e₁ passes through z = e₁, so its
// minimum is h = 0; the δ lower bound is 1 − 2h/d² of the certificate's
// numbers.
func TestFeaturesBasicExample(t *testing.T) {
	ctx := context.Background()
	fi, err := Instances(ctx, PaperFamily{}, 1, 1, CertifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := fi.Instances[0]
	f, err := InstanceFeatures(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(float64(f.BetaMin)) > 1e-12 {
		t.Errorf("β line minimum / h(X̂) = %v, want 0", f.BetaMin)
	}
	want := 1 - 2*in.Cert.H/(in.Cert.Dist*in.Cert.Dist)
	if float64(f.DeltaLower) != want || float64(f.Dist) != in.Cert.Dist || float64(f.LambdaMin) != in.Cert.MinHessEig {
		t.Errorf("features %+v, want δ lower bound %v, dist %v, λ_min %v", f, want, in.Cert.Dist, in.Cert.MinHessEig)
	}
}

// TestHitRecorder: the first check below each threshold is recorded
// once, with its cost, in ladder order.
func TestHitRecorder(t *testing.T) {
	ts := DefaultTargets()
	r := newHitRecorder(ts, 1, 2)                   // h(X̂) = 1, dist(X̂) = 2
	r.check(0.4, 0.9, sod.EvalCounts{Grad: 5})      // h < 0.5, dist < 1
	r.check(0.3, 0.15, sod.EvalCounts{Grad: 7})     // dist < 0.2
	r.check(1e-9, 0.01, sod.EvalCounts{Grad: 9})    // dist < 0.02, h < 1e-2, 1e-4, 1e-8
	r.check(1e-12, 0.001, sod.EvalCounts{Grad: 11}) // nothing new
	want := []int64{5, 7, 9, 5, 9, 9, 9}
	got := r.sorted()
	if len(got) != len(want) {
		t.Fatalf("%d hits %+v, want %d", len(got), got, len(want))
	}
	for i, h := range got {
		if h.Target != i || h.Grad != want[i] {
			t.Errorf("hit %d = %+v, want target %d at %d", i, h, i, want[i])
		}
	}
	if err := validateTargets([]Target{{Of: TargetH, Level: 2, Relative: true}}); err == nil {
		t.Error("relative level 2 accepted")
	}
}
