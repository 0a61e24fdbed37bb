package escapebench

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/randstream"
)

// descend runs seeded gradient descent to where it stalls: ‖∇h‖_F ≤
// gradTol or maxIter steps.
func descend(ctx context.Context, p *sod.Problem, x0 mat.Matrix, step float64, maxIter int, gradTol float64) (*mat.Dense, error) {
	res, err := sod.GradientDescent(ctx, p, x0, sod.GDOptions{Iteration: sod.Iteration{Step: step, MaxIter: maxIter, TraceEvery: maxIter}, GradTol: gradTol})
	if err != nil {
		return nil, err
	}
	return res.X, nil
}

// PaperFamily is the paper's three instances (sod.PaperInstances: the
// basic example, PMC n = 3 ε = 0.3, the real-world case) with X̂ moved
// from its printed value to the spurious point gradient descent converges
// to from there (step Step, until ‖∇h‖_F ≤ GradTol). It ignores seed and k.
type PaperFamily struct {
	Step    float64 // default 0.05
	MaxIter int     // default 200000
	GradTol float64 // default 1e-9
}

// Name returns "paper".
func (PaperFamily) Name() string { return "paper" }

// Generate returns the three instances.
func (f PaperFamily) Generate(ctx context.Context, _ uint64, _ int) ([]StallPoint, error) {
	step, maxIter, tol := orDefault(f.Step, 0.05), f.MaxIter, orDefault(f.GradTol, 1e-9)
	if maxIter == 0 {
		maxIter = 200000
	}
	var out []StallPoint
	for _, in := range sod.PaperInstances() {
		x, err := descend(ctx, in.P, in.XHat, step, maxIter, tol)
		if err != nil {
			return nil, err
		}
		out = append(out, StallPoint{Name: in.Name, P: in.P, X: x, L: in.L, T: in.T, Step: step})
	}
	return out, nil
}

