package escapebench

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// AnalysisOptions configure Analyze.
type AnalysisOptions struct {
	// Targets is the ladder the runs recorded (TrialOptions.Targets; nil:
	// DefaultTargets()).
	Targets []Target
	// Weights convert oracle counts to ∇h-equivalents (zero value:
	// DefaultCostWeights).
	Weights CostWeights
	// MaxIter is the suite's GD steps per phase (TrialOptions.MaxIter;
	// 0: DefaultTrialOptions' 3000): with an instance's PhaseIter it gives
	// the phase length, the budget unit of the data profiles.
	MaxIter int
}

// VirtualBest names the virtual best method of the profiles: on each
// problem, the best of the methods.
const VirtualBest = "virtual best"

// FamilyAnalysis is Analyze's result for one family: runtime to every
// target of the ladder in the manner of COCO and benchopt, costs in
// ∇h-equivalents (CostWeights) charging failures.
//
//   - ART[m][k]: the average runtime of method m to target k (COCO's aRT):
//     the cost of all its runs on the family — a run that reached the
//     target counted to its first hit, a run that did not in full —
//     divided by the number of runs that reached it; +Inf (null) if none
//     did.
//   - ECDF[m]: the empirical distribution of the runtime to target over
//     all (instance, trial, target) triples of m: the share of triples
//     whose target was reached at a cost ≤ budget, each instance weighing
//     alike (a triple weighs 1/(instances · m's runs on the instance ·
//     targets)); Budget in ∇h-equivalents.
//   - Perf[m]: the Dolan–Moré performance profile over the problems
//     (instance, target): ρ_m(τ) = share of problems with t_{p,m} ≤
//     τ·min_{m'} t_{p,m'}, t_{p,m} m's aRT on the problem (over its runs on
//     the instance; +Inf if none reached it); the best on each problem is
//     the virtual best method, whose ρ is the share of problems some
//     method solves (a problem the best solves at zero cost: perfRatio).
//   - Data[m]: the Moré–Wild data profile: d_m(κ) = share of problems with
//     t_{p,m} ≤ κ phases, a phase being the instance's GD budget per phase
//     in ∇h-equivalents; Data also holds VirtualBest (min over methods).
//   - Paired: per method, McNemar's exact test against the method that
//     solves most problems (the first in Methods on a tie), over the
//     Distinct problems: instances equal up to the problem's symmetry
//     (SymmetryClasses) are one problem, counted once, with their runs
//     pooled; a problem is solved by a method when at least half of its
//     runs on it succeed.
//   - Matrix[i][m]: the success rate of method m on instance Instances[i]
//     (NaN, null, where m did not run).
type FamilyAnalysis struct {
	Family    string       `json:"family"`
	Targets   []Target     `json:"targets"`
	Methods   []string     `json:"methods"`
	Instances []string     `json:"instances"`
	ART       [][]OptFloat `json:"art"`
	ECDF      []Curve2D    `json:"ecdf"`
	Perf      []Curve2D    `json:"perf_profile"`
	Data      []Curve2D    `json:"data_profile"`
	Paired    []PairedTest `json:"paired"`
	// Distinct is the number of distinct problems among Instances
	// (SymmetryClasses): the paired tests' unit.
	Distinct int          `json:"distinct"`
	Matrix   [][]OptFloat `json:"matrix"`
	CPU      []CPUTotal   `json:"cpu"`
}

