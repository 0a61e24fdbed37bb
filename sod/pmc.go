package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// PMC is the perturbed matrix completion operator 𝒜_ε of the paper's
// Appendix "Experimental Setup of Numerical Case Study 1" (eq. pmc_data):
// entry (i, j) is observed with weight 1 when it lies in
// Ω = {(i,i), (i,2k), (2k,i) : i ∈ [n], k ∈ [⌊n/2⌋]} (1-based) and with
// weight ε otherwise.
//
// As symmetric sensing matrices (REPRODUCTION.md C8) it has m = n(n+1)/2
// measurements, one per entry i ≤ j of the upper triangle in row-major
// order: A_(ii) = W_ii e_i e_iᵀ and A_(ij) = (W_ij/√2)(e_i e_jᵀ + e_j e_iᵀ)
// for i < j, so that ‖𝒜(M)‖² = Σ_ij W_ij² M_ij² for symmetric M and
// Ξ² = 1. The sensing matrices are never formed: Apply, Adjoint and Normal
// are elementwise, O(n²) and allocation-free.
//
// A PMC is read-only after construction and safe for concurrent use.
type PMC struct {
	n   int
	eps float64
	w   []float64 // n×n weights W_ij, row-major
	w2  []float64 // W_ij²
}

// NewPMC returns the perturbed matrix completion operator for size n ≥ 1
// and perturbation ε > 0 (finite).
func NewPMC(n int, eps float64) (*PMC, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: PMC size n = %d, want n ≥ 1", ErrBadParameter, n)
	}
	if !(eps > 0) || math.IsInf(eps, 0) {
		return nil, fmt.Errorf("%w: PMC perturbation ε = %v, want finite ε > 0", ErrBadParameter, eps)
	}
	p := &PMC{n: n, eps: eps, w: make([]float64, n*n), w2: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w := eps
			if pmcObserved(i, j) {
				w = 1
			}
			p.w[i*n+j] = w
			p.w2[i*n+j] = w * w
		}
	}
	return p, nil
}

// pmcObserved reports whether the 0-based entry (i, j) lies in Ω: i = j,
// or either 1-based index is even (0-based odd).
func pmcObserved(i, j int) bool { return i == j || i%2 == 1 || j%2 == 1 }

// Observed reports whether the 0-based entry (i, j) belongs to Ω.
func (p *PMC) Observed(i, j int) bool { return pmcObserved(i, j) }

// Epsilon returns ε.
func (p *PMC) Epsilon() float64 { return p.eps }

// Weight returns W_ij (1 on Ω, ε elsewhere), 0-based.
func (p *PMC) Weight(i, j int) float64 { return p.w[i*p.n+j] }

// Dims returns n and m = n(n+1)/2.
func (p *PMC) Dims() (n, m int) { return p.n, p.n * (p.n + 1) / 2 }

// Index returns the measurement index of the 0-based entry i ≤ j.
func (p *PMC) Index(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*p.n - i*(i-1)/2 + (j - i)
}

