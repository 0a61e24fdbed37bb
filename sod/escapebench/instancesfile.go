package escapebench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/internal/strictio"
)

// InstanceInfo describes a certified instance: its certificate, its
// Features and what an outside tool needs to rebuild and re-certify it.
// In bench-instances.json (WriteInstancesJSON) each instance is one JSON
// object on its own line with the keys below.
//
// X̂ is "x", n·r numbers row-major (x[i·r + k] = X̂_ik) in shortest
// round-trip decimal. The problem is rebuilt from the family, n, r, m, ε
// and the seeds:
//
//   - "paper": sod.PaperInstances, the instance of that name.
//   - "pmc": sod.NewPMCOperator(n, ε) (m = n(n+1)/2 entries observed,
//     weighted) with truth z = (1, 0, 1, 0, …) and search rank r = 1.
//     The start of the gradient descent that found X̂ was drawn from
//     math/rand/v2's PCG(seed, stream): x₀_i = 0.01·N(0, 1) for i = 0…n−1,
//     then (PMCStart) signs added on the odd entries of z.
//   - "gaussian": sod.NewGaussianOperator(n, m, seed ^ stream), and from
//     PCG(seed, stream) the truth Z and the start x₀ together, entry by
//     entry in row-major order, each entry of Z followed by the same entry
//     of x₀ (Z_00, x₀_00, Z_01, x₀_01, …), each N(0, 1) scaled by 1/√n.
//   - "pmc-rank": as "pmc" with truth rank = search rank r (PMCRankFamily:
//     column c of Z the indicator of the c-th group of the odd 1-based
//     indices, shares 1 : 3 : … : 3, pmcTruth), x₀ n·r draws row-major,
//     then signs on the weak column.
//   - "gaussian-noisy": as "gaussian", then from the same stream the noise
//     e_i = σ·N(0, 1), i = 1…m, b = 𝒜(ZZᵀ) + e (σ is "sigma"); the
//     problem's M* is the reference minimum X_ref X_refᵀ
//     (NoisyGaussianFamily), X_ref stored as "m_star_factor" (n·r numbers
//     row-major), so that a re-certification need not redo its descent.
//
// Eps is ε for "pmc" and absent otherwise; M is the operator's number of
// measurements (0 in a file of format 1, which did not record it, nor ε).
// The trial seeds are in the results (TrialResult.Seed).
type InstanceInfo struct {
	Family    string   `json:"family"`
	Name      string   `json:"name"`
	N         int      `json:"n"`
	R         int      `json:"r"`
	M         int      `json:"m,omitempty"`
	Eps       *float64 `json:"eps,omitempty"`
	Seed      uint64   `json:"seed"`   // the suite's master seed
	Stream    uint64   `json:"stream"` // StallPoint.Stream
	Step      float64  `json:"step"`   // GD step of the runs
	PhaseIter int      `json:"phase_iter,omitempty"`
	// Sigma is the measurement noise σ (StallPoint.Sigma), absent for
	// exact measurements; MStarFactor the factor of M* when it is not the
	// family's truth (the noisy reference minimum), else absent.
	Sigma       float64     `json:"sigma,omitempty"`
	RStar       int         `json:"r_star,omitempty"` // the truth's rank (columns of Z), 0 if not recorded (files before it)
	MStarFactor []float64   `json:"m_star_factor,omitempty"`
	Cert        Certificate `json:"certificate"`
	Features    Features    `json:"features"`
	X           []float64   `json:"x"`
}

// newInstanceInfo describes in (features computed by the caller).
func newInstanceInfo(in CertifiedInstance, seed uint64) InstanceInfo {
	n, r := in.P.Dims()
	x := make([]float64, 0, n*r)
	for i := range n {
		for k := range r {
			x = append(x, in.X.At(i, k))
		}
	}
	info := InstanceInfo{Family: in.Family, Name: in.Name, N: n, R: r, Seed: seed, Stream: in.Stream, Step: in.Step, PhaseIter: in.PhaseIter, Cert: in.Cert, X: x}
	if in.P.Op != nil {
		_, info.M = in.P.Op.Dims()
	}
	if in.P.Z != nil {
		_, info.RStar = in.P.Z.Dims()
	}
	if in.Sigma > 0 && in.P.Z != nil {
		info.Sigma = in.Sigma
		for i := range n {
			for k := range r {
				info.MStarFactor = append(info.MStarFactor, in.P.Z.At(i, k))
			}
		}
	}
	if op, ok := in.P.Op.(*sod.PMCOperator); ok {
		e := op.Epsilon()
		info.Eps = &e
	}
	return info
}

