package escapebench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The ranges ParsePMCCell and ParseGaussianCell accept.
const (
	MaxPMCCellSize              = 100_000 // n of a PMC cell, from 3
	MaxGaussianCellSize         = 200     // n of a Gaussian cell, from 2
	MaxGaussianCellMeasurements = 10_000  // m of a Gaussian cell, from 1
	MaxGaussianCellRank         = 10      // r of a Gaussian cell, from 1, at most n
	MaxCellPoints               = 1000    // points of a PMC cell, from 1
	MaxPMCCellRank              = 10      // rank r of a PMC cell, from 1
)

// ParsePMCCell reads a PMC cell in the form of PMCCell.String:
// "n:ε[:points][:rK]", with n in [3, MaxPMCCellSize], ε in (0, 1], points
// in [1, MaxCellPoints] and the rank K in [1, MaxPMCCellRank] (6K − 3 ≤ n;
// absent: rank 1). Bad text is an error wrapping ErrBadBench that names
// the part and its range.
func ParsePMCCell(s string) (PMCCell, error) {
	parts := strings.Split(s, ":")
	var rank string
	if k := len(parts) - 1; k >= 2 && strings.HasPrefix(strings.TrimSpace(parts[k]), "r") {
		rank, parts = strings.TrimPrefix(strings.TrimSpace(parts[k]), "r"), parts[:k]
	}
	if len(parts) < 2 || len(parts) > 3 {
		return PMCCell{}, fmt.Errorf("%w: PMC cell %q: want n:ε[:points][:rK], e.g. 1000:0.02, 10000:0.001:2 or 100:0.05:r3", ErrBadBench, s)
	}
	c := PMCCell{}
	var err error
	if c.N, err = cellInt(parts[0], "n", 3, MaxPMCCellSize); err != nil {
		return PMCCell{}, err
	}
	eps, perr := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
	if perr != nil || !(eps > 0 && eps <= 1) {
		return PMCCell{}, fmt.Errorf("%w: ε = %q: want a number in (0, 1]", ErrBadBench, parts[1])
	}
	c.Eps = eps
	if len(parts) == 3 {
		if c.Points, err = cellInt(parts[2], "points", 1, MaxCellPoints); err != nil {
			return PMCCell{}, err
		}
	}
	if rank != "" {
		if c.R, err = cellInt(rank, "rank r", 1, MaxPMCCellRank); err != nil {
			return PMCCell{}, err
		}
		if c.R == 1 {
			c.R = 0 // rank 1 is written without :r1
		}
	}
	return c, c.Validate()
}

// ParseGaussianCell reads a Gaussian cell in the form of
// GaussianCell.String: "n:m:r", with n in [2, MaxGaussianCellSize], m in [1,
// MaxGaussianCellMeasurements] and r in [1, min(n, MaxGaussianCellRank)]. Bad
// text is an error wrapping ErrBadBench that names the part and
// its range.
func ParseGaussianCell(s string) (GaussianCell, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return GaussianCell{}, fmt.Errorf("%w: Gaussian cell %q: want n:m:r, e.g. 20:45:1", ErrBadBench, s)
	}
	var c GaussianCell
	var err error
	if c.N, err = cellInt(parts[0], "n", 2, MaxGaussianCellSize); err != nil {
		return GaussianCell{}, err
	}
	if c.M, err = cellInt(parts[1], "m", 1, MaxGaussianCellMeasurements); err != nil {
		return GaussianCell{}, err
	}
	if c.R, err = cellInt(parts[2], "r", 1, MaxGaussianCellRank); err != nil {
		return GaussianCell{}, err
	}
	if c.R > c.N {
		return GaussianCell{}, fmt.Errorf("%w: Gaussian cell %q: rank r = %d exceeds n = %d", ErrBadBench, s, c.R, c.N)
	}
	return c, nil
}

// Validate checks the ranges ParsePMCCell accepts: n in [3,
// MaxPMCCellSize], ε in (0, 1], Points in [0, MaxCellPoints] (0: the
// family's points per cell) and R in [0, MaxPMCCellRank] (0 and 1: rank
// 1) with 6R − 3 ≤ n (the truth's weak column needs two of the odd
// indices, PMCRankFamily). The families check their cells by it before
// any work, so a cell written as a Go value meets the same rule as one
// read from text.
func (c PMCCell) Validate() error {
	if c.N < 3 || c.N > MaxPMCCellSize {
		return fmt.Errorf("%w: PMC cell %v: n = %d, want an integer in [3, %d]", ErrBadBench, c, c.N, MaxPMCCellSize)
	}
	if !(c.Eps > 0 && c.Eps <= 1) {
		return fmt.Errorf("%w: PMC cell %v: ε = %v, want a number in (0, 1]", ErrBadBench, c, c.Eps)
	}
	if c.Points < 0 || c.Points > MaxCellPoints {
		return fmt.Errorf("%w: PMC cell %v: points = %d, want an integer in [0, %d] (0: the family's)", ErrBadBench, c, c.Points, MaxCellPoints)
	}
	if c.R < 0 || c.R > MaxPMCCellRank || 6*c.R-3 > c.N {
		return fmt.Errorf("%w: PMC cell %v: rank r = %d, want an integer in [1, %d] with 6r − 3 ≤ n = %d", ErrBadBench, c, c.R, MaxPMCCellRank, c.N)
	}
	return nil
}

// Validate checks the ranges ParseGaussianCell accepts: n in [2,
// MaxGaussianCellSize], m in [1, MaxGaussianCellMeasurements] and r in
// [1, min(n, MaxGaussianCellRank)].
func (c GaussianCell) Validate() error {
	switch {
	case c.N < 2 || c.N > MaxGaussianCellSize:
		return fmt.Errorf("%w: Gaussian cell %v: n = %d, want an integer in [2, %d]", ErrBadBench, c, c.N, MaxGaussianCellSize)
	case c.M < 1 || c.M > MaxGaussianCellMeasurements:
		return fmt.Errorf("%w: Gaussian cell %v: m = %d, want an integer in [1, %d]", ErrBadBench, c, c.M, MaxGaussianCellMeasurements)
	case c.R < 1 || c.R > min(c.N, MaxGaussianCellRank):
		return fmt.Errorf("%w: Gaussian cell %v: r = %d, want an integer in [1, min(n, %d)]", ErrBadBench, c, c.R, MaxGaussianCellRank)
	}
	return nil
}

// cellInt reads an integer (also written as 1e4) in [lo, hi].
func cellInt(s, what string, lo, hi int) (int, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, fmt.Errorf("%w: %s = %q: want an integer in [%d, %d]", ErrBadBench, what, s, lo, hi)
	}
	return int(v), nil
}
