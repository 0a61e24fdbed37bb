package escapebench

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// indepH is h(X) = ½‖𝒜(XXᵀ) − b‖² computed apart from sod.Problem's
// paths: XXᵀ formed densely, 𝒜 applied by the operator's definition
// (Apply), b the problem's measurements (for PMC above MaxDenseSize it is
// not used).
func indepH(p *sod.Problem, x []float64, n, r int) float64 {
	X := mat.NewDense(n, r, x)
	var M mat.Dense
	M.Mul(X, X.T())
	_, m := p.Op.Dims()
	a := make([]float64, m)
	p.Op.Apply(a, &M)
	s := 0.0
	for i, v := range a {
		d := v - p.B[i]
		s += d * d
	}
	return s / 2
}

// TestNewFamiliesCertifiedIndependently: the points of the rank-r PMC
// and noisy Gaussian families that Instances certifies are checked
// again without the certificate's code: the gradient by central
// differences of indepH, the smallest Hessian eigenvalue by a dense
// eigen-solve of the Hessian of second differences of indepH, the
// distance to M* from its factor, and h(X̂) above h(M*) (with noise, the
// reference minimum's h, at most the truth's ½‖e‖²).
func TestNewFamiliesCertifiedIndependently(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and certifies several points")
	}
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		f     Family
		k     int
		sigma float64
	}{
		{"pmc-rank r=3", PMCRankFamily{Cells: []PMCCell{{N: 40, Eps: 0.15, R: 3}}, Start: StartRandomSigns}, 2, 0},
		{"pmc-rank r=5", PMCRankFamily{Cells: []PMCCell{{N: 60, Eps: 0.1, R: 5}}, Start: StartRandomSigns}, 2, 0},
		{"gaussian-noisy r=1", NoisyGaussianFamily{GaussianFamily: GaussianFamily{Cells: []GaussianCell{{20, 30, 1}}, Tries: 40}}, 2, DefaultNoiseSigma},
		{"gaussian-noisy r=2", NoisyGaussianFamily{GaussianFamily: GaussianFamily{Cells: []GaussianCell{{20, 60, 2}}, Tries: 40}, Sigma: 0.02}, 1, 0.02},
	} {
		t.Run(c.name, func(t *testing.T) {
			fi, err := Instances(ctx, c.f, 1, c.k, CertifyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(fi.Instances) == 0 {
				t.Fatalf("no certified point (dropped: %v)", fi.Dropped)
			}
			for _, in := range fi.Instances {
				n, r := in.P.Dims()
				if in.Sigma != c.sigma {
					t.Errorf("%s: σ = %v, want %v", in.Name, in.Sigma, c.sigma)
				}
				x := make([]float64, 0, n*r)
				for i := range n {
					for k := range r {
						x = append(x, in.X.At(i, k))
					}
				}
				N := n * r
				h0 := indepH(in.P, x, n, r)
				if d := math.Abs(h0 - in.Cert.H); d > 1e-10*max(1, h0) {
					t.Errorf("%s: h = %.15g, independent %.15g", in.Name, in.Cert.H, h0)
				}
				// Central-difference gradient.
				const dg = 1e-6
				g2 := 0.0
				hAt := func(i int, di float64, j int, dj float64) float64 {
					y := append([]float64(nil), x...)
					y[i] += di
					y[j] += dj
					return indepH(in.P, y, n, r)
				}
				for i := range N {
					gi := (hAt(i, dg, i, 0) - hAt(i, -dg, i, 0)) / (2 * dg)
					g2 += gi * gi
				}
				if g := math.Sqrt(g2); g > 1e-5+1e-6 {
					t.Errorf("%s: finite-difference ‖∇h‖ = %.3g, certificate %.3g (want ≤ 1e-5)", in.Name, g, in.Cert.GradNorm)
				}
				// Hessian of second differences, densely decomposed.
				const dh = 1e-4
				hs := mat.NewSymDense(N, nil)
				for i := range N {
					for j := i; j < N; j++ {
						v := (hAt(i, dh, j, dh) - hAt(i, dh, j, -dh) - hAt(i, -dh, j, dh) + hAt(i, -dh, j, -dh)) / (4 * dh * dh)
						if i == j {
							v = (hAt(i, dh, i, 0) - 2*h0 + hAt(i, -dh, i, 0)) / (dh * dh)
						}
						hs.SetSym(i, j, v)
					}
				}
				var eig mat.EigenSym
				if !eig.Factorize(hs, false) {
					t.Fatalf("%s: eigen-solve failed", in.Name)
				}
				lmin := eig.Values(nil)[0]
				if lmin < -1e-4 || math.Abs(lmin-in.Cert.MinHessEig) > 1e-4*max(1, math.Abs(lmin)) {
					t.Errorf("%s: finite-difference λ_min = %.6g, certificate %.6g", in.Name, lmin, in.Cert.MinHessEig)
				}
				// Distance to M* and h above h(M*).
				var M, D mat.Dense
				M.Mul(in.X, in.X.T())
				D.Mul(in.P.Z, in.P.Z.T())
				M.Sub(&M, &D)
				if d := mat.Norm(&M, 2); d < DefaultMinDist || math.Abs(d-in.Cert.Dist) > 1e-9*max(1, d) {
					t.Errorf("%s: ‖XXᵀ − M*‖ = %.6g, certificate %.6g", in.Name, d, in.Cert.Dist)
				}
				zf := make([]float64, 0, n*r)
				for i := range n {
					for k := range in.P.Z.RawMatrix().Cols {
						zf = append(zf, in.P.Z.At(i, k))
					}
				}
				hStar := indepH(in.P, zf, n, in.P.Z.RawMatrix().Cols)
				if !(h0 > hStar) || math.Abs(hStar-in.Cert.HStar) > 1e-10*max(1, hStar) {
					t.Errorf("%s: h = %.6g, h(M*) = %.6g (certificate %.6g), want h > h(M*)", in.Name, h0, hStar, in.Cert.HStar)
				}
				if c.sigma == 0 && hStar > 1e-20 {
					t.Errorf("%s: exact measurements but h(M*) = %.3g", in.Name, hStar)
				}
				if c.sigma > 0 && !(hStar > 0) {
					t.Errorf("%s: noisy measurements but h(M*) = %.3g", in.Name, hStar)
				}
			}
		})
	}
}
