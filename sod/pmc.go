package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod/internal/kernel"
)

// PMCOperator is the perturbed matrix completion operator 𝒜_ε of the paper's
// Appendix "Experimental Setup of Numerical Case Study 1" (eq. pmc_data):
// entry (i, j) is observed with weight 1 when it lies in
// Ω = {(i,i), (i,2k), (2k,i) : i ∈ [n], k ∈ [⌊n/2⌋]} (1-based) and with
// weight ε otherwise.
//
// As symmetric sensing matrices (REPRODUCTION.md C8) it has m = n(n+1)/2
// measurements, one per entry i ≤ j of the upper triangle in row-major order:
// A_(ii) = W_ii e_i e_iᵀ and A_(ij) = (W_ij/√2)(e_i e_jᵀ + e_j e_iᵀ) for
// i < j, so that ‖𝒜(M)‖² = Σ_ij W_ij² M_ij² for symmetric M and Ξ² = 1. The
// sensing matrices are never formed: Apply, Adjoint and Normal are
// elementwise, O(n²) and allocation-free.
//
// The weights are a rule, not an array: a PMCOperator takes O(1) memory for every n.
// Their squares have the structure "all ones, minus a rank-one term, plus a
// diagonal",
//
//	W∘W = 11ᵀ − (1 − ε²)(eeᵀ − diag(e)),
//
// with e the indicator of the unobserved parity (the 1-based odd indices).
// A Problem with a PMCOperator and a known low-rank ground truth uses it to
// evaluate h, ∇h and ‖XXᵀ − M*‖_F in O(n·(r + r*)²) time and O(n·(r + r*))
// memory, without any n×n array (see NewProblem).
//
// A PMCOperator is read-only after construction and safe for concurrent use.
type PMCOperator struct {
	n   int
	eps float64
}

// MaxPMCSize is the largest n NewPMCOperator accepts. The operator itself takes
// O(1) memory; the limit is set by what a Problem built on it allocates
// through the structured path: about 8·n·(6(r + r*) + 3r) bytes for
// gradient descent (r = r* = 1: 0.12 GB at n = 10⁶, 1.2 GB at n = 10⁷), and
// the escape analysis a Lanczos basis of up to 64 vectors of length n. The
// dense path (Apply, Adjoint, a Problem without structure) needs n×n
// arrays and is limited separately (MaxDenseSize).
const MaxPMCSize = 10_000_000

// NewPMCOperator returns the perturbed matrix completion operator for size
// 1 ≤ n ≤ MaxPMCSize and perturbation ε > 0 (finite). It allocates nothing
// that grows with n.
func NewPMCOperator(n int, eps float64) (*PMCOperator, error) {
	if n < 1 || n > MaxPMCSize {
		return nil, fmt.Errorf("%w: PMC size n = %d, want 1 ≤ n ≤ %d (MaxPMCSize)", ErrBadParameter, n, MaxPMCSize)
	}
	if !(eps > 0) || math.IsInf(eps, 0) {
		return nil, fmt.Errorf("%w: PMC perturbation ε = %v, want finite ε > 0", ErrBadParameter, eps)
	}
	return &PMCOperator{n: n, eps: eps}, nil
}

// pmcObserved reports whether the 0-based entry (i, j) lies in Ω: i = j,
// or either 1-based index is even (0-based odd).
func pmcObserved(i, j int) bool { return i == j || i%2 == 1 || j%2 == 1 }

// Observed reports whether the 0-based entry (i, j) belongs to Ω.
func (p *PMCOperator) Observed(i, j int) bool { return pmcObserved(i, j) }

// Epsilon returns ε.
func (p *PMCOperator) Epsilon() float64 {
	if p == nil || p.n == 0 {
		panic(errUnbuilt("PMCOperator", "Epsilon", "NewPMCOperator"))
	}
	return p.eps
}

// Weight returns W_ij (1 on Ω, ε elsewhere), 0-based.
func (p *PMCOperator) Weight(i, j int) float64 {
	if pmcObserved(i, j) {
		return 1
	}
	return p.eps
}

// weight2 returns W_ij².
func (p *PMCOperator) weight2(i, j int) float64 {
	if pmcObserved(i, j) {
		return 1
	}
	return p.eps * p.eps
}

// maskedWeights describes the squared weights for the structured path: 1
// everywhere except ε² on the off-diagonal entries whose row and column
// both have unobserved[i] true (the 0-based even indices).
func (p *PMCOperator) maskedWeights() (unobserved func(i int) bool, eps2 float64) {
	return func(i int) bool { return i%2 == 0 }, p.eps * p.eps
}

// Dims returns n and m = n(n+1)/2.
func (p *PMCOperator) Dims() (n, m int) {
	if p == nil {
		return 0, 0
	}
	return p.n, p.n * (p.n + 1) / 2
}

// Index returns the measurement index of the 0-based entry i ≤ j.
func (p *PMCOperator) Index(i, j int) int {
	if p == nil || p.n == 0 {
		panic(errUnbuilt("PMCOperator", "Index", "NewPMCOperator"))
	}
	if i > j {
		i, j = j, i
	}
	return i*p.n - i*(i-1)/2 + (j - i)
}

