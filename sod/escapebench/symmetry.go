package escapebench

import (
	"math"
	"slices"
)

// Instances equal up to the problem's symmetry are one problem: a method
// that solves one solves the other, so an instance-level statistic that
// counts both counts one observation twice. SymmetryClasses finds them.
//
// The symmetry recognised is that of PMCFamily's problems, the only family
// whose instances share a problem: the operator (sod.NewPMCOperator(n, ε))
// and the truth z = (1, 0, 1, 0, …) depend on n and ε alone, and h is
// unchanged by X ↦ −X and by any permutation of the indices that maps the
// entries where z is 1 among themselves and the others among themselves
// (it maps Ω, its weights and z onto themselves). Two "pmc" instances of
// rank 1 with the same n and ε are one problem when their points agree,
// up to the sign and such a permutation, within symmetryTol. Instances of
// other families each have a problem of their own (a Gaussian point its
// own seeded operator, a paper instance its own case) and are never
// merged; nor are instances of rank r > 1 (X ↦ XQ would need a
// Procrustes match) or without ε (files of format 1).

// symmetryTol is the relative tolerance (to max(1, ‖x‖_∞)) within which
// two points are equal: the points are gradient descent's end points at
// ‖∇h‖_F ≤ 1e-8.
const symmetryTol = 1e-6

// SymmetryClasses returns, for each instance of insts, the name of the
// first instance of its family (in the order of insts) that is the same
// problem up to symmetry (its own name when none is), keyed by family
// and name joined by a NUL byte.
func SymmetryClasses(insts []InstanceInfo) map[string]string {
	rep := map[string]string{}
	var reps []int // indices of the representatives so far
	for i, in := range insts {
		key := in.Family + "\x00" + in.Name
		rep[key] = in.Name
		for _, j := range reps {
			if sameUpToSymmetry(insts[j], in) {
				rep[key] = insts[j].Name
				break
			}
		}
		if rep[key] == in.Name {
			reps = append(reps, i)
		}
	}
	return rep
}

// sameUpToSymmetry reports whether a and b are one PMC problem and point
// up to the symmetry above.
func sameUpToSymmetry(a, b InstanceInfo) bool {
	if a.Family != "pmc" || b.Family != "pmc" || a.R != 1 || b.R != 1 || a.N != b.N || a.Eps == nil || b.Eps == nil || *a.Eps != *b.Eps ||
		len(a.X) != a.N || len(b.X) != b.N {
		return false
	}
	ca := classSorted(a.X, 1)
	return closeTo(ca, classSorted(b.X, 1)) || closeTo(ca, classSorted(b.X, -1))
}

// classSorted returns s·x with the entries at even (0-based) indices, z's
// ones, sorted and followed by those at odd indices, sorted: the same for
// every permutation within the two classes.
func classSorted(x []float64, s float64) []float64 {
	var even, odd []float64
	for i, v := range x {
		if i%2 == 0 {
			even = append(even, s*v)
		} else {
			odd = append(odd, s*v)
		}
	}
	slices.Sort(even)
	slices.Sort(odd)
	return append(even, odd...)
}

func closeTo(a, b []float64) bool {
	scale := 1.0
	for _, v := range a {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range a {
		if !(math.Abs(a[i]-b[i]) <= symmetryTol*scale) {
			return false
		}
	}
	return true
}
