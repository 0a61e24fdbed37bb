// Package sod implements the matrix-sensing model and the Simulated
// Over-parameterization Descent (SOD) escape of
//
//	Escaping Local Minima Provably in Non-convex Matrix Sensing:
//	A Deterministic Framework via Simulated Lifting.
//
// # Figures and tables → API
//
// Where the data of each figure and table of the paper come from (package
// sod, or the sibling package sod/experiments for whole experiments):
//
//   - Fig. taxonomy, Fig. matrix_tensor: schematics, no data.
//   - Fig. basic_example (Fig. 2): experiments.RunBasicExample on
//     BasicExampleProblem (x̂ = BasicExampleXHat), with GradientDescent, SGD
//     and RunEscape.
//   - Fig. r1_r2 (escape zones): Radii (r₁, r₂), PaleyZygmund (which zone a
//     point is in, PZCase), PZBound and MonteCarloEFS (P(EFS > 1)).
//   - Fig. simulation (TPGD on the basic example): NewTPGDFromCritical,
//     then TPGDClosedForm.Coefficients and TermNorms against t, the lifted
//     objective with NewPaperSubspace and LiftedSubspace.LogObjective, and
//     CompareTPGD beside the exact SubspacePGD.
//   - Fig. quadratic_funcs (the quadratic inequality): SingleStep
//     (C₁, C₂, C₃, Δ, ρ̂₁, ρ̂₂) and its exact counterpart
//     SingleStepResult.Exact (ExactLine).
//   - Fig. sod-escape (the escape along the SOD direction):
//     TPGDClosedForm.EscapePoint (BetaScale, GammaScale) and MultiStepSOD.
//   - Fig. ablation (U_β and U_γ against l and t): TPGDClosedForm.UBeta,
//     UGamma, RhoMin, Thresholds; TPGDConditions for the conditions on l.
//   - Table ablation: experiments.RunAblation (TPGDClosedForm.Select,
//     EscapePoint and EscapeDistances per cell, plus the descent check).
//   - Fig. exp2 (PMC) and Fig. exp3 (real-world): experiments.RunCaseStudy
//     on PMCCaseStudyProblem and RealWorldProblem, via RunEscape with
//     MultiStepSOD.
//   - Fig. numerical_study: experiments.RunStudy on problems with
//     NewPMCOperator.
//   - Fig. quadratic_nn: experiments.RunQNN on NewDataPointsOperator, with
//     SGD, Adam, SODLineSearch, RandomLineSearch and NegGradLineSearch;
//     experiments.RunQNNScan for where GD stalls.
//
// Names tell the kind: a function ending in Problem returns a *Problem,
// one ending in Operator (or NewXOperator) an Operator, XHat a spurious
// point X̂ and Instance an *Instance (problem and point together); whole
// experiments are experiments.RunX. The numbers the paper prints (the case
// settings, its δ, the ablation table) are data in package sod/paper, which
// this package reads rather than types again.
//
// The package follows the paper's notation. The conventions that reproduce
// the paper's numbers (C1–C10) and the places where the paper's claims do
// not hold (F1–F12) are set out, each with its evidence, in the
// repository's notebooks/REPRODUCTION.md, which `reproduce report`
// (sod/cmd/reproduce) generates; doc comments cite them as
// "REPRODUCTION.md C4" or "F10" where they matter. Indices in the API are
// 0-based.
//
// # Section 1.1: matrix sensing (problem P1)
//
// A sensing operator 𝒜(M)_i = ⟨A_i, M⟩ with symmetric A_i is an Operator
// (Apply = 𝒜, Adjoint = 𝒜*); NormalOperator adds a fast 𝒜*𝒜. Optional
// interfaces SensingMatrixer and XiSquarer expose A_i and Ξ² = max_i ‖A_i‖₂²
// (SensingMatrix and XiSquared work for any Operator). Operators provided:
//
//   - NewDenseOperator: explicit symmetric matrices, validated.
//   - BasicExampleOperator, BasicExampleProblem, BasicExampleXHat:
//     eq. basic_example.
//   - RealWorldOperator, RealWorldProblem, RealWorldXHat: Appendix case 2,
//     eq. sensing-matrices-real-world, x̂ as printed.
//   - NewPMCOperator (a PMCOperator), PMCCaseStudyProblem,
//     PMCCaseStudyXHat: perturbed matrix completion (Appendix case 1,
//     eq. pmc_data), elementwise and O(n²) per product.
//   - NewGaussianOperator: the Gaussian ensemble of section 4.3
//     (eq. gaussian_ensemble), seeded.
//   - NewDataPointsOperator: A_i = x_i x_iᵀ, the quadratic network of section 6.3.
//
// BasicExample, PMCCase and RealWorldCase are the three instances of
// section 6.1 at their spurious points, each an Instance with the (l, t)
// of its multi-step escape and the RIP constants δ it is evaluated with;
// PaperInstances lists them in that order;
// DesignedSaddleInstance (EFS > 1 at a strict saddle) and
// GaussianSpuriousInstance (the "Case 1" sign pitfall) are two small
// instances for section 4.
//
// A Problem holds 𝒜, b, the search rank r and (when known) Z and M* = ZZᵀ
// (NewProblem from a ground truth Z, NewProblemFromMeasurements from b).
// Problem.H is h(X) = ½‖𝒜(XXᵀ) − b‖² (eq. matrix_objfunc), Problem.Grad is
// ∇h(X) = 2∇f(XXᵀ)X (eq. matrix_gradient), Problem.GradF is
// ∇f(M) = 𝒜*(𝒜(M) − b), Problem.HessVec and Problem.Hessian give
// second-order information and Problem.DistStar is ‖XXᵀ − M*‖_F.
// GradientDescent runs X ← X − η∇h(X) with a trace, stagnation and
// divergence detection (section 6 experiments); GDResult.Stop (a
// StopReason) says why it stopped. GDOptions, SGDOptions and AdamOptions
// share the embedded Iteration (step, iteration cap, trace,
// DefaultDivergenceLimit).
//
// Structured path (beyond the paper). PMC's squared weights are all ones
// minus a rank-one term plus a diagonal, so with a known low-rank M* = ZZᵀ
// a Problem evaluates h, ∇h and ‖XXᵀ − M*‖_F from n×(r + k) factors in
// O(n(r + k)²) (structured.go: a QR of the parity blocks of [X Z] keeps h
// accurate near the minimum); at r = k = 1 GradientDescent steps between
// trace points in one pass over the rows (gdlane.go, internal/kernel: the same
// iterates to the bit; 0.4–0.6 of an evaluation per step for n ≥ 1000,
// PERFORMANCE.md), and AnalyzeCritical finds λ_n, u_n by Lanczos
// iterations (lanczos.go) above StructuredCriticalMinN. Above
// DenseHessianMaxSize (nr) AnalyzeCritical, for every problem, takes
// λ_min(∇²h) from HessianMinEig instead of the nr×nr Hessian
// (CriticalOptions.Hessian keeps the dense one available). NewProblem
// chooses it automatically (Problem.Structured; Problem.DensePath for the
// O(n²) path); PMC problems then work up to n = MaxPMCSize without any
// n×n array, all others up to MaxDenseSize.
//
// Definition "RIP" (δ_p), returned as a RIPEstimate (RIPEstimate.Method
// says which): RIPSample (random
// rank-p matrices, an inner estimate), RIPOptimize (Nelder–Mead over rank-p
// factors, usually sharp) or RIPExact (all symmetric matrices, small n).
// REPRODUCTION.md C4: the paper never states p; δ enters only EFS/NCM/AIC,
// ρ̂, r₁, r₂ and the conditions on l.
//
// # Sections 3–4: spurious minima and single-step SOD
//
// AnalyzeCritical computes at a point X̂ the quantities of section 3:
// ‖∇h‖_F, λ_1 ≥ … ≥ λ_n and u_n of ∇f(X̂X̂ᵀ), σ_r, v_r, q_r of X̂,
// E = 𝒜*𝒜(u_n v_rᵀ + v_r u_nᵀ), E X̂, ⟨E, u_n u_nᵀ⟩, Ξ², m and the smallest
// Hessian eigenvalue. CriticalPoint documents the sign convention of u_n
// and (v_r, q_r); CriticalPoint.CheckSpurious tests for a spurious minimum.
//
// SingleStep implements section 4.2 (Proposition escape_inequality,
// Definition EFS, eq. root1_root2 and Theorem single-step-sod-formal):
// NCM, AIC, EFS, C₁, C₂, C₃, the discriminant Δ, the interval (ρ̂₁, ρ̂₂),
// the candidate X̌ = X̂ + ρ̂ u_n q_rᵀ and an exact, RIP-free check of
// h(X̌) < h(X̂). The paper's Case 1 (−X̂ + ρ̂u_nq_rᵀ) is the mirror point
// and is not used (REPRODUCTION.md F4); no escape is reported when EFS ≤ 1.
// SingleStep's doc proves (and a test checks) that EFS ≤ 1 at every local
// minimum when δ is a valid RIP constant for rank ≤ 2, so a certified
// single-step escape needs a saddle or an invalid δ.
//
// SingleStepResult.Exact (an ExactLine) is the RIP-free quartic of h along
// the same line. DefaultSpuriousGradTol is the gradient tolerance of
// CriticalPoint.CheckSpurious.
//
// Section 4.3 (probabilistic escape analysis): SMoments gives the moments
// of S_𝒜(P, Q) under the Gaussian ensemble, AICMoments those of AIC,
// PZBound the Paley–Zygmund
// bound (1−θ)² m/(3(m+2)), Radii the radii r₁ and r₂ (defs. r_1, r_2),
// PaleyZygmund the case of a given point, SampleS and MonteCarloEFS seeded
// Monte Carlo estimates to set beside the closed forms.
//
// # Section 5: multi-step SOD
//
// The paper's closed form and the exact dynamics differ (REPRODUCTION.md
// F10); the package offers both, named apart.
//
// TPGDClosedForm (NewTPGDClosedForm, NewTPGDFromCritical; CheckTPGDParams
// checks odd l ≥ 3 and ρ, η ∈ (0, 1)) is the paper's
// Lemma "Closed-Form Coefficient Dynamics": α̃ = 1, β̃(t) = ρQ^t,
// γ̃(t) = −(ρη/2^{l−1}) S_t σ_r^l with Q = 1 − ηλ_n^l, all in the log domain
// (LogScalar), so no int64 t gives Inf or NaN. It gives ρ_min
// (eq. u_beta_validity), U_β and U_γ (eqs. u_beta, u_gamma) with the edge
// cases K_l ≥ 1 (U_γ = ∅, U_β unbounded) and ρ_min ≥ 1 (U_β = ∅), the
// selection rule that reproduces the ablation table (Select: β-type in U_β,
// else γ-type in U_γ, else none), the escape points of eqs. x_check_beta and
// x_check_gamma (EscapePoint, BetaScale, GammaScale; ErrScaleOverflow rather
// than Inf) and EscapeDistances (eq. escape_ratio). TPGDConditions (or
// TPGDConditionsAt, from a critical point) reports
// the strict-saddle band (eq. strict_saddle_condition) and the bounds on l
// (eqs. l_condition, u_beta_validality_l) as holds/fails with their numbers.
//
// LiftedSubspace (NewLiftedSubspace) evaluates the lifted objective h^l of eq.
// tensor_objfunc_h (no ½) and its gradient projected on rank-1 directions
// for w in S = span{vec(Y_j)^{⊗l}}, with m-vectors only; LogObjective never
// overflows. SubspacePGD (NewSubspacePGD) is the exact projected gradient descent inside S
// (Algorithm TPGD without truncation), the dynamics panels (d) and (e)
// describe; NewPaperSubspace builds S = span{a, b, c} (eq. tensor_subspace)
// and CompareTPGD sets it beside the closed form. ExplicitLifting
// (NewExplicitLifting) does the
// lifting with dense (nr)^l tensors (refused above ExplicitMaxBytes); it
// exists to check the closed forms and to measure what simulation saves
// (ExplicitBytes is the memory it would need; ErrTooLarge above
// ExplicitMaxBytes).
//
// # Section 6: the escape loop and baselines
//
// RunEscape runs GD → stall → escape → GD with any Escaper, verifies that
// an accepted candidate lowers h (a candidate that does not is reported in
// the EscapeRecord, and used only with AllowAscent, flagged) and records the
// global trace, the GD phases and every candidate. A variant that fails
// (Propose returns an error) does not lose the run: the failure is
// recorded in EscapeRecord.Err and EscapeRun.Err and the run ends at GD's
// point with Outcome EscapeError. A panic in Propose is a bug of the
// variant and no outcome: RunEscape returns an error wrapping
// ErrEscaperPanic that names the variant and holds the panic value and the
// stack. EscapeRun.Outcome (an Outcome) says how a run
// ended and CandidateResult.Reason (a Rejection) why a candidate was not
// used. An Escaper's Propose gets the run's context and an EscapeState
// (the stalled point, h, the round and the analysed critical point).
// Built-in variants:
// SingleStepSOD, MultiStepSOD (the paper's β/γ point at given l, t),
// ExactSubspaceSOD (the same idea on the exact subspace dynamics; not the
// paper's method), SODLineSearch (SOD as a deterministic line search over
// the β and γ directions, section 6.3; GrowthQ caps η so that the t grid
// has a usable resolution), PerturbedGD (Jin et al.), RandomLineSearch
// and NegGradLineSearch, each in a file of its own with its Validate and
// its settings table. As gonum's settings, the zero value of every escaper
// is its documented default (&SODLineSearch{} is l = DefaultLiftingOrder,
// ρ = DefaultSODRho, η = DefaultSODEta; every exported field says what
// zero means), and the Default constructors (DefaultSingleStepSOD,
// DefaultMultiStepSOD, DefaultSODLineSearch, DefaultExactSubspaceSOD,
// DefaultPerturbedGD, DefaultRandomLineSearch) are that zero value with
// the few settings they name. The table (Configurable.Params,
// settings.go) is the one source for listing (EscaperParams, for results
// files), parsing (Configure, FindParam: "l=3", case and '_' folded, a
// key given twice refused) and naming a configuration. EscapeFunc turns
// a function into a variant in a few lines. SGD (seeded
// minibatch over measurements) and Adam are the baselines.
//
// Option and result types (…Options, …Result, Trace, Candidate,
// EscapeState, StepInterval, …) are documented with the function that
// takes or returns them.
//
// # Overflow and subnormal numbers
//
// At a finite X too large for float64, H and DistStar return +Inf, and
// Grad, GradF and HessVec infinite entries (+Inf where a sum overflowed
// with both signs, ∞ − ∞), on the structured and the dense path at every
// rank: never NaN (TestOverflowNeverNaN). GradientDescent ends such a run
// with StopDiverged at the last iterate below the limit.
//
// Gradient descent's iterates may decay toward zero (the unobserved
// coordinates at the benchmark's spurious points shrink geometrically).
// Below 2⁻¹⁰²² ≈ 2.2e-308 a float64 is subnormal, and on many Intel cores
// every operation on a subnormal operand or result takes a microcode
// assist of about 100 cycles. So GradientDescent keeps subnormal numbers
// out of its arithmetic by one rule, applied to its start and to every
// step on every path (the SSE2 kernel and its pure-Go twin alike, the
// two-pass r = 1 step, the other ranks, the dense path): a coordinate of
// X whose magnitude is below 2⁻²⁵⁰ ≈ 5.5e-76 is stored as +0. Every
// coordinate is then 0 or at least 2⁻²⁵⁰, so its square, cube and fourth
// power are normal numbers, and a long run from decaying coordinates
// performs no operation on a subnormal number (TestGDNoSubnormal counts
// them, independently of the CPU: 0 in 3000 steps at n = 1000 r = 1, and
// over 500,000 without the rule). The bound on the change: each flush
// moves one coordinate by less than 2⁻²⁵⁰, so X by less than
// √(nr)·2⁻²⁵⁰ per step; the reported h, ‖∇h‖_F and ‖XXᵀ − M*‖_F differ
// from those of the unflushed computation by at most a relative 1e-12 of
// their value or of ‖Z‖_F², ‖Z‖_F⁴, ‖Z‖_F³ (the scale of their rounding
// errors), and the coordinates of X by less than 2⁻²⁵⁰ or a relative
// 1e-12 (TestGDFlushBound; the largest differences seen are 1.5e-15 and
// 1.2e-16). The rule holds for data of ordinary scale (ε, the step and
// the entries of Z within about 2^±100 of 1); the evaluation methods of
// Problem compute on X as given.
//
// # Cancellation
//
// Every function that can run long takes a context.Context as its first
// argument and stops with an error wrapping ctx.Err() once it is done:
// GradientDescent, SGD, Adam, RunEscape (and through it Escaper.Propose),
// SubspacePGD.Run, CompareTPGD, ExplicitLifting.PGD, RIPSample,
// RIPOptimize, SampleS and MonteCarloEFS. No option struct holds a
// context.
//
// # Typed results
//
// StopReason, Outcome, Rejection, RIPMethod, EscapeKind, AcceptRule and
// PZCase are integer enumerations with a String method; the first five
// also implement encoding.TextMarshaler and TextUnmarshaler, so JSON
// holds their words ("solved", "no-descent", "β", …).
//
// # Errors
//
// Constructors and entry points return errors wrapping the sentinels
// ErrShape, ErrNotSymmetric, ErrNotFinite, ErrNoMeasurements,
// ErrBadParameter, ErrDelta, ErrRankDeficient, ErrNotSpuriousMinimum,
// ErrNoGroundTruth, ErrFactorization and ErrTooLarge (and ErrScaleOverflow
// for escape points beyond float64, ErrEscaperPanic for a panic in an
// Escaper's Propose); they never panic on bad input
// and never return NaN. The low-level evaluation methods of Problem (H,
// Grad, GradF, HessVec, DistStar) follow gonum/mat and panic on mismatched
// dimensions; check untrusted input with Problem.CheckX. The built-in
// escapers check their settings in their Validate method, beside their
// type, with rules shared in one place (escapersettings.go: lifting order
// and steps, step lists finite and positive, growth factors above 1,
// counts with the MaxCandidates size guard, known enumeration values), which RunEscape calls before any work,
// as it calls EscapeOptions.Validate; ValidateEscaper is the same check for
// code that holds an Escaper (the experiment configs).
//
// # Randomness
//
// Every random function and escaper takes an explicit uint64 seed (a
// parameter seed, a field Seed), never a rand.Source, and draws from the
// generator sod/randstream makes from that seed and the function's named
// stream (math/rand/v2's PCG), so results are reproducible and can be
// recorded; the package doc of sod/randstream gives the convention.
//
// # Version
//
// Version, ModulePath and BuildInfo identify the library in notebook
// outputs.
package sod