// Apply stores 𝒜(M) in dst: W_ii M_ii on the diagonal and
// W_ij (M_ij + M_ji)/√2 for i < j.
func (p *PMCOperator) Apply(dst []float64, M mat.Matrix) {
	n := p.n
	idx := 0
	if v := kernel.Contiguous(M); v != nil {
		for i := 0; i < n; i++ {
			dst[idx] = p.Weight(i, i) * v[i*n+i]
			idx++
			for j := i + 1; j < n; j++ {
				dst[idx] = p.Weight(i, j) * (v[i*n+j] + v[j*n+i]) * math.Sqrt2 / 2
				idx++
			}
		}
		return
	}
	if s, ok := M.(*mat.SymDense); ok {
		// M_ji = M_ij: the upper triangle, read as At would read it.
		raw := s.RawSymmetric()
		for i := 0; i < n; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			dst[idx] = p.Weight(i, i) * row[i]
			idx++
			for j := i + 1; j < n; j++ {
				dst[idx] = p.Weight(i, j) * (row[j] + row[j]) * math.Sqrt2 / 2
				idx++
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		dst[idx] = p.Weight(i, i) * M.At(i, i)
		idx++
		for j := i + 1; j < n; j++ {
			dst[idx] = p.Weight(i, j) * (M.At(i, j) + M.At(j, i)) * math.Sqrt2 / 2
			idx++
		}
	}
}

// Adjoint stores 𝒜*(y) in dst.
func (p *PMCOperator) Adjoint(dst *mat.Dense, y []float64) {
	n := p.n
	idx := 0
	if v := kernel.Contiguous(dst); v != nil {
		for i := 0; i < n; i++ {
			v[i*n+i] = p.Weight(i, i) * y[idx]
			idx++
			for j := i + 1; j < n; j++ {
				s := p.Weight(i, j) * y[idx] * math.Sqrt2 / 2
				v[i*n+j], v[j*n+i] = s, s
				idx++
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		dst.Set(i, i, p.Weight(i, i)*y[idx])
		idx++
		for j := i + 1; j < n; j++ {
			s := p.Weight(i, j) * y[idx] * math.Sqrt2 / 2
			dst.Set(i, j, s)
			dst.Set(j, i, s)
			idx++
		}
	}
}

// Normal stores 𝒜*𝒜(M) in dst: W_ij² (M_ij + M_ji)/2, which is W∘W∘M for
// symmetric M.
func (p *PMCOperator) Normal(dst *mat.Dense, M mat.Matrix) {
	n := p.n
	v, d := kernel.Contiguous(M), kernel.Contiguous(dst)
	if v != nil && d != nil {
		for i := 0; i < n; i++ {
			d[i*n+i] = p.weight2(i, i) * v[i*n+i]
			for j := i + 1; j < n; j++ {
				s := p.weight2(i, j) * 0.5 * (v[i*n+j] + v[j*n+i])
				d[i*n+j], d[j*n+i] = s, s
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		dst.Set(i, i, p.weight2(i, i)*M.At(i, i))
		for j := i + 1; j < n; j++ {
			s := p.weight2(i, j) * 0.5 * (M.At(i, j) + M.At(j, i))
			dst.Set(i, j, s)
			dst.Set(j, i, s)
		}
	}
}

// SensingMatrix stores the k-th sensing matrix in dst (n×n).
func (p *PMCOperator) SensingMatrix(dst *mat.SymDense, k int) {
	dst.Zero()
	n := p.n
	idx := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if idx == k {
				if i == j {
					dst.SetSym(i, i, p.Weight(i, i))
				} else {
					dst.SetSym(i, j, p.Weight(i, j)*math.Sqrt2/2)
				}
				return
			}
			idx++
		}
	}
}

// XiSquared returns Ξ² = max_i ‖A_i‖₂²: 1 from the diagonal matrices
// e_i e_iᵀ, unless an off-diagonal A_(ij) with ‖A_(ij)‖₂² = W_ij²/2 is
// larger (ε > √2).
func (p *PMCOperator) XiSquared() float64 {
	if p == nil || p.n == 0 {
		panic(errUnbuilt("PMCOperator", "XiSquared", "NewPMCOperator"))
	}
	if p.n > 2 && p.eps*p.eps/2 > 1 {
		return p.eps * p.eps / 2 // (0, 2) is unobserved once n ≥ 3
	}
	return 1
}

// rowWeights returns the off-diagonal weights of row i indexed by the
// parity of the column: W_ij = w[j&1] for j ≠ i.
func (p *PMCOperator) rowWeights(i int) [2]float64 {
	if i%2 == 1 {
		return [2]float64{1, 1}
	}
	return [2]float64{p.eps, 1}
}

// gradH computes h(X) = ½‖𝒜(XXᵀ) − b‖² and ∇h(X) = 2𝒜*(𝒜(XXᵀ) − b)X into
// dst in a single pass over the upper triangle, without forming XXᵀ. It is
// the dense path used by GradientDescent when the structured one does not
// apply (measurements without a known low-rank truth): O(n² r),
// allocation-free.
func (p *PMCOperator) gradH(dst, X *mat.Dense, b []float64) float64 {
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
			w := p.rowWeights(i)
			res := xi*xi - b[idx] // W_ii = 1
			idx++
			h += res * res
			gi := 2 * res * xi
			for j := i + 1; j < n; j++ {
				xj := xs[j*xst]
				wj := w[j&1]
				res := wj*math.Sqrt2*xi*xj - b[idx]
				idx++
				h += res * res
				g := math.Sqrt2 * wj * res // 2·G_ij with G_ij = W_ij res/√2
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
		w := p.rowWeights(i)
		mii := 0.0
		for _, v := range xi {
			mii += v * v
		}
		res := mii - b[idx] // W_ii = 1
		idx++
		h += res * res
		g := 2 * res
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
			wj := w[j&1]
			res := wj*math.Sqrt2*mij - b[idx]
			idx++
			h += res * res
			g := math.Sqrt2 * wj * res
			for k := range xi {
				gi[k] += g * xj[k]
				gj[k] += g * xi[k]
			}
		}
	}
	return 0.5 * h
}
