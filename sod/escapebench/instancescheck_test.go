package escapebench

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// pmcCheck is a stored "pmc" or "pmc-rank" instance rebuilt from the
// paper's definition of PMC (Appendix, eq. pmc_data: weight 1 on Ω =
// {(i,i), (i,2k), (2k,i)}, 1-based, ε elsewhere), apart from sod's PMC
// code: X̂ (n×r) and the truth Z (n×r*) row-major.
type pmcCheck struct {
	n, r, rs int
	eps2, c  float64 // ε² and 1 − ε²
	x, z     []float64
	name     string
}

// w2 is W_ij² by Ω's rule, 0-based: ε² off the diagonal when both 0-based
// indices are even (both 1-based odd), else 1.
func (p *pmcCheck) w2(i, j int) float64 {
	if i != j && i%2 == 0 && j%2 == 0 {
		return p.eps2
	}
	return 1
}

// dense sums h = ½Σ_ij W_ij² D_ij² (D = X̂X̂ᵀ − ZZᵀ), h(0) = ½Σ_ij
// W_ij²(ZZᵀ)_ij², ‖D‖_F², ∇h = 2(W²∘D)X̂ and, for v ≠ nil, ∇²h[v] =
// 2(W²∘D)v + 2(W²∘(X̂vᵀ + vX̂ᵀ))X̂ entry by entry over the n(n+1)/2 pairs
// i ≤ j (row sums first, then their sum): O(n²r) time, no n×n array.
func (p *pmcCheck) dense(v []float64) (h, h0, d2 float64, g, hv []float64) {
	n, r, rs := p.n, p.r, p.rs
	g = make([]float64, n*r)
	if v != nil {
		hv = make([]float64, n*r)
	}
	dot := func(a, b []float64) float64 {
		s := 0.0
		for k := range a {
			s += a[k] * b[k]
		}
		return s
	}
	for i := range n {
		xi, zi := p.x[i*r:(i+1)*r], p.z[i*rs:(i+1)*rs]
		var rh, rh0, rd float64
		for j := i; j < n; j++ {
			xj, zj := p.x[j*r:(j+1)*r], p.z[j*rs:(j+1)*rs]
			w := p.w2(i, j)
			s := dot(zi, zj)
			d := dot(xi, xj) - s
			mult := 2.0
			if i == j {
				mult = 1
			}
			rh += mult * w * d * d
			rh0 += mult * w * s * s
			rd += mult * d * d
			gi, gj := g[i*r:(i+1)*r], g[j*r:(j+1)*r]
			for k := range r {
				gi[k] += 2 * w * d * xj[k]
			}
			if i != j {
				for k := range r {
					gj[k] += 2 * w * d * xi[k]
				}
			}
			if v == nil {
				continue
			}
			vi, vj := v[i*r:(i+1)*r], v[j*r:(j+1)*r]
			hi, hj := hv[i*r:(i+1)*r], hv[j*r:(j+1)*r]
			if i == j {
				a := 2 * dot(xi, vi)
				for k := range r {
					hi[k] += 2 * w * (d*vi[k] + a*xi[k])
				}
				continue
			}
			a := dot(xi, vj) + dot(vi, xj)
			for k := range r {
				hi[k] += 2 * w * (d*vj[k] + a*xj[k])
				hj[k] += 2 * w * (d*vi[k] + a*xi[k])
			}
		}
		h, h0, d2 = h+rh/2, h0+rh0/2, d2+rd
	}
	return h, h0, d2, g, hv
}

