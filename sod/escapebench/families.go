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

// PMCCell is one cell of a PMCFamily: size n, perturbation ε, the
// number of points (0: the k of Generate) and the rank R of the truth,
// which is also the search rank (0 or 1: rank 1; PMCRankFamily).
type PMCCell struct {
	N      int     `json:"n"`
	Eps    float64 `json:"eps"`
	Points int     `json:"points,omitempty"`
	R      int     `json:"r,omitempty"`
}

// String returns "n:ε", with ":points" when Points > 0 and ":rR" when
// R > 1 (the form of `reproduce bench -pmc-cells`, ParsePMCCell).
func (c PMCCell) String() string {
	s := strconv.Itoa(c.N) + ":" + strconv.FormatFloat(c.Eps, 'g', -1, 64)
	if c.Points > 0 {
		s += ":" + strconv.Itoa(c.Points)
	}
	if c.R > 1 {
		s += ":r" + strconv.Itoa(c.R)
	}
	return s
}

// rank returns the cell's rank (1 for R = 0).
func (c PMCCell) rank() int { return max(c.R, 1) }

// pmcTruth returns the PMC truth of rank r at size n: column c is the
// indicator of a group of the odd (1-based) indices, the groups taking
// 1 : 3 : … : 3 shares of them in order (3r − 2 shares), so that column 0
// is the weak one, less than half of any other (rank 1: z = (1, 0, 1, 0,
// …)). It also returns the group of each 0-based even index i (at i/2).
func pmcTruth(n, r int) (*mat.Dense, []int) {
	no := (n + 1) / 2
	z := mat.NewDense(n, r, nil)
	group := make([]int, no)
	for t := range no {
		u := t * (3*r - 2) / no
		if u > 0 {
			group[t] = 1 + (u-1)/3
		}
		z.Set(2*t, group[t], 1)
	}
	return z, group
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

// Generate returns k points per (n, ε) cell (a cell's Points if set). A
// cell of rank r ≥ 2 is an error: those are PMCRankFamily's.
func (f PMCFamily) Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
	for _, c := range f.Cells {
		if c.R > 1 {
			return nil, fmt.Errorf("%w: PMC family: cell %v has rank %d; the family pmc is rank 1, pmc-rank has the others", ErrBadBench, c, c.R)
		}
	}
	return f.points(ctx, seed, k)
}