// InstancesFile is the JSON of WriteInstancesJSON: its format
// (InstancesFormat; 0 in a file of format 1, which had none), the
// environment that wrote it, a suite's certified instances (InstanceInfo
// says how to re-certify them) and dropped points with the reason
// (bench-instances.json).
type InstancesFile struct {
	Format    int            `json:"format,omitempty"`
	Env       Env            `json:"env"`
	Instances []InstanceInfo `json:"instances"`
	Dropped   []Dropped      `json:"dropped"`
}

// InstancesFormat is the format WriteInstancesJSON writes: 2 adds the
// format, m and ε (InstanceInfo). ReadInstancesJSON reads formats 1 and 2.
const InstancesFormat = 2

// MaxInstancesBytes bounds what ReadInstancesJSON reads (1 GiB).
const MaxInstancesBytes = 1 << 30

// maxInstanceSize bounds n·r of a stored instance (PMC n = 10⁵, r = 1;
// the structured path goes beyond, which no family generates).
const maxInstanceSize = 10_000_000

// WriteInstancesJSON writes env and sr's certified instances and dropped
// points as JSON (an InstancesFile of format InstancesFormat) with one
// instance or dropped point per line, the same for every shard of a
// suite. Instances ReadInstancesJSON would refuse (validateInstances) are
// refused, so that what is written reads back.
func WriteInstancesJSON(w io.Writer, env Env, sr *SuiteRun) error {
	if err := checkWriter("WriteInstancesJSON", w); err != nil {
		return err
	}
	if sr == nil {
		return fmt.Errorf("%w: WriteInstancesJSON: nil *SuiteRun", ErrBadBench)
	}
	if err := validateInstances(sr.Instances, sr.Dropped); err != nil {
		return fmt.Errorf("%w: WriteInstancesJSON: %v", ErrBadBench, err)
	}
	var b bytes.Buffer
	e, err := json.Marshal(env)
	if err != nil {
		return err
	}
	fmt.Fprintf(&b, "{\"format\": %d, \"env\": %s,\n\"instances\": [", InstancesFormat, e)
	list := func(n int, item func(i int) any) error {
		for i := range n {
			x, err := json.Marshal(item(i))
			if err != nil {
				return err
			}
			sep := ","
			if i == n-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "\n%s%s", x, sep)
		}
		return nil
	}
	if err := list(len(sr.Instances), func(i int) any { return sr.Instances[i] }); err != nil {
		return err
	}
	b.WriteString("],\n\"dropped\": [")
	if err := list(len(sr.Dropped), func(i int) any { return sr.Dropped[i] }); err != nil {
		return err
	}
	b.WriteString("]}\n")
	_, err = w.Write(b.Bytes())
	return err
}

// ReadInstancesJSON reads what WriteInstancesJSON wrote (formats 1 and
// 2), checked as an argument: exactly one JSON object (a key given twice,
// an unknown key or data after it is refused), at most MaxInstancesBytes,
// and instances that make sense (validateInstances: names, 1 ≤ r ≤ n,
// len(x) = n·r with finite entries, a positive step, a certificate of a
// known kind with values ≥ 0, no instance or dropped point twice). Errors
// wrap ErrBadBench and name the instance.
func ReadInstancesJSON(r io.Reader) (*InstancesFile, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: ReadInstancesJSON: nil io.Reader", ErrBadBench)
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxInstancesBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxInstancesBytes {
		return nil, fmt.Errorf("%w: instances file over %d bytes", ErrBadBench, MaxInstancesBytes)
	}
	return parseInstances(b)
}

func parseInstances(b []byte) (*InstancesFile, error) {
	var in InstancesFile
	if err := strictio.DecodeJSON(b, &in); err != nil {
		return nil, fmt.Errorf("%w: not an instances file: %v", ErrBadBench, err)
	}
	if in.Format != 0 && in.Format != InstancesFormat {
		return nil, fmt.Errorf("%w: instances file of format %d, want %d (or none, format 1)", ErrBadBench, in.Format, InstancesFormat)
	}
	if in.Instances == nil || in.Dropped == nil {
		return nil, fmt.Errorf("%w: not an instances file: no \"instances\" or no \"dropped\" list", ErrBadBench)
	}
	if err := validateInstances(in.Instances, in.Dropped); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadBench, err)
	}
	return &in, nil
}

