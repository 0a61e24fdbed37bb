// Package randstream is the workbench's one source of pseudo-random
// generators: New turns a seed and a named stream into a math/rand/v2
// generator (PCG with the seed as its first word and the stream's word as
// its second), and NewIndexed does the same for a stream that is one of a
// numbered family (a run's escape round, a study's trial). Every random draw
// of the library and its commands goes through it (a test parses the module
// and fails on any other rand.NewPCG or rand.New outside test files), so the
// streams of the workbench are the constants of this file, each used in one
// place, and no two of them share a word (TestStreamWordsDistinct; a
// String method lists them in one switch, which the compiler refuses if two
// constants have the same value).
//
// # Convention: seeds, not sources
//
// A seeded API of the workbench takes its randomness as a uint64 seed: a
// field named Seed in a settings or configuration struct
// (sod.PerturbedGD.Seed, experiments.StudyConfig.Seed, escapebench.Spec.Seed),
// a parameter named seed in a function (sod.NewGaussianOperator,
// sod.RIPSample, escapebench.Family.Generate). It never takes a
// rand.Source or a *rand.Rand. gonum injects randomness as a rand.Source
// field; the workbench does not, because its runs are recorded and
// replayed: a seed is a number that a journal, a results file, a report and
// a command-line flag can hold, compare and give back, while a Source is
// state that none of them can. The function or type that owns the draw
// makes its generator with New(seed, its stream), so the same seed gives
// the same draws on every platform and in every order of work.
//
// # Why a package of its own
//
// The draws happen in sod, in packages above it (sod/escapebench,
// sod/experiments, sod/exercises) and in widgets, a sibling of sod. An
// internal package under sod cannot be imported by widgets, so the helper
// is a public leaf package (it imports only math/rand/v2 and fmt) low in the
// import graph, as sod/quote is for escaping.
//
// The words are the values the workbench used before this package existed,
// so that every recorded result (the reproduction report, the benchmark's
// RESULTS.md, the paper's figures) is drawn bit for bit as before.
package randstream

import (
	"fmt"
	"math/rand/v2"
)

// Stream names one use of randomness: the draws of one function or type.
// Its value is its word, the PCG's second word.
type Stream uint64

// The streams, each with its user. The values are the words the workbench
// has always used, so that recorded results are drawn as before.
const (
	// GaussianEnsemble draws the sensing matrices of sod.NewGaussianOperator.
	GaussianEnsemble Stream = 0x50d6a055
	// PZSamples draws the Monte Carlo samples of sod.SampleS and
	// sod.MonteCarloEFS.
	PZSamples Stream = 0x9a1e7
	// RIPSamples draws the random directions of sod.RIPSample.
	RIPSamples Stream = 0x71b
	// RIPStarts draws the starts of sod.RIPOptimize.
	RIPStarts Stream = 0x0b7
	// Perturbations draws the perturbations of sod.PerturbedGD.
	Perturbations Stream = 0x9e3779b97f4a7c15
	// RandomDirections draws the directions of sod.RandomLineSearch.
	RandomDirections Stream = 0xda3e39cb94b95bdb
	// Minibatches draws the minibatches of sod.SGD and sod.Adam
	// (sod.Minibatch.Seed).
	Minibatches Stream = 0x5d0b
	// QNNStarts draws the random starts W₀ of the quadratic-network
	// experiment (sod/experiments).
	QNNStarts Stream = 0x911
	// CaseStudyStarts draws the small random starts of the case study
	// (experiments.CaseStudyConfig).
	CaseStudyStarts Stream = 0x5eed
	// BasicExampleStarts draws the starts of the basic example
	// (experiments.RunBasicExample).
	BasicExampleStarts Stream = 0xba51c
	// SquareInputs draws the inputs at which sod/exercises calls an answer
	// to exercise 99.2.
	SquareInputs Stream = 0x992
	// FeatureCheckWeights draws the weights W at which sod/exercises
	// compares two feature scalings of the quadratic network.
	FeatureCheckWeights Stream = 0
	// GallerySamples draws the synthetic inputs of the widgets' gallery
	// (widgets.NewGalleryData).
	GallerySamples Stream = 0x50d
)

// String returns the stream's name ("gaussian-ensemble", "pz-samples", …),
// or "Stream(0x…)" for a word no stream above has.
func (s Stream) String() string {
	switch s {
	case GaussianEnsemble:
		return "gaussian-ensemble"
	case PZSamples:
		return "pz-samples"
	case RIPSamples:
		return "rip-samples"
	case RIPStarts:
		return "rip-starts"
	case Perturbations:
		return "perturbations"
	case RandomDirections:
		return "random-directions"
	case Minibatches:
		return "minibatches"
	case QNNStarts:
		return "qnn-starts"
	case CaseStudyStarts:
		return "case-study-starts"
	case BasicExampleStarts:
		return "basic-example-starts"
	case SquareInputs:
		return "square-inputs"
	case FeatureCheckWeights:
		return "feature-check-weights"
	case GallerySamples:
		return "gallery-samples"
	}
	return fmt.Sprintf("Stream(%#x)", uint64(s))
}

// New returns the generator of stream s under seed: math/rand/v2's
// PCG(seed, s). The same (seed, s) gives the same draws on every platform.
func New(seed uint64, s Stream) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(s)))
}

// Indexed names a numbered family of streams: the draws of one use of
// randomness that needs a stream per item (per escape round, per trial).
// Member i of a family has the word i itself, the same in every family, so
// each family is used with seeds of its own; its documentation says which.
type Indexed int

// The indexed families, each with its index, its seed and its user.
const (
	// LanczosStarts draws the start vector of sod's Lanczos solver; the
	// index is the size n, the seed a constant of sod.
	LanczosStarts Indexed = iota + 1
	// RestartRounds draws the random-restart baseline's start in escape
	// round i (sod/escapebench); the seed is the trial's.
	RestartRounds
	// StudyTrials draws trial t of cell c of the success-rate study
	// (sod/experiments); the index is c<<32 | t, the seed the study's.
	StudyTrials
	// DeltaSweepStarts draws the starts of size n of the δ sweep
	// (sod/experiments); the index is n, the seed the sweep's.
	DeltaSweepStarts
	// PMCFamilyPoints draws the GD start of one point of escapebench's PMC
	// family; the index is a hash of the point's cell and number, the seed
	// the benchmark's master seed.
	PMCFamilyPoints
	// GaussianFamilyPoints draws the truth and start of one point of
	// escapebench's Gaussian family; the index is a hash of the point's
	// cell, number and try, the seed the benchmark's master seed.
	GaussianFamilyPoints
)

// String returns the family's name ("lanczos-starts", "restart-rounds", …),
// or "Indexed(k)" for a value that is no family above.
func (f Indexed) String() string {
	switch f {
	case LanczosStarts:
		return "lanczos-starts"
	case RestartRounds:
		return "restart-rounds"
	case StudyTrials:
		return "study-trials"
	case DeltaSweepStarts:
		return "delta-sweep-starts"
	case PMCFamilyPoints:
		return "pmc-family-points"
	case GaussianFamilyPoints:
		return "gaussian-family-points"
	}
	return fmt.Sprintf("Indexed(%d)", int(f))
}

// NewIndexed returns the generator of member i of family f under seed:
// math/rand/v2's PCG(seed, i). The family names the use (the word does not
// depend on it).
func NewIndexed(seed uint64, f Indexed, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, i))
}
