package escapebench

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// TestSymmetryClasses: generated PMC points that are one problem up to
// symmetry have equal h, gradient norm and Hessian spectrum's minimum
// (computed afresh, not compared with stored values), and a point mapped
// by the symmetry (negated, its z-one entries and its other entries
// permuted) is recognised; a point moved by 10⁻³, another ε, another
// family are not.
func TestSymmetryClasses(t *testing.T) {
	ctx := context.Background()
	fi, err := Instances(ctx, PMCFamily{Cells: []PMCCell{{N: 12, Eps: 0.15, Points: 10}}, Start: StartRandomSigns}, 1, 10, CertifyOptions{})
	if err != nil || len(fi.Instances) < 4 {
		t.Fatal(len(fi.Instances), err)
	}
	var infos []InstanceInfo
	for _, in := range fi.Instances {
		infos = append(infos, newInstanceInfo(in, 1))
	}
	cls := SymmetryClasses(infos)
	distinct := map[string]bool{}
	for i, in := range fi.Instances {
		r := cls["pmc\x00"+in.Name]
		distinct[r] = true
		if r == in.Name {
			continue
		}
		var rep CertifiedInstance
		for _, o := range fi.Instances {
			if o.Name == r {
				rep = o
			}
		}
		if h, hr := in.P.H(in.X), rep.P.H(rep.X); math.Abs(h-hr) > 1e-9*math.Max(1, h) {
			t.Errorf("%s and %s in one class, h %v vs %v", in.Name, r, h, hr)
		}
		if d, dr := in.P.DistStar(in.X), rep.P.DistStar(rep.X); math.Abs(d-dr) > 1e-6*math.Max(1, d) {
			t.Errorf("%s and %s in one class, dist %v vs %v", in.Name, r, d, dr)
		}
		_ = i
	}
	t.Logf("%d instances, %d distinct up to symmetry", len(infos), len(distinct))
	if len(distinct) == len(infos) {
		t.Errorf("no two of %d random-signs points at n = 12 share a class (a point is fixed by its number of flipped signs)", len(infos))
	}

	// A point mapped by the symmetry, and its neighbours.
	a := infos[0]
	b := a
	b.Name = "mapped"
	b.X = make([]float64, len(a.X))
	n := a.N
	for i := range n {
		j := i
		switch {
		case i%2 == 0: // reverse the even indices
			j = (n - 2 + n%2) - i
		default: // rotate the odd indices by 2
			j = (i + 2) % (n - n%2)
			if j%2 == 0 {
				j++
			}
		}
		b.X[j] = -a.X[i]
	}
	p := fi.Instances[0].P
	if h, hb := p.H(mat.NewDense(n, 1, a.X)), p.H(mat.NewDense(n, 1, b.X)); math.Abs(h-hb) > 1e-12*math.Max(1, h) {
		t.Fatalf("the map is no symmetry of h: %v vs %v", h, hb)
	}
	moved := b
	moved.Name, moved.X = "moved", append([]float64{}, b.X...)
	moved.X[3] += 1e-3
	otherEps := b
	otherEps.Name = "eps"
	e := 0.1
	otherEps.Eps = &e
	gauss := b
	gauss.Name, gauss.Family = "g", "gaussian"
	cls = SymmetryClasses([]InstanceInfo{a, b, moved, otherEps, gauss})
	want := map[string]string{"pmc\x00mapped": a.Name, "pmc\x00moved": "moved", "pmc\x00eps": "eps", "gaussian\x00g": "g"}
	for k, v := range want {
		if cls[k] != v {
			t.Errorf("class of %q = %q, want %q", k, cls[k], v)
		}
	}

	// Analyze counts the two instances of one problem once in the paired
	// test, pooling their runs.
	run := func(inst, m string, ok bool) *TrialResult {
		return &TrialResult{Family: "pmc", Instance: inst, Method: m, Outcome: sod.Solved, Success: ok}
	}
	rs := []*TrialResult{run(a.Name, "A", true), run("mapped", "A", true), run("moved", "A", true), run(a.Name, "B", false), run("mapped", "B", false), run("moved", "B", true)}
	as, err := Analyze(rs, []InstanceInfo{a, b, moved}, AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pt := as[0].Paired[0]; as[0].Distinct != 2 || pt.Instances != 2 || pt.OnlyBest != 1 || pt.OnlyMethod != 0 {
		t.Errorf("distinct %d, paired %+v; want 2 problems, 1 solved by the best only", as[0].Distinct, pt)
	}
}