func orDefault(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

// PMCFamily is perturbed matrix completion (sod.NewPMCOperator, the
// paper's Appendix case 1) over sizes Sizes and perturbations Epsilons,
// rank-1 truth z = (1, 0, 1, 0, …) (entries 1 at the 1-based odd
// indices, as in experiments' success-rate study) and search rank 1, at
// the points where gradient descent (step 0.5/n) from a seeded start
// stalls. The problem takes sod's structured path (no n×n array; n up to
// 10⁴ and beyond). Runs on a point get at least 30n GD steps per phase
// (StallPoint.PhaseIter): at n = 1000 the SOD line search escapes 4 of 4
// points with 30000 steps and none with 3000.
//
// Start (a PMCStart) chooses the seeded start x₀. From the small random
// start of the success-rate study GD reaches M* more and more often as n
// grows (at n ≥ 80 nearly always); such points fail the certificate (too
// close to M*) and are dropped. With the paper's Ω every sign pattern ±1
// on the odd entries of z that is not constant leads to a spurious point
// (experiments.StudyConfig explains why), which the other starts use; at
// large n they need a small ε (n = 10³: ε ≤ 0.02; n = 10⁴: ε ≈ 0.001 and
// about 3·10⁵ GD steps, MaxIter), since the ε-weighted entries couple the
// signs. Cells lists such (n, ε) pairs (with fewer points at the largest
// n); Sizes × Epsilons is the shorthand for their product.
type PMCFamily struct {
	// Cells are the (n, ε) cells; if empty, every pair of Sizes ×
	// Epsilons with k points each.
	Cells    []PMCCell
	Sizes    []int
	Epsilons []float64
	Start    PMCStart
	// MaxIter is the number of GD steps that find a point (default
	// max(20000, 30n): GD at step 0.5/n needs O(n) steps).
	MaxIter int
	GradTol float64 // default 1e-8
}

// PMCCell is one cell of a PMCFamily: size n, perturbation ε, and the
// number of points (0: the k of Generate).
type PMCCell struct {
	N      int     `json:"n"`
	Eps    float64 `json:"eps"`
	Points int     `json:"points,omitempty"`
}

// String returns "n:ε", or "n:ε:points" when Points > 0 (the form of
// `reproduce bench -pmc-cells`).
func (c PMCCell) String() string {
	s := strconv.Itoa(c.N) + ":" + strconv.FormatFloat(c.Eps, 'g', -1, 64)
	if c.Points > 0 {
		s += ":" + strconv.Itoa(c.Points)
	}
	return s
}

// cells returns f's cells with k filled in for Points = 0.
func (f PMCFamily) cells(k int) []PMCCell {
	cells := f.Cells
	if len(cells) == 0 {
		cells = PMCGrid(f.Sizes, f.Epsilons)
	}
	var out []PMCCell
	for _, c := range cells {
		if c.Points == 0 {
			c.Points = k
		}
		out = append(out, c)
	}
	return out
}

// PMCGrid returns the cells sizes × epsilons: each size with every ε, in
// order (PMCFamily's cells when it has Sizes and Epsilons).
func PMCGrid(sizes []int, epsilons []float64) []PMCCell {
	var out []PMCCell
	for _, n := range sizes {
		for _, eps := range epsilons {
			out = append(out, PMCCell{N: n, Eps: eps})
		}
	}
	return out
}

// Name returns "pmc".
func (PMCFamily) Name() string { return "pmc" }

// Generate returns k points per (n, ε) cell (a cell's Points if set).
func (f PMCFamily) Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
	cells := f.cells(k)
	if len(cells) == 0 {
		return nil, fmt.Errorf("%w: PMC family needs cells, or sizes and epsilons", ErrBadBench)
	}
	for _, c := range cells {
		if err := c.Validate(); err != nil {
			return nil, err
		}
		if c.Points < 0 || c.Points > MaxInstancesPerFamily {
			return nil, fmt.Errorf("%w: PMC cell n = %d ε = %g: %d points, want 0…%d", ErrBadBench, c.N, c.Eps, c.Points, MaxInstancesPerFamily)
		}
	}
	if f.Start < StartSmallRandom || f.Start > StartRandomSigns {
		return nil, fmt.Errorf("%w: PMC start %v, want small-random, one-flip or random-signs", ErrBadBench, f.Start)
	}
	tol := orDefault(f.GradTol, 1e-8)
	var out []StallPoint
	for _, c := range cells {
		n, eps, k := c.N, c.Eps, c.Points
		maxIter := f.MaxIter
		if maxIter == 0 {
			maxIter = max(20000, 30*n)
		}
		op, err := sod.NewPMCOperator(n, eps)
		if err != nil {
			return nil, err
		}
		z := mat.NewDense(n, 1, nil)
		for i := 0; i < n; i += 2 {
			z.Set(i, 0, 1)
		}
		p, err := sod.NewProblem(op, z, 1)
		if err != nil {
			return nil, err
		}
		for j := range k {
			stream := cellSeed("pmc", uint64(n), math.Float64bits(eps), uint64(j))
			rng := randstream.NewIndexed(seed, randstream.PMCFamilyPoints, stream)
			x0 := mat.NewDense(n, 1, nil)
			for i := range n {
				x0.Set(i, 0, 0.01*rng.NormFloat64())
			}
			if f.Start != StartSmallRandom && n >= 3 {
				// Signs on the odd entries (0-based even): one flipped
				// entry, or random signs with the first two apart, so
				// that the pattern is not constant.
				flip := 2 * (1 + rng.IntN((n-1)/2))
				for i := 0; i < n; i += 2 {
					s := 1.0
					switch {
					case f.Start == StartOneFlip && i == flip:
						s = -1
					case f.Start == StartRandomSigns && i == 2:
						s = -1
					case f.Start == StartRandomSigns && i > 2:
						s = float64(1 - 2*rng.IntN(2))
					}
					x0.Set(i, 0, x0.At(i, 0)+s)
				}
			}
			x, err := descend(ctx, p, x0, 0.5/float64(n), maxIter, tol)
			if err != nil {
				return nil, err
			}
			out = append(out, StallPoint{Name: fmt.Sprintf("pmc n=%d ε=%g #%d", n, eps, j), P: p, X: x, Step: 0.5 / float64(n), PhaseIter: 30 * n, Stream: stream})
		}
	}
	return out, nil
}

// PMCStart is the start of the gradient descent that finds a PMC point.
type PMCStart int

const (
	// StartSmallRandom: x₀ = 0.01·N(0, I), the success-rate study's start.
	StartSmallRandom PMCStart = iota
	// StartOneFlip: x₀ = s∘z + 0.01·N(0, I) with s = 1 except −1 at one
	// seeded odd index (one sign to correct: one escape).
	StartOneFlip
	// StartRandomSigns: as StartOneFlip with seeded random signs s (not
	// all equal): many signs to correct.
	StartRandomSigns
)

// String returns "small-random", "one-flip" or "random-signs".
func (s PMCStart) String() string {
	switch s {
	case StartSmallRandom:
		return "small-random"
	case StartOneFlip:
		return "one-flip"
	case StartRandomSigns:
		return "random-signs"
	}
	return fmt.Sprintf("PMCStart(%d)", int(s))
}

// cellSeed mixes a family tag and cell coordinates into a stream number.
func cellSeed(tag string, parts ...uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte(tag) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	for _, v := range parts {
		for range 8 {
			h = (h ^ (v & 0xff)) * 1099511628211
			v >>= 8
		}
	}
	return h
}

