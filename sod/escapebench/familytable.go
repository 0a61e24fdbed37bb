package escapebench

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"sodworkbench.org/workbench/sod/quote"
)

// familyCell is one row of the families table: the instances of a family
// that share n, the truth and search ranks, m, ε and σ.
type familyCell struct {
	family               string
	n, rStar, r, m       int
	eps, sigma           float64
	count                int
	maxGrad, minEig      float64
	minH, minGap, maxDst float64
}

// familyCells groups insts by family (in the order of families) and
// cell, with the extremes of their certificates.
func familyCells(families []string, insts []InstanceInfo) []familyCell {
	var out []familyCell
	for _, f := range families {
		idx := map[string]int{}
		for _, in := range insts {
			if in.Family != f {
				continue
			}
			eps := math.NaN()
			if in.Eps != nil {
				eps = *in.Eps
			}
			key := fmt.Sprint(in.N, in.RStar, in.R, in.M, eps, in.Sigma)
			i, ok := idx[key]
			if !ok {
				i = len(out)
				idx[key] = i
				out = append(out, familyCell{family: f, n: in.N, rStar: in.RStar, r: in.R, m: in.M, eps: eps, sigma: in.Sigma,
					minEig: math.Inf(1), minH: math.Inf(1), minGap: math.Inf(1)})
			}
			c := &out[i]
			c.count++
			c.maxGrad = math.Max(c.maxGrad, in.Cert.GradNorm)
			c.minEig = math.Min(c.minEig, in.Cert.MinHessEig)
			c.minH = math.Min(c.minH, in.Cert.H)
			c.minGap = math.Min(c.minGap, in.Cert.H-in.Cert.HStar)
			c.maxDst = math.Max(c.maxDst, in.Cert.Dist)
		}
	}
	return out
}

// writeFamilyCells writes the families table of the summary page: per
// family and cell (n, truth rank r*, search rank r, m, ε, noise σ) the
// certified instances and the extremes of their certificates.
func writeFamilyCells(b *bytes.Buffer, spec Spec, insts []InstanceInfo) {
	cells := familyCells(spec.Families, insts)
	if len(cells) == 0 {
		return
	}
	b.WriteString("\n## Families\n\nPer family and cell, the certified instances and the extremes of their certificates: largest\n‖∇h(X̂)‖_F, smallest λ_min(∇²h(X̂)) (≈ 0 at rank r > 1, where rotations X ↦ XQ leave h unchanged),\nsmallest h(X̂) and smallest h(X̂) − h(M*) (h(M*) > 0 only with noise: M* is then the reference minimum,\nNoisyGaussianFamily). r* is the truth's rank, r the search rank, σ the measurement noise (— none):\n\n")
	b.WriteString("| family | n | r* | r | m | ε | σ | instances | max ‖∇h‖_F | min λ_min | min h | min h − h(M*) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	dash := func(v float64, ok bool) string {
		if !ok {
			return "—"
		}
		return g(v)
	}
	for _, c := range cells {
		rs := "—"
		if c.rStar > 0 {
			rs = strconv.Itoa(c.rStar)
		}
		fmt.Fprintf(b, "| %s | %d | %s | %d | %d | %s | %s | %d | %s | %s | %s | %s |\n", quote.Markdown(c.family), c.n, rs, c.r, c.m,
			dash(c.eps, !math.IsNaN(c.eps)), dash(c.sigma, c.sigma > 0), c.count, g(c.maxGrad), g(c.minEig), g(c.minH), g(c.minGap))
	}
}
