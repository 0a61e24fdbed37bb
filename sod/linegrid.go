package sod

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// The common part of the random and negative-gradient line searches
// (paper section 6.3): the points X̂ + α·max(‖X̂‖_F, 1)·D for a grid of
// step lengths α along one unit direction D.

// defaultAlphas returns 16 log-spaced step lengths from 1e-2 to 1e1.
func defaultAlphas() []float64 {
	a := make([]float64, 16)
	for i := range a {
		a[i] = math.Pow(10, -2+3*float64(i)/15)
	}
	return a
}

// lineCandidates returns X + α·scale·dir for the α grid, scale = max(‖X‖_F, 1).
func lineCandidates(x, dir *mat.Dense, alphas []float64, label string) []Candidate {
	if alphas == nil {
		alphas = defaultAlphas()
	}
	scale := math.Max(mat.Norm(x, 2), 1)
	out := make([]Candidate, 0, len(alphas))
	for _, a := range alphas {
		var c mat.Dense
		c.Scale(a*scale, dir)
		c.Add(&c, x)
		out = append(out, Candidate{X: &c, Label: fmt.Sprintf("%s α=%.3g", label, a)})
	}
	return out
}