// validateInstances checks stored instances and dropped points.
func validateInstances(insts []InstanceInfo, dropped []Dropped) error {
	seen := map[string]string{}
	for i, in := range insts {
		if err := in.validate(); err != nil {
			return fmt.Errorf("instance %d (%q / %q): %v", i, in.Family, in.Name, err)
		}
		k := in.Family + "\x00" + in.Name
		if seen[k] != "" {
			return fmt.Errorf("instance %q / %q listed twice", in.Family, in.Name)
		}
		seen[k] = "certified"
	}
	for i, d := range dropped {
		if d.Family == "" || d.Name == "" || d.Reason == "" {
			return fmt.Errorf("dropped point %d (%q / %q): a family, a name and a reason are needed", i, d.Family, d.Name)
		}
		k := d.Family + "\x00" + d.Name
		if seen[k] != "" {
			return fmt.Errorf("point %q / %q listed twice (%s, and dropped)", d.Family, d.Name, seen[k])
		}
		seen[k] = "dropped"
	}
	return nil
}

// validate checks one stored instance.
func (in InstanceInfo) validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	nonNeg := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }
	c := in.Cert
	switch {
	case in.Family == "" || in.Name == "":
		return fmt.Errorf("an instance needs a family and a name")
	case in.N < 1 || in.R < 1 || in.R > in.N || in.N > maxInstanceSize || in.N*in.R > maxInstanceSize:
		return fmt.Errorf("n = %d, r = %d, want 1 ≤ r ≤ n and n·r ≤ %d", in.N, in.R, maxInstanceSize)
	case len(in.X) != in.N*in.R:
		return fmt.Errorf("x has %d numbers, want n·r = %d·%d = %d", len(in.X), in.N, in.R, in.N*in.R)
	case in.M < 0:
		return fmt.Errorf("m = %d measurements, want ≥ 1 (0: not recorded, format 1)", in.M)
	case in.Eps != nil && !(*in.Eps > 0 && *in.Eps <= 1):
		return fmt.Errorf("ε = %v, want in (0, 1]", *in.Eps)
	case !(in.Step > 0) || !finite(in.Step) || in.PhaseIter < 0:
		return fmt.Errorf("step = %v, phase_iter = %d, want a finite step > 0 and phase_iter ≥ 0", in.Step, in.PhaseIter)
	case in.RStar < 0 || in.RStar > in.N:
		return fmt.Errorf("r_star = %d, want 0…n = %d", in.RStar, in.N)
	case !nonNeg(in.Sigma) || len(in.MStarFactor) != 0 && len(in.MStarFactor) != in.N*in.R:
		return fmt.Errorf("sigma = %v, m_star_factor has %d numbers, want σ finite ≥ 0 and none or n·r = %d", in.Sigma, len(in.MStarFactor), in.N*in.R)
	case !nonNeg(c.GradNorm) || !finite(c.MinHessEig) || !nonNeg(c.H) || !nonNeg(c.Dist) || !nonNeg(c.HRel) || !nonNeg(c.HStar) || c.DescentSteps < 0 || !nonNeg(c.Step) || !nonNeg(c.HDescent):
		return fmt.Errorf("certificate %+v: its norms, h, distance, steps and step must be finite and ≥ 0 (λ_min finite)", c)
	}
	if _, err := c.Kind.MarshalText(); err != nil {
		return fmt.Errorf("certificate kind %d, want strict-local-min or degenerate", int(c.Kind))
	}
	for i, v := range in.X {
		if !finite(v) {
			return fmt.Errorf("x[%d] = %v, want finite", i, v)
		}
	}
	for i, v := range in.MStarFactor {
		if !finite(v) {
			return fmt.Errorf("m_star_factor[%d] = %v, want finite", i, v)
		}
	}
	return nil
}

// CheckRuns checks that every run of rs is on an instance of f (a run on
// an instance the file does not list, or lists as dropped, is an error
// wrapping ErrBadBench naming it): the instances file and the
// runs belong together.
func (f *InstancesFile) CheckRuns(rs []*TrialResult) error {
	if f == nil {
		return fmt.Errorf("%w: CheckRuns on a nil *InstancesFile", ErrBadBench)
	}
	have := map[string]bool{}
	for _, in := range f.Instances {
		have[in.Family+"\x00"+in.Name] = true
	}
	for i, r := range rs {
		if r == nil {
			return fmt.Errorf("%w: run %d is nil", ErrBadBench, i)
		}
		if !have[r.Family+"\x00"+r.Instance] {
			return fmt.Errorf("%w: run %s / %s / %s / trial %d is on an instance the instances file does not certify", ErrBadBench, r.Family, r.Instance, r.Method, r.Trial)
		}
	}
	return nil
}