// GaussianFamily is Gaussian sensing (sod.NewGaussianOperator, the
// ensemble of section 4.3) over cells (n, m, r) — Cells, or the product
// Sizes × Ms × Ranks — (truth rank = search rank = r, truth Z with
// N(0, 1/n) entries), at the points where gradient descent from a seeded
// start x₀ = N(0, I/n) (step Step) stalls. Spurious points appear only
// for m small compared with nr, and even there most starts reach M*: at
// n = 20, r = 1 about one start in four stalls at a spurious point for
// m ∈ [nr, 1.5nr], one in ten at m = 45 and none of 40 at m ≥ 50; at n =
// 40, r = 1 two of 40 at m = 100 and none at m = 120 — the spurious points
// disappear near m ≈ 2.5nr. (Below m ≈ nr/2 GD finds zeros of h away from
// M*, which the certificate rejects: M* is not identifiable.) So each
// point takes up to Tries draws (operator, Z, x₀) and keeps the first
// whose gradient descent stalls (‖∇h‖_F ≤ DefaultCertifyTol) at
// ‖XXᵀ − M*‖_F ≥ DefaultMinDist; the
// point's name records the draw ("#j try t"), and a point whose Tries draws
// all reach M* is returned as the last draw (and dropped by the
// certificate).
type GaussianFamily struct {
	// Cells are the (n, m, r) cells; if empty, every triple of Sizes × Ms
	// × Ranks.
	Cells            []GaussianCell
	Sizes, Ms, Ranks []int
	Tries            int     // draws per point, default 1
	Step             float64 // default 0.02
	MaxIter          int     // default 20000
	GradTol          float64 // default 1e-8
}

// GaussianCell is one cell of a GaussianFamily: size n, measurement
// count m, rank r.
type GaussianCell struct {
	N int `json:"n"`
	M int `json:"m"`
	R int `json:"r"`
}

// String returns "n:m:r" (the form of `reproduce bench -gauss-cells`).
func (c GaussianCell) String() string { return fmt.Sprintf("%d:%d:%d", c.N, c.M, c.R) }

// GaussianGrid returns the cells sizes × ms × ranks, in order
// (GaussianFamily's cells when it has Sizes, Ms and Ranks).
func GaussianGrid(sizes, ms, ranks []int) []GaussianCell {
	var out []GaussianCell
	for _, n := range sizes {
		for _, m := range ms {
			for _, r := range ranks {
				out = append(out, GaussianCell{N: n, M: m, R: r})
			}
		}
	}
	return out
}

// MaxGaussianTries bounds GaussianFamily.Tries.
const MaxGaussianTries = 1000

// Name returns "gaussian".
func (GaussianFamily) Name() string { return "gaussian" }

// Generate returns k points per (n, m, r) cell; each point has its own
// operator.
func (f GaussianFamily) Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
	cells := f.Cells
	if len(cells) == 0 {
		cells = GaussianGrid(f.Sizes, f.Ms, f.Ranks)
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("%w: Gaussian family needs cells, or sizes, measurement counts and ranks", ErrBadBench)
	}
	for _, c := range cells {
		if err := c.Validate(); err != nil {
			return nil, err
		}
	}
	tries := f.Tries
	if tries == 0 {
		tries = 1
	}
	if tries < 0 || tries > MaxGaussianTries {
		return nil, fmt.Errorf("%w: Gaussian family: %d tries per point, want 1…%d", ErrBadBench, tries, MaxGaussianTries)
	}
	maxIter := f.MaxIter
	if maxIter == 0 {
		maxIter = 20000
	}
	step, tol := orDefault(f.Step, 0.02), orDefault(f.GradTol, 1e-8)
	var out []StallPoint
	for _, c := range cells {
		n, m, r := c.N, c.M, c.R
		for j := range k {
			var pt StallPoint
			for t := range tries {
				// Try 0 draws what a family without retries draws.
				s := cellSeed("gaussian", uint64(n), uint64(m), uint64(r), uint64(j))
				if t > 0 {
					s = cellSeed("gaussian", uint64(n), uint64(m), uint64(r), uint64(j), uint64(t))
				}
				op, err := sod.NewGaussianOperator(n, m, seed^s)
				if err != nil {
					return nil, err
				}
				rng := randstream.NewIndexed(seed, randstream.GaussianFamilyPoints, s)
				sc := 1 / math.Sqrt(float64(n))
				z, x0 := mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
				for i := range n {
					for c := range r {
						z.Set(i, c, sc*rng.NormFloat64())
						x0.Set(i, c, sc*rng.NormFloat64())
					}
				}
				p, err := sod.NewProblem(op, z, r)
				if err != nil {
					return nil, err
				}
				x, err := descend(ctx, p, x0, step, maxIter, tol)
				if err != nil {
					return nil, err
				}
				name := fmt.Sprintf("gaussian n=%d m=%d r=%d #%d", n, m, r, j)
				if tries > 1 {
					name += fmt.Sprintf(" try %d", t)
				}
				pt = StallPoint{Name: name, P: p, X: x, Step: step, Stream: s}
				g := mat.NewDense(n, r, nil)
				p.Grad(g, x)
				if p.DistStar(x) >= DefaultMinDist && mat.Norm(g, 2) <= DefaultCertifyTol {
					break
				}
			}
			out = append(out, pt)
		}
	}
	return out, nil
}
