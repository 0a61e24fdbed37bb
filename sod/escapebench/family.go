package escapebench

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// StallPoint is an uncertified benchmark point a Family proposes: a problem
// and a point X̂ on it (normally where seeded gradient descent stalled).
type StallPoint struct {
	Name string       // unique within the family, e.g. "pmc n=40 ε=0.15 #3"
	P    *sod.Problem // with a known ground truth M*
	X    *mat.Dense   // n×r
	// L and T are the lifting order and step count of the paper's
	// multi-step escape for this point (0 if the family sets none).
	L int
	T int64
	// Step is the gradient descent step of the runs on this point (the
	// step that found it).
	Step float64
	// PhaseIter, if larger than TrialOptions.MaxIter, is the gradient
	// descent budget per phase of the runs on this point (GD at step
	// 0.5/n needs O(n) steps to converge).
	PhaseIter int
	// Stream is the point's random stream under the master seed: its
	// draws come from randstream.NewIndexed(seed, …, Stream), math/rand/v2's
	// PCG(seed, Stream) (PMCFamily: the
	// start x₀; GaussianFamily: Z and x₀, and the sensing matrices from
	// sod.NewGaussianOperator(n, m, seed ^ Stream)); 0 for a point drawn
	// from no stream (PaperFamily).
	Stream uint64
	// Sigma is the standard deviation of the measurement noise
	// (NoisyGaussianFamily), 0 for exact measurements; with noise P's M*
	// is the reference minimum, not the truth.
	Sigma float64
}

// CertifiedInstance is a benchmark instance: a problem and a certified
// spurious second-order point X̂ on it, with its certificate. (sod.Instance
// is the paper's instance with its escape settings; this is the
// benchmark's, whose point has been certified.)
type CertifiedInstance struct {
	Family string
	StallPoint
	Cert Certificate
}

// Family is a seeded, deterministic generator of benchmark points:
// Generate returns at most k points (k ≥ 1 per cell for families with
// several cells), the same for the same seed.
type Family interface {
	Name() string
	Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error)
}

// FuncFamily is a user family given as a Go function. Its name must pass
// sod.CheckIdentifier, and f must not be nil (Instances and Suite.Validate
// refuse both with an error).
func FuncFamily(name string, f func(ctx context.Context, seed uint64, k int) ([]StallPoint, error)) Family {
	return funcFamily{name, f}
}

type funcFamily struct {
	name string
	f    func(ctx context.Context, seed uint64, k int) ([]StallPoint, error)
}

func (f funcFamily) Name() string { return f.name }
func (f funcFamily) Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
	if f.f == nil {
		return nil, fmt.Errorf("%w: family %q: nil generator function (FuncFamily's f)", ErrBadBench, f.name)
	}
	return f.f(ctx, seed, k)
}

// checkFamily refuses a nil family, a FuncFamily without a function and
// a name that fails sod.CheckIdentifier.
func checkFamily(f Family) error {
	if f == nil {
		return fmt.Errorf("%w: nil family", ErrBadBench)
	}
	if ff, ok := f.(funcFamily); ok && ff.f == nil {
		return fmt.Errorf("%w: family %q: nil generator function (FuncFamily's f)", ErrBadBench, ff.name)
	}
	return sod.CheckIdentifier("family name", f.Name())
}

// Dropped is a generated point that failed its certificate.
type Dropped struct {
	Family string `json:"family"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// FamilyInstances is what Instances returns for one family.
type FamilyInstances struct {
	Family    string
	Instances []CertifiedInstance
	Dropped   []Dropped // points that failed the certificate (counted, not used)
}

// MaxInstancesPerFamily bounds k in Instances.
const MaxInstancesPerFamily = 10_000

// Instances generates k points per cell of f with seed and certifies each
// (Certify with opt): the points that pass become instances, the others
// are dropped and listed with the reason. Only an error of the family
// itself, a bad option, cancellation or a point that cannot be evaluated
// (wrong shape, no ground truth) is returned as an error.
func Instances(ctx context.Context, f Family, seed uint64, k int, opt CertifyOptions) (*FamilyInstances, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: Instances needs a context", ErrBadBench)
	}
	if err := checkFamily(f); err != nil {
		return nil, err
	}
	if k < 1 || k > MaxInstancesPerFamily {
		return nil, fmt.Errorf("%w: k = %d points per cell, want 1 ≤ k ≤ %d", ErrBadBench, k, MaxInstancesPerFamily)
	}
	if _, err := opt.withDefaults(); err != nil {
		return nil, err
	}
	pts, err := f.Generate(ctx, seed, k)
	if err != nil {
		return nil, fmt.Errorf("escapebench: family %q: %w", f.Name(), err)
	}
	out := &FamilyInstances{Family: f.Name()}
	seen := map[string]bool{}
	for _, pt := range pts {
		if seen[pt.Name] {
			return nil, fmt.Errorf("%w: family %q generated the name %q twice", ErrBadBench, f.Name(), pt.Name)
		}
		seen[pt.Name] = true
		o := opt
		o.Step = pt.Step
		cert, err := Certify(ctx, pt.P, pt.X, o)
		switch {
		case errors.Is(err, ErrNotCertified):
			out.Dropped = append(out.Dropped, Dropped{Family: f.Name(), Name: pt.Name, Reason: err.Error()})
		case err != nil:
			return nil, fmt.Errorf("escapebench: family %q, point %q: %w", f.Name(), pt.Name, err)
		default:
			out.Instances = append(out.Instances, CertifiedInstance{Family: f.Name(), StallPoint: pt, Cert: cert})
		}
	}
	return out, nil
}