// points generates f's points at the cells' ranks.
func (f PMCFamily) points(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
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
		r := c.rank()
		z, group := pmcTruth(n, r)
		p, err := sod.NewProblem(op, z, r)
		if err != nil {
			return nil, err
		}
		for j := range k {
			parts := []uint64{uint64(n), math.Float64bits(eps), uint64(j)}
			if r > 1 {
				parts = append(parts, uint64(r))
			}
			stream := cellSeed("pmc", parts...)
			rng := randstream.NewIndexed(seed, randstream.PMCFamilyPoints, stream)
			x0 := mat.NewDense(n, r, nil)
			for i := range n {
				for c := range r {
					x0.Set(i, c, 0.01*rng.NormFloat64())
				}
			}
			switch {
			case r > 1 && f.Start != StartSmallRandom:
				// Rank r: signs on the weak column's group only (the
				// others' rows would rotate to their signs, see
				// PMCRankFamily), the second entry −1.
				for t, g := range group {
					s := 1.0
					switch {
					case g != 0 || t == 0:
					case t == 1:
						s = -1
					case f.Start == StartRandomSigns:
						s = float64(1 - 2*rng.IntN(2))
					}
					x0.Set(2*t, g, x0.At(2*t, g)+s)
				}
			case f.Start != StartSmallRandom && n >= 3:
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
			name := fmt.Sprintf("pmc n=%d ε=%g #%d", n, eps, j)
			if r > 1 {
				name = fmt.Sprintf("pmc n=%d ε=%g r=%d #%d", n, eps, r, j)
			}
			out = append(out, StallPoint{Name: name, P: p, X: x, Step: 0.5 / float64(n), PhaseIter: 30 * n, Stream: stream})
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

// PMCRankFamily is perturbed matrix completion at truth rank r ≥ 2 (the
// cells' R; search rank r too): PMCFamily's operator and descent, with
// the rank-r truth Z whose column c is the indicator of a group of the
// odd (1-based) indices, the groups taking shares 1 : 3 : … : 3 of them
// (pmcTruth: column 0, the weak column, has the smallest group).
//
// Why unequal groups. With Ω of PMC every entry between odd indices is
// seen through ε and the diagonal with weight 1, so a row i of X is
// pinned to the sphere ‖X_i‖ = 1 and feels the other rows only through
// ε²·(X_i − Z_i)ᵀG(X_i − Z_i), G = ZᵀZ = diag(group sizes). At rank 1 the
// sphere is {±1}: a wrong sign cannot be corrected without crossing 0,
// hence the spurious points. At rank r ≥ 2 the sphere is connected: with
// equal groups a wrong row rotates to its sign through another column and
// gradient descent from any sign pattern reaches M* (tried: n = 20…1000,
// r = 3, 5, ε = 0.05…0.3). The row −Z_i stays a local minimum on the
// sphere when its group's size is at most half of every other's (the
// Hessian of the trust-region problem on the sphere is G − 2λ_c I on the
// tangent space), which the 1 : 3 shares give the weak column (at n ≥
// 12r or so; smaller n rounds the shares). The start
// (Start) puts signs on the weak column's rows (the second −1, the others
// + for StartOneFlip and random for StartRandomSigns) and the true rows
// elsewhere; StartSmallRandom is the small random start. Names are "pmc
// n=… ε=… r=… #j". The weak column's stiffness is of order ε², so
// gradient descent needs more steps than at rank 1: MaxIter (0:
// max(100000, 300n)).
type PMCRankFamily struct {
	Cells   []PMCCell // each with R ≥ 2
	Start   PMCStart
	MaxIter int
	GradTol float64 // default 1e-8
}

// Name returns "pmc-rank".
func (PMCRankFamily) Name() string { return "pmc-rank" }

// Generate returns k points per cell (a cell's Points if set); a cell of
// rank below 2 is an error (PMCFamily has them).
func (f PMCRankFamily) Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
	if len(f.Cells) == 0 {
		return nil, fmt.Errorf("%w: PMC rank family needs cells n:ε[:points]:rK with K ≥ 2", ErrBadBench)
	}
	for _, c := range f.Cells {
		if c.R < 2 {
			return nil, fmt.Errorf("%w: PMC rank family: cell %v has rank %d, want r ≥ 2 (rank 1 is the family pmc)", ErrBadBench, c, c.rank())
		}
	}
	var out []StallPoint
	for _, c := range f.Cells {
		iter := f.MaxIter
		if iter == 0 {
			iter = max(100000, 300*c.N)
		}
		pts, err := PMCFamily{Cells: []PMCCell{c}, Start: f.Start, MaxIter: iter, GradTol: f.GradTol}.points(ctx, seed, k)
		if err != nil {
			return nil, err
		}
		out = append(out, pts...)
	}
	return out, nil
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
	return f.points(ctx, seed, k, 0, 0)
}

// points generates f's points, with measurement noise σ = sigma when
// sigma > 0 (NoisyGaussianFamily, whose reference descent takes refIter
// steps).
func (f GaussianFamily) points(ctx context.Context, seed uint64, k int, sigma float64, refIter int) ([]StallPoint, error) {
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
				name := fmt.Sprintf("gaussian n=%d m=%d r=%d #%d", n, m, r, j)
				var hTruth float64 // h(Z) = ½‖e‖² with noise
				if sigma > 0 {
					b := make([]float64, len(p.B))
					for i, v := range p.B {
						e := sigma * rng.NormFloat64()
						b[i] = v + e
						hTruth += e * e / 2
					}
					if p, err = sod.NewProblemFromMeasurements(op, b, r); err != nil {
						return nil, err
					}
					name = fmt.Sprintf("gaussian n=%d m=%d r=%d σ=%g #%d", n, m, r, sigma, j)
				}
				x, err := descend(ctx, p, x0, step, maxIter, tol)
				if err != nil {
					return nil, err
				}
				if tries > 1 {
					name += fmt.Sprintf(" try %d", t)
				}
				g := mat.NewDense(n, r, nil)
				p.Grad(g, x)
				stalled := mat.Norm(g, 2) <= DefaultCertifyTol
				if sigma > 0 {
					// Worse than the truth: not a global minimum. Only
					// then is the reference minimum computed.
					stalled = stalled && p.H(x) > hTruth
					if stalled || t == tries-1 {
						if p, err = withReference(ctx, p, z, step, refIter); err != nil {
							return nil, err
						}
					}
				}
				pt = StallPoint{Name: name, P: p, X: x, Step: step, Stream: s, Sigma: sigma}
				if stalled && (sigma > 0 || p.DistStar(x) >= DefaultMinDist) {
					break
				}
			}
			out = append(out, pt)
		}
	}
	return out, nil
}