// applyW returns (W²∘(ABᵀ))C with A, B n×k and C n×kc, from W∘W = 11ᵀ −
// (1 − ε²)(uuᵀ − diag(u)), u the indicator of the 0-based even indices:
// A(BᵀC) − (1 − ε²)(u∘A)(B_UᵀC_U) + (1 − ε²)·u∘(row-wise (a_i·b_i) c_i),
// in O(n·k·kc).
func (p *pmcCheck) applyW(a []float64, k int, b, c []float64, kc int) []float64 {
	n := p.n
	all, us := make([]float64, k*kc), make([]float64, k*kc)
	for i := range n {
		for s := range k {
			for t := range kc {
				v := b[i*k+s] * c[i*kc+t]
				all[s*kc+t] += v
				if i%2 == 0 {
					us[s*kc+t] += v
				}
			}
		}
	}
	out := make([]float64, n*kc)
	for i := range n {
		ab := 0.0
		for s := range k {
			ab += a[i*k+s] * b[i*k+s]
		}
		for t := range kc {
			o, u := 0.0, 0.0
			for s := range k {
				o += a[i*k+s] * all[s*kc+t]
				u += a[i*k+s] * us[s*kc+t]
			}
			if i%2 == 0 {
				o -= p.c * (u - ab*c[i*kc+t])
			}
			out[i*kc+t] = o
		}
	}
	return out
}

// grad is ∇h(X) = 2(W²∘(XXᵀ − ZZᵀ))X by applyW, O(n(r + r*)r).
func (p *pmcCheck) grad(x []float64) []float64 {
	g := p.applyW(x, p.r, x, x, p.r)
	gz := p.applyW(p.z, p.rs, p.z, x, p.r)
	for i := range g {
		g[i] = 2 * (g[i] - gz[i])
	}
	return g
}

// hvp is ∇²h(X̂)[v] = 2[(W²∘X̂X̂ᵀ)v − (W²∘ZZᵀ)v + (W²∘X̂vᵀ)X̂ + (W²∘vX̂ᵀ)X̂] by applyW.
func (p *pmcCheck) hvp(v []float64) []float64 {
	r := p.r
	t1, t2 := p.applyW(p.x, r, p.x, v, r), p.applyW(p.z, p.rs, p.z, v, r)
	t3, t4 := p.applyW(p.x, r, v, p.x, r), p.applyW(v, r, p.x, p.x, r)
	out := make([]float64, len(v))
	for i := range out {
		out[i] = 2 * (t1[i] - t2[i] + t3[i] + t4[i])
	}
	return out
}

// hStructured is h(X) = ½[‖D‖_F² − (1 − ε²)(‖D_UU‖_F² − Σ_{i∈U} D_ii²)]
// from the Gram matrices XᵀX, XᵀZ, ZᵀZ (and their U rows), O(n(r + r*)²).
func (p *pmcCheck) hStructured(x []float64) float64 {
	n, r, rs := p.n, p.r, p.rs
	gram := func(a []float64, ka int, b []float64, kb int, onlyU bool) float64 {
		m := make([]float64, ka*kb)
		for i := range n {
			if onlyU && i%2 != 0 {
				continue
			}
			for s := range ka {
				for t := range kb {
					m[s*kb+t] += a[i*ka+s] * b[i*kb+t]
				}
			}
		}
		q := 0.0
		for _, v := range m {
			q += v * v
		}
		return q
	}
	fro := func(onlyU bool) float64 {
		return gram(x, r, x, r, onlyU) - 2*gram(x, r, p.z, rs, onlyU) + gram(p.z, rs, p.z, rs, onlyU)
	}
	diag := 0.0
	for i := 0; i < n; i += 2 {
		d := 0.0
		for k := range r {
			d += x[i*r+k] * x[i*r+k]
		}
		for k := range rs {
			d -= p.z[i*rs+k] * p.z[i*rs+k]
		}
		diag += d * d
	}
	return (fro(false) - p.c*(fro(true)-diag)) / 2
}

// rank1Form is ∇²h(X̂) at r = 1 as diag(δ) + PSPᵀ, P = [x, u∘x, z,
// u∘z], S = 2·diag(2, −2(1 − ε²), −1, 1 − ε²) (derived from hvp; the
// test checks the two agree), and the same low-rank term on an
// orthonormal basis Q of P's columns (modified Gram–Schmidt, dropping a
// column within 1e-10 of the span of the others: on a PMC point x and
// u∘x are equal), PSPᵀ = Q Se Qᵀ.
type rank1Form struct {
	delta []float64
	P     [4][]float64
	S     [4]float64
	Q     [][]float64
	Se    *mat.Dense
}

