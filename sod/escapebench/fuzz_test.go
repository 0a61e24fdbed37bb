package escapebench_test

import (
	"errors"
	"testing"

	"sodworkbench.org/workbench/sod/escapebench"
)

// FuzzParseCells: any text is either a PMC (Gaussian) cell that Validate
// accepts and whose String reads back as the same cell, or an error
// wrapping escapebench.ErrBadBench; never a panic.
func FuzzParseCells(f *testing.F) {
	for _, s := range []string{"1000:0.02", "10000:0.001:2", "3:1", "2:0.5", "12:0:1", "12:NaN", "12:inf", "1e4:0.1", "12:0.1:0", "12:0.1:1001",
		"20:45:1", "5:10:0", "3:10:4", "200:10000:10", "201:1:1", "2:1:1", "::", "a:b:c", "1:2:3:4", "", ":", "12:0.1:", "9e18:0.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := escapebench.ParsePMCCell(s); err != nil {
			if !errors.Is(err, escapebench.ErrBadBench) {
				t.Fatalf("ParsePMCCell(%q): error %v does not wrap escapebench.ErrBadBench", s, err)
			}
		} else {
			if err := c.Validate(); err != nil {
				t.Fatalf("ParsePMCCell(%q) = %v, which Validate refuses: %v", s, c, err)
			}
			if back, err := escapebench.ParsePMCCell(c.String()); err != nil || back != c {
				t.Fatalf("ParsePMCCell(%q) = %v; ParsePMCCell(%q) = %v, %v", s, c, c.String(), back, err)
			}
		}
		if c, err := escapebench.ParseGaussianCell(s); err != nil {
			if !errors.Is(err, escapebench.ErrBadBench) {
				t.Fatalf("ParseGaussianCell(%q): error %v does not wrap escapebench.ErrBadBench", s, err)
			}
		} else {
			if err := c.Validate(); err != nil {
				t.Fatalf("ParseGaussianCell(%q) = %v, which Validate refuses: %v", s, c, err)
			}
			if back, err := escapebench.ParseGaussianCell(c.String()); err != nil || back != c {
				t.Fatalf("ParseGaussianCell(%q) = %v; ParseGaussianCell(%q) = %v, %v", s, c, c.String(), back, err)
			}
		}
	})
}
