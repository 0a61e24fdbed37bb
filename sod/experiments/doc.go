// Package experiments runs every experiment of the paper
//
//	Escaping Local Minima Provably in Non-convex Matrix Sensing:
//	A Deterministic Framework via Simulated Lifting
//
// and returns plain data (slices and structs with JSON tags) for notebooks,
// the widgets package and the command sod/cmd/reproduce. It builds on package
// sod (problems, GD, critical points, the closed-form TPGD, the lifted
// objective, the escape driver sod.RunEscape and its variants).
//
// Every experiment X has one shape, like the standard library's long
// calls:
//
//	func RunX(ctx context.Context, cfg XConfig, prog batch.ProgressFunc) (*XResult, error)
//
// with DefaultXConfig (or a named preset) giving the paper's settings.
// RunX first checks cfg with XConfig.Validate (an error wrapping
// ErrBadExperiment that names the bad value and its range, before any
// work), stops early with an error wrapping ctx.Err() when ctx is
// cancelled, and reports through prog (may be nil; called from the
// caller's goroutine). Configs hold neither a context nor a progress
// function. Every experiment is deterministic given its seed and never
// panics on bad input (errors wrap sod's sentinels).
//
// # Paper → API
//
//   - Fig. 2, basic example (section 1.1): RunBasicExample with
//     DefaultBasicExampleConfig — GD, SGD and GD+SOD paths from seeded starts and h
//     on a grid for the log contour plot.
//   - Fig. "exp2", PMC n = 3, ε = 0.3 (section 6.1, Appendix case 1):
//     RunCaseStudy with PMCCaseStudyConfig() — the six panels: h, ‖∇h‖_F, ‖XXᵀ−M*‖_F
//     against the iteration before and after the escape; log10 of the
//     lifted objective and of the term norms against t, for the paper's
//     closed form and for the exact projected gradient descent in
//     span{a, b, c}; the 3-D trajectory.
//   - Fig. "exp3", real-world case (Appendix case 2):
//     RunCaseStudy with RealWorldCaseStudyConfig().
//   - Appendix table "ablation": RunAblation with DefaultAblationConfig, for
//     any grid of l and t, with the descent check h(X̌) < h(X̂) the paper
//     leaves out (the printed table is paper.Ablation); RunDescentScan gives
//     h at the β- and γ-type points over a t grid (the descent window of
//     REPRODUCTION.md F8).
//   - Fig. "ablation" (U_β and U_γ against t for several l): the intervals
//     of each AblationOrder (UBeta, UGamma, RhoMin, K) of RunAblation.
//   - Figs. "r1_r2", "simulation", "quadratic_funcs" and "sod-escape"
//     illustrate the theory; their data come from package sod directly (its
//     package doc maps them), not from an experiment here.
//   - Fig. "numerical_study", success rates (section 6.2): RunStudy with
//     DefaultStudyConfig — PMC, n ∈ {40, …, 80}, ε ∈ {0.15, 0.10}, 50 trials,
//     GD vs GD+SOD, success iff ‖XXᵀ−M*‖_F < 0.02, per-trial trajectories;
//     the two methods are MethodGD and MethodGDSOD, and package sod/figures
//     draws panels (a)–(d) from the StudyResult. The instances are
//     PMCStudyProblem (z = AlternatingTruth(n)).
//     The paper omits r, z, the start and the step sizes; StudyConfig
//     documents the choices. Trials run on all cores and the result is
//     bit-identical to a serial run.
//   - Fig. "quadratic_nn", quadratic network on Iris (section 6.3): RunQNN with
//     DefaultQNNConfig — panel (a) in QNNResult.Optimizers (GD, SGD, Adam,
//     GD+SOD), panel (b) in QNNResult.Searches (SOD, random and
//     negative-gradient line searches); QNNProblem is the network as a
//     sensing problem; RunQNNScan classifies where GD ends from many starts
//     and bounds what any SOD escape point can reach there (the survey
//     behind QNNConfig's choices); PlateauQNNConfig keeps the earlier
//     defaults. The data ship as data/iris.csv (Fisher 1936, see
//     data/PROVENANCE.md), loaded by LoadIris with a SHA-256 check.
//
// The notebooks' own experiments: RunBasicFromStart (Fig. 2 from one fixed
// start), RunEscapeWindows (Fig. "ablation" without the table's cells),
// RunDeltaSweep (GD success against the RIP constant δ of PMC), RunPZCurve
// (the Paley–Zygmund bound against the probability it bounds),
// RunVariantComparison with DefaultVariantComparisonConfig (escape variants
// side by side, one run per point, for prototyping; the benchmark that
// measures them is sod/escapebench: DefaultVariants, ExactRIPVariants,
// DefaultVariantOptions), LineFloor and SODFloors (brute-force floors of h on the SOD
// lines), ScaleMeasurements (the quadratic network under rescaled
// features), SaveStudy and LoadStudy (a study kept between notebook
// cells), StudyResult.EscapeTally and StudyResult.Cell,
// QNNConfig.Summary and LiftedPanels.BelowReference. Package
// sod/figures draws all of them.
//
// Helpers: the escape variant of the basic example and the study is
// sod.MultiStepAutoT, the paper's multi-step point with t chosen per
// stalled point by a sod.TRule (sod.AutoT, sod.FixedT); LogGrid builds log-spaced t grids for
// RunAblation and RunDescentScan; LoadIris checks the embedded data against
// IrisSHA256 (ErrChecksum). Progress reports, the text bar
// (batch.TextProgress), shards and the worker pool of the study are
// package sod/batch's.
//
// Config and result types (…Config, …Result, LossCurve,
// Path2D, Trajectory, EscapeSummary, …) are documented with the function
// that takes or returns them.
//
// # What the data show
//
// The experiments report what the mathematics gives, including where it
// differs from the paper: in the ablation table h(X̌) < h(X̂) holds in one
// cell only; on the real-world case study the escape point raises h and GD
// still reaches +z from it; the closed-form lifted curves and the exact
// subspace PGD part. In the quadratic network the paper's picture appears
// only in a narrow setting (width 1, a start from which GD ends at the
// spurious minimum, η capped so that the t grid is a real line search):
// there one SOD step leaves the spurious minimum and GD reaches the global
// one, while GD, Adam and the other line searches stay, but SGD does not
// stagnate; at the spurious minima of the other settings tried no SOD
// point lowers h (QNNConfig lists them).
//
// The repository's notebooks/REPRODUCTION.md states these findings (F8,
// F10, F12) with the tests and notebook sections that show them.
//
// # Drawing the results
//
// This package gives results only. Package sod/figures turns a result into
// the input of a chart of package widgets, once per figure; widgets draws
// that input interactively and widgets/plots draws the same input as a
// static figure. Floats is a []float64 that encodes non-finite values as
// JSON null.
package experiments