func (p *pmcCheck) rank1() rank1Form {
	n := p.n
	x, z := p.x, p.z
	sx, sxu := 0.0, 0.0
	for i := range n {
		sx += x[i] * x[i]
		if i%2 == 0 {
			sxu += x[i] * x[i]
		}
	}
	var f rank1Form
	f.delta = make([]float64, n)
	for i := range n {
		d := sx
		if i%2 == 0 {
			d += p.c * (3*x[i]*x[i] - z[i]*z[i] - sxu)
		}
		f.delta[i] = 2 * d
	}
	for k := range f.P {
		f.P[k] = make([]float64, n)
	}
	for i := range n {
		f.P[0][i], f.P[2][i] = x[i], z[i]
		if i%2 == 0 {
			f.P[1][i], f.P[3][i] = x[i], z[i]
		}
	}
	f.S = [4]float64{4, -4 * p.c, -2, 2 * p.c}
	// P = Q C, column k of C the coefficients of P's column k.
	var coef [4][]float64
	for k := range 4 {
		q := append([]float64(nil), f.P[k]...)
		for _, b := range f.Q {
			a := dotf(b, q)
			for i := range q {
				q[i] -= a * b[i]
			}
			coef[k] = append(coef[k], a)
		}
		if nq := math.Sqrt(dotf(q, q)); nq > 1e-10*math.Sqrt(dotf(f.P[k], f.P[k])) {
			for i := range q {
				q[i] /= nq
			}
			f.Q = append(f.Q, q)
			coef[k] = append(coef[k], nq)
		}
	}
	kq := len(f.Q)
	C := mat.NewDense(kq, 4, nil)
	for k := range 4 {
		for j, a := range coef[k] {
			if j < kq {
				C.Set(j, k, a)
			}
		}
	}
	f.Se = mat.NewDense(kq, kq, nil)
	f.Se.Product(C, mat.NewDiagDense(4, f.S[:]), C.T())
	return f
}

// k returns Qᵀ(diag(δ) − l)⁻¹Q.
func (f rank1Form) k(l float64) *mat.SymDense {
	kq := len(f.Q)
	K := mat.NewSymDense(kq, nil)
	for a := range kq {
		for b := a; b < kq; b++ {
			s := 0.0
			for i, d := range f.delta {
				s += f.Q[a][i] * f.Q[b][i] / (d - l)
			}
			K.SetSym(a, b, s)
		}
	}
	return K
}

// below returns the number of eigenvalues of ∇²h under l < min δ by
// Sylvester's law of inertia: that of diag(δ) − l + Q Se Qᵀ, which is the
// number of eigenvalues below −1 of K^½ Se K^½, K = f.k(l); −1 if an
// eigen-solve fails.
func (f rank1Form) below(l float64) int {
	kq := len(f.Q)
	var e mat.EigenSym
	if !e.Factorize(f.k(l), true) {
		return -1
	}
	vals := e.Values(nil)
	var vec mat.Dense
	e.VectorsTo(&vec)
	sq := mat.NewDiagDense(kq, nil)
	for k, v := range vals {
		sq.SetDiag(k, math.Sqrt(math.Max(v, 0)))
	}
	var half, m mat.Dense
	half.Product(&vec, sq, vec.T())
	m.Product(&half, f.Se, &half)
	ms := mat.NewSymDense(kq, nil)
	for a := range kq {
		for b := a; b < kq; b++ {
			ms.SetSym(a, b, (m.At(a, b)+m.At(b, a))/2)
		}
	}
	if !e.Factorize(ms, false) {
		return -1
	}
	c := 0
	for _, v := range e.Values(nil) {
		if v < -1 {
			c++
		}
	}
	return c
}

