package escapebench

import (
	"bytes"
	"strings"
	"testing"
)

// The families table groups instances by family and cell and gives the
// extremes of their certificates, with r*, σ and ε where known.
func TestWriteFamilyCells(t *testing.T) {
	eps := 0.1
	insts := []InstanceInfo{
		{Family: "pmc-rank", Name: "a", N: 100, R: 3, RStar: 3, M: 5050, Eps: &eps, Cert: Certificate{GradNorm: 1e-8, MinHessEig: -1e-15, H: 0.5, HStar: 1e-31}},
		{Family: "pmc-rank", Name: "b", N: 100, R: 3, RStar: 3, M: 5050, Eps: &eps, Cert: Certificate{GradNorm: 3e-8, MinHessEig: 2e-15, H: 0.4}},
		{Family: "gaussian-noisy", Name: "c", N: 20, R: 1, RStar: 1, M: 30, Sigma: 0.01, Cert: Certificate{GradNorm: 1e-8, MinHessEig: 0.2, H: 0.02, HStar: 0.005}},
		{Family: "paper", Name: "d", N: 3, R: 1, Cert: Certificate{GradNorm: 1e-9, MinHessEig: 2, H: 0.3}},
	}
	var b bytes.Buffer
	writeFamilyCells(&b, Spec{Families: []string{"paper", "pmc-rank", "gaussian-noisy"}}, insts)
	got := b.String()
	for _, want := range []string{
		"| paper | 3 | — | 1 | 0 | — | — | 1 | 1e-09 | 2 | 0.3 | 0.3 |",
		"| pmc-rank | 100 | 3 | 3 | 5050 | 0.1 | — | 2 | 3e-08 | -1e-15 | 0.4 | 0.4 |",
		"| gaussian-noisy | 20 | 1 | 1 | 30 | — | 0.01 | 1 | 1e-08 | 0.2 | 0.02 | 0.015 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("families table lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "| paper") > strings.Index(got, "| pmc-rank") {
		t.Errorf("families out of the suite's order:\n%s", got)
	}
	b.Reset()
	writeFamilyCells(&b, Spec{Families: []string{"pmc"}}, insts)
	if b.Len() != 0 {
		t.Errorf("no instance of the suite's families, yet a table:\n%s", b.String())
	}
}
