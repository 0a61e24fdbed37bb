package reproduction

import (
	"context"
	"fmt"
	"math"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/paper"
)

// the ablation table

// AblationValues are the report's values of the paper's Table "ablation" against the workbench's.
type AblationValues struct {
	Config experiments.AblationConfig
	Orders []AblationOrderValues
	// Pattern: every β-type cell ends at −Z and every γ-type cell at +Z or
	// diverges (the text after the table).
	Pattern           bool
	Defined, Descents int  // defined cells, and those whose point lowers h
	AllDescend        bool // Descents == Defined
	HHat              float64
}

// AblationOrderValues is one lifting order: the printed block and the
// computed ρ_min and windows.
type AblationOrderValues struct {
	Paper             paper.AblationBlock
	RhoMin            float64
	RhoMinRounds      bool
	UBeta, UGamma     sod.StepInterval
	UBetaOK, UGammaOK bool
	Cells             []AblationCellValues
}

// AblationCellValues is one (l, t) cell: the printed entry, the computed
// cell, its three numbers beside the printed ones, and every way the two
// differ (none: the cell reproduces).
type AblationCellValues struct {
	Paper   paper.AblationEntry
	Cell    experiments.AblationCell
	Numbers [3]AblationNumber // d̂, d*, ratio
	Diffs   []AblationDiff
}

// AblationNumber is one computed number of a cell beside its printed
// counterpart.
type AblationNumber struct {
	Name    string // "‖x̂x̂ᵀ − x̌x̌ᵀ‖", "‖x̌x̌ᵀ − M*‖" or "ratio"
	Printed paper.Printed
	Value   float64
	Ratio   bool
}

// AblationDiff is one way a computed cell differs from the printed one.
type AblationDiff struct {
	Kind           AblationDiffKind
	Name           string            // DiffBy, DiffNoPoint: the number's name
	Value, Printed float64           // DiffBy
	Got            experiments.GDEnd // DiffFinal: where GD ended here
	Want           paper.Endpoint    // DiffFinal
}

// An AblationDiffKind says how a computed cell of the ablation table
// differs from the printed one.
type AblationDiffKind int

// The ways a cell differs.
const (
	DiffDefined  AblationDiffKind = iota + 1 // the paper has a point, the workbench none
	DiffNoPoint                              // the workbench has a point, the paper none (✗¹)
	DiffUnstable                             // the paper prints ✗² (NaN), the point and its distances are finite
	DiffBy                                   // a number does not round to the printed digits
	DiffFinal                                // GD from the point ends elsewhere
)

var diffKinds = []string{DiffDefined: "defined", DiffNoPoint: "no-point", DiffUnstable: "unstable", DiffBy: "by", DiffFinal: "final"}

// String returns "defined", "no-point", "unstable", "by" or "final".
func (k AblationDiffKind) String() string {
	if k < DiffDefined || int(k) >= len(diffKinds) {
		return fmt.Sprintf("AblationDiffKind(%d)", int(k))
	}
	return diffKinds[k]
}

// compareAblationCell compares one computed cell with the printed entry.
func compareAblationCell(e paper.AblationEntry, c experiments.AblationCell) AblationCellValues {
	cv := AblationCellValues{Paper: e, Cell: c}
	names := [3]string{"‖x̂x̂ᵀ − x̌x̌ᵀ‖", "‖x̌x̌ᵀ − M*‖", "ratio"}
	printed := [3]paper.Printed{e.DHat, e.DStar, e.Ratio}
	values := [3]float64{c.DHat, c.DStar, c.Ratio}
	for k := range cv.Numbers {
		cv.Numbers[k] = AblationNumber{Name: names[k], Printed: printed[k], Value: values[k], Ratio: k == 2}
	}
	if !c.Defined {
		if e.Defined() {
			cv.Diffs = append(cv.Diffs, AblationDiff{Kind: DiffDefined})
		}
		return cv
	}
	for k, n := range cv.Numbers {
		switch {
		case n.Printed == paper.Undefined:
			cv.Diffs = append(cv.Diffs, AblationDiff{Kind: DiffNoPoint, Name: n.Name})
		case n.Printed == paper.Unstable:
			if k == 0 {
				cv.Diffs = append(cv.Diffs, AblationDiff{Kind: DiffUnstable})
			}
		case !n.Printed.Rounds(n.Value):
			cv.Diffs = append(cv.Diffs, AblationDiff{Kind: DiffBy, Name: n.Name, Value: n.Value, Printed: n.Printed.Value()})
		}
	}
	if end, ok := c.PaperEndpoint(); !ok || end != e.Final {
		cv.Diffs = append(cv.Diffs, AblationDiff{Kind: DiffFinal, Got: c.Final, Want: e.Final})
	}
	return cv
}

func computeAblation(ctx context.Context) (*AblationValues, error) {
	v := &AblationValues{}
	v.Config = experiments.DefaultAblationConfig()
	res, err := experiments.RunAblation(ctx, v.Config, nil)
	if err != nil {
		return nil, err
	}
	v.HHat = res.HHat
	blocks := paper.Ablation()
	if len(res.Rows) != len(blocks) {
		return nil, fmt.Errorf("ablation: %d rows, the paper has %d", len(res.Rows), len(blocks))
	}
	v.Pattern = true
	for i, b := range blocks {
		r := res.Rows[i]
		if r.L != b.L || len(r.Cells) != len(b.Entries) {
			return nil, fmt.Errorf("ablation row %d: l = %d with %d cells, the paper's l = %d has %d", i, r.L, len(r.Cells), b.L, len(b.Entries))
		}
		o := AblationOrderValues{Paper: b, RhoMin: r.RhoMin, RhoMinRounds: b.RhoMin.Rounds(r.RhoMin),
			UBeta: r.UBeta, UGamma: r.UGamma, UBetaOK: intervalRounds(r.UBeta, b.UBeta), UGammaOK: intervalRounds(r.UGamma, b.UGamma)}
		for j, e := range b.Entries {
			c := r.Cells[j]
			if c.T != e.T {
				return nil, fmt.Errorf("ablation l = %d: t = %d, the paper's %d", b.L, c.T, e.T)
			}
			if c.Defined {
				v.Defined++
				if c.Descent {
					v.Descents++
				}
			}
			if (c.Kind == sod.KindBeta && c.Final != experiments.GDEndMinusZ) || (c.Kind == sod.KindGamma && c.Final != experiments.GDEndPlusZ && c.Final != experiments.GDEndDiverged) {
				v.Pattern = false
			}
			o.Cells = append(o.Cells, compareAblationCell(e, c))
		}
		v.Orders = append(v.Orders, o)
	}
	v.AllDescend = v.Descents == v.Defined
	return v, nil
}

// CellAt returns the cell of lifting order l and step count t (the zero
// value if the table has none).
func (a AblationValues) CellAt(l int, t int64) AblationCellValues {
	for _, o := range a.Orders {
		for _, c := range o.Cells {
			if c.Paper.L == l && c.Paper.T == t {
				return c
			}
		}
	}
	return AblationCellValues{}
}

// intervalRounds reports whether a computed interval agrees with the
// printed one: both empty, or both ends round to the printed digits (+∞
// for +∞).
func intervalRounds(u sod.StepInterval, p paper.PrintedInterval) bool {
	if p.Empty() || u.Empty() {
		return p.Empty() && u.Empty()
	}
	hi := p.Hi.Rounds(u.Hi) || (p.Hi == paper.Infinity && math.IsInf(u.Hi, 1))
	return p.Lo.Rounds(u.Lo) && hi
}