// DefaultNoiseSigma is the default NoisyGaussianFamily.Sigma.
const DefaultNoiseSigma = 0.01

// MaxNoiseSigma bounds NoisyGaussianFamily.Sigma.
const MaxNoiseSigma = 1.0

// refGradTol is the gradient norm at which the reference descent of a
// noisy problem stops.
const refGradTol = 1e-11

// NoisyGaussianFamily is Gaussian sensing with noisy measurements: the
// draws of GaussianFamily (the same operator, truth Z and start x₀ for
// the same seed, cell and try), then measurement noise
//
//	b = 𝒜(ZZᵀ) + e,   e_i ~ N(0, σ²) i.i.d.,  i = 1…m,
//
// e drawn from the point's stream after Z and x₀ (σ = Sigma, default
// DefaultNoiseSigma: the measurements 𝒜(ZZᵀ)_i have standard deviation
// about ‖ZZᵀ‖_F/√m, 0.1 to 0.2 on the default cells, so a signal-to-noise
// ratio of 10 to 20).
//
// The success criterion it implies. With noise ZZᵀ is no longer a
// minimum of h and h ≠ 0 at the global minimum, so ‖XXᵀ − ZZᵀ‖_F < 0.02
// would judge a run by how far the noise moved the minimum, not by
// whether it escaped. Each point's problem therefore takes as its M* the
// reference minimum M_ref = X_ref X_refᵀ, X_ref the end of gradient
// descent on the noisy h from the truth Z (the instance's step, until
// ‖∇h‖_F ≤ 10⁻¹¹ or RefIter steps), and every rule of the benchmark reads
// M* as M_ref: success is ‖XXᵀ − M_ref‖_F < 0.02 (TrialOptions), the
// distance targets and the certificate's MinDist are measured to it. Why
// it is the global minimum's neighbourhood: h(X_ref) ≤ h(Z) = ½‖e‖²
// (descent from Z), and any X with h(X) ≤ ½‖e‖² has ‖𝒜(XXᵀ − ZZᵀ)‖ ≤
// 2‖e‖ (triangle inequality), so X_ref is among the points as good as the
// truth; a point is kept only if it is strictly worse, h(X̂) > h(X_ref)
// (the certificate's test h(X̂) − h(M*) > RelH·h(0) with h(M*) = h(X_ref),
// Certificate.HStar), which proves that X̂ is not a global minimum
// whatever the global minimum is. The instance stores σ and X_ref
// (InstanceInfo.Sigma, MStarFactor). Names are "gaussian n=… m=… r=… σ=…
// #j[ try t]".
type NoisyGaussianFamily struct {
	GaussianFamily
	Sigma   float64 // σ, in (0, MaxNoiseSigma]; 0: DefaultNoiseSigma
	RefIter int     // steps of the reference descent, default 100000
}

// Name returns "gaussian-noisy".
func (NoisyGaussianFamily) Name() string { return "gaussian-noisy" }

// Generate returns k points per (n, m, r) cell, each with its own
// operator, noise and reference minimum.
func (f NoisyGaussianFamily) Generate(ctx context.Context, seed uint64, k int) ([]StallPoint, error) {
	sigma := orDefault(f.Sigma, DefaultNoiseSigma)
	if !(sigma > 0 && sigma <= MaxNoiseSigma) {
		return nil, fmt.Errorf("%w: noisy Gaussian family: σ = %v, want a number in (0, %g]", ErrBadBench, f.Sigma, MaxNoiseSigma)
	}
	ref := f.RefIter
	if ref == 0 {
		ref = 100000
	}
	if ref < 1 || ref > 100_000_000 {
		return nil, fmt.Errorf("%w: noisy Gaussian family: RefIter = %d, want 1…10⁸", ErrBadBench, f.RefIter)
	}
	return f.points(ctx, seed, k, sigma, ref)
}

// withReference returns the noisy problem p (no truth) with M* the
// reference minimum: the end of gradient descent on p from the truth z
// (NoisyGaussianFamily).
func withReference(ctx context.Context, p *sod.Problem, z *mat.Dense, step float64, refIter int) (*sod.Problem, error) {
	xref, err := descend(ctx, p, z, step, refIter, refGradTol)
	if err != nil {
		return nil, err
	}
	n, _ := p.Dims()
	ms := mat.NewSymDense(n, nil)
	ms.SymOuterK(1, xref)
	q := &sod.Problem{Op: p.Op, B: p.B, Z: xref, MStar: ms, R: p.R}
	return q, q.Validate()
}