// minEig returns λ_min and true by bisection on below, or min δ and
// false when no eigenvalue lies below min δ (then λ_min ≥ min δ).
func (f rank1Form) minEig() (lam, minDelta float64, exact bool) {
	minDelta = math.Inf(1)
	for _, d := range f.delta {
		minDelta = math.Min(minDelta, d)
	}
	hi := minDelta - 1e-12*math.Max(1, math.Abs(minDelta))
	if f.below(hi) == 0 {
		return minDelta, minDelta, false
	}
	spread := 0.0
	for k := range 4 {
		spread += math.Abs(f.S[k]) * dotf(f.P[k], f.P[k])
	}
	lo := minDelta - spread - 1
	if f.below(lo) != 0 {
		return math.NaN(), minDelta, true
	}
	for hi-lo > 1e-13*math.Max(1, math.Abs(hi)) {
		mid := (lo + hi) / 2
		if f.below(mid) == 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, minDelta, true
}

// eigvec returns the eigenvector of eigenvalue l < min δ: v =
// −(diag(δ) − l)⁻¹Qw with (I + Se K)w = 0, w the right singular vector
// of the smallest singular value.
func (f rank1Form) eigvec(l float64) []float64 {
	kq := len(f.Q)
	var m mat.Dense
	m.Mul(f.Se, f.k(l))
	for a := range kq {
		m.Set(a, a, m.At(a, a)+1)
	}
	var svd mat.SVD
	if !svd.Factorize(&m, mat.SVDFull) {
		return nil
	}
	var vt mat.Dense
	svd.VTo(&vt)
	v := make([]float64, len(f.delta))
	for i, d := range f.delta {
		for k := range kq {
			v[i] -= f.Q[k][i] * vt.At(k, kq-1) / (d - l)
		}
	}
	return v
}

// checkInstancesIndependently re-certifies the "pmc" and "pmc-rank"
// instances of f from their definition (pmcCheck) and returns how many it
// checked.
func checkInstancesIndependently(t reporter, f *InstancesFile) int {
	t.Helper()
	checked := 0
	for _, in := range f.Instances {
		if in.Family != "pmc" && in.Family != "pmc-rank" {
			t.Logf("%s: family %s not checked here (TestNewFamiliesCertifiedIndependently)", in.Name, in.Family)
			continue
		}
		if in.Eps == nil {
			t.Errorf("%s: no ε recorded", in.Name)
			continue
		}
		rs := max(in.RStar, 1)
		zm, _ := pmcTruth(in.N, rs)
		p := &pmcCheck{n: in.N, r: in.R, rs: rs, eps2: *in.Eps * *in.Eps, c: 1 - *in.Eps**in.Eps, x: in.X, z: zm.RawMatrix().Data, name: in.Name}
		if in.Family == "pmc" && rs != 1 {
			t.Errorf("%s: pmc with r* = %d, want 1", in.Name, rs)
		}
		c := in.Cert
		rng := rand.New(rand.NewPCG(1, uint64(in.N)))
		v := make([]float64, in.N*in.R)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		h, h0, d2, g, hv := p.dense(v)
		if math.Abs(h-c.H) > 1e-9*math.Max(1, h) {
			t.Errorf("%s: h = %.15g, entry by entry %.15g", in.Name, c.H, h)
		}
		// The Gram matrices' form subtracts terms of order ‖X̂‖⁴ (2.5·10⁹
		// at n = 10⁵): its rounding is of that order times 1e-16.
		x4 := dotf(p.x, p.x) * dotf(p.x, p.x)
		if hs := p.hStructured(p.x); math.Abs(hs-h) > 1e-9*math.Max(1, h)+1e-14*x4 {
			t.Errorf("%s: h from Gram matrices %.15g, entry by entry %.15g", in.Name, hs, h)
		}
		gn := math.Sqrt(dotf(g, g))
		if !(gn <= DefaultCertifyTol) || math.Abs(gn-c.GradNorm) > 1e-9+1e-3*c.GradNorm {
			t.Errorf("%s: ‖∇h‖_F entry by entry %.4g, certificate %.4g (want ≤ %g)", in.Name, gn, c.GradNorm, DefaultCertifyTol)
		}
		gs := p.grad(p.x)
		for i := range gs {
			gs[i] -= g[i]
		}
		if e := math.Sqrt(dotf(gs, gs)); e > 1e-8 {
			t.Errorf("%s: ∇h from applyW differs from the entry-by-entry sum by %.3g", in.Name, e)
		}
		hs := p.hvp(v)
		for i := range hs {
			hs[i] -= hv[i]
		}
		if e := math.Sqrt(dotf(hs, hs)); e > 1e-9*math.Sqrt(dotf(hv, hv)) {
			t.Errorf("%s: ∇²h[v] from applyW differs from the entry-by-entry sum by %.3g (‖∇²h[v]‖ = %.3g)", in.Name, e, math.Sqrt(dotf(hv, hv)))
		}
		if d := math.Sqrt(d2); d < DefaultMinDist || math.Abs(d-c.Dist) > 1e-9*math.Max(1, d) {
			t.Errorf("%s: ‖X̂X̂ᵀ − M*‖_F entry by entry %.10g, certificate %.10g", in.Name, d, c.Dist)
		}
		if !(h > DefaultRelH*h0) || math.Abs(h/h0-c.HRel) > 1e-9*c.HRel || c.HStar > 1e-20 {
			t.Errorf("%s: h = %.6g, h(0) = %.6g, h/h(0) certificate %.6g, h(M*) certificate %.3g (want h > %g·h(0) and h(M*) = 0 up to rounding)", in.Name, h, h0, c.HRel, c.HStar, DefaultRelH)
		}
		// Continued descent: DescentSteps gradient steps of the instance's
		// step by the Gram-matrix gradient.
		y := append([]float64(nil), p.x...)
		for range c.DescentSteps {
			gy := p.grad(y)
			for i := range y {
				y[i] -= in.Step * gy[i]
			}
		}
		if hd := p.hStructured(y); c.DescentSteps == 0 || !(hd >= (1-DefaultDescentDrop)*h) || math.Abs(hd-c.HDescent) > 1e-6*math.Max(1, hd) {
			t.Errorf("%s: %d more steps of %g end at h = %.10g (certificate %.10g; want ≥ %.2g·h(X̂) = %.6g)", in.Name, c.DescentSteps, in.Step, hd, c.HDescent, 1-DefaultDescentDrop, (1-DefaultDescentDrop)*h)
		}
		// λ_min: at r = 1 by inertia, else a dense eigen-solve of the
		// Hessian formed column by column from hvp.
		N := in.N * in.R
		var lmin, hn float64 // λ_min and a bound of ‖∇²h‖₂
		switch {
		case in.R == 1:
			f := p.rank1()
			lam, minDelta, exact := f.minEig()
			delta, P, S := f.delta, f.P, f.S
			hv2 := make([]float64, N)
			for i := range hv2 {
				hv2[i] = delta[i] * v[i]
			}
			for k := range 4 {
				s := S[k] * dotf(P[k], v)
				for i := range hv2 {
					hv2[i] += s * P[k][i]
				}
			}
			for i := range hv2 {
				hv2[i] -= hv[i]
			}
			if e := math.Sqrt(dotf(hv2, hv2)); e > 1e-9*math.Sqrt(dotf(hv, hv)) {
				t.Errorf("%s: ∇²h = diag(δ) + PSPᵀ differs from the entry-by-entry ∇²h[v] by %.3g", in.Name, e)
			}
			if !exact {
				// λ_min ≥ min δ; Lanczos's Ritz value is ≥ λ_min.
				t.Logf("%s: no eigenvalue below min δ = %.10g: λ_min ≥ %.10g (certificate %.10g)", in.Name, minDelta, minDelta, c.MinHessEig)
				if !(minDelta > 0) || c.MinHessEig < minDelta-1e-4*math.Max(1, minDelta) {
					t.Errorf("%s: λ_min ≥ min δ = %.6g, certificate %.6g", in.Name, minDelta, c.MinHessEig)
				}
				checked++
				continue
			}
			lmin = lam
			for k := range 4 {
				hn += math.Abs(S[k]) * dotf(P[k], P[k])
			}
			maxDelta := 0.0
			for _, d := range delta {
				maxDelta = math.Max(maxDelta, math.Abs(d))
			}
			hn += maxDelta
			// Its eigenvector's Rayleigh quotient vᵀ∇²h v/vᵀv by hvp: an
			// upper bound of λ_min from an actual vector.
			ev := f.eigvec(lam)
			if ev == nil {
				t.Fatalf("%s: SVD failed", in.Name)
			}
			rq := dotf(ev, p.hvp(ev)) / dotf(ev, ev)
			t.Logf("%s: λ_min = %.12g by inertia (min δ = %.6g), Rayleigh quotient of its eigenvector %.12g, certificate %.12g, ‖∇²h‖₂ ≤ %.4g: certificate − λ_min = %.3g·‖∇²h‖₂", in.Name, lam, minDelta, rq, c.MinHessEig, hn, (c.MinHessEig-lam)/hn)
			if math.Abs(rq-lam) > 1e-10*hn {
				t.Errorf("%s: the Rayleigh quotient %.12g of the inertia's eigenvector is not λ_min = %.12g", in.Name, rq, lam)
			}
		case N <= 6000:
			H := mat.NewSymDense(N, nil)
			e := make([]float64, N)
			cols := make([][]float64, N)
			for k := range N {
				e[k] = 1
				cols[k] = p.hvp(e)
				e[k] = 0
			}
			for a := range N {
				for b := a; b < N; b++ {
					H.SetSym(a, b, (cols[a][b]+cols[b][a])/2)
				}
			}
			var es mat.EigenSym
			if !es.Factorize(H, false) {
				t.Fatalf("%s: eigen-solve failed", in.Name)
			}
			vals := es.Values(nil)
			lmin, hn = vals[0], math.Max(math.Abs(vals[0]), math.Abs(vals[N-1]))
			t.Logf("%s: λ_min = %.6g by a dense %d×%d eigen-solve, certificate %.6g", in.Name, lmin, N, N, c.MinHessEig)
		default:
			t.Errorf("%s: n·r = %d at r = %d: no independent λ_min here", in.Name, N, in.R)
			continue
		}
		// The certificate's λ_min: within 1e-4 relative, or a Lanczos Ritz
		// value above λ_min by at most 1e-8·‖∇²h‖₂ (sod.HessianMinEig's
		// stated accuracy is about 1e-9·‖∇²h‖₂).
		d := c.MinHessEig - lmin
		if lmin < -DefaultCertifyTol || math.Abs(d) > 1e-4*math.Max(1, math.Abs(lmin)) && !(d >= -1e-12*hn && d <= 1e-8*hn) {
			t.Errorf("%s: λ_min = %.8g independently, certificate %.8g (‖∇²h‖₂ ≈ %.3g)", in.Name, lmin, c.MinHessEig, hn)
		}
		checked++
	}
	return checked
}

// reporter is what checkInstancesIndependently reports to: a *testing.T,
// or a recorder (TestIndependentCheckCatches).
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// recorder counts the errors reported to it.
type recorder struct {
	errors []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}

func dotf(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestInstancesFileCertifiedIndependently re-certifies stored PMC
// instances (families pmc and pmc-rank) from bench-instances.json alone,
// without the certificate's code: h, ‖∇h‖_F, ‖X̂X̂ᵀ − M*‖_F, h(0) and a
// Hessian–vector product summed entry by entry from Ω's rule (O(n²r), no
// n×n array), the continued descent with a gradient of its own from the
// Gram matrices (checked against the entry-by-entry one), and λ_min at
// r = 1 by Sylvester's inertia on the Hessian's diagonal-plus-low-rank
// form (checked against the entry-by-entry product; its eigenvector's
// Rayleigh quotient beside), at r > 1 by a dense eigen-solve. With SOD_BENCH_INSTANCES naming an instances file (a
// relative path is the module root's), e.g. the large profile's
// (`reproduce bench -profile large -instances-only`; minutes at n = 10⁵),
// it checks that file; otherwise a small suite's instances generated here.
func TestInstancesFileCertifiedIndependently(t *testing.T) {
	if testing.Short() {
		t.Skip("generates or reads and re-certifies instances")
	}
	var f *InstancesFile
	if path := os.Getenv("SOD_BENCH_INSTANCES"); path != "" {
		if !filepath.IsAbs(path) {
			// go test runs in the package's folder: a relative path is
			// the module root's, where the commands run.
			path = filepath.Join(moduleRoot(t), path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if f, err = ReadInstancesJSON(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	} else {
		f = smallInstancesFile(t)
	}
	if got := checkInstancesIndependently(t, f); got == 0 {
		t.Fatalf("no pmc or pmc-rank instance checked (%d instances, %d dropped)", len(f.Instances), len(f.Dropped))
	}
}

// moduleRoot is the folder of the go.mod above the test's folder.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// smallInstancesFile is a small suite's instances (PMC n = 200, rank 3 at
// n = 40) by GenerateInstances, written and read back.
func smallInstancesFile(t *testing.T) *InstancesFile {
	t.Helper()
	s := Spec{Families: []string{"pmc", "pmc-rank"}, Methods: []string{"gd-alone"}, Trials: 1, PerCell: 1, Seed: 1, PMCStart: StartRandomSigns.String(),
		PMCCells: []PMCCell{{N: 200, Eps: 0.05}}, PMCRankCells: []PMCCell{{N: 40, Eps: 0.15, R: 3}}, MaxIter: 100, MaxEscapes: 1}
	su, err := s.Suite()
	if err != nil {
		t.Fatal(err)
	}
	sr, err := GenerateInstances(context.Background(), su, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Runs) != 0 || sr.Runs == nil {
		t.Errorf("GenerateInstances: %d runs (nil: %v), want none", len(sr.Runs), sr.Runs == nil)
	}
	var b bytes.Buffer
	if err := WriteInstancesJSON(&b, testEnv, sr); err != nil {
		t.Fatal(err)
	}
	f, err := ReadInstancesJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestIndependentCheckCatches: the independent re-certification finds a
// certificate or a point that is off (h, ‖∇h‖, λ_min, the distance, the
// continued descent; X̂ moved, ε changed) and passes the true ones.
func TestIndependentCheckCatches(t *testing.T) {
	if testing.Short() {
		t.Skip("generates instances")
	}
	var b bytes.Buffer
	if err := WriteInstancesJSON(&b, testEnv, &SuiteRun{Instances: smallInstancesFile(t).Instances, Dropped: []Dropped{}}); err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(in *InstanceInfo){
		"none":      func(*InstanceInfo) {},
		"h":         func(in *InstanceInfo) { in.Cert.H *= 1 + 1e-6 },
		"grad norm": func(in *InstanceInfo) { in.Cert.GradNorm = 5e-6 },
		"λ_min":     func(in *InstanceInfo) { in.Cert.MinHessEig += 1e-3 * math.Max(1, math.Abs(in.Cert.MinHessEig)) },
		"distance":  func(in *InstanceInfo) { in.Cert.Dist *= 1 + 1e-6 },
		"h descent": func(in *InstanceInfo) { in.Cert.HDescent *= 1 + 1e-3 },
		"x moved":   func(in *InstanceInfo) { in.X[3] += 1e-4 },
		"ε":         func(in *InstanceInfo) { e := *in.Eps * 1.01; in.Eps = &e },
	} {
		for i := range 2 { // the pmc (r = 1: inertia) and the pmc-rank (dense) instance
			f, err := ReadInstancesJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			f.Instances = f.Instances[i : i+1]
			spoil(&f.Instances[0])
			var r recorder
			checkInstancesIndependently(&r, f)
			if (name == "none") != (len(r.errors) == 0) {
				t.Errorf("%s spoiled on %s: errors %q", name, f.Instances[0].Name, r.errors)
			}
		}
	}
}
