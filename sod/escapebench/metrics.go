package escapebench

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
)

// z95 is the 97.5 % quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Wilson returns the 95 % Wilson score interval of a success rate with k
// successes in n trials (Wilson 1927):
//
//	(p̂ + z²/2n ± z√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n),  z = 1.95996…
//
// Unlike the normal interval it stays inside [0, 1] and is not empty at
// p̂ = 0 or 1. n = 0 gives [0, 1]. Counts outside 0 ≤ k ≤ n are an
// error wrapping ErrBadBench.
func Wilson(k, n int) (lo, hi float64, err error) {
	if n < 0 || k < 0 || k > n {
		return 0, 0, fmt.Errorf("%w: Wilson interval of k = %d successes in n = %d trials, want 0 ≤ k ≤ n", ErrBadBench, k, n)
	}
	if n == 0 {
		return 0, 1, nil
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z95 * z95
	den := 1 + z2/nf
	mid := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half), nil
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of xs by linear
// interpolation between order statistics (type 7 of Hyndman and Fan, the
// default of R and NumPy). xs is not modified. No data, a NaN in xs or q
// outside [0, 1] is an error wrapping ErrBadBench.
func Quantile(xs []float64, q float64) (float64, error) {
	if !(q >= 0 && q <= 1) {
		return 0, fmt.Errorf("%w: quantile q = %v, want 0 ≤ q ≤ 1", ErrBadBench, q)
	}
	if len(xs) == 0 {
		return 0, fmt.Errorf("%w: quantile of no data", ErrBadBench)
	}
	if i := slices.IndexFunc(xs, math.IsNaN); i >= 0 {
		return 0, fmt.Errorf("%w: quantile of data with a NaN (xs[%d])", ErrBadBench, i)
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	h := q * float64(len(s)-1)
	i := int(math.Floor(h))
	if i >= len(s)-1 {
		return s[len(s)-1], nil
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i]), nil
}

// optQuantile is Quantile for a Summary: NaN (no value) without data. xs
// holds counts or times, never NaN, and q is a constant in [0, 1].
func optQuantile(xs []float64, q float64) OptFloat {
	v, err := Quantile(xs, q)
	if err != nil {
		return OptFloat(math.NaN())
	}
	return OptFloat(v)
}

// wilson is Wilson for counts that hold 0 ≤ k ≤ n by construction.
func wilson(k, n int) (lo, hi float64) {
	lo, hi, err := Wilson(k, n)
	if err != nil {
		panic(err) // unreachable: the counts come from the runs themselves
	}
	return lo, hi
}

// Summary is the metrics of one (family, method) cell. Two views of the
// success rate: over runs (Successes/Trials, a Wilson interval that
// treats runs as independent) and over instances (Escaped/Instances, a
// Wilson interval over the independent instances).
type Summary struct {
	Family    string      `json:"family"`
	Method    string      `json:"method"`
	Judge     JudgingRule `json:"judge"` // the method's rule (TrialResult.Judge)
	Trials    int         `json:"trials"`
	Successes int         `json:"successes"`
	Rate      float64     `json:"rate"`
	// RateLo and RateHi are the 95 % Wilson interval of the rate: over
	// runs, or over instances when RunsAgree.
	RateLo float64 `json:"rate_lo"`
	RateHi float64 `json:"rate_hi"`
	// RunsAgree is set when the method ran more than once on some
	// instance and its runs agree on every instance (all succeed or all
	// fail): they do not vary, so repeating them adds no information,
	// and RateLo, RateHi are the interval over instances (InstLo,
	// InstHi) rather than a falsely narrow one over runs.
	RunsAgree bool `json:"runs_agree"`
	// The per-instance view. Runs on one instance are not independent
	// (a point the method cannot leave fails every trial), so the
	// interval over runs is too narrow when instances differ; instances
	// are independent draws of the family. Instances is the number of
	// instances run, Escaped those where at least one run succeeded,
	// Always those where every run succeeded; InstLo and InstHi are the
	// 95 % Wilson interval of Escaped/Instances (over instances; for a
	// deterministic method, run once per instance, the two views agree).
	Instances int     `json:"instances"`
	Escaped   int     `json:"escaped"`
	Always    int     `json:"always"`
	InstLo    float64 `json:"inst_lo"`
	InstHi    float64 `json:"inst_hi"`
	// Gradient evaluations to success (successful runs only; NaN → null
	// when none).
	GradMedian OptFloat `json:"grad_median"`
	GradP90    OptFloat `json:"grad_p90"`
	// CPU seconds to success (successful runs with a measured CPU time).
	CPUMedian OptFloat `json:"cpu_median"`
	CPUP90    OptFloat `json:"cpu_p90"`
	// Rounds and Lowered: escape rounds, and those whose accepted point
	// lowered h; LoweredShare = Lowered/Rounds (NaN without rounds).
	Rounds       int      `json:"rounds"`
	Lowered      int      `json:"lowered"`
	LoweredShare OptFloat `json:"lowered_share"`
	Curve        Curve    `json:"curve"`
}

// Curve is a convergence band: at each gradient-evaluation count Grad[k],
// the median, the quartiles (the inter-quartile band P25–P75) and the
// 10 % and 90 % quantiles over runs of ‖XXᵀ − M*‖_F (each run's last
// value before or at Grad[k], from its trace, TrialResult.Trace).
type Curve struct {
	Grad []float64 `json:"grad"`
	P10  []float64 `json:"p10"`
	P25  []float64 `json:"p25"`
	P50  []float64 `json:"p50"`
	P75  []float64 `json:"p75"`
	P90  []float64 `json:"p90"`
}

// CurvePoints is the number of points of a Curve.
const CurvePoints = 40

// Summarize computes the Summary of each (family, method) cell of rs, in
// the order cells first appear. A nil run is an error wrapping
// ErrBadBench.
func Summarize(rs []*TrialResult) ([]Summary, error) {
	if err := validateRuns("Summarize", rs); err != nil {
		return nil, err
	}
	type cell struct{ f, m string }
	var order []cell
	group := map[cell][]*TrialResult{}
	for _, r := range rs {
		c := cell{r.Family, r.Method}
		if _, ok := group[c]; !ok {
			order = append(order, c)
		}
		group[c] = append(group[c], r)
	}
	out := make([]Summary, 0, len(order))
	for _, c := range order {
		out = append(out, summarizeCell(c.f, c.m, group[c]))
	}
	return out, nil
}

func summarizeCell(family, method string, rs []*TrialResult) Summary {
	s := Summary{Family: family, Method: method, Trials: len(rs)}
	if len(rs) > 0 {
		s.Judge = rs[0].Judge
	}
	var grads, cpus []float64
	for _, r := range rs {
		s.Rounds += r.Rounds
		s.Lowered += r.Lowered
		if !r.Success {
			continue
		}
		s.Successes++
		grads = append(grads, float64(r.Cost.Grad))
		if r.Cost.CPU >= 0 {
			cpus = append(cpus, r.Cost.CPU.Seconds())
		}
	}
	s.Rate = float64(s.Successes) / math.Max(1, float64(s.Trials))
	s.RateLo, s.RateHi = wilson(s.Successes, s.Trials)
	type tally struct{ runs, ok int }
	var insts []string
	per := map[string]*tally{}
	for _, r := range rs {
		t, seen := per[r.Instance]
		if !seen {
			t = &tally{}
			per[r.Instance] = t
			insts = append(insts, r.Instance)
		}
		t.runs++
		if r.Success {
			t.ok++
		}
	}
	for _, in := range insts {
		t := per[in]
		s.Instances++
		if t.ok > 0 {
			s.Escaped++
		}
		if t.ok == t.runs {
			s.Always++
		}
	}
	s.InstLo, s.InstHi = wilson(s.Escaped, s.Instances)
	if s.Escaped == s.Always && s.Trials > s.Instances {
		s.RunsAgree = true
		s.RateLo, s.RateHi = s.InstLo, s.InstHi
	}
	s.GradMedian, s.GradP90 = optQuantile(grads, 0.5), optQuantile(grads, 0.9)
	s.CPUMedian, s.CPUP90 = optQuantile(cpus, 0.5), optQuantile(cpus, 0.9)
	s.LoweredShare = OptFloat(math.NaN())
	if s.Rounds > 0 {
		s.LoweredShare = OptFloat(float64(s.Lowered) / float64(s.Rounds))
	}
	s.Curve = band(rs)
	return s
}

// band computes the Curve of rs on CurvePoints evenly spaced gradient
// counts from 0 to the largest count of any run.
func band(rs []*TrialResult) Curve {
	var top int64
	for _, r := range rs {
		if k := len(r.Trace); k > 0 {
			top = max(top, r.Trace[k-1].Grad)
		}
	}
	var c Curve
	if top == 0 {
		return c
	}
	vals := make([]float64, 0, len(rs))
	for k := range CurvePoints {
		g := float64(top) * float64(k) / float64(CurvePoints-1)
		vals = vals[:0]
		for _, r := range rs {
			// Last trace point at or before g (runs that ended earlier keep
			// their final value).
			i := sort.Search(len(r.Trace), func(i int) bool { return float64(r.Trace[i].Grad) > g }) - 1
			if i >= 0 {
				vals = append(vals, float64(r.Trace[i].Dist))
			}
		}
		if len(vals) == 0 {
			continue
		}
		c.Grad = append(c.Grad, g)
		c.P10 = append(c.P10, float64(optQuantile(vals, 0.1)))
		c.P25 = append(c.P25, float64(optQuantile(vals, 0.25)))
		c.P50 = append(c.P50, float64(optQuantile(vals, 0.5)))
		c.P75 = append(c.P75, float64(optQuantile(vals, 0.75)))
		c.P90 = append(c.P90, float64(optQuantile(vals, 0.9)))
	}
	return c
}

// OptFloat is a float64 whose NaN and ±Inf (no data, an overflowed run)
// are null in JSON, which has no such numbers; null reads back as NaN.
type OptFloat float64

// MarshalJSON writes null for NaN and ±Inf, the shortest decimal otherwise.
func (v OptFloat) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads null as NaN.
func (v *OptFloat) UnmarshalJSON(b []byte) error {
	if v == nil {
		return fmt.Errorf("%w: OptFloat.UnmarshalJSON into nil", ErrBadBench)
	}
	if string(b) == "null" {
		*v = OptFloat(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*v = OptFloat(f)
	return err
}