// Curve2D is a step curve of a method: Y[i] holds from X[i] on.
type Curve2D struct {
	Method string    `json:"method"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
}

// CPUTotal is the measured CPU time of a method's runs on a family
// (Runs with a measured time, of All).
type CPUTotal struct {
	Method  string  `json:"method"`
	Seconds float64 `json:"seconds"`
	Runs    int     `json:"runs"`
	All     int     `json:"all"`
}

// PairedTest compares Method with Best on the distinct problems both ran
// (Instances counts them; FamilyAnalysis.Paired): OnlyBest problems solved
// by Best alone, OnlyMethod by Method alone, P the two-sided exact
// McNemar p-value (McNemar).
type PairedTest struct {
	Method     string  `json:"method"`
	Best       string  `json:"best"`
	Instances  int     `json:"instances"`
	OnlyBest   int     `json:"only_best"`
	OnlyMethod int     `json:"only_method"`
	P          float64 `json:"p"`
}

// McNemar returns the two-sided exact McNemar p-value for b and c
// discordant pairs: under the null each discordant pair is either way
// with probability ½, p = min(1, 2·P[Bin(b+c, ½) ≤ min(b, c)]); 1 when
// b + c = 0.
func McNemar(b, c int) (float64, error) {
	if b < 0 || c < 0 || b > 1_000_000 || c > 1_000_000 || b+c > 1_000_000 {
		return 0, fmt.Errorf("%w: McNemar b = %d, c = %d, want 0 ≤ b, c and b + c ≤ 10⁶", ErrBadBench, b, c)
	}
	n, k := b+c, min(b, c)
	if n == 0 {
		return 1, nil
	}
	// Σ_{i ≤ k} C(n, i) 2⁻ⁿ in the log domain.
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	s := 0.0
	for i := 0; i <= k; i++ {
		s += math.Exp(lg(n) - lg(i) - lg(n-i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*s), nil
}

// Analyze computes the FamilyAnalysis of every family of the runs
// (families, methods and instances in order of first appearance) over the
// instances (for the phase lengths; an instance
// without runs is left out). A run RunTrial could not have written
// (negative oracle counts, hits out of order or after the run's cost, …;
// validateRun) is refused with an error wrapping ErrBadBench
// naming it, and the result holds no NaN where WriteSummaryJSON needs a
// number (the profiles' points are finite).
func Analyze(rs []*TrialResult, insts []InstanceInfo, opt AnalysisOptions) ([]FamilyAnalysis, error) {
	if err := validateRuns("Analyze", rs); err != nil {
		return nil, err
	}
	ts := opt.Targets
	if ts == nil {
		ts = DefaultTargets()
	}
	if err := validateTargets(ts); err != nil {
		return nil, err
	}
	w := opt.Weights
	if w == (CostWeights{}) {
		w = DefaultCostWeights
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	maxIter := opt.MaxIter
	if maxIter == 0 {
		maxIter = DefaultTrialOptions().MaxIter
	}
	if maxIter < 0 {
		return nil, fmt.Errorf("%w: AnalysisOptions.MaxIter = %d, want ≥ 0", ErrBadBench, maxIter)
	}
	phase := map[string]float64{}
	for _, in := range insts {
		phase[in.Family+"\x00"+in.Name] = float64(max(maxIter, in.PhaseIter))
	}
	var fams []string
	byFam := map[string][]*TrialResult{}
	for _, r := range rs {
		if byFam[r.Family] == nil {
			fams = append(fams, r.Family)
		}
		byFam[r.Family] = append(byFam[r.Family], r)
		for _, h := range r.Hits {
			if h.Target < 0 || h.Target >= len(ts) {
				return nil, fmt.Errorf("%w: run %s / %s / %s / trial %d has a hit of target %d; the ladder has %d", ErrBadBench, r.Family, r.Instance, r.Method, r.Trial, h.Target, len(ts))
			}
		}
	}
	classes := SymmetryClasses(insts)
	var out []FamilyAnalysis
	for _, f := range fams {
		a := analyzeFamily(f, byFam[f], ts, w, func(inst string) float64 {
			if p, ok := phase[f+"\x00"+inst]; ok {
				return p
			}
			return float64(maxIter)
		}, func(inst string) string {
			if c, ok := classes[f+"\x00"+inst]; ok {
				return c
			}
			return inst
		})
		out = append(out, a)
	}
	return out, nil
}

// runCost is a run's cost to target k (its first hit) and whether it
// reached it; a run that did not costs its whole run.
func runCost(r *TrialResult, k int, w CostWeights) (float64, bool) {
	for _, h := range r.Hits {
		if h.Target == k {
			return w.units(h.EvalCounts), true
		}
	}
	return w.units(r.Cost.EvalCounts), false
}

func analyzeFamily(fam string, rs []*TrialResult, ts []Target, w CostWeights, phaseOf func(string) float64, classOf func(string) string) FamilyAnalysis {
	a := FamilyAnalysis{Family: fam, Targets: ts}
	runs := map[[2]string][]*TrialResult{} // (method, instance)
	for _, r := range rs {
		if !slices.Contains(a.Methods, r.Method) {
			a.Methods = append(a.Methods, r.Method)
		}
		if !slices.Contains(a.Instances, r.Instance) {
			a.Instances = append(a.Instances, r.Instance)
		}
		k := [2]string{r.Method, r.Instance}
		runs[k] = append(runs[k], r)
	}
	inf := math.Inf(1)
	// aRT over the family, per method and target, and per problem.
	type problem struct {
		inst string
		k    int
	}
	var probs []problem
	for _, in := range a.Instances {
		for k := range ts {
			probs = append(probs, problem{in, k})
		}
	}
	tp := make([][]float64, len(a.Methods)) // [method][problem] aRT
	for mi, m := range a.Methods {
		row := make([]OptFloat, len(ts))
		for k := range ts {
			var cost float64
			var hits int
			for _, in := range a.Instances {
				for _, r := range runs[[2]string{m, in}] {
					c, ok := runCost(r, k, w)
					cost += c
					if ok {
						hits++
					}
				}
			}
			row[k] = OptFloat(inf)
			if hits > 0 {
				row[k] = OptFloat(cost / float64(hits))
			}
		}
		a.ART = append(a.ART, row)
		tp[mi] = make([]float64, len(probs))
		for pi, p := range probs {
			tp[mi][pi] = inf
			var cost float64
			var hits int
			for _, r := range runs[[2]string{m, p.inst}] {
				c, ok := runCost(r, p.k, w)
				cost += c
				if ok {
					hits++
				}
			}
			if hits > 0 {
				tp[mi][pi] = cost / float64(hits)
			}
		}
		// ECDF over (instance, trial, target) triples.
		var pts []weighted
		var ninst int
		for _, in := range a.Instances {
			if len(runs[[2]string{m, in}]) > 0 {
				ninst++
			}
		}
		for _, in := range a.Instances {
			ir := runs[[2]string{m, in}]
			for _, r := range ir {
				for k := range ts {
					if c, ok := runCost(r, k, w); ok {
						pts = append(pts, weighted{c, 1 / float64(ninst*len(ir)*len(ts))})
					}
				}
			}
		}
		a.ECDF = append(a.ECDF, stepCurve(m, pts))
		// CPU time measured.
		ct := CPUTotal{Method: m}
		for _, in := range a.Instances {
			for _, r := range runs[[2]string{m, in}] {
				ct.All++
				if r.Cost.CPU >= 0 {
					ct.Runs++
					ct.Seconds += r.Cost.CPU.Seconds()
				}
			}
		}
		a.CPU = append(a.CPU, ct)
	}
	// Profiles against the virtual best.
	best := make([]float64, len(probs))
	for pi := range probs {
		best[pi] = inf
		for mi := range a.Methods {
			best[pi] = math.Min(best[pi], tp[mi][pi])
		}
	}
	np := float64(len(probs))
	for mi, m := range a.Methods {
		var perf, data []weighted
		for pi, p := range probs {
			if !math.IsInf(tp[mi][pi], 1) {
				if r := perfRatio(tp[mi][pi], best[pi]); !math.IsInf(r, 1) {
					perf = append(perf, weighted{r, 1 / np})
				}
				data = append(data, weighted{tp[mi][pi] / phaseOf(p.inst), 1 / np})
			}
		}
		a.Perf = append(a.Perf, stepCurve(m, perf))
		a.Data = append(a.Data, stepCurve(m, data))
	}
	var vb []weighted
	for pi, p := range probs {
		if !math.IsInf(best[pi], 1) {
			vb = append(vb, weighted{best[pi] / phaseOf(p.inst), 1 / np})
		}
	}
	a.Data = append(a.Data, stepCurve(VirtualBest, vb))
	// Instance × method matrix and the paired tests.
	for _, in := range a.Instances {
		row := make([]OptFloat, len(a.Methods))
		for mi, m := range a.Methods {
			ir := runs[[2]string{m, in}]
			if len(ir) == 0 {
				row[mi] = OptFloat(math.NaN())
				continue
			}
			ok := 0
			for _, r := range ir {
				if r.Success {
					ok++
				}
			}
			row[mi] = OptFloat(float64(ok) / float64(len(ir)))
		}
		a.Matrix = append(a.Matrix, row)
	}
	// The paired tests count each problem once: the instances of one
	// symmetry class (SymmetryClasses) pool their runs.
	var classes []string
	members := map[string][]int{}
	for ii, in := range a.Instances {
		c := classOf(in)
		if members[c] == nil {
			classes = append(classes, c)
		}
		members[c] = append(members[c], ii)
	}
	a.Distinct = len(classes)
	solved := make([][]int, len(a.Methods)) // per class: 1 solved, 0 not, −1 not run
	for mi, m := range a.Methods {
		solved[mi] = make([]int, len(classes))
		for ci, c := range classes {
			ok, all := 0, 0
			for _, ii := range members[c] {
				for _, r := range runs[[2]string{m, a.Instances[ii]}] {
					all++
					if r.Success {
						ok++
					}
				}
			}
			switch {
			case all == 0:
				solved[mi][ci] = -1
			case 2*ok >= all:
				solved[mi][ci] = 1
			}
		}
	}
	bi, bn := 0, -1
	for mi := range a.Methods {
		c := 0
		for _, s := range solved[mi] {
			if s == 1 {
				c++
			}
		}
		if c > bn {
			bi, bn = mi, c
		}
	}
	for mi, m := range a.Methods {
		if mi == bi {
			continue
		}
		pt := PairedTest{Method: m, Best: a.Methods[bi]}
		for ci := range classes {
			s, b := solved[mi][ci], solved[bi][ci]
			if s < 0 || b < 0 {
				continue
			}
			pt.Instances++
			switch {
			case b == 1 && s == 0:
				pt.OnlyBest++
			case s == 1 && b == 0:
				pt.OnlyMethod++
			}
		}
		pt.P, _ = McNemar(pt.OnlyBest, pt.OnlyMethod)
		a.Paired = append(a.Paired, pt)
	}
	return a
}

// perfRatio is the Dolan–Moré ratio t/best of a method that solved a
// problem at cost t, best the virtual best's cost (≤ t). A target
// reached at zero cost (the start already meets it) would make it 0/0:
// every method that reached it at zero cost too has ratio 1, and one that
// spent a positive cost has an unbounded ratio (+Inf), so the performance
// profile counts it as not solved at any τ, as a failure (its data
// profile, in phases, still counts it). Never NaN.
func perfRatio(t, best float64) float64 {
	if t == best {
		return 1
	}
	return t / best // best = 0 < t: +Inf
}

type weighted struct{ x, w float64 }

// stepCurve is the cumulative weight of pts against x: at each distinct x
// (ascending) the total weight of the points at or below it.
func stepCurve(method string, pts []weighted) Curve2D {
	sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
	c := Curve2D{Method: method, X: []float64{}, Y: []float64{}}
	s := 0.0
	for i, p := range pts {
		s += p.w
		if i+1 < len(pts) && pts[i+1].x == p.x {
			continue
		}
		c.X = append(c.X, p.x)
		c.Y = append(c.Y, s)
	}
	return c
}