// Apply stores 𝒜(M) in dst: W_ii M_ii on the diagonal and
// W_ij (M_ij + M_ji)/√2 for i < j.
func (p *PMC) Apply(dst []float64, M mat.Matrix) {
	n := p.n
	idx := 0
	if v := contiguous(M); v != nil {
		for i := 0; i < n; i++ {
			dst[idx] = p.w[i*n+i] * v[i*n+i]
			idx++
			for j := i + 1; j < n; j++ {
				dst[idx] = p.w[i*n+j] * (v[i*n+j] + v[j*n+i]) * math.Sqrt2 / 2
				idx++
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		dst[idx] = p.w[i*n+i] * M.At(i, i)
		idx++
		for j := i + 1; j < n; j++ {
			dst[idx] = p.w[i*n+j] * (M.At(i, j) + M.At(j, i)) * math.Sqrt2 / 2
			idx++
		}
	}
}

// Adjoint stores 𝒜*(y) in dst.
func (p *PMC) Adjoint(dst *mat.Dense, y []float64) {
	n := p.n
	idx := 0
	if v := contiguous(dst); v != nil {
		for i := 0; i < n; i++ {
			v[i*n+i] = p.w[i*n+i] * y[idx]
			idx++
			for j := i + 1; j < n; j++ {
				s := p.w[i*n+j] * y[idx] * math.Sqrt2 / 2
				v[i*n+j], v[j*n+i] = s, s
				idx++
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		dst.Set(i, i, p.w[i*n+i]*y[idx])
		idx++
		for j := i + 1; j < n; j++ {
			s := p.w[i*n+j] * y[idx] * math.Sqrt2 / 2
			dst.Set(i, j, s)
			dst.Set(j, i, s)
			idx++
		}
	}
}

// Normal stores 𝒜*𝒜(M) in dst: W_ij² (M_ij + M_ji)/2, which is W∘W∘M for
// symmetric M.
func (p *PMC) Normal(dst *mat.Dense, M mat.Matrix) {
	n := p.n
	v, d := contiguous(M), contiguous(dst)
	if v != nil && d != nil {
		for i := 0; i < n; i++ {
			d[i*n+i] = p.w2[i*n+i] * v[i*n+i]
			for j := i + 1; j < n; j++ {
				s := p.w2[i*n+j] * 0.5 * (v[i*n+j] + v[j*n+i])
				d[i*n+j], d[j*n+i] = s, s
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		dst.Set(i, i, p.w2[i*n+i]*M.At(i, i))
		for j := i + 1; j < n; j++ {
			s := p.w2[i*n+j] * 0.5 * (M.At(i, j) + M.At(j, i))
			dst.Set(i, j, s)
			dst.Set(j, i, s)
		}
	}
}

// SensingMatrix stores the k-th sensing matrix in dst (n×n).
func (p *PMC) SensingMatrix(dst *mat.SymDense, k int) {
	dst.Zero()
	n := p.n
	idx := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if idx == k {
				if i == j {
					dst.SetSym(i, i, p.w[i*n+i])
				} else {
					dst.SetSym(i, j, p.w[i*n+j]*math.Sqrt2/2)
				}
				return
			}
			idx++
		}
	}
}

// XiSquared returns Ξ² = max_i ‖A_i‖₂² = 1 (the diagonal matrices e_i e_iᵀ;
// the off-diagonal ones have ‖A_(ij)‖₂² = W_ij²/2).
func (p *PMC) XiSquared() float64 {
	best := 0.0
	for i := 0; i < p.n; i++ {
		best = math.Max(best, p.w2[i*p.n+i])
		for j := i + 1; j < p.n; j++ {
			best = math.Max(best, p.w2[i*p.n+j]/2)
		}
	}
	return best
}

// gradH computes h(X) = ½‖𝒜(XXᵀ) − b‖² and ∇h(X) = 2𝒜*(𝒜(XXᵀ) − b)X into
// dst in a single pass over the upper triangle, without forming XXᵀ. It is
// the fast path used by GradientDescent (O(n² r), allocation-free).
func (p *PMC) gradH(dst, X *mat.Dense, b []float64) float64 {
	n := p.n
	xr, gr := X.RawMatrix(), dst.RawMatrix()
	r := xr.Cols
	for i := 0; i < n; i++ {
		row := gr.Data[i*gr.Stride : i*gr.Stride+r]
		for k := range row {
			row[k] = 0
		}
	}
	h := 0.0
	idx := 0
	if r == 1 {
		xs, xst := xr.Data, xr.Stride
		gs, gst := gr.Data, gr.Stride
		for i := 0; i < n; i++ {
			xi := xs[i*xst]
			w := p.w[i*n : i*n+n]
			res := w[i]*xi*xi - b[idx]
			idx++
			h += res * res
			gi := 2 * w[i] * res * xi
			for j := i + 1; j < n; j++ {
				xj := xs[j*xst]
				res := w[j]*math.Sqrt2*xi*xj - b[idx]
				idx++
				h += res * res
				g := math.Sqrt2 * w[j] * res // 2·G_ij with G_ij = W_ij res/√2
				gi += g * xj
				gs[j*gst] += g * xi
			}
			gs[i*gst] += gi
		}
		return 0.5 * h
	}
	for i := 0; i < n; i++ {
		xi := xr.Data[i*xr.Stride : i*xr.Stride+r]
		gi := gr.Data[i*gr.Stride : i*gr.Stride+r]
		w := p.w[i*n : i*n+n]
		mii := 0.0
		for _, v := range xi {
			mii += v * v
		}
		res := w[i]*mii - b[idx]
		idx++
		h += res * res
		g := 2 * w[i] * res
		for k, v := range xi {
			gi[k] += g * v
		}
		for j := i + 1; j < n; j++ {
			xj := xr.Data[j*xr.Stride : j*xr.Stride+r]
			gj := gr.Data[j*gr.Stride : j*gr.Stride+r]
			mij := 0.0
			for k, v := range xi {
				mij += v * xj[k]
			}
			res := w[j]*math.Sqrt2*mij - b[idx]
			idx++
			h += res * res
			g := math.Sqrt2 * w[j] * res
			for k := range xi {
				gi[k] += g * xj[k]
				gj[k] += g * xi[k]
			}
		}
	}
	return 0.5 * h
}
